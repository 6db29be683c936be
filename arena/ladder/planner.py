"""The ladder's planner: step after step, the field's tables of most information.

Before a step is planned the roster is brought up to date, in submission
order: versions withdrawn since the last step leave the field, versions that
keep faulting are suspended (:class:`Suspension`), pending versions play
their validation run and are admitted (their bot's older version leaves) or
rejected.  Then, per game entry and table size, the tables are chosen by
:func:`arena.ratings.matchmaking.choose` among the field's lineups, each
played on ``deals`` fresh deals of the folder's secret key in every seating
(:meth:`arena.tournament.plan.Planner.table_items`).

A step the store already holds items of (a resumed run) is replayed as
planned, without touching the roster: each version's ``entered`` and
``left`` steps say who played it, so a killed and resumed ladder plays the
games of one never killed.  With no table to play the planner waits and
polls the roster: the ladder runs until it is stopped (or ``steps`` are
done).
"""

from __future__ import annotations

import logging
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.ladder.entrants import Roster, Version
from arena.ratings import matchmaking
from arena.results.store import FILE_NAME, Store
from arena.tournament.config import Tournament
from arena.tournament.plan import MatchItem, Planner, Results, lineups, plan_seed, seatings

log = logging.getLogger("arena.ladder")

#: deal numbers of a step start at ``step * DEAL_STRIDE``: no deal is reused
DEAL_STRIDE = 1_000_000


@dataclass(frozen=True)
class Suspension:
    """A version is suspended once it faulted in ``faults`` of its last
    ``games`` games."""

    faults: int = 3
    games: int = 5

    def due(self, recent: deque) -> bool:
        return len(recent) >= min(self.faults, self.games) and sum(recent) >= self.faults


#: the default: 3 faulty games of the last 5
SUSPENSION = Suspension()


class LadderPlanner(Planner):
    """The ladder's steps (see the module's docstring).  ``validate`` plays
    a version's validation run: None when it passes, else the reason;
    ``plays`` says whether a version plays a game id."""

    reads_games = False
    reads_ratings = True
    CANDIDATES = 2000

    def __init__(
        self,
        tournament: Tournament,
        key,
        *,
        folder: Path,
        validate: Callable[[Version], str | None],
        plays: Callable[[Version, str], bool],
        size: int,
        steps: int | None = None,
        poll: float = 1.0,
        suspension: Suspension = SUSPENSION,
    ):
        super().__init__(tournament, key)
        self.folder = folder
        self.validate, self.plays = validate, plays
        self.size, self.steps, self.poll = size, steps, poll
        self.suspension = suspension
        self.step = 0
        self.seen = -1  # the last stored game id looked at for faults
        self.recent: dict[str, deque] = {}

    def estimate(self) -> int:
        return 0  # a ladder has no end to estimate

    def next_batch(self, results: Results) -> list[MatchItem]:
        """The next step's items; waits while there is nothing to play."""
        while self.steps is None or self.step < self.steps:
            step = self.step
            planned = any(round_ == step for _, round_ in results.planned)
            with Roster(self.folder) as roster:
                if not planned:
                    self._update(roster, step)
                field = [v for v in roster.versions() if v.plays_at(step)]
            batch = self._plan(results, step, field)
            if batch or planned:
                self.step += 1
                return batch
            time.sleep(self.poll)
        return []

    # -- the roster ---------------------------------------------------------

    def _update(self, roster: Roster, step: int) -> None:
        """Bring the roster up to date before planning ``step``."""
        self._read_faults()
        for version in roster.versions():
            if version.entered is not None and version.left is None:
                if version.state != "admitted":
                    roster.leave(version.entrant, step)  # withdrawn since
                elif self.suspension.due(self.recent.get(version.entrant, deque())):
                    reason = (
                        f"faulted in {sum(self.recent[version.entrant])} of its last "
                        f"{len(self.recent[version.entrant])} games"
                    )
                    log.warning("ladder: %s suspended: %s", version.entrant, reason)
                    roster.set_state(version.entrant, "suspended", reason, left=step)
        for version in roster.versions():
            if version.state in ("pending", "validating"):
                self._admit(roster, version, step)

    def _admit(self, roster: Roster, version: Version, step: int) -> None:
        roster.set_state(version.entrant, "validating")
        log.info("ladder: validating %s", version.entrant)
        reason = self.validate(version)
        if roster.version(version.entrant).state != "validating":
            return  # withdrawn while it was validated
        if reason is not None:
            log.warning("ladder: %s rejected: %s", version.entrant, reason)
            roster.set_state(version.entrant, "rejected", reason)
            return
        for older in roster.versions():
            if older.bot == version.bot and older.seq < version.seq and older.state == "admitted":
                roster.set_state(
                    older.entrant, "superseded", f"replaced by {version.entrant}", left=step
                )
        roster.set_state(version.entrant, "admitted", entered=step)
        log.info("ladder: %s admitted from step %d", version.entrant, step)

    def _read_faults(self) -> None:
        """Each entrant's last games, fault or not, from the store (in plan
        order: every game of the steps before is stored by now)."""
        if not (self.folder / FILE_NAME).exists():
            return
        store = Store(self.folder, create=False)
        try:
            for game in store.games(after=self.seen):
                self.seen = max(self.seen, game.id)
                for seat in game.record.seats:
                    window = self.recent.setdefault(seat.bot, deque(maxlen=self.suspension.games))
                    window.append(seat.fault is not None)
        finally:
            store.close()

    # -- the tables ---------------------------------------------------------

    def _plan(self, results: Results, step: int, field: list[Version]) -> list[MatchItem]:
        batch: list[MatchItem] = []
        for where, group in self.unplanned(results, step, batch):
            entry, _, players = where
            bots = [v.entrant for v in field if self.plays(v, entry.id)]
            for number, table in enumerate(
                self._tables(entry, group, players, step, bots, results)
            ):
                first = step * DEAL_STRIDE + number * entry.deals
                items = self.table_items(
                    where, table, range(first, first + entry.deals), step, self.next_order
                )
                self.next_order += len(items)
                batch.extend(items)
        return batch

    def _tables(self, entry, group: str, players: int, step: int, bots: list[str], results):
        """Up to ``size`` tables of the group's field for this step."""
        if len(bots) < 2 or players < 2:
            return []  # a ladder rates tables of several seats
        candidates = [t for t in lineups(bots, players, entry.repeats) if len(set(t)) > 1]
        if not candidates:
            return []
        rng = random.Random(plan_seed(self.tournament.seed, "ladder", group, step))
        if len(candidates) > self.CANDIDATES:
            candidates = rng.sample(candidates, self.CANDIDATES)
        planned = [
            item for (g, _), items in results.planned.items() if g == group for item in items
        ]
        belief = matchmaking.Belief.of(bots, results.ratings(group) if results.ratings else {})
        per_table = len(seatings(candidates[0], entry.seating)) * entry.deals
        rules = matchmaking.Rules(self.tournament.sigma, games_per_table=per_table, sequential=True)
        met = matchmaking.meetings([item.lineup for item in planned for _ in item.deals])
        return matchmaking.choose(belief, candidates, self.size, rules, met)
