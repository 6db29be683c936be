"""Pre-forked strict sandboxes: a zygote per bot and referee process, which
forks each fresh bot at the cost of a fork instead of a new interpreter in a
new sandbox (``docs/sandbox.md``, "The zygote"; the zygote's own side is
:mod:`arena.botkit.zygote`).

A zygote is started, once, in the bubblewrap view its bot would get, and is
asked to fork a child for every start.  The child is as fresh and isolated
as a freshly started bot: its own mount, pid, ipc, network and uts
namespaces (no path, pid, socket or IPC object of a sibling or of its zygote
is there to reach), its own ``/proc``, ``/tmp`` and ``/dev/shm``, its own
uid, cgroups (its time, memory and processes are its own) and rlimits, no
descriptor but its three pipes, and the seccomp filter.  What it does share
with its siblings is what the zygote did before forking, read-only (copy on
write): the arena's kit, and for a built-in bot its module.  A submitted
bot's code never runs before the fork.

Only a Python bot run by the kit is forked, in the strict sandbox as root
with bubblewrap, seccomp and the pids and memory cgroups; any other start,
or a zygote that cannot start or fork here, is a fresh start as before.
"""

from __future__ import annotations

import atexit
import logging
import os
import select
import site
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections import OrderedDict
from typing import IO, Any

import msgpack

from arena.sandbox import bubblewrap, seccomp
from arena.sandbox.limits import ResourceLimits
from arena.sandbox.uids import UidLease
from arena.sandbox.view import ARENA, run_time_sites, view_for

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
#: what every child has of its own (module state: the tests' controls take one away)
CHILD_NAMESPACES = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS
#: the folders every child gets empty (module state, as above)
PRIVATE_FOLDERS: tuple[str, ...] = (bubblewrap.HOME, "/dev/shm")
#: what bubblewrap's ``--proc`` makes read-only, done again on a child's own ``/proc``
PROC_READ_ONLY = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus")
SCRIPT = os.path.join(ARENA, "botkit", "zygote.py")
#: how long a zygote may take to load, and a child to report
READY_WAIT = 30.0
#: zygotes kept per referee process, the least recently used closed first
KEPT = 16
STATUS = struct.Struct("i")
CREDENTIALS = struct.Struct("3i")

log = logging.getLogger(__name__)


class ZygoteError(RuntimeError):
    """A zygote could not start or fork (the bot is then started afresh)."""


def kit_arguments(argv: list[str]) -> list[str] | None:
    """The bot kit's arguments if ``argv`` is ``python -m arena.botkit
    [--path FOLDER] module:Class`` (what a zygote can fork), else None."""
    if argv[:3] != [sys.executable, "-m", "arena.botkit"]:
        return None
    rest = argv[3:]
    if (len(rest) == 3 and rest[0] == "--path") or len(rest) == 1:
        return rest if ":" in rest[-1] else None
    return None


class ForkedBot:
    """A bot forked by a zygote, with what the referee uses of a
    ``subprocess.Popen``: its three pipes, its pid, ``poll`` and ``wait``.
    Its status socket says when it has joined its cgroups (and, by the
    credentials the kernel attaches, its pid on this host) and how it ended."""

    def __init__(self, pipes: tuple[int, int, int], status: socket.socket):
        # closed by the referee, as a Popen's pipes are
        self.stdin: IO[bytes] = open(pipes[0], "wb")  # noqa: SIM115
        self.stdout: IO[bytes] = open(pipes[1], "rb")  # noqa: SIM115
        self.stderr: IO[bytes] = open(pipes[2], "rb")  # noqa: SIM115
        self.returncode: int | None = None
        self._status = status
        self._joined = False
        self._pid: int | None = None

    @property
    def pid(self) -> int | None:
        """Its pid once it is in its cgroups (waited for): None if it ended first."""
        deadline = time.monotonic() + READY_WAIT
        while not self._joined and self._receive(deadline - time.monotonic()):
            pass
        return self._pid

    def joined(self) -> int | None:
        """Its pid if it has said it joined its cgroups, without waiting."""
        while not self._joined and self._receive(0):
            pass
        return self._pid

    def _receive(self, timeout: float | None) -> bool:
        """Take one status message, waiting up to ``timeout`` seconds (None:
        forever); False when none came, or none will come."""
        if self.returncode is not None:
            return False
        if timeout is not None and timeout < 0:
            timeout = 0
        if not select.select([self._status], [], [], timeout)[0]:
            return False
        try:
            data, ancillary, _, _ = self._status.recvmsg(16, socket.CMSG_SPACE(CREDENTIALS.size))
        except OSError:
            data, ancillary = b"", []
        if data == b"j":
            self._joined = True
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    self._pid = CREDENTIALS.unpack(payload[: CREDENTIALS.size])[0] or None
        else:  # its exit status; nothing: its zygote died, and it with it
            self._joined = True
            ended = data[:1] == b"x" and len(data) == 1 + STATUS.size
            self.returncode = STATUS.unpack(data[1:])[0] if ended else -9
        return True

    def poll(self) -> int | None:
        while self._receive(0):
            pass
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.returncode is None:
            left = None if deadline is None else deadline - time.monotonic()
            timed_out = (left is not None and left <= 0) or not self._receive(left)
            if timed_out and self.returncode is None:
                raise subprocess.TimeoutExpired("a bot forked by its zygote", timeout or 0)
        return self.returncode

    def close(self) -> None:
        self._status.close()


class Zygote:
    """One bot's zygote: started in its view, then asked for children."""

    def __init__(
        self, argv: list[str], files: tuple[str, ...], preload: bool, environment: dict[str, str]
    ):
        kit = kit_arguments(argv)
        if kit is None:
            raise ZygoteError(f"{argv[0]!r} is not run by the bot kit")
        self._control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        self._base: dict[str, Any] = {
            "home": bubblewrap.HOME,
            "environment": environment,
            "namespaces": CHILD_NAMESPACES,
            "private": list(PRIVATE_FOLDERS),
            "proc_read_only": list(PROC_READ_ONLY),
            "proc_counters": list(bubblewrap.PROC_COUNTERS),
            "proc_folders": list(bubblewrap.PROC_FOLDERS),
            "filter": seccomp.filter_program(),
            "own_cgroup": True,
        }
        command = bubblewrap.bwrap_argv(
            argv, ResourceLimits().disk, environment, None, False, files, capabilities=True
        )
        sites = os.pathsep.join(site.getsitepackages() + run_time_sites())
        script = [sys.executable, "-S", SCRIPT, str(theirs.fileno()), sites, "01"[preload], *kit]
        try:
            self.popen = subprocess.Popen(
                command + script,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._log,
                pass_fds=(theirs.fileno(),),
                start_new_session=True,
            )
        except OSError as error:
            self._control.close()
            raise ZygoteError(f"cannot start: {error.strerror or error}") from None
        finally:
            theirs.close()
        self._control.settimeout(READY_WAIT)
        try:
            ready = self._control.recv(16)
        except OSError:
            ready = b""
        self._control.settimeout(None)
        if ready != b"ready":
            said = self._said()
            self.close()
            raise ZygoteError(f"did not start: {said}")
        self._probe()

    def _said(self) -> str:
        self._log.seek(0)
        lines = self._log.read(1 << 16).decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"exit code {self.popen.poll()}"

    def _probe(self) -> None:
        """Fork one child that sets up all it would and exits: where this
        machine refuses a step, bots are started afresh instead."""
        lease = UidLease.acquire()
        try:
            child = self.fork(lease.uid, [], ResourceLimits(), probe=True)
            try:
                code: int | None = child.wait(READY_WAIT)
                said = child.stderr.read(1 << 12).decode(errors="replace").strip()
            except subprocess.TimeoutExpired:
                code, said = None, "it did not report in time"
            for stream in (child.stdin, child.stdout, child.stderr):
                stream.close()
            child.close()
        finally:
            lease.release()
        if code != 0:
            self.close()
            raise ZygoteError(f"its child cannot be set up: {said or f'exit code {code}'}")

    def fork(
        self, uid: int, groups: list[str], limits: ResourceLimits, probe: bool = False
    ) -> ForkedBot:
        """A fresh bot under ``uid`` in the cgroups whose ``cgroup.procs``
        are ``groups``, under ``limits``."""
        request = dict(
            self._base,
            uid=uid,
            disk=limits.disk,
            rlimits=[[_rlimit(name), value] for name, value in limits.rlimits(True).items()],
            probe=probe,
        )
        stdin, stdout, stderr = os.pipe(), os.pipe(), os.pipe()
        status, their_status = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        status.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        theirs = [stdin[0], stdout[1], stderr[1], their_status.fileno()]
        try:
            theirs += [os.open(path, os.O_WRONLY | os.O_CLOEXEC) for path in groups]
            socket.send_fds(self._control, [msgpack.packb(request)], theirs)
        except OSError as error:
            for fd in (stdin[1], stdout[0], stderr[0]):
                os.close(fd)
            status.close()
            raise ZygoteError(f"cannot fork: {error.strerror or error}") from None
        finally:
            their_status.close()
            for fd in theirs[:3] + theirs[4:]:
                os.close(fd)
        return ForkedBot((stdin[1], stdout[0], stderr[0]), status)

    def alive(self) -> bool:
        return self.popen.poll() is None

    def close(self) -> None:
        """End the zygote (and with it, its pid namespace: any child left)."""
        self._control.close()
        try:
            self.popen.wait(1)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
        self._log.close()


def _rlimit(name: str) -> int:
    import resource

    number: int = getattr(resource, f"RLIMIT_{name.upper()}")
    return number


#: a zygote is started at a bot's second start in this process: one that is
#: started once (a test, a single match) pays no zygote it never uses
STARTS_BEFORE = 1

_zygotes: OrderedDict[tuple, Zygote] = OrderedDict()
_refused: set[tuple] = set()
_starts: dict[tuple, int] = {}


def zygote_for(
    argv: list[str], files: tuple[str, ...], preload: bool, environment: dict[str, str]
) -> Zygote | None:
    """This process's zygote for the bot (started at its second start, see
    :data:`STARTS_BEFORE`); None before, or where one cannot start here
    (said once in the log)."""
    key = (tuple(argv), files, preload, view_for(argv, files), tuple(sorted(environment.items())))
    if key in _refused:
        return None
    if key not in _zygotes:
        _starts[key] = _starts.get(key, 0) + 1
        if _starts[key] <= STARTS_BEFORE:
            return None
    found = _zygotes.get(key)
    if found is not None and found.alive():
        _zygotes.move_to_end(key)
        return found
    if found is not None:
        forget(found)
    try:
        found = Zygote(argv, files, preload, environment)
    except ZygoteError as error:
        log.info("%s: no zygote, bots start afresh: %s", argv[-1], error)
        _refused.add(key)
        return None
    _zygotes[key] = found
    while len(_zygotes) > KEPT:
        _zygotes.popitem(last=False)[1].close()
    return found


def forget(zygote: Zygote) -> None:
    """Close a zygote that failed to fork (a new one starts on next use)."""
    for key, kept in list(_zygotes.items()):
        if kept is zygote:
            del _zygotes[key]
    zygote.close()


def close_all() -> None:
    while _zygotes:
        _zygotes.popitem()[1].close()


def _forget_inherited() -> None:
    """A forked referee starts with no zygote: its parent's are the parent's."""
    _zygotes.clear()
    _refused.clear()
    _starts.clear()


atexit.register(close_all)
os.register_at_fork(after_in_child=_forget_inherited)
