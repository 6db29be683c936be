"""``arena sprt``: is bot A better than bot B by at least delta?

Deals are played in batches, each in every distinct rotation of the table
(A, B, A, B, ... around the seats), and every finished deal is one
observation of :class:`arena.ratings.sequential.SPRT`: A's mean place over the
deal's games minus B's (faulted seats are last).  The test stops at the
first deal where it decides; the rest of that batch is played but not
counted, so the decision is the one taken at that deal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arena.records import GameRecord
from arena.match.referee import Deal, Entrant, Limit, play_match
from arena.match.seeds import Key
from arena.ratings.sequential import SPRT
from arena.ratings.stats import showings
from arena.tournament.plan import seatings


@dataclass
class Outcome:
    decision: str | None        # H1, H0, or None (stopped by max_deals)
    deals: int                  # deals counted
    games: int                  # games counted
    test: SPRT


def difference(records: list[GameRecord], a: str, b: str) -> float:
    """A's mean place minus B's over the games of one deal (in the games where
    they play on different teams)."""
    gaps = []
    for record in records:
        seen = showings(record)
        if not seen[a].teams & seen[b].teams:
            gaps.append(seen[a].place - seen[b].place)
    return sum(gaps) / len(gaps) if gaps else 0.0


def run(engine, a: Entrant, b: Entrant, test: SPRT, *, players: int, key: Key,
        options: dict | None = None, limit: Limit = Limit(), sandbox: str | None = None,
        max_deals: int = 2000, batch: int = 8,
        on_deal: Callable[[int, float, SPRT], None] | None = None) -> Outcome:
    """Play deals until ``test`` decides or ``max_deals`` are counted.  Every
    seed comes from ``key``, and each rotation of a batch is a match of its
    own (fresh processes), so no bot process meets a deal twice."""
    entrants = [a if seat % 2 == 0 else b for seat in range(players)]
    rotations = seatings([e.name for e in entrants], "rotate")
    deals = games = 0
    while deals < max_deals:
        numbers = range(deals, deals + min(batch, max_deals - deals))
        by_rotation = [play_match(engine, entrants,
                                  [Deal(key.derive("deal", n), seating,
                                        key.derive("chance", n, turn), n) for n in numbers],
                                  options, limit, sandbox=sandbox)
                       for turn, seating in enumerate(rotations)]
        for played in zip(*by_rotation):
            gap = difference(played, a.name, b.name)
            deals += 1
            games += len(played)
            decision = test.add(gap)
            if on_deal is not None:
                on_deal(deals, gap, test)
            if decision:
                return Outcome(decision, deals, games, test)
    return Outcome(None, deals, games, test)
