"""Stopping rules (``[stop]``): end a tournament when enough is known.

``confidence = 0.95`` ends it once, in every game and table size, every two
bots next to each other in the ranking by mean place are *separated*: the
confidence sequence of their mean place difference on paired duplicate
deals (:func:`arena.ratings.sequential.separated`) excludes 0.  One observation is
one deal: every planned game dealt those cards (every seating, every table
of that game and size) once all of them are stored, giving each two bots
that met on different teams their mean place difference.  Which pairs are
adjacent depends on the data, so the error budget ``1 - confidence`` is
split over every pair of bots that share a table in the plan (Bonferroni):
the chance that any stopping decision separates two bots in the wrong order
is at most ``1 - confidence``, however often it is checked.

``budget = N`` ends it once N games are stored, whichever comes first.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass, field

from arena.ratings.sequential import separated
from arena.ratings.stats import DUMMY_PREFIX, Showing, showings
from arena.results.store import StoredGame


class Enough(BaseException):
    """Raised from the event callback to end the run (like Ctrl-C, it is not
    an error: the executor abandons the matches in progress)."""


@dataclass(frozen=True)
class StopRule:
    confidence: float | None = None
    budget: int | None = None


@dataclass
class _Deal:
    planned: set[str] = field(default_factory=set)
    #: the stored games' showings (not their records) by key, until the deal is complete
    stored: dict[str, dict[str, Showing]] = field(default_factory=dict)
    counted: bool = False


class Stopper:
    """Follows the plan and the stored games; :meth:`reason` says why to stop."""

    def __init__(self, rule: StopRule):
        self.rule = rule
        self.deals: dict[tuple, _Deal] = defaultdict(_Deal)
        self.pairs: dict[tuple, set[frozenset]] = defaultdict(set)  # group -> pairs
        self.sums: dict[tuple, list[float]] = defaultdict(lambda: [0.0, 0])  # (group, a, b)
        self.places: dict[tuple, dict[str, list[float]]] = defaultdict(
            lambda: defaultdict(lambda: [0.0, 0])
        )  # group -> bot
        self.games = 0

    def plan(self, items) -> None:
        for item in items:
            group = (item.game, item.players)
            bots = sorted(set(item.lineup))
            self.pairs[group].update(frozenset(p) for p in itertools.combinations(bots, 2))
            for index, deal in enumerate(item.deals):
                self.deals[(item.game, item.players, deal.seed)].planned.add(item.key(index))

    def add(self, game: StoredGame) -> None:
        self.games += 1
        deal = self.deals[game.record.deal]
        if deal.counted:
            return
        deal.stored[game.key] = showings(game.record)
        if not deal.planned <= set(deal.stored):
            return
        # counted once, in full: its games and keys need not be kept any longer
        deal.counted = True
        every, deal.stored, deal.planned = list(deal.stored.values()), {}, set()
        group = (game.record.game, game.record.players)
        gaps: dict[tuple[str, str], list[float]] = defaultdict(list)
        for shown in every:
            seen = {n: s for n, s in shown.items() if not n.startswith(DUMMY_PREFIX)}
            for name, showing in seen.items():
                place = self.places[group][name]
                place[0] += showing.place
                place[1] += 1
            for a, b in itertools.combinations(sorted(seen), 2):
                if not seen[a].teams & seen[b].teams:
                    gaps[(a, b)].append(seen[a].place - seen[b].place)
        for (a, b), values in gaps.items():
            total = self.sums[(group, a, b)]
            total[0] += sum(values) / len(values)
            total[1] += 1

    def _separated(self, group, a: str, b: str, alpha: float) -> bool:
        first, second = sorted((a, b))
        total, deals = self.sums.get((group, first, second), (0.0, 0))
        return separated(total, int(deals), alpha)  # [sum of the gaps, the deals' count]

    def reason(self) -> str | None:
        """Why the tournament may stop now, or None."""
        rule = self.rule
        if rule.budget is not None and self.games >= rule.budget:
            return f"game budget spent ({self.games} of {rule.budget} games)"
        if rule.confidence is None:
            return None
        pairs = sum(len(p) for p in self.pairs.values())
        if not pairs:
            return None
        alpha = (1 - rule.confidence) / pairs
        for group, members in self.pairs.items():
            bots = {bot for pair in members for bot in pair}
            means = self.places[group]
            ranking = sorted(
                bots,
                key=lambda n: -(means[n][0] / means[n][1] if n in means and means[n][1] else 0.0),
            )
            for a, b in itertools.pairwise(ranking):
                if not self._separated(group, a, b, alpha):
                    return None
        return (
            f"every two neighbours in each game's ranking are separated at confidence "
            f"{rule.confidence:g} (a confidence sequence on paired duplicate deals) "
            f"after {self.games} games"
        )
