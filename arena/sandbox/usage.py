"""What a process has had of the machine: CPU time, and time it waited for a CPU.

The referee charges a bot for its own time, not for the time a loaded machine
kept it off the CPU (docs/protocol.md, "Time").  Linux says both per task in
``/proc/<pid>/schedstat`` (nanoseconds on the CPU, nanoseconds runnable but
waiting on a run queue); the CPU time of a whole tree comes from the bot's
cgroup where it has one (every process that ever joined, the exited and the
escaped ones included), else from ``/proc/<pid>/stat`` of its main process
(its threads, and the children it waited for).

The clock is read at least twice a move, so each file is opened once and
read again with ``pread`` (benchmarks/move_clock.py has the cost).  An open
``/proc/<pid>`` file stays bound to that process: once it is gone, reads fail
instead of reading a later process that got the same pid.
"""

from __future__ import annotations

import os
import threading
from typing import NamedTuple

_TICK = os.sysconf("SC_CLK_TCK")


class Usage(NamedTuple):
    """A snapshot: ``cpu`` seconds of work of the tree, and ``waited``
    seconds its main process was ready to run but given no CPU.  A tuple:
    two are made on every move, so they are made cheaply."""

    cpu: float = 0.0
    waited: float = 0.0


class StatFile:
    """A small /proc or cgroup file, opened once and read again and again."""

    def __init__(self, path: str):
        self.path = path
        self._fd: int | None = None

    def read(self) -> bytes | None:
        """Its current bytes (not decoded: the numbers parse from bytes as
        well, a few microseconds less per look); None if it cannot be read
        (the process is gone)."""
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            return os.pread(self._fd, 4096, 0)
        except OSError:
            return None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def schedstat_waited(text: bytes | None) -> float:
    """Seconds on a run queue, from a ``schedstat`` text (0 if none)."""
    if text is None:
        return 0.0
    try:
        return int(text.split(None, 2)[1]) / 1e9
    except (IndexError, ValueError):
        return 0.0


def stat_cpu(text: bytes | None) -> float:
    """CPU seconds of a process's threads and of its waited-for children,
    from a ``/proc/<pid>/stat`` text (clock ticks; 0 if none)."""
    if text is None:
        return 0.0
    try:
        fields = text.rsplit(b")", 1)[1].split()
        return sum(int(x) for x in fields[11:15]) / _TICK  # utime stime cutime cstime
    except (IndexError, ValueError):
        return 0.0


_own = threading.local()


def waited() -> float:
    """Seconds the calling thread spent runnable on a run queue."""
    try:
        file = _own.file
    except AttributeError:
        file = _own.file = StatFile("/proc/thread-self/schedstat")
    return schedstat_waited(file.read())


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (every thread's)."""
    found: list[int] = []
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in threads:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                found += [int(x) for x in f.read().split()]
        except (OSError, ValueError):
            continue
    return found
