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
* ``payoff`` (per game) -- the points a game above the average participant,
  fitted to all the head-to-head score differences at once
  (:meth:`Tally.payoffs`): what a game whose result is its payoff ranks by.

The bootstrap is a *Poisson* bootstrap over deals: in resample ``r`` every
deal counts ``w`` times, ``w`` drawn from Poisson(1) by a random stream
seeded with the deal itself (its game, table size and seed) and :data:`SEED`
(:func:`deal_weights`), and a mean is ``sum of w * value / sum of w * 1``
over the games.  It is the usual bootstrap's large-sample equivalent (a deal drawn ``w`` times out of ``n``
draws is Binomial(n, 1/n), which tends to Poisson(1)), with one property the
draw of ``n`` deals out of ``n`` lacks: a deal's weights do not depend on the
other deals.  So a :class:`Tally` keeps, per participant and table, the
resamples' weighted sums, and a game added later only adds its own deal's
weights -- the statistics of a store that grew cost the new games, not a pass
over every game.

Every value is summed on a grid (a place rounded to a multiple of 2**-30, a
score to 2**-16: far below the three decimals shown), as an integer count of
grid steps in a float64: such sums are exact (below 2**53 steps: millions of
games at one table), so they do not depend on the order of the additions,
and a deal's seatings are summed before they are weighed.
So going on from a saved tally gives bit for bit what one pass over all the
games gives, and so does a store whose games parallel workers committed in
another order.  A resample in which none of a participant's deals came up
(all weights 0) says nothing about it and is left out of its interval.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from arena.records import GameRecord
from arena.results.store import StoredGame

DUMMY_PREFIX = "dummy:"
LEVEL = 0.95  # the intervals' coverage
RESAMPLES = 1000  # bootstrap resamples per interval
SEED = 20260  # fixed: the same games give the same intervals
CHUNK = 2000  # games whose deals' weights are drawn at a time (memory bound)
#: the grids values are summed on (see the module docstring): a place to
#: 2**-30, a score (or score difference) to 2**-16
PLACE_GRID = 2.0**30
SCORE_GRID = 2.0**16

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


def showings(record: GameRecord) -> dict[str, Showing]:
    """Every participant of ``record`` (bots by name, dummies prefixed)."""
    places = record.ranked
    worst = places

    def share(rank: int) -> float:
        return (places - rank) / (places - 1) if places > 1 else 1.0

    clean = [seat.rank for seat in record.seats if not seat.fault]
    best = min(clean + [dummy.rank for dummy in record.dummies], default=None)
    seats: dict[str, list[tuple[float, int, int, str | None]]] = defaultdict(list)
    for seat in record.seats:
        seats[seat.bot].append(
            (float(seat.score), worst if seat.fault else seat.rank, seat.team, seat.fault)
        )
    for index, dummy in enumerate(record.dummies):
        seats[DUMMY_PREFIX + dummy.name].append((float(dummy.score), dummy.rank, -1 - index, None))
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


@dataclass
class BotStats:
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
    #: a game's figures only: the fitted expected payoff (:meth:`Tally.payoffs`)
    payoff: float | None = None
    payoff_interval: Interval | None = None

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


@dataclass
class Table:
    """The statistics of one game at one table size."""

    game: str
    players: int
    games: int
    bots: dict[str, BotStats]
    head_to_head: dict[str, dict[str, Meeting]]


@dataclass
class Statistics:
    """Everything the leaderboard shows besides ratings."""

    overall: dict[str, BotStats]  # bots only, place only
    games: dict[str, dict[str, BotStats]]  # per game id, dummies included
    tables: dict[str, dict[int, Table]]  # per game id and table size
    counts: dict[str, int]  # games per game id


def _poisson_table(bits: int = 16) -> np.ndarray:
    """``table[u]`` for a uniform ``bits``-bit ``u``: a Poisson(1) draw (by
    inversion, each probability to within 2**-bits)."""
    k = np.arange(20)
    chances = np.exp(-1.0) / np.cumprod(np.r_[1, k[1:]])
    bounds = np.round(np.cumsum(chances) * 2**bits)
    return np.searchsorted(bounds, np.arange(2**bits), side="right").astype(np.uint8)


_POISSON = _poisson_table()


def deal_weights(deals: Sequence, *, resamples: int = RESAMPLES, seed: int = SEED) -> np.ndarray:
    """How often each deal counts in each resample: one row of Poisson(1)
    draws (uint8) per deal, from the SHAKE-128 stream of ``seed`` and the deal's
    ``repr`` -- a deal weighs the same whatever else is there, in every
    process.  (A numpy generator seeded per deal gives the same property
    several times slower: seconds on a large store; docs/performance.md.)"""
    stream = b"".join(
        hashlib.shake_128(f"{seed} {deal!r}".encode()).digest(2 * resamples) for deal in deals
    )
    draws = np.frombuffer(stream, dtype="<u2").reshape(len(deals), resamples)
    return _POISSON[draws]  # small integers: uint8 (half the memory traffic of a sum)


def intervals(sums: np.ndarray, counts: np.ndarray, level: float = LEVEL) -> list[Interval | None]:
    """Per row, the percentile interval of the resamples' means
    ``sums / counts`` (rows of resamples), leaving out the resamples whose
    count is 0 (none of the row's deals drawn)."""
    tail = (1.0 - level) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts
    drawn = counts > 0
    result: list[Interval | None] = [None] * len(sums)
    whole = np.flatnonzero(drawn.all(axis=1))
    if len(whole):
        low, high = np.quantile(means[whole], [tail, 1.0 - tail], axis=1)
        for row, pair in zip(whole, zip(low.tolist(), high.tolist())):
            result[row] = pair
    for row in np.flatnonzero(~drawn.all(axis=1)):
        kept = means[row][drawn[row]]
        if len(kept):
            low, high = np.quantile(kept, [tail, 1.0 - tail])
            result[row] = (float(low), float(high))
    return result


def _payoff_fit(incidence: np.ndarray, diffs: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per column of ``diffs`` / ``counts`` (each pair's summed score
    difference and games: the whole data, or one resample), the payoffs
    ``theta`` minimising the squared error of ``theta_a - theta_b`` over
    every game of every pair, of least norm (summing to 0 over each
    connected group of participants)."""
    laplacian = np.einsum("pr,pi,pj->rij", counts, incidence, incidence)
    right = np.einsum("pr,pi->ri", diffs, incidence)
    return np.einsum("rij,rj->ir", np.linalg.pinv(laplacian, hermitian=True), right)


def _accumulate(
    sums: np.ndarray, rows: np.ndarray, deals: np.ndarray, values: np.ndarray, weights: np.ndarray
) -> None:
    """``sums[rows[i]] += weights[deals[i]] * values[i]`` for every ``i``
    (values on their grid: exact sums, in any order), a rank at a time --
    every row's first addition at once, then every row's second -- as the
    rows of one rank differ (faster than ``np.add.reduceat`` over the rows'
    runs or ``np.add.at``: docs/performance.md)."""
    if not len(rows):
        return
    by_row = np.argsort(rows, kind="stable")
    ordered = rows[by_row]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    rank = np.empty(len(rows), dtype=np.int64)
    rank[by_row] = np.arange(len(rows)) - np.repeat(starts, np.diff(np.r_[starts, len(rows)]))
    by_rank = np.argsort(rank, kind="stable")
    bounds = np.searchsorted(rank[by_rank], np.arange(int(rank.max()) + 2))
    for low, high in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        chosen = by_rank[low:high]
        sums[rows[chosen]] += weights[deals[chosen]] * values[chosen, None]


@dataclass
class _Deals:
    """Whether a participant's games span two deals (an interval needs two)."""

    first: int | None = None  # the seed of its first deal at its table
    several: bool = False

    def see(self, seed: int) -> None:
        if self.first is None:
            self.first = seed
        elif seed != self.first:
            self.several = True


@dataclass
class _Seat:
    """One participant's running totals at one table (place and score in
    grid steps); its resample sums are the rows ``row`` (place), ``row + 1``
    (score), ``row + 2`` (count)."""

    row: int
    games: int = 0
    seats: int = 0
    wins: int = 0
    faults: Counter = field(default_factory=Counter)
    place: int = 0  # in grid steps (PLACE_GRID, SCORE_GRID)
    score: int = 0
    deals: _Deals = field(default_factory=_Deals)


@dataclass
class _Pair:
    """Two participants that met at one table (``a`` < ``b``); resample
    sums of the score difference in row ``row``, of the count in ``row + 1``."""

    row: int
    games: int = 0
    above: int = 0
    ties: int = 0
    below: int = 0
    diff: int = 0  # in grid steps (SCORE_GRID)
    deals: _Deals = field(default_factory=_Deals)


TableKey = tuple[str, int]  # (game id, table size)


class Tally:
    """The statistics' running totals, fed games; :meth:`state` and
    :meth:`from_state` carry them across processes (the leaderboard cache),
    so a store that grew costs only its new games.  Everything is kept per
    table (game id and size); a game's and the overall figures are sums of
    its tables' (deals of different tables differ)."""

    def __init__(self):
        self.games = 0
        #: the largest stored game id added (a cache key with ``games``)
        self.last_id = -1
        self.tables: dict[TableKey, int] = {}  # games per table
        self.seats: dict[TableKey, dict[str, _Seat]] = {}
        self.pairs: dict[TableKey, dict[tuple[str, str], _Pair]] = {}
        self.sums = np.zeros((0, RESAMPLES))  # the resamples' sums
        self._rows = 0

    def _new_rows(self, count: int) -> int:
        self._rows += count
        return self._rows - count

    def extend(self, games: Iterable[StoredGame]) -> None:
        """Add ``games`` (in any order: the sums are exact)."""
        games = list(games)
        for start in range(0, len(games), CHUNK):
            self._add(games[start : start + CHUNK])

    def _add(self, games: Sequence[StoredGame]) -> None:
        numbers: dict[tuple, int] = {}  # the chunk's deals
        #: (row, deal) -> the value added, in grid steps: the seatings of a
        #: deal summed first (exactly: integers), then weighed once
        added: dict[tuple[int, int], int] = defaultdict(int)
        for game in games:
            record = game.record
            deal = numbers.setdefault(record.deal, len(numbers))
            self.games += 1
            self.last_id = max(self.last_id, game.id)
            table = (record.game, record.players)
            self.tables[table] = self.tables.get(table, 0) + 1
            seats = self.seats.setdefault(table, {})
            pairs = self.pairs.setdefault(table, {})
            present = showings(record)
            for name, showing in present.items():
                seat = seats.get(name)
                if seat is None:
                    seat = seats[name] = _Seat(self._new_rows(3))
                seat.games += 1
                seat.seats += showing.seats
                seat.wins += showing.won
                seat.faults.update(showing.faults)
                place = round(showing.place * PLACE_GRID)
                score = round(showing.score * SCORE_GRID)
                seat.place += place
                seat.score += score
                seat.deals.see(record.seed)
                added[(seat.row, deal)] += place
                added[(seat.row + 1, deal)] += score
                added[(seat.row + 2, deal)] += 1
            for a, sa in present.items():
                for b, sb in present.items():
                    if a < b and not (sa.teams & sb.teams):
                        pair = pairs.get((a, b))
                        if pair is None:
                            pair = pairs[(a, b)] = _Pair(self._new_rows(2))
                        ahead = sa.place - sb.place
                        pair.games += 1
                        pair.above += ahead > 0
                        pair.ties += ahead == 0
                        pair.below += ahead < 0
                        diff = round((sa.score - sb.score) * SCORE_GRID)
                        pair.diff += diff
                        pair.deals.see(record.seed)
                        added[(pair.row, deal)] += diff
                        added[(pair.row + 1, deal)] += 1
        if self._rows > len(self.sums):
            self.sums = np.vstack([self.sums, np.zeros((self._rows - len(self.sums), RESAMPLES))])
        where = np.array(list(added), dtype=np.int64).reshape(-1, 2)
        _accumulate(
            self.sums,
            where[:, 0],
            where[:, 1],
            np.array(list(added.values()), dtype=float),
            deal_weights(list(numbers)),
        )

    # -- reading --------------------------------------------------------------

    def _block(self, held: Sequence[_Seat | _Pair], size: int) -> np.ndarray:
        """The resample sums of ``held`` (one participant or pair at several
        tables) taken together, in the order given: ``size`` rows."""
        block = self.sums[held[0].row : held[0].row + size].copy()
        for entry in held[1:]:
            block += self.sums[entry.row : entry.row + size]
        return block

    def summaries(
        self, tables: Sequence[TableKey], *, scores: bool = True, dummies: bool = True
    ) -> dict[str, BotStats]:
        """Per participant of ``tables`` taken together: see :func:`summarise`."""
        held: dict[str, list[_Seat]] = defaultdict(list)
        for table in tables:
            for name, seat in self.seats.get(table, {}).items():
                if dummies or not name.startswith(DUMMY_PREFIX):
                    held[name].append(seat)
        result, sums, asked = {}, [], []
        for name, seated in held.items():
            summary = result[name] = BotStats(
                name,
                games=sum(s.games for s in seated),
                seats=sum(s.seats for s in seated),
                wins=sum(s.wins for s in seated),
            )
            for seat in seated:
                summary.faults.update(seat.faults)
            summary.place = sum(s.place for s in seated) / PLACE_GRID / summary.games
            if scores:
                summary.mean_score = sum(s.score for s in seated) / SCORE_GRID / summary.games
            if len(seated) > 1 or seated[0].deals.several:
                sums.append(self._block(seated, 3))
                asked.append(summary)
        if asked:
            blocks = np.array(sums)
            places = intervals(blocks[:, 0] / PLACE_GRID, blocks[:, 2])
            found = (
                intervals(blocks[:, 1] / SCORE_GRID, blocks[:, 2])
                if scores
                else [None] * len(asked)
            )
            for summary, place, score in zip(asked, places, found):
                summary.place_interval, summary.score_interval = place, score
        return result

    def meetings(self, tables: Sequence[TableKey]) -> dict[str, dict[str, Meeting]]:
        """``result[a][b]`` over ``tables`` taken together: see :func:`head_to_head`."""
        met: dict[tuple[str, str], list[_Pair]] = defaultdict(list)
        for table in tables:
            for met_pair, pair in self.pairs.get(table, {}).items():
                met[met_pair].append(pair)
        result: dict[str, dict[str, Meeting]] = defaultdict(dict)
        sums, asked = [], []
        for (a, b), held in sorted(met.items()):
            meeting = Meeting(
                a,
                b,
                games=sum(p.games for p in held),
                above=sum(p.above for p in held),
                ties=sum(p.ties for p in held),
                below=sum(p.below for p in held),
            )
            meeting.score_diff = sum(p.diff for p in held) / SCORE_GRID / meeting.games
            result[a][b] = meeting
            if len(held) > 1 or held[0].deals.several:
                sums.append(self._block(held, 2))
                asked.append(meeting)
        if asked:
            blocks = np.array(sums)
            for meeting, found in zip(asked, intervals(blocks[:, 0] / SCORE_GRID, blocks[:, 1])):
                meeting.interval = found
        for meeting in [m for row in result.values() for m in row.values()]:
            mirror = (
                None if meeting.interval is None else (-meeting.interval[1], -meeting.interval[0])
            )
            result[meeting.b][meeting.a] = Meeting(
                meeting.b,
                meeting.a,
                meeting.games,
                meeting.below,
                meeting.ties,
                meeting.above,
                -meeting.score_diff,
                mirror,
            )
        return dict(result)

    def payoffs(
        self, tables: Sequence[TableKey], summaries: dict[str, BotStats]
    ) -> dict[str, BotStats]:
        """``summaries`` (of ``tables``) with each participant's fitted
        expected payoff: the score a game it makes above the average
        participant, from every head-to-head mean score difference at once
        (least squares, each pair weighted by the games it met in, the
        payoffs summing to 0), so a bot that met mostly strong opponents is
        not held down by them; with its interval over the resampled deals
        (a resample in which none of its deals came up left out)."""
        met: dict[tuple[str, str], list[_Pair]] = defaultdict(list)
        for table in tables:
            for met_pair, pair in self.pairs.get(table, {}).items():
                met[met_pair].append(pair)
        if not met:
            return summaries
        pairs = sorted(met)
        names = sorted({name for pair in pairs for name in pair})
        incidence = np.zeros((len(pairs), len(names)))
        for row, (a, b) in enumerate(pairs):
            incidence[row, names.index(a)], incidence[row, names.index(b)] = 1.0, -1.0
        diffs = np.array([[sum(p.diff for p in met[pair]) / SCORE_GRID] for pair in pairs])
        counts = np.array([[float(sum(p.games for p in met[pair]))] for pair in pairs])
        fitted = _payoff_fit(incidence, diffs, counts)[:, 0]
        blocks = np.array([self._block(met[pair], 2) for pair in pairs])
        resampled = _payoff_fit(incidence, blocks[:, 0] / SCORE_GRID, blocks[:, 1])
        seen = np.abs(incidence).T @ blocks[:, 1] > 0
        tail = (1.0 - LEVEL) / 2
        for i, name in enumerate(names):
            summary = summaries[name]
            summary.payoff = float(fitted[i])
            kept = resampled[i][seen[i]]
            if summary.score_interval is not None and len(kept):
                low, high = np.quantile(kept, [tail, 1.0 - tail])
                summary.payoff_interval = (float(low), float(high))
        return summaries

    def statistics(self) -> Statistics:
        by_game: dict[str, list[TableKey]] = defaultdict(list)
        for table in sorted(self.tables):
            by_game[table[0]].append(table)
        return Statistics(
            overall=self.summaries(sorted(self.tables), scores=False, dummies=False),
            games={
                game_id: self.payoffs(held, self.summaries(held))
                for game_id, held in by_game.items()
            },
            tables={
                game_id: {
                    size: Table(
                        game_id,
                        size,
                        self.tables[(game_id, size)],
                        self.summaries([(game_id, size)]),
                        self.meetings([(game_id, size)]),
                    )
                    for _, size in held
                }
                for game_id, held in by_game.items()
            },
            counts={
                game_id: sum(self.tables[t] for t in held) for game_id, held in by_game.items()
            },
        )

    # -- carrying over --------------------------------------------------------

    def state(self) -> dict:
        """Everything needed to go on from here but the resample sums
        (:meth:`sums_bytes`), as JSON data.  Data, not a pickle: a results
        folder may come from anyone, and reading it must not run code."""
        return {
            "games": self.games,
            "last_id": self.last_id,
            "resamples": RESAMPLES,
            "rows": self._rows,
            "tables": [[game_id, size, count] for (game_id, size), count in self.tables.items()],
            "seats": [
                [
                    game_id,
                    size,
                    name,
                    s.row,
                    s.games,
                    s.seats,
                    s.wins,
                    dict(s.faults),
                    s.place,
                    s.score,
                    s.deals.first,
                    s.deals.several,
                ]
                for (game_id, size), seats in self.seats.items()
                for name, s in seats.items()
            ],
            "pairs": [
                [
                    game_id,
                    size,
                    a,
                    b,
                    p.row,
                    p.games,
                    p.above,
                    p.ties,
                    p.below,
                    p.diff,
                    p.deals.first,
                    p.deals.several,
                ]
                for (game_id, size), pairs in self.pairs.items()
                for (a, b), p in pairs.items()
            ],
        }

    def sums_bytes(self) -> bytes:
        """The resample sums, exactly: their little-endian float64 bytes."""
        return self.sums[: self._rows].astype("<f8").tobytes()

    @classmethod
    def from_state(cls, data: dict, sums: bytes) -> Tally:
        """The tally :meth:`state` and :meth:`sums_bytes` described."""
        tally = cls()
        tally.games, tally.last_id = data["games"], data["last_id"]
        tally.tables = {(game_id, size): count for game_id, size, count in data["tables"]}
        for table in tally.tables:
            tally.seats[table], tally.pairs[table] = {}, {}
        for (
            game_id,
            size,
            name,
            row,
            games,
            seats,
            wins,
            faults,
            place,
            score,
            first,
            several,
        ) in data["seats"]:
            tally.seats[(game_id, size)][name] = _Seat(
                row, games, seats, wins, Counter(faults), place, score, _Deals(first, several)
            )
        for game_id, size, a, b, row, games, above, ties, below, diff, first, several in data[
            "pairs"
        ]:
            tally.pairs[(game_id, size)][(a, b)] = _Pair(
                row, games, above, ties, below, diff, _Deals(first, several)
            )
        tally._rows = data["rows"]
        tally.sums = (
            np.frombuffer(sums, dtype="<f8").reshape(tally._rows, data["resamples"]).astype(float)
        )
        return tally


def summarise(
    games: Iterable[StoredGame], *, scores: bool = True, dummies: bool = True
) -> dict[str, BotStats]:
    """Per participant: games, seats, wins, faults, place (and mean score,
    unless ``scores`` is False: across games scores mean different things)."""
    tally = Tally()
    tally.extend(games)
    return tally.summaries(sorted(tally.tables), scores=scores, dummies=dummies)


def head_to_head(games: Iterable[StoredGame]) -> dict[str, dict[str, Meeting]]:
    """``result[a][b]``: how ``a`` did against ``b`` (both directions are
    there; teammates in a game did not meet in it)."""
    tally = Tally()
    tally.extend(games)
    return tally.meetings(sorted(tally.tables))


def compute(games: Iterable[StoredGame]) -> Statistics:
    """The statistics of ``games`` in one pass (:class:`Tally` goes on)."""
    tally = Tally()
    tally.extend(games)
    return tally.statistics()
