"""The zygote: a bot's interpreter started once in its strict sandbox, which
forks a fresh bot for every seating's block of deals (``docs/sandbox.md``,
"The zygote"; the referee's side is :mod:`arena.sandbox.zygote`).

Run as ``python -S zygote.py CONTROL SITES PRELOAD KIT-ARGUMENTS...`` in the bot's
bubblewrap view, as root with its capabilities (each child mounts its own
folders and drops its privileges) and without seccomp.  Before any fork it
runs only the arena's code: the bot kit, and with ``PRELOAD`` 1 (a built-in
bot: trusted code) the bot's module.  A submitted bot's code never runs here:
``-S`` leaves even the site folders' ``.pth`` files, which a distribution can
fill with code, to the child.

For each request on its control socket (a msgpack map, and as descriptors the
bot's three pipe ends, a status socket and its cgroups' ``cgroup.procs``) it
forks a monitor, which enters new namespaces (mount, pid, ipc, network, uts:
the request says) and forks the bot, pid 1 there.  The bot joins its cgroups,
says ``j`` on the status socket (which carries its credentials: the referee
learns its pid), closes every other descriptor, mounts its own ``/proc``,
``/tmp`` and ``/dev/shm``, drops to its uid under its rlimits with no
capabilities and the seccomp filter, and runs the kit's loop as
``python -m arena.botkit`` would.  The monitor reports its exit status
(``x`` and a native int) and exits.
"""

from __future__ import annotations

import ctypes
import gc
import os
import resource
import signal
import socket
import struct
import sys

# ``-S``: the site folders (the referee's, its run-time ones too: the second
# argument) are put on the path, but none of their ``.pth`` files run here
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STDLIB = sys.path[1:]
sys.path[:] = [ROOT, *STDLIB, *sys.argv[2].split(os.pathsep)]
import site  # noqa: E402

import msgpack  # noqa: E402

TYPE_CHECKING = False  # typing: annotations only, as in the kit
if TYPE_CHECKING:
    from typing import Any

from arena import botkit  # noqa: E402

STATUS = struct.Struct("i")
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
CLONE_NEWCGROUP = 0x02000000
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_SECCOMP = 1, 4, 22
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 24, 38
SECCOMP_MODE_FILTER = 2
READ_ONLY = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV

libc = ctypes.CDLL(None, use_errno=True)


class _Filter(ctypes.Structure):
    _fields_ = [("length", ctypes.c_ushort), ("program", ctypes.c_char_p)]


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


def _mount(source: str | None, target: str, kind: str | None, flags: int, data: str = "") -> None:
    _check(
        libc.mount(
            source and source.encode(),
            target.encode(),
            kind and kind.encode(),
            ctypes.c_ulong(flags),
            data.encode() or None,
        ),
        f"mount {target}",
    )


def _bind_read_only(source: str, target: str) -> None:
    _mount(source, target, None, MS_BIND | MS_REC)
    _mount(None, target, None, READ_ONLY)


#: the view's mount points, read once by the zygote: a child sees the same
#: until it mounts its own folders (read by each, they cost it 2 ms)
MOUNT_POINTS: list[str] = []


def _empty_bounding_set() -> None:
    """No capability a program any child runs could gain by exec (the
    zygote keeps its own: the bounding set bounds only what an exec grants)."""
    with open("/proc/sys/kernel/cap_last_cap") as f:
        last = int(f.read())
    for capability in range(last + 1):
        _check(libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0), "drop capabilities")


def _mount_points() -> list[str]:
    with open("/proc/self/mountinfo") as f:
        points = [line.split()[4] for line in f]
    return [point.encode().decode("unicode_escape") for point in points]


def _own_mounts(request: dict[str, Any]) -> None:
    """The bot's own ``/proc`` (of its pid namespace), and empty private
    folders; the read-only view under them (a site folder under ``/tmp``)
    bound again from descriptors kept across the new tmpfs."""
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    private = request["private"]
    under = [
        point for point in MOUNT_POINTS if any(point.startswith(folder + "/") for folder in private)
    ]
    tops = [p for p in under if not any(p.startswith(q + "/") for q in under if q != p)]
    kept = {path: os.open(path, os.O_PATH) for path in dict.fromkeys(tops)}
    for folder in private:
        _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, f"size={request['disk']},mode=1777")
    for path, fd in kept.items():
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            os.makedirs(path, mode=0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o444))
        _bind_read_only(f"/proc/self/fd/{fd}", path)
        os.close(fd)
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for path in request["proc_read_only"]:
        if os.path.exists(path):
            _bind_read_only(path, path)
    for path in request["proc_counters"]:
        if os.path.exists(path):
            _bind_read_only("/dev/null", path)
    for path in request["proc_folders"]:
        if os.path.isdir(path):
            _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4096")
            _mount(None, path, None, READ_ONLY)


def _drop_privileges(request: dict[str, Any]) -> None:
    """Rlimits, no capabilities (the zygote emptied the bounding set; the uid changes), no new
    privileges, the seccomp filter: what setpriv, prlimit and bubblewrap's
    ``--seccomp`` give a freshly started strict bot."""
    for number, value in request["rlimits"]:
        resource.setrlimit(number, (value, value))
    uid = request["uid"]
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    _check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "death signal")
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no new privileges")
    program = request["filter"]
    if program:
        rules = _Filter(len(program) // 8, program)
        _check(
            libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(rules), 0, 0), "seccomp"
        )


def _bot(
    request: dict[str, Any], pipes: list[int], status: int, groups: list[int], kit: list[str]
) -> None:
    """The forked bot, pid 1 of its namespaces: never returns."""
    code = 125
    try:
        os.setsid()
        for target, fd in enumerate(pipes):
            os.dup2(fd, target)
        for fd in groups:
            os.write(fd, b"0")
        if request["own_cgroup"]:
            _check(libc.unshare(CLONE_NEWCGROUP), "unshare cgroup")
        os.write(status, b"j")
        os.closerange(3, 1 << 16)
        _own_mounts(request)
        os.chdir(request["home"])
        os.environ.clear()
        os.environ.update(request["environment"])
        _drop_privileges(request)
        if request.get("probe"):
            os._exit(0)
        sys.stdin = sys.__stdin__ = open(0, closefd=False)  # type: ignore[misc]  # noqa: SIM115
        sys.stdout = sys.__stdout__ = open(1, "w", closefd=False)  # type: ignore[misc]  # noqa: SIM115
        sys.stderr = sys.__stderr__ = open(2, "w", buffering=1, closefd=False)  # type: ignore[misc]  # noqa: SIM115
        sys.argv = [os.path.join(ROOT, "arena", "botkit", "__main__.py"), *kit]
        sys.path[:] = [request["home"], *STDLIB]
        site.main()  # the site folders' .pth files, as a fresh interpreter runs them
        code = 0
        botkit.main(kit)
    except SystemExit as end:
        code = 0 if end.code is None else end.code if isinstance(end.code, int) else 1
        if code == 1 and not isinstance(end.code, int):
            print(end.code, file=sys.stderr)
    except BaseException as error:
        code = 1 if code == 0 else code
        import traceback

        traceback.print_exception(error)
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        os._exit(code)


def _monitor(request: dict[str, Any], fds: list[int], kit: list[str]) -> None:
    """Between the zygote and the bot: enters the bot's namespaces, forks
    it, and reports its exit status.  Never returns."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    pipes, status, groups = fds[:3], fds[3], fds[4:]
    code = 125
    try:
        _check(libc.unshare(request["namespaces"]), "unshare")
        child = os.fork()
        if child == 0:
            _bot(request, pipes, status, groups, kit)
        for fd in pipes + groups:
            os.close(fd)
        code = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
    except OSError as error:
        os.write(pipes[2], f"arena zygote: {error.strerror or error}\n".encode())
    finally:
        try:
            os.write(status, b"x" + STATUS.pack(code))
        finally:
            os._exit(0)


def serve(control: socket.socket, kit: list[str]) -> None:
    """Fork a bot for every request until the referee closes the socket."""
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 1 << 16, 64)
        except OSError:
            return
        if not data:
            return
        if os.fork() == 0:
            control.close()
            _monitor(msgpack.unpackb(data), fds, kit)
        for fd in fds:
            os.close(fd)


def main() -> None:
    control = socket.socket(fileno=int(sys.argv[1]))
    preload, kit = sys.argv[3] == "1", sys.argv[4:]
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    _empty_bounding_set()
    MOUNT_POINTS[:] = _mount_points()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # monitors are reaped by the kernel
    if preload:
        saved = list(sys.path)
        if kit[0] == "--path":
            sys.path.insert(0, kit[1])
        try:
            __import__(kit[-1].partition(":")[0])
        except Exception:  # not loadable so: each child imports it, and says what fails
            pass
        sys.path[:] = saved
    gc.freeze()  # what is loaded stays shared with every child, untouched by their collector
    control.send(b"ready")
    serve(control, kit)


if __name__ == "__main__":
    main()
