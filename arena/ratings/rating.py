"""Ratings from the store: one batch fit per game, the same for any order of the games.

A bot is a fixed program, so every stored game of a game id says something
about the same strengths; they are fitted together (:mod:`arena.ratings.thurstone`:
a MAP fit of TrueSkill's model, reported as TrueSkill's mu and sigma), and
shuffling the games changes nothing.  :class:`Rater` takes games one by one
and refits only the pools that changed, from the last fit (warm start), so
a caller that keeps it (the tournament runner, a cached leaderboard) pays
only for the new games.  :meth:`Rater.state` is all of it as JSON data
(:mod:`arena.presentation.board_cache` keeps it beside the store); ``(games, last_id)``
says which stored games it holds, so a cache keyed by the store can add the
games with a larger id and refit from the saved means.

How a game becomes pairwise comparisons (:func:`comparisons`):

* **Sides**: in a free-for-all each seat is a side; in a team game
  (``SeatRecord.team``: Dou Dizhu's landlord against the peasants, Hand and
  Foot's partnerships) each team is one, its strength the *mean* of its
  members' (a lone landlord against two peasants is an even contest by
  design).  Dummies (Farm Hand's Mac and Donald) are sides of their own and
  rated as ``dummy:mac`` / ``dummy:donald``: a fixed policy anchors the scale.
  Every pair of sides is one comparison (win, loss or draw by rank) of weight
  ``1 / (sides - 1)``, so each side adds about one game's worth of evidence.
* **Repeat tables** (one bot in several seats): a comparison between two
  sides of the same make-up (the bot against itself, or the same partnership
  on both sides) is left out, so the bot's internal order says nothing; every
  other participant's result against each of its seats counts.
* **Roles**: every comparison between two bot sides carries a role term per
  side, estimated with the strengths (prior N(0, (25/3)^2)): where a game's
  sides differ in size the role is the size (Dou Dizhu: ``team of 1`` is the
  landlord), otherwise the side's first seat (the first player's advantage).
  A bot is then neither rewarded nor punished for how often it takes a role.
* **Faults** (timeout, crash, protocol, illegal): the faulted seat leaves the
  ranking; it *loses* to every other seat and dummy (weight as above) and,
  as the extra penalty, loses once more (weight 1) to the mean of the
  table's other honest participants.  So a fault costs more than any honest
  last place.  These losses (:func:`penalties`) are fitted for the faulted
  bot alone (:func:`arena.ratings.thurstone.fit`), so a fault moves no other
  bot: the others are rated as if the seat had not been there.  In a team
  game the fallback policy that finished the seat stands in the team at the
  pool's mean strength (``AVERAGE``; a fixed mu of 25 would anchor the
  closed pool, and one game against it moved every bot), and the teammates
  are rated on the result the team earned.
* **Statistics** count seats: a bot in two seats of one game has played two
  games there; each seat in the first place (shared or not) is a win.

The **overall** ranking is not a pool: a bot's *strength* in one game is its
mean probability of beating each other (non-dummy) bot of that game head to
head, and the overall score is the mean of its strengths over the games it
entered, shown with how many that is.  Dummies are never in it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arena.ratings import thurstone
from arena.ratings.matchmaking import Belief
from arena.ratings.thurstone import AVERAGE, NO_ROLE, ROLE_PREFIX, Evidence, Fit, comparison
from arena.records import GameRecord
from arena.results.store import StoredGame

OVERALL = "overall"
DUMMY_PREFIX = "dummy:"


@dataclass
class Standing:
    """One bot (or dummy) in one game's pool."""

    name: str
    mu: float = thurstone.MU
    sigma: float = thurstone.SIGMA
    games: int = 0  # seats played (a bot in two seats of one game: two)
    wins: int = 0  # of those, seats that finished first (ties included)
    score_sum: float = 0.0
    faults: Counter = field(default_factory=Counter)
    #: mean P(beating each other bot of the game head to head); None for a
    #: dummy or a bot alone in its game
    strength: float | None = None

    @property
    def dummy(self) -> bool:
        return self.name.startswith(DUMMY_PREFIX)

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def mean_score(self) -> float:
        return self.score_sum / self.games if self.games else 0.0


@dataclass
class Pool:
    """The ratings of one game id."""

    name: str
    standings: dict[str, Standing] = field(default_factory=dict)
    games: int = 0
    #: role term -> (mu, sigma): e.g. ``role:3p:team of 1`` is the landlord's edge
    roles: dict[str, tuple[float, float]] = field(default_factory=dict)
    draw_margin: float = 0.0
    #: (games of this pool in plan order, {bot: mu of the fit on those}) for the chart
    history: list[tuple[int, dict[str, float]]] = field(default_factory=list)

    def table(self) -> list[Standing]:
        """Best first by the conservative rating mu - 3 sigma."""
        return sorted(self.standings.values(), key=lambda s: (-s.conservative, -s.mu, s.name))


@dataclass(frozen=True)
class OverallStanding:
    """A bot across games: the mean of its per-game strengths."""

    name: str
    strength: float  # mean over the games entered, 0..1
    entered: int  # games (ids) it has a strength in
    games: int  # seats played in all games
    wins: int
    faults: Counter
    per_game: dict[str, float]


@dataclass
class Board:
    """Every pool and the overall ranking."""

    pools: dict[str, Pool]
    overall: list[OverallStanding]
    games: int


# -- from a stored game to comparisons ------------------------------------------------


def _role(players: int, name: str) -> str:
    return f"{ROLE_PREFIX}{players}p:{name}"


def comparisons(record: GameRecord) -> list[tuple[thurstone.Row, int]]:
    """The pairwise comparisons of one game and their weight denominators."""
    seats = record.seats
    sizes = Counter(seat.team for seat in seats)
    team_game = max(sizes.values(), default=1) > 1
    uneven = len(set(sizes.values())) > 1
    honest = [not seat.fault for seat in seats]
    sides: list[tuple[tuple[str, ...], str, int]] = []  # members, role, rank
    if team_game:
        seats_of: dict[int, list[int]] = {}
        for number, seat in enumerate(seats):
            seats_of.setdefault(seat.team, []).append(number)
        for members_at in seats_of.values():
            ranked = [seats[s].rank for s in members_at if honest[s]]
            if not ranked:
                continue
            members = tuple(sorted(seats[s].bot if honest[s] else AVERAGE for s in members_at))
            role = f"team of {len(members_at)}" if uneven else f"seat {members_at[0]}"
            sides.append((members, _role(record.players, role), min(ranked)))
        count = len(sizes)
    else:
        for number, seat in enumerate(seats):
            if honest[number]:
                sides.append(((seat.bot,), _role(record.players, f"seat {number}"), seat.rank))
        count = len(seats)
    for dummy in record.dummies:
        sides.append(((DUMMY_PREFIX + dummy.name,), NO_ROLE, dummy.rank))
    denominator = max(1, count + len(record.dummies) - 1)
    rows = []
    for i, (members_a, role_a, rank_a) in enumerate(sides):
        for members_b, role_b, rank_b in sides[i + 1 :]:
            if members_a == members_b:
                continue
            both = role_a and role_b
            a = (members_a, role_a if both else NO_ROLE)
            b = (members_b, role_b if both else NO_ROLE)
            rows.append((comparison(a, b, rank_b - rank_a), denominator))
    return rows


def penalties(record: GameRecord) -> list[tuple[thurstone.Row, int]]:
    """What a fault costs, fitted for the faulted bot alone: each faulted
    seat loses to every other honest seat and dummy (an honest last place,
    weight as in :func:`comparisons`) and once more, at weight 1, to the mean
    of them all (the fixed reference when there are none)."""
    honest = [seat.bot for seat in record.seats if not seat.fault]
    honest += [DUMMY_PREFIX + dummy.name for dummy in record.dummies]
    teams = {seat.team for seat in record.seats}
    sides = len(teams) if len(teams) < record.players else record.players
    denominator = max(1, sides + len(record.dummies) - 1)
    rows = []
    for seat in record.seats:
        if not seat.fault:
            continue
        loser = ((seat.bot,), NO_ROLE)
        others = sorted(name for name in honest if name != seat.bot)
        rows += [(comparison(((other,), NO_ROLE), loser, 1), denominator) for other in others]
        rows.append((comparison((tuple(others) or (AVERAGE,), NO_ROLE), loser, 1), 1))
    return rows


# -- statistics -------------------------------------------------------------------------


@dataclass
class _Tally:
    games: int = 0
    wins: int = 0
    score_sum: float = 0.0
    faults: Counter = field(default_factory=Counter)


def _count(tallies: dict[str, _Tally], record: GameRecord) -> None:
    places = [seat.rank for seat in record.seats if not seat.fault]
    places += [dummy.rank for dummy in record.dummies]
    best = min(places, default=None)
    seats = [(seat.bot, seat.score, seat.rank, seat.fault) for seat in record.seats]
    seats += [(DUMMY_PREFIX + d.name, d.score, d.rank, None) for d in record.dummies]
    for name, score, rank, fault in seats:
        tally = tallies.get(name)
        if tally is None:
            tally = tallies[name] = _Tally()
        tally.games += 1
        tally.score_sum += score
        if fault:
            tally.faults[fault] += 1
        elif rank == best:
            tally.wins += 1


def _sides(fitted: Fit, players: int, sides: Sequence[Sequence[str]]) -> list[tuple[float, float]]:
    """Each side's (mu, sigma) as the fit models it (:meth:`Fit.sides`): its
    members' mean, plus its size's role term where the sides differ in size
    (a seat's role is left out: the sides are not seated)."""
    uneven = len({len(side) for side in sides}) > 1
    terms = []
    for side in sides:
        coefficients = {bot: side.count(bot) / len(side) for bot in side}
        if uneven:
            coefficients[_role(players, f"team of {len(side)}")] = 1.0
        terms.append(coefficients)
    return fitted.sides(terms)


# -- the rater ------------------------------------------------------------------------


def _rows_state(counts: thurstone.Counts) -> list:
    return [
        [
            [list(won[0]), won[1]],
            [list(lost[0]), lost[1]],
            draw,
            [[d, n] for d, n in by_weight.items()],
        ]
        for (won, lost, draw), by_weight in counts.items()
    ]


def _rows_from_state(rows: list) -> thurstone.Counts:
    return {
        ((tuple(w_members), w_role), (tuple(l_members), l_role), draw): dict(weights)
        for (w_members, w_role), (l_members, l_role), draw, weights in rows
    }


class Rater:
    """Evidence and statistics per game, fed one game at a time; each pool
    is refitted only when it has new games, from its last fit."""

    def __init__(self):
        self.evidence: dict[str, Evidence] = {}
        self.tallies: dict[str, dict[str, _Tally]] = {}
        self.counts: Counter = Counter()
        self.fits: dict[str, Fit] = {}
        self.stale: set[str] = set()
        self.games = 0
        #: the largest stored game id added (a cache key with ``games``)
        self.last_id = -1
        #: per pool, the means a restored rater's first fit starts from
        self.start: dict[str, dict[str, float]] = {}

    def state(self) -> dict:
        """Everything needed to go on from here, as JSON data: the evidence
        and statistics per pool, the games held and each pool's fitted means
        (the warm start of its next fit).  Data, not a pickle: a results
        folder may come from anyone, and reading it must not run code."""
        starts = dict(self.start)
        for name in self.counts:
            fitted = self.fits.get(name)
            if fitted is not None and name not in self.stale:
                starts[name] = {n: mu for n, (mu, _) in {**fitted.ratings, **fitted.roles}.items()}
        return {
            "games": self.games,
            "last_id": self.last_id,
            "counts": dict(self.counts),
            "evidence": {
                name: _rows_state(evidence.counts) for name, evidence in self.evidence.items()
            },
            "penalties": {
                name: _rows_state(evidence.penalties)
                for name, evidence in self.evidence.items()
                if evidence.penalties
            },
            "tallies": {
                name: {
                    bot: [t.games, t.wins, t.score_sum, dict(t.faults)]
                    for bot, t in tallies.items()
                }
                for name, tallies in self.tallies.items()
            },
            "start": starts,
        }

    @classmethod
    def from_state(cls, data: dict) -> Rater:
        """The rater :meth:`state` described; every pool is refitted on first
        use, from the saved means (the same optimum as a fresh fit, within
        :func:`arena.ratings.thurstone.fit`'s tolerance)."""
        rater = cls()
        rater.games = data["games"]
        rater.last_id = data["last_id"]
        rater.counts = Counter(data["counts"])
        for name, rows in data["evidence"].items():
            rater.evidence[name] = Evidence(
                _rows_from_state(rows), _rows_from_state(data["penalties"].get(name, []))
            )
        for name, tallies in data["tallies"].items():
            rater.tallies[name] = {
                bot: _Tally(games, wins, score_sum, Counter(faults))
                for bot, (games, wins, score_sum, faults) in tallies.items()
            }
        rater.start = data["start"]
        rater.stale = set(rater.counts)
        return rater

    def add(self, game: StoredGame) -> None:
        record = game.record
        evidence = self.evidence.setdefault(record.game, Evidence())
        for row, denominator in comparisons(record):
            evidence.add(row, denominator)
        for row, denominator in penalties(record):
            evidence.add_penalty(row, denominator)
        _count(self.tallies.setdefault(record.game, {}), record)
        self.counts[record.game] += 1
        self.games += 1
        self.last_id = max(self.last_id, game.id)
        self.stale.add(record.game)

    def extend(self, games: Iterable[StoredGame]) -> None:
        for game in games:
            self.add(game)

    def fit(self, name: str) -> Fit:
        fitted = self.fits.get(name)
        if fitted is None or name in self.stale:
            start = self.start.get(name)
            if fitted is not None:
                start = {n: mu for n, (mu, _) in {**fitted.ratings, **fitted.roles}.items()}
            fitted = self.fits[name] = thurstone.fit(self.evidence.get(name, Evidence()), start)
            self.stale.discard(name)
        return fitted

    def ratings(self, name: str) -> dict[str, tuple[float, float]]:
        """``{bot: (mu, sigma)}`` of one game's pool."""
        return dict(self.fit(name).ratings) if name in self.counts else {}

    def first_place(self, name: str, players: int, sides: Sequence[Sequence[str]]) -> list[float]:
        """P(each side finishes first) in a game of pool ``name`` at a table
        of ``players`` seats, each side given by its members (one bot in a
        free-for-all)."""
        return thurstone.first_place_probabilities(_sides(self.fit(name), players, sides))

    def above(self, name: str, players: int, a: Sequence[str], b: Sequence[str]) -> float:
        """P(side ``a`` finishes above side ``b``) in a game of pool ``name``
        at a table of ``players`` seats (sides as in :meth:`first_place`)."""
        return thurstone.beat_probability(*_sides(self.fit(name), players, [a, b]))

    def belief(self, name: str) -> Belief:
        """One game's pool as matchmaking sees it: each player's ``(mu,
        sigma)`` and the covariance of the mus."""
        return Belief.of_fit(self.fit(name))

    def pool(self, name: str) -> Pool:
        fitted = self.fit(name)
        pool = Pool(
            name, games=self.counts[name], roles=dict(fitted.roles), draw_margin=fitted.draw_margin
        )
        for bot, tally in sorted(self.tallies.get(name, {}).items()):
            mu, sigma = fitted.ratings.get(bot, (thurstone.MU, thurstone.SIGMA))
            pool.standings[bot] = Standing(
                bot, mu, sigma, tally.games, tally.wins, tally.score_sum, Counter(tally.faults)
            )
        bots = [s for s in pool.standings.values() if not s.dummy]
        for standing in bots:
            others = [
                thurstone.beat_probability((standing.mu, standing.sigma), (o.mu, o.sigma))
                for o in bots
                if o is not standing
            ]
            standing.strength = sum(others) / len(others) if others else None
        return pool

    def board(self) -> Board:
        pools = {name: self.pool(name) for name in sorted(self.counts)}
        return Board(pools, overall(pools.values()), self.games)


def overall(pools: Iterable[Pool]) -> list[OverallStanding]:
    """Bots by their mean per-game strength (dummies never), best first."""
    per_game: dict[str, dict[str, float]] = {}
    totals: dict[str, _Tally] = {}
    for pool in pools:
        for standing in pool.standings.values():
            if standing.dummy:
                continue
            tally = totals.setdefault(standing.name, _Tally())
            tally.games += standing.games
            tally.wins += standing.wins
            tally.faults.update(standing.faults)
            if standing.strength is not None:
                per_game.setdefault(standing.name, {})[pool.name] = standing.strength
    result = []
    for name, tally in totals.items():
        strengths = per_game.get(name, {})
        mean = sum(strengths.values()) / len(strengths) if strengths else 0.0
        result.append(
            OverallStanding(
                name, mean, len(strengths), tally.games, tally.wins, tally.faults, strengths
            )
        )
    return sorted(result, key=lambda s: (-s.strength, -s.entered, s.name))


def compute(games: Iterable[StoredGame], *, history: int = 20) -> Board:
    """The board of ``games``; ``history`` is about how many chart points to
    keep per pool (fits of the games so far, in the order given; 0: none).
    The final ratings do not depend on that order."""
    if not isinstance(games, Sequence):
        games = list(games)
    rater = Rater()
    if not history:
        rater.extend(games)
        return rater.board()
    totals = Counter(game.record.game for game in games)
    charts: dict[str, list[tuple[int, dict[str, float]]]] = {}
    for game in games:
        rater.add(game)
        name = game.record.game
        done, size = rater.counts[name], totals[name]
        stride = max(1, -(-size // history))
        if done % stride == 0 or done == size:
            mus = {bot: round(mu, 3) for bot, (mu, _) in rater.fit(name).ratings.items()}
            charts.setdefault(name, []).append((done, mus))
    board = rater.board()
    for name, pool in board.pools.items():
        pool.history = charts.get(name, [])
    return board
