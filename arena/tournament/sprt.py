"""``arena sprt``: is bot A better than bot B by at least delta?

Deals are played in batches, each in every distinct rotation of the table
(A, B, A, B, ... around the seats), and every finished deal is one
observation of :class:`arena.ratings.sequential.SPRT`: A's mean place over the
deal's games minus B's (faulted seats are last).  The test stops at the
first deal where it decides; the rest of that batch is played but not
counted, so the decision is the one taken at that deal.

The test is an adaptive plan (:class:`Duel`) played by the tournament's
runner: a batch is an item per rotation, each played by fresh processes,
so no bot process meets a deal twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arena.match.referee import Entrant, TimeControl
from arena.match.seeds import SecretKey
from arena.ratings.sequential import SPRT
from arena.ratings.stats import showings
from arena.records import GameRecord
from arena.results.items import MatchItem
from arena.tournament.plan import Results, seatings, table_item
from arena.tournament.runner import run_table, table_plan


@dataclass
class SprtResult:
    decision: str | None  # H1, H0, or None (stopped by max_deals)
    deals: int  # deals counted
    games: int  # games counted
    test: SPRT


def difference(records: Sequence[GameRecord], a: str, b: str) -> float:
    """A's mean place minus B's over the games of one deal (in the games where
    they play on different teams)."""
    gaps = []
    for record in records:
        seen = showings(record)
        if not seen[a].teams & seen[b].teams:
            gaps.append(seen[a].place - seen[b].place)
    return sum(gaps) / len(gaps) if gaps else 0.0


class Duel:
    """The test as the runner plays it: its planner (a batch of deals after
    another, until the test decides or ``max_deals`` are planned) and its
    report (each game, kept until its deal is counted)."""

    reads_games = False
    reads_ratings = False

    def __init__(
        self,
        key: SecretKey,
        game: str,
        options: dict,
        lineup: list[str],
        a: str,
        b: str,
        test: SPRT,
        *,
        max_deals: int,
        batch: int,
        on_deal: Callable[[int, float, SPRT], None] | None,
    ):
        self.key, self.game_id, self.options, self.lineup = key, game, options, lineup
        self.a, self.b, self.max_deals, self.batch, self.on_deal = a, b, max_deals, batch, on_deal
        self.rotations = list(enumerate(seatings(lineup, "rotate")))
        self.outcome = SprtResult(None, 0, 0, test)
        self.batch_deals = range(0)
        #: (deal, rotation) -> the game, until its deal is counted
        self.played: dict[tuple[int, tuple[int, ...]], GameRecord] = {}

    def estimate(self) -> int:
        return self.max_deals * len(self.rotations)

    def next_batch(self, results: Results) -> list[MatchItem]:
        """The next batch's items, one per rotation; [] once decided."""
        start = self.batch_deals.stop
        if self._count() or start >= self.max_deals:
            return []
        self.batch_deals = range(start, min(self.max_deals, start + self.batch))
        return [
            table_item(
                self.key,
                f"sprt/d{start}/s{turn}",
                self.game_id,
                self.options,
                self.lineup,
                self.batch_deals,
                [(turn, seating)],
                order=start * len(self.rotations) + turn,
            )
            for turn, seating in self.rotations
        ]

    def _count(self) -> bool:
        """Count the batch's deals in order until the test decides (True)."""
        test = self.outcome.test
        for number in self.batch_deals:
            played = [self.played.pop((number, seating)) for _, seating in self.rotations]
            gap = difference(played, self.a, self.b)
            self.outcome.deals += 1
            self.outcome.games += len(played)
            self.outcome.decision = test.add(gap)
            if self.on_deal is not None:
                self.on_deal(self.outcome.deals, gap, test)
            if self.outcome.decision:
                return True
        return False

    def skip(self, games: int) -> None:
        pass

    def game(self, item: MatchItem, index: int, record: GameRecord) -> None:
        self.played[(self.batch_deals.start + index, item.deals[index].seating)] = record

    def stop(self) -> None:
        pass


def run(
    registry,
    game: str,
    a: Entrant,
    b: Entrant,
    test: SPRT,
    *,
    players: int,
    key: SecretKey,
    options: dict | None = None,
    limit: TimeControl = TimeControl(),
    sandbox: str | None = None,
    least: str = "strict",
    max_deals: int = 2000,
    batch: int = 8,
    on_deal: Callable[[int, float, SPRT], None] | None = None,
) -> SprtResult:
    """Play deals until ``test`` decides or ``max_deals`` are counted.  Every
    seed comes from ``key``, and each rotation of a batch is a match of its
    own (fresh processes), so no bot process meets a deal twice.  Raises
    ValueError (one line) for games the referee could not play, and a
    :class:`~arena.sandbox.SandboxError` if a submitted bot would run below
    ``least``."""
    lineup = [a.name if seat % 2 == 0 else b.name for seat in range(players)]
    duel = Duel(
        key,
        game,
        dict(options or {}),
        lineup,
        a.name,
        b.name,
        test,
        max_deals=max_deals,
        batch=batch,
        on_deal=on_deal,
    )
    plan = table_plan(
        f"sprt {game}",
        "sprt",
        "",
        [a, b],
        duel,
        registry,
        limit=limit,
        sandbox=sandbox,
        least=least,
    )
    run_table(plan, None, key, duel)
    return duel.outcome
