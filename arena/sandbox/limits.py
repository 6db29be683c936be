"""Per-bot resource ceilings and the ``prlimit`` wrapper that applies them."""

from __future__ import annotations

import shutil
from dataclasses import dataclass

PRLIMIT = shutil.which("prlimit") or "/usr/bin/prlimit"


@dataclass(frozen=True)
class ResourceLimits:
    """What one bot may use.

    ``memory`` caps each process's address space (rlimit) and, where cgroups
    are writable, the bot's whole tree; ``processes`` caps its process count
    (cgroup ``pids.max``, or RLIMIT_NPROC under its own uid); ``disk`` is the
    size of its private folder and ``/dev/shm`` in the strict sandbox;
    ``output`` is how much of its stderr the referee keeps.
    """

    memory: int = 2 << 30  # bytes
    cpu_seconds: int = 600  # CPU time over the whole match
    file_size: int = 64 << 20  # largest single file, bytes
    open_files: int = 256
    processes: int = 64
    disk: int = 64 << 20  # private /tmp and /dev/shm, bytes each
    output: int = 64 << 10  # stderr kept, bytes

    def rlimits(self, processes: bool) -> dict[str, int]:
        """The rlimits by prlimit's names (``RLIMIT_`` and the name in capitals).

        RLIMIT_NPROC counts every process of a uid and root ignores it, so it
        is only set (``processes=True``) when the bot has a uid of its own.
        """
        limits = {
            "as": self.memory,
            "cpu": self.cpu_seconds,
            "fsize": self.file_size,
            "nofile": self.open_files,
        }
        if processes:
            limits["nproc"] = self.processes
        return limits

    def prlimit_argv(self, processes: bool) -> list[str]:
        """The wrapper command setting :meth:`rlimits`, then ``--``."""
        return [
            PRLIMIT,
            *(f"--{name}={value}" for name, value in self.rlimits(processes).items()),
            "--",
        ]
