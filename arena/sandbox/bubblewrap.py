"""The bubblewrap layer: what a strict-sandboxed bot can see.

A fresh mount namespace with a read-only view of the system (``/usr``,
``/etc``), the Python that runs the bot and only the installed packages it may
import (:mod:`arena.sandbox.view`), and nothing else of the host: no home
folders, no other bot's files, no results store.  Machine-wide counters in
``/proc`` that another bot can move (load, memory, open files, locks) are
unreadable (``/dev/null`` bound on a nodev mount), and ``/sys`` is not there
at all.  Its own folder is a private, size-capped ``/tmp`` (also its
``HOME``), and ``/dev/shm`` is private and capped too.  New pid, network, ipc,
uts and cgroup namespaces: the bot sees only its own processes, has only a
loopback interface that is down, and dies with the referee.
"""

from __future__ import annotations

import functools
import os
import shutil

from arena.sandbox.view import view_for

BWRAP = shutil.which("bwrap")
SYSTEM = ("/usr", "/etc")
MERGED = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
HOME = "/tmp"
#: machine-wide counters another bot moves by working, forking, opening files
#: or allocating: a channel between bots at one table (made unreadable here)
PROC_COUNTERS = (
    "/proc/loadavg",
    "/proc/stat",
    "/proc/meminfo",
    "/proc/vmstat",
    "/proc/locks",
    "/proc/diskstats",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/schedstat",
    "/proc/zoneinfo",
    "/proc/buddyinfo",
    "/proc/pagetypeinfo",
    "/proc/uptime",
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/fs/dentry-state",
    "/proc/sys/kernel/random/entropy_avail",
    "/proc/sys/fs/aio-nr",
    "/proc/swaps",
    "/proc/cgroups",
    "/proc/key-users",
)
PROC_FOLDERS = ("/proc/pressure",)


def available() -> bool:
    return BWRAP is not None


def program() -> str:
    """What runs bubblewrap: its path, or its bare name when it is not installed
    (starting it then fails with the OSError :class:`BotProcess` reports)."""
    return BWRAP or "bwrap"


def _parents(paths: list[str]) -> list[str]:
    """Folders bubblewrap would otherwise create mode 0700 on the way to a
    bind (``/root`` here): made 0755 so a bot with its own uid can pass."""
    parents = set()
    for path in paths:
        parent = os.path.dirname(path)
        while parent not in ("/", ""):
            parents.add(parent)
            parent = os.path.dirname(parent)
    return sorted(parents - set(paths))


def bwrap_argv(
    argv: list[str],
    disk: int,
    environment: dict[str, str],
    seccomp_fd: int | None,
    user_namespace: bool,
    files: tuple[str, ...] = (),
    capabilities: bool = False,
) -> list[str]:
    """The bubblewrap command that runs ``argv``'s chain in the sandbox.

    ``user_namespace`` is for an arena not running as root (bubblewrap then
    needs one); as root the bot gets a uid of its own instead, outside any
    user namespace, so the host kernel's uid checks protect everyone.
    ``capabilities`` keeps root's capabilities inside, for a zygote
    (:mod:`arena.sandbox.zygote`), whose children drop them themselves.
    """
    command = [
        program(),
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
    ]
    if user_namespace:
        command += ["--unshare-user", "--disable-userns"]
    if capabilities:
        command += ["--cap-add", "ALL"]
    for path in SYSTEM:
        command += ["--ro-bind", path, path]
    for path in MERGED:
        if os.path.islink(path):
            command += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            command += ["--ro-bind", path, path]
    command += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--perms",
        "1777",
        "--size",
        str(disk),
        "--tmpfs",
        HOME,
        "--perms",
        "1777",
        "--size",
        str(disk),
        "--tmpfs",
        "/dev/shm",
    ]
    for path in PROC_COUNTERS:
        if os.path.exists(path):
            command += ["--ro-bind", "/dev/null", path]
    for path in PROC_FOLDERS:
        if os.path.isdir(path):
            command += ["--tmpfs", path, "--remount-ro", path]
    return (
        command + list(_view_argv(view_for(argv, files))) + _session_argv(environment, seccomp_fd)
    )


@functools.lru_cache(maxsize=256)
def _view_argv(view) -> tuple[str, ...]:
    """The mounts of a bot's read-only view: binds outside the masked site
    folders, the masks, the binds inside them, then other distributions'
    paths inside a bind hidden again.  Worked out once per view (views are
    values, made once per process and bot): a few hundred arguments whose
    folder walk every strict start-up would pay again (docs/performance.md)."""

    def inside(path: str, folders) -> bool:
        return any(path.startswith(folder + "/") for folder in folders)

    command = []
    for parent in _parents(list(view.binds)):
        if (
            parent not in (HOME, "/dev")
            and not inside(parent, view.binds)
            and parent not in view.binds
        ):
            command += ["--perms", "0755", "--dir", parent]
    later = [path for path in view.binds if inside(path, view.sites)]
    for path in view.binds:
        if path not in later:
            command += ["--ro-bind", path, path]
    for path in view.sites:
        command += ["--perms", "0755", "--tmpfs", path]
    for path in later:
        command += ["--ro-bind", path, path]
    for path in view.sites:
        command += ["--remount-ro", path]
    for path in view.masks:
        command += (
            ["--ro-bind", "/dev/null", path]
            if os.path.isfile(path)
            else ["--perms", "0755", "--tmpfs", path, "--remount-ro", path]
        )
    return tuple(command)


def _session_argv(environment: dict[str, str], seccomp_fd: int | None) -> list[str]:
    command = ["--chdir", HOME, "--clearenv"]
    for key, value in sorted(environment.items()):
        command += ["--setenv", key, value]
    if seccomp_fd is not None:
        command += ["--seccomp", str(seccomp_fd)]
    return command + ["--"]
