"""Statistics with honest intervals, from stored games.

Card games are luck-heavy and a tournament replays every deal in several
seatings (duplicate deals), so the games of one deal are not independent
draws: they share the cards.  Every interval here is therefore a bootstrap
over *whole deals* (all games with the same game, table size and seed:
every seating and every table dealt those cards), never over single games.

What is counted, per participant (a bot, or an engine-played dummy shown as
``dummy:NAME``) of a set of games:

* ``games`` -- games it took part in; ``seats`` -- seats it held (a bot in
  two seats of one game played one game in two seats).  Its score and place
  in a game are the means over its seats.
* ``place`` -- the rank as a share of the field: ``(n - rank) / (n - 1)``
  with ``n`` ranked places (dummies included), so 1 is first and 0 last in
  any table size; a faulted seat is last.  Unlike a score it means the same
  in every game, so the overall table shows place, never a mean score.
* ``wins`` -- games in which one of its seats shared the best place among
  the seats that did not fault.
* head-to-head, for two participants in the same game on different teams:
  who finished above whom (by place), and the mean score difference.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from arena.store import StoredGame

DUMMY_PREFIX = "dummy:"
LEVEL = 0.95                 # the intervals' coverage
RESAMPLES = 1000             # bootstrap resamples per interval
SEED = 20260                 # fixed: the same games give the same intervals
_CHUNK = 4_000_000           # resampled deal indices drawn at a time (memory bound)

Interval = tuple[float, float]


@dataclass(frozen=True)
class Showing:
    """One participant in one game: mean over its seats."""

    name: str
    score: float
    place: float
    teams: frozenset[int]
    seats: int
    won: bool
    faults: tuple[str, ...] = ()


def showings(game: StoredGame) -> dict[str, Showing]:
    """Every participant of ``game`` (bots by name, dummies prefixed)."""
    places = game.ranked
    worst = places

    def share(rank: int) -> float:
        return (places - rank) / (places - 1) if places > 1 else 1.0
    clean = [rank for rank, fault in zip(game.ranks, game.faults) if not fault]
    best = min(clean + [d[2] for d in game.dummies], default=None)
    seats: dict[str, list[tuple[float, int, int, str | None]]] = defaultdict(list)
    for bot, score, rank, team, fault in zip(game.bots, game.scores, game.ranks, game.teams,
                                             game.faults):
        seats[bot].append((float(score), worst if fault else rank, team, fault))
    for index, (name, score, rank) in enumerate(game.dummies):
        seats[DUMMY_PREFIX + name].append((float(score), rank, -1 - index, None))
    result = {}
    for name, held in seats.items():
        result[name] = Showing(
            name=name,
            score=sum(s for s, _, _, _ in held) / len(held),
            place=sum(share(r) for _, r, _, _ in held) / len(held),
            teams=frozenset(t for _, _, t, _ in held),
            seats=len(held),
            won=any(r == best and not f for _, r, _, f in held),
            faults=tuple(f for _, _, _, f in held if f),
        )
    return result


def bootstrap(clusters: Sequence[tuple[float, int]], *, level: float = LEVEL,
              resamples: int = RESAMPLES, seed: int = SEED) -> Interval | None:
    """A percentile interval for ``sum of values / number of values`` where
    the values come in clusters ``(sum, count)`` that are resampled whole.

    None with fewer than two clusters: one deal says nothing about luck."""
    if len(clusters) < 2:
        return None
    sums = np.array([s for s, _ in clusters], dtype=float)
    counts = np.array([c for _, c in clusters], dtype=float)
    n = len(clusters)
    rng = np.random.default_rng(seed)
    estimates = []
    rows = max(1, _CHUNK // n)
    for start in range(0, resamples, rows):
        size = min(rows, resamples - start)
        drawn = rng.integers(0, n, size=(size, n))      # n deals, with replacement
        estimates.append(sums[drawn].sum(axis=1) / counts[drawn].sum(axis=1))
    values = np.concatenate(estimates)
    tail = (1.0 - level) / 2
    low, high = np.quantile(values, [tail, 1.0 - tail])
    return float(low), float(high)


@dataclass
class Summary:
    """One participant's statistics over a set of games."""

    name: str
    games: int = 0
    seats: int = 0
    wins: int = 0
    faults: Counter = field(default_factory=Counter)
    mean_score: float = 0.0
    score_interval: Interval | None = None
    place: float = 0.0
    place_interval: Interval | None = None

    @property
    def dummy(self) -> bool:
        return self.name.startswith(DUMMY_PREFIX)


@dataclass
class Meeting:
    """Participant ``a`` against ``b`` in the games where both played on
    different teams; ``above`` counts games in which ``a`` placed higher."""

    a: str
    b: str
    games: int = 0
    above: int = 0
    ties: int = 0
    below: int = 0
    score_diff: float = 0.0
    interval: Interval | None = None

    @property
    def above_share(self) -> float:
        """How often ``a`` finished above ``b``, a tie counting half."""
        return (self.above + self.ties / 2) / self.games if self.games else 0.0


def _clustered(pairs: Iterable[tuple[tuple, float]]) -> tuple[float, list[tuple[float, int]]]:
    """The mean of ``(deal, value)`` pairs and the values summed by deal."""
    by_deal: dict[tuple, list[float]] = defaultdict(list)
    for deal, value in pairs:
        by_deal[deal].append(value)
    clusters = [(sum(v), len(v)) for v in by_deal.values()]
    total = sum(c for _, c in clusters)
    return (sum(s for s, _ in clusters) / total if total else 0.0), clusters


Seen = list[tuple[tuple, dict[str, Showing]]]      # (deal, showings) per game


def _seen(games: Sequence[StoredGame]) -> Seen:
    return [(game.deal, showings(game)) for game in games]


def summarise(games: Sequence[StoredGame], *, scores: bool = True,
              dummies: bool = True) -> dict[str, Summary]:
    """Per participant: games, seats, wins, faults, place (and mean score,
    unless ``scores`` is False: across games scores mean different things)."""
    return _summarise(_seen(games), scores=scores, dummies=dummies)


def _summarise(seen: Seen, *, scores: bool = True, dummies: bool = True) -> dict[str, Summary]:
    played: dict[str, list[tuple[tuple, Showing]]] = defaultdict(list)
    for deal, present in seen:
        for name, showing in present.items():
            if dummies or not name.startswith(DUMMY_PREFIX):
                played[name].append((deal, showing))
    result = {}
    for name, entries in played.items():
        summary = Summary(name, games=len(entries),
                          seats=sum(s.seats for _, s in entries),
                          wins=sum(s.won for _, s in entries))
        for _, showing in entries:
            summary.faults.update(showing.faults)
        summary.place, clusters = _clustered((deal, s.place) for deal, s in entries)
        summary.place_interval = bootstrap(clusters)
        if scores:
            summary.mean_score, clusters = _clustered((deal, s.score) for deal, s in entries)
            summary.score_interval = bootstrap(clusters)
        result[name] = summary
    return result


def head_to_head(games: Sequence[StoredGame]) -> dict[str, dict[str, Meeting]]:
    """``result[a][b]``: how ``a`` did against ``b`` (both directions are
    there; teammates in a game did not meet in it)."""
    return _head_to_head(_seen(games))


def _head_to_head(seen: Seen) -> dict[str, dict[str, Meeting]]:
    met: dict[tuple[str, str], list[tuple[tuple, float, float]]] = defaultdict(list)
    for deal, present in seen:
        for a, sa in present.items():
            for b, sb in present.items():
                if a < b and not (sa.teams & sb.teams):
                    met[(a, b)].append((deal, sa.place - sb.place, sa.score - sb.score))
    result: dict[str, dict[str, Meeting]] = defaultdict(dict)
    for (a, b), rows in met.items():
        meeting = Meeting(a, b, games=len(rows),
                          above=sum(1 for _, p, _ in rows if p > 0),
                          ties=sum(1 for _, p, _ in rows if p == 0),
                          below=sum(1 for _, p, _ in rows if p < 0))
        meeting.score_diff, clusters = _clustered((deal, d) for deal, _, d in rows)
        meeting.interval = bootstrap(clusters)
        result[a][b] = meeting
        mirror = None if meeting.interval is None else (-meeting.interval[1],
                                                        -meeting.interval[0])
        result[b][a] = Meeting(b, a, meeting.games, meeting.below, meeting.ties,
                               meeting.above, -meeting.score_diff, mirror)
    return dict(result)


@dataclass
class Table:
    """The statistics of one game at one table size."""

    game: str
    players: int
    games: int
    bots: dict[str, Summary]
    head_to_head: dict[str, dict[str, Meeting]]


@dataclass
class Statistics:
    """Everything the leaderboard shows besides ratings."""

    overall: dict[str, Summary]                 # bots only, place only
    games: dict[str, dict[str, Summary]]        # per game id, dummies included
    tables: dict[str, dict[int, Table]]         # per game id and table size
    counts: dict[str, int]                      # games per game id


def compute(games: Iterable[StoredGame]) -> Statistics:
    games = list(games)
    seen = _seen(games)
    by_game: dict[str, Seen] = defaultdict(list)
    by_size: dict[tuple[str, int], Seen] = defaultdict(list)
    for game, entry in zip(games, seen):
        by_game[game.game].append(entry)
        by_size[(game.game, game.players)].append(entry)
    tables: dict[str, dict[int, Table]] = {game_id: {} for game_id in by_game}
    for (game_id, size), group in sorted(by_size.items()):
        tables[game_id][size] = Table(game_id, size, len(group), _summarise(group),
                                      _head_to_head(group))
    return Statistics(
        overall=_summarise(seen, scores=False, dummies=False),
        games={game_id: _summarise(group) for game_id, group in by_game.items()},
        tables=tables,
        counts={game_id: len(group) for game_id, group in by_game.items()},
    )
