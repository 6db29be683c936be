"""The basic level's namespaces, where bubblewrap is missing: util-linux's
``unshare`` gives a bot new pid, network, mount, ipc and uts namespaces (its
own ``/proc``, no network but a loopback that is down, the pid namespace's
end killing every process it left), and a shell in the new mount namespace
mounts a private, size-capped ``/tmp`` and ``/dev/shm`` before the bot
starts.  As root the kernel allows it outright; otherwise a user namespace
(the user mapped to root inside it) makes it possible where the kernel
allows unprivileged user namespaces.  :func:`available` asks the kernel once.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import stat
import subprocess
import sys

#: util-linux's setpriv, which drops a bot to its own uid
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"

UNSHARE = shutil.which("unshare") or "/usr/bin/unshare"
HOME = "/tmp"
#: run by ``sh`` inside the new mount namespace: ``$1`` is the size cap in bytes
TMPFS = 'mount -t tmpfs -o "size=$1,mode=1777,nosuid,nodev" tmpfs'
#: where the host's ``/tmp`` is seen while its kept paths are mounted back
HOST_TMP = "/dev/shm/.arena-host-tmp"
START_SCRIPT = 'cd /tmp && unset PWD OLDPWD && shift && exec "$@"'


def kept(argv: list[str]) -> list[str]:
    """The paths in the host's ``/tmp`` that a bot started by ``argv`` needs
    in its private one: each existing path ``argv`` names there, and where
    the command runs this interpreter from under ``/tmp`` (a checkout made
    there), its environment and import path.  Nothing else of the host's
    ``/tmp`` is shown."""
    named = [arg for arg in argv if arg.startswith("/tmp/") and os.path.exists(arg)]
    if named and any(os.path.realpath(arg) == os.path.realpath(sys.executable) for arg in argv):
        named += [path for path in (sys.prefix, *sys.path) if path.startswith("/tmp/")]
    paths = sorted({os.path.normpath(path) for path in named if os.path.exists(path)})
    return [p for p in paths if not any(p.startswith(q + "/") for q in paths if q != p)]


def _mount_script(keep: list[str]) -> str:
    """Mount the private ``/dev/shm`` and ``/tmp``, the ``keep`` paths of
    the host's ``/tmp`` bound back at their places (through the private
    ``/dev/shm``, where the host's ``/tmp`` is seen meanwhile); each new
    folder on their way is open to all, so a bot under its own uid reaches
    exactly them."""
    if not keep:
        return f"{TMPFS} /dev/shm && {TMPFS} /tmp || exit 125; "
    lines = [
        f"{TMPFS} /dev/shm && mkdir {HOST_TMP} && mount --rbind /tmp {HOST_TMP} && {TMPFS} /tmp"
    ]
    for path in keep:
        source, there = shlex.quote(HOST_TMP + path[len("/tmp") :]), shlex.quote(path)
        if os.path.isdir(path):
            lines.append(f"mkdir -p {there} && mount --rbind {source} {there}")
        else:
            folder = shlex.quote(os.path.dirname(path))
            lines.append(f"mkdir -p {folder} && : > {there} && mount --bind {source} {there}")
    lines.append(f"umount -l {HOST_TMP} && rmdir {HOST_TMP}")
    return " && ".join(lines) + " || exit 125; "


def unshare_argv(disk: int, keep: list[str] | None = None) -> list[str]:
    """The wrapper that starts the rest of the chain in new namespaces, a
    private ``/tmp`` of ``disk`` bytes its working folder, with the
    ``keep`` paths of the host's ``/tmp`` (:func:`kept`) bound back.
    ``--kill-child``: the bot's namespace dies with the ``unshare`` the
    referee started.  As root (the bot then runs under a uid of its own)
    the interpreter is made reachable where it lies in a folder closed to
    other users (:func:`_reach_script`)."""
    flags = [
        "--pid",
        "--fork",
        "--kill-child",
        "--mount-proc",
        "--net",
        "--mount",
        "--ipc",
        "--uts",
    ]
    script = _mount_script(keep or [])
    if os.geteuid() != 0:
        flags = ["--user", "--map-root-user", *flags]
    else:
        script += _reach_script()
    script += START_SCRIPT
    return [UNSHARE, *flags, "--", "/bin/sh", "-c", script, "arena-basic", str(disk)]


def names_private(argv: list[str]) -> bool:
    """Whether ``argv`` names a file in the host's ``/dev/shm``, which a
    private ``/dev/shm`` would hide: such a bot runs without these
    namespaces (in a private folder of the host's, under its own uid).
    Paths in the host's ``/tmp`` are bound back instead (:func:`kept`)."""
    return any(arg.startswith("/dev/shm/") for arg in argv)


def _closed_folder(path: str) -> str | None:
    """The first folder on the way to ``path`` that other users may not pass
    (``/root``, mode 0700), or None."""
    folder = "/"
    for part in path.strip("/").split("/")[:-1]:
        folder = os.path.join(folder, part)
        try:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return folder
        except OSError:
            return None
    return None


def _interpreter_closed() -> str | None:
    """The folder closed to other users that the interpreter lies in, or None."""
    return _closed_folder(os.path.join(os.path.realpath(sys.base_prefix), "bin"))


def uid_possible(private: bool | None = None) -> bool:
    """Whether a bot at the basic level can run under a uid of its own: the
    arena is root and has setpriv, and the interpreter is open to other
    users or these namespaces (``private``: used for the bot; None: where
    available) can reach it (:func:`_reach_script`)."""
    return (
        os.geteuid() == 0
        and os.path.exists(SETPRIV)
        and ((available() if private is None else private) or _interpreter_closed() is None)
    )


@functools.lru_cache(maxsize=1)
def _reach_script() -> str:
    """Shell lines run as root in the bot's new mount namespace: the
    interpreter's installation (its prefix: binary, standard library,
    libpython) is set aside (in the bot's private ``/tmp``, mounted already),
    an empty folder open to all is mounted over the closed folder it lies
    in, and the installation is moved back into it --
    so a bot under its own uid can run Python from under ``/root`` and sees
    nothing else there.  Empty where nothing is closed."""
    prefix = os.path.realpath(sys.base_prefix)
    closed = _interpreter_closed()
    if closed is None:
        return ""
    stash, there = "/tmp/.arena-interpreter", shlex.quote(prefix)
    return (
        f"mkdir -p {stash} && mount --bind {there} {stash} && "
        f"mount -t tmpfs -o mode=0755,size=64k tmpfs {shlex.quote(closed)} && "
        f"mkdir -p {there} && mount --move {stash} {there} && rmdir {stash} || exit 125; "
    )


@functools.lru_cache(maxsize=1)
def available() -> bool:
    """Whether this kernel lets :func:`unshare_argv` run here."""
    if not os.path.exists(UNSHARE):
        return False
    try:
        probe = subprocess.run(
            [*unshare_argv(1 << 20), "/bin/true"], capture_output=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0
