"""The clock a bot is charged: this move's time as the referee counts it.

The referee charges a move the wall time from its ``act`` to the bot's
``action``, less the time the bot's main process sat runnable waiting for a
CPU -- or the CPU time of the bot's processes, if that is more
(docs/protocol.md, "Time").  A bot that budgets its thinking by the wall
clock therefore thinks less on a loaded machine than it is allowed; one that
budgets by this clock thinks as long on any machine.

The bot kit hands ``act`` a :class:`ChargedClock` started when the question
arrived.  :meth:`ChargedClock.used` follows the referee's rule from inside
the bot (its run-queue wait from ``/proc/self/schedstat``; where that cannot
be read, the wall clock, which is never less than the charge);
:meth:`ChargedClock.cpu` is the cheap reading a search loop can poll, this
process's CPU time, which is what a bot that computes is charged.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False  # typing is a large part of a bot's start-up: annotations only
if TYPE_CHECKING:
    from collections.abc import Mapping

#: how long the referee waits for a move at most, in multiples of the time the
#: bot may be charged: a bot starved of CPU by a loaded machine is waited for,
#: one that never answers is not waited for forever (the referee reads it here)
WALL_CEILING = 10

_SCHEDSTAT: list[int] = []  # the open /proc/self/schedstat, once looked for


def _waited() -> float | None:
    """Seconds this process's main thread has spent runnable but waiting for
    a CPU (Linux's run-queue accounting), or None where it cannot be read."""
    if not _SCHEDSTAT:
        try:
            _SCHEDSTAT.append(os.open("/proc/self/schedstat", os.O_RDONLY))
        except OSError:
            _SCHEDSTAT.append(-1)
    if _SCHEDSTAT[0] < 0:
        return None
    try:
        return int(os.pread(_SCHEDSTAT[0], 128, 0).split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


class ChargedClock(dict):  # type: ignore[type-arg]
    """The ``act`` message's clock (``move``: seconds for this move; ``bank``:
    seconds left in the game's bank), as before a plain mapping, that also
    reads the time charged since the question arrived."""

    def __init__(self, given: Mapping[str, float]):
        super().__init__(given)
        self.move = float(given.get("move", 1.0))
        self.bank = float(given.get("bank", 0.0))
        self._wall = time.monotonic()
        self._cpu = time.process_time()
        self._waited = _waited()

    def cpu(self) -> float:
        """CPU seconds this process has used since the question: cheap
        (one system call), and what a computing bot is charged."""
        return time.process_time() - self._cpu

    def used(self) -> float:
        """Seconds charged so far on this move, by the referee's rule."""
        wall = time.monotonic() - self._wall
        waited = _waited()
        if waited is not None and self._waited is not None:
            wall -= waited - self._waited
        return max(0.0, self.cpu(), wall)

    def left(self) -> float:
        """Seconds of this move and the bank not yet charged; never more than
        the wall clock has left before the referee's ceiling."""
        allowed = self.move + self.bank
        ceiling = allowed * WALL_CEILING - (time.monotonic() - self._wall)
        return min(allowed - self.used(), ceiling)
