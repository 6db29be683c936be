"""A cgroup per bot, where the arena may create them: ``pids.max`` against
fork bombs, a memory ceiling for the whole tree (rlimits are per process),
the CPU time of the whole tree (the referee's clock, :mod:`arena.sandbox.usage`),
and a way to end every process of the bot even one that left its process
group with ``setsid``.

Works with cgroup v2 (one unified hierarchy, ``cgroup.kill``) and v1 (one
hierarchy per controller; killing is a loop over ``cgroup.procs``).  The bot
joins its groups through a tiny ``sh`` wrapper at the head of its exec chain,
so nothing runs in the referee between fork and exec.
"""

from __future__ import annotations

import functools
import os
import signal
import time

from arena.sandbox.usage import StatFile

ROOT = "/sys/fs/cgroup"
JOIN_SCRIPT = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'


def _own_path(controller: str | None) -> str | None:
    """This process's cgroup in the hierarchy of ``controller`` (None: v2)."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if (controller is None and names == "") or (controller in names.split(",")):
            return path
    return None


def cpu_quota() -> float | None:
    """How many CPUs this process's cgroup may use (``cpu.max``, or v1's
    ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us``); None: no quota."""
    v2 = os.path.exists(os.path.join(ROOT, "cgroup.controllers"))
    own = _own_path(None if v2 else "cpu")
    if own is None:
        return None
    base = os.path.join(ROOT, "" if v2 else "cpu", own.lstrip("/"))
    try:
        if v2:
            with open(os.path.join(base, "cpu.max")) as f:
                quota, period = f.read().split()[:2]
        else:
            with open(os.path.join(base, "cpu.cfs_quota_us")) as f:
                quota = f.read().strip()
            with open(os.path.join(base, "cpu.cfs_period_us")) as f:
                period = f.read().strip()
    except (OSError, ValueError):
        return None
    if quota in ("max", "-1"):
        return None
    return int(quota) / int(period)


def _writable(directory: str) -> bool:
    return os.path.isdir(directory) and os.access(directory, os.W_OK)


@functools.lru_cache(maxsize=1)
def hierarchies() -> dict[str, str]:
    """Where this process may create child groups: ``{"pids": dir,
    "memory": dir}`` (both the same directory on cgroup v2).  Tried for
    real once per process: permission bits alone say yes inside a user
    namespace, where the kernel then says no."""
    return {controller: base for controller, base in _candidates().items() if _can_create(base)}


def _can_create(base: str) -> bool:
    probe = os.path.join(base, f"arena-probe-{os.getpid()}")
    try:
        os.mkdir(probe)
        os.rmdir(probe)
        return True
    except OSError:
        return False


def _candidates() -> dict[str, str]:
    if os.path.exists(os.path.join(ROOT, "cgroup.controllers")):
        own = _own_path(None)
        base = os.path.join(ROOT, (own or "/").lstrip("/"))
        try:
            with open(os.path.join(base, "cgroup.subtree_control")) as f:
                enabled = f.read().split()
        except OSError:
            return {}
        found: dict[str, str] = {
            c: base for c in ("pids", "memory") if c in enabled and _writable(base)
        }
        if found:
            found["cpu"] = base  # cpu.stat's usage_usec is in every v2 group
        return found
    found = {}
    for controller in ("pids", "memory", "cpuacct"):
        own = _own_path(controller)
        base = os.path.join(ROOT, controller, (own or "/").lstrip("/"))
        if own is not None and _writable(base):
            found[controller] = base
    return found


class BotCgroups:
    """The groups of one bot: created before it starts, removed after."""

    def __init__(self, name: str, memory: int, processes: int):
        self.paths: list[str] = []
        self.v2 = os.path.exists(os.path.join(ROOT, "cgroup.controllers"))
        settings = {
            "pids": {"pids.max": processes},
            "memory": {"memory.max" if self.v2 else "memory.limit_in_bytes": memory},
            "cpu": {},
            "cpuacct": {},
        }
        self._cpu_file: StatFile | None = None
        for controller, base in sorted(hierarchies().items()):
            path = os.path.join(base, name)
            if path not in self.paths:
                os.makedirs(path, exist_ok=True)
                self.paths.append(path)
            if controller in ("cpu", "cpuacct"):
                self._cpu_file = StatFile(
                    os.path.join(path, "cpu.stat" if self.v2 else "cpuacct.usage")
                )
            for key, value in settings[controller].items():
                with open(os.path.join(path, key), "w") as f:
                    f.write(str(value))

    @classmethod
    def existing(cls, paths: list[str]) -> BotCgroups:
        """Groups made earlier (by a referee now dead), to kill and remove."""
        group = cls.__new__(cls)
        group.paths = list(paths)
        group.v2 = os.path.exists(os.path.join(ROOT, "cgroup.controllers"))
        group._cpu_file = None
        return group

    def cpu_time(self) -> float | None:
        """CPU seconds of every process that ever was in the group (None:
        no CPU accounting here)."""
        text = self._cpu_file.read() if self._cpu_file is not None else None
        if text is None:
            return None
        if not self.v2:
            return int(text) / 1e9  # cpuacct.usage: nanoseconds
        if text.startswith(b"usage_usec "):  # cpu.stat's first line, as a rule
            return int(text[11 : text.index(b"\n")]) / 1e6
        for line in text.splitlines():
            if line.startswith(b"usage_usec "):
                return int(line.split()[1]) / 1e6
        return None

    def procs(self) -> list[str]:
        """Each group's ``cgroup.procs``: a process joins by writing to it."""
        return [os.path.join(path, "cgroup.procs") for path in self.paths]

    def join_argv(self) -> list[str]:
        """The wrapper that moves the bot into its groups, then ``exec``s."""
        if not self.paths:
            return []
        return ["/bin/sh", "-c", JOIN_SCRIPT, "arena-cgroup-join", *self.procs(), "--"]

    def kill_all(self, rounds: int = 100) -> None:
        """Kill every member; on v1, until none is left (up to ``rounds``
        passes over ``cgroup.procs``, a millisecond apart: a fork may race
        a pass)."""
        for path in self.paths:
            if self.v2 and os.path.exists(os.path.join(path, "cgroup.kill")):
                with open(os.path.join(path, "cgroup.kill"), "w") as f:
                    f.write("1")
                continue
            for round in range(rounds):
                pids = self._members(path)
                if not pids:
                    break
                for pid in pids:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                if round + 1 < rounds:
                    time.sleep(0.001)

    def remove(self) -> None:
        if self._cpu_file is not None:
            self._cpu_file.close()
        for path in self.paths:
            if not os.path.isdir(path):
                continue
            for _ in range(200):
                try:
                    os.rmdir(path)
                    break
                except FileNotFoundError:
                    break
                except OSError:  # members still exiting
                    time.sleep(0.005)

    @staticmethod
    def _members(path: str) -> list[int]:
        try:
            with open(os.path.join(path, "cgroup.procs")) as f:
                return [int(line) for line in f if line.strip()]
        except OSError:
            return []
