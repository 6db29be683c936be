"""Swiss standings and pairings, the way players know them.

* **Scoring**: a round is one table playing its deals in every seating; its
  score for a bot is the mean over those games of ``(n - place) / (n - 1)``
  (``n`` ranked seats, dummies included), places shared by a tie split the
  points of the places they cover (two bots sharing first of two: 0.5 each).
  So a round is worth 0 to 1, like a game of chess.
* **Bye**: when the bots do not fill whole tables, the lowest-ranked bot that
  has had the fewest byes sits out and scores ``BYE`` (a win); no bot sits out
  twice before every bot has sat out once.
* **Tie-breaks** in the standings, in this order: points, Buchholz (the sum
  over a bot's rounds of its opponents' mean final points), Sonneborn-Berger
  (the sum over its rounds of each opponent's final points times the share of
  the games it finished ahead of that opponent, a tie counting half, divided
  by the opponents at the table).  A bye adds to neither.
* **Pairing**: among all ways to seat the field, the one with the fewest
  rematches (pairs of bots who already met), then the least mixing of points
  (the sum over tables of the points between each bot and the table's
  leader), then the closest standings.  So a pairing without a rematch is
  always chosen when one exists, and a bot floats to a lower score group only
  when its own group cannot seat it without a rematch.  The search is exact
  up to ``SEARCH_LIMIT`` tables tried (every field of the shipped tournaments
  is searched in full); beyond it the best pairing found so far is played.
"""

from __future__ import annotations

import io
import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

BYE = 1.0
SEARCH_LIMIT = 200_000


def place_points(ranks: Sequence[int]) -> list[float]:
    """Points of every ranked seat (bots and dummies) of one game: the mean
    of ``(n - place) / (n - 1)`` over the places its tie covers."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    tied: defaultdict[int, int] = defaultdict(int)
    for rank in ranks:
        tied[rank] += 1
    points = []
    for rank in ranks:
        covered = range(rank, rank + tied[rank])  # competition ranks: 1, 1, 3
        points.append(sum((n - place) / (n - 1) for place in covered) / len(covered))
    return points


@dataclass
class Round:
    """One past Swiss round of one group: its tables' games and its byes."""

    #: per table: the games as (bots by seat, ranks by seat, dummy ranks)
    tables: list[list[tuple[list[str], list[int], list[int]]]]
    lineups: list[tuple[str, ...]]
    byes: list[str]


@dataclass
class _Record:
    points: float = 0.0
    byes: int = 0
    #: per round played: {opponent: share of games finished ahead of it}
    results: list[dict[str, float]] = field(default_factory=list)


@dataclass(frozen=True)
class SwissStanding:
    name: str
    points: float
    buchholz: float
    sonneborn_berger: float
    byes: int
    rounds: int


def _records(bots: Iterable[str], rounds: Iterable[Round]) -> dict[str, _Record]:
    records = {bot: _Record() for bot in bots}
    for round_ in rounds:
        for bot in round_.byes:
            if bot in records:
                records[bot].points += BYE
                records[bot].byes += 1
        for lineup, games in zip(round_.lineups, round_.tables):
            score: defaultdict[str, float] = defaultdict(float)
            ahead: dict[str, defaultdict[str, float]] = {bot: defaultdict(float) for bot in lineup}
            for bots, ranks, dummy_ranks in games:
                for bot, points in zip(bots, place_points(list(ranks) + list(dummy_ranks))):
                    score[bot] += points / len(games)
                for (a, rank_a), (b, rank_b) in itertools.permutations(zip(bots, ranks), 2):
                    share = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
                    ahead[a][b] += share / len(games)
            for bot in lineup:
                if bot in records:
                    records[bot].points += score[bot]
                    records[bot].results.append(
                        {other: ahead[bot][other] for other in lineup if other != bot}
                    )
    return records


def standings(bots: Sequence[str], rounds: Iterable[Round]) -> list[SwissStanding]:
    """The Swiss table: points, then Buchholz, then Sonneborn-Berger."""
    records = _records(bots, rounds)
    final = {bot: record.points for bot, record in records.items()}
    table = []
    for bot, record in records.items():
        buchholz = sum(
            sum(final.get(o, 0.0) for o in result) / len(result)
            for result in record.results
            if result
        )
        berger = sum(
            sum(final.get(o, 0.0) * share for o, share in result.items()) / len(result)
            for result in record.results
            if result
        )
        table.append(
            SwissStanding(
                bot,
                round(record.points, 9),
                round(buchholz, 9),
                round(berger, 9),
                record.byes,
                len(record.results),
            )
        )
    return sorted(table, key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger))


def standings_text(group: str, table: Sequence[SwissStanding], width: int = 100) -> str:
    """The Swiss table of one group for the terminal."""
    from rich.console import Console
    from rich.table import Table

    out = Table(title=f"swiss {group}", title_justify="left")
    for head in ("#", "bot", "points", "Buchholz", "Sonneborn-Berger", "rounds", "byes"):
        out.add_column(head, justify="left" if head == "bot" else "right")
    for rank, s in enumerate(table, start=1):
        out.add_row(
            str(rank),
            s.name,
            f"{s.points:.2f}",
            f"{s.buchholz:.2f}",
            f"{s.sonneborn_berger:.2f}",
            str(s.rounds),
            str(s.byes),
        )
    text = io.StringIO()
    Console(file=text, width=width, color_system=None, highlight=False).print(out)
    return text.getvalue().rstrip("\n")


def met_counts(rounds: Iterable[Round]) -> dict[frozenset, int]:
    met: dict[frozenset, int] = defaultdict(int)
    for round_ in rounds:
        for lineup in round_.lineups:
            for a, b in itertools.combinations(set(lineup), 2):
                met[frozenset((a, b))] += 1
    return met


def choose_byes(order: Sequence[str], byes: dict[str, int], count: int) -> list[str]:
    """``count`` bots to sit out: fewest byes first, the lowest-ranked among them."""
    ranked = list(order)
    chosen = []
    for _ in range(count):
        pick = min(reversed(ranked), key=lambda bot: byes.get(bot, 0))
        ranked.remove(pick)
        chosen.append(pick)
    return chosen


def pair(
    order: Sequence[str], players: int, points: dict[str, float], met: dict[frozenset, int]
) -> list[tuple[str, ...]]:
    """Tables of ``players`` for the bots in ``order`` (best first; their
    count a multiple of ``players``) by (rematches, point mixing, standings
    distance), searched exactly up to ``SEARCH_LIMIT`` tables tried."""
    position = {bot: i for i, bot in enumerate(order)}
    best: list = [None, None]  # cost, tables
    tried = 0

    def cost(table: tuple[str, ...]) -> tuple[int, float, int]:
        rematches = sum(met.get(frozenset(p), 0) for p in itertools.combinations(table, 2))
        lead = points[table[0]]
        mixing = sum(lead - points[bot] for bot in table[1:])
        spread = sum(position[bot] - position[table[0]] for bot in table[1:])
        return rematches, round(mixing, 9), spread

    def search(left: list[str], tables: list, total: tuple) -> None:
        nonlocal tried
        if best[0] is not None and total >= best[0]:
            return
        if not left:
            best[0], best[1] = total, list(tables)
            return
        head, rest = left[0], left[1:]
        options = []
        for others in itertools.combinations(rest, players - 1):
            table = (head, *others)
            options.append((cost(table), table))
        options.sort(key=lambda option: option[0])
        for table_cost, table in options:
            if tried >= SEARCH_LIMIT and best[0] is not None:
                return
            tried += 1
            seated = set(table)
            search(
                [bot for bot in rest if bot not in seated],
                tables + [table],
                tuple(a + b for a, b in zip(total, table_cost)),
            )

    search(list(order), [], (0, 0.0, 0))
    return best[1] or []
