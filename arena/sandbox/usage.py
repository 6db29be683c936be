"""What a process has had of the machine: CPU time, and time it waited for a CPU.

The referee charges a bot for its own time, not for the time a loaded machine
kept it off the CPU (docs/protocol.md, "Time").  Linux says both per task in
``/proc/<pid>/schedstat`` (nanoseconds on the CPU, nanoseconds runnable but
waiting on a run queue); the CPU time of a whole tree comes from the bot's
cgroup where it has one (every process that ever joined, the exited and the
escaped ones included), else from ``/proc/<pid>/stat`` of its main process
(its threads, and the children it waited for).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

_TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Usage:
    """A snapshot: ``cpu`` seconds of work of the tree, and ``waited``
    seconds its main process was ready to run but given no CPU."""

    cpu: float = 0.0
    waited: float = 0.0


def waited(pid: int | str = "thread-self") -> float:
    """Seconds the task ``pid`` (default: the calling thread) spent runnable
    on a run queue; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def process_cpu(pid: int) -> float:
    """CPU seconds of process ``pid``'s threads and of its waited-for
    children (clock ticks); 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return sum(int(x) for x in fields[11:15]) / _TICK   # utime stime cutime cstime
    except (OSError, IndexError, ValueError):
        return 0.0


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (every thread's)."""
    found = []
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
