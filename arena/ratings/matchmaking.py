"""Matchmaking by expected information: which tables to play next.

A table's games are worth what they are expected to teach about the ratings
still too uncertain.  The ratings' posterior (:class:`Belief`: each bot's mu
and the covariance of the mus relative to the pool's mean) is Gaussian; a
comparison between two seats at expected odds ``p`` adds the Fisher
information ``phi(z)**2 / (p (1 - p)) / SCALE**2`` along ``mu_a - mu_b``,
which is largest between bots of equal strength, so a table is scored by how
much the covariance would shrink (:func:`gain`) if it were played.  What
counts is the variance of each bot whose sigma is still above the target (a
new entrant, whose sigma is the prior's, counts most) and, while there is
one, of the differences between bots near each other in the order (their
order is the one in doubt); a batch is chosen greedily, each
table's expected information added before the next is chosen, so one batch
does not spend its tables on what the first of them will already tell.

The rules around it: every pair of bots meets once before any pair meets
again (:attr:`Rules.spread`: no pair meets more than that many tables more
than the least met pair), a batch seats each bot once while it can (and,
:attr:`Rules.sequential`, a bot still above the target once while a table
without one seated already is left), and the caller plays every chosen
table on its deals in every seating (duplicate deals), which is what
``games_per_table`` counts.

The rated planner (:class:`arena.tournament.plan.RatedPlanner`) chooses its
tables with :func:`choose`; so can any planner that keeps a :class:`Belief`.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from arena.ratings.thurstone import BETA, MU, SCALE, SIGMA, Fit

#: a table: the bots by seat
Table = tuple[str, ...]


@dataclass(frozen=True, eq=False)
class Belief(Mapping[str, tuple[float, float]]):
    """What the ratings know about some bots: ``belief[bot]`` is its
    ``(mu, sigma)``, ``covariance`` the covariance of their mus relative to
    the pool's mean (in the order of ``bots``).  It equals any mapping of
    the same ``(mu, sigma)`` pairs."""

    bots: tuple[str, ...]
    mu: np.ndarray
    covariance: np.ndarray

    def __getitem__(self, bot: str) -> tuple[float, float]:
        if bot not in self.bots:
            raise KeyError(bot)
        i = self.bots.index(bot)
        return float(self.mu[i]), math.sqrt(max(0.0, float(self.covariance[i, i])))

    def __iter__(self) -> Iterator[str]:
        return iter(self.bots)

    def __len__(self) -> int:
        return len(self.bots)

    @classmethod
    def of_fit(cls, fit: Fit) -> Belief:
        """The belief of a fitted pool about its players."""
        bots = tuple(sorted(fit.ratings))
        return cls(
            bots, np.array([fit.ratings[bot][0] for bot in bots]), fit.relative_covariance(bots)
        )

    @classmethod
    def of(cls, bots: Sequence[str], ratings: Mapping[str, tuple[float, float]]) -> Belief:
        """The belief about ``bots`` from ``ratings``: a :class:`Belief`'s
        covariance where it has one, else each bot's own sigma alone; a bot
        not rated yet at the prior, ``(MU, SIGMA)``."""
        known = ratings if isinstance(ratings, Belief) else None
        mu = np.array([ratings.get(bot, (MU, SIGMA))[0] for bot in bots])
        covariance = np.diag([ratings.get(bot, (MU, SIGMA))[1] ** 2 for bot in bots])
        if known is not None:
            rated = [i for i, bot in enumerate(bots) if bot in known.bots]
            where = [known.bots.index(bots[i]) for i in rated]
            covariance[np.ix_(rated, rated)] = known.covariance[np.ix_(where, where)]
        return cls(tuple(bots), mu, covariance)

    def settled(self, target: float) -> bool:
        """Whether every sigma is below ``target``."""
        return bool(np.all(np.diag(self.covariance) < target**2))


@dataclass(frozen=True)
class Rules:
    """What :func:`choose` aims at and keeps to."""

    #: sigma below which a bot's rating is precise enough
    target: float
    #: games a chosen table plays (its deals times its seatings)
    games_per_table: int = 1
    #: no pair of bots meets at more than this many tables more than the
    #: pair that met least (while a table keeping to it is left)
    spread: int = 4
    #: a bot whose sigma is above the target sits at one table per batch
    #: while a table without such a bot seated already is left: its next
    #: opponent is chosen on the outcome of this table, not on the guess the
    #: batch starts from (the ladder's placement: fewer games of a new
    #: version until its sigma is below the target)
    sequential: bool = False


def information(difference: np.ndarray) -> np.ndarray:
    """The Fisher information about ``mu_a - mu_b`` of one comparison of two
    sides whose mus differ by ``difference`` (no draws)."""
    z = np.abs(difference) / SCALE
    tail = 0.5 * np.vectorize(math.erfc)(z / math.sqrt(2.0))
    density = np.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)
    return density**2 / (tail * (1.0 - tail)) / SCALE**2


def _pairs(tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The seat pairs of every table: (tables x pairs) index arrays."""
    seats = tables.shape[1]
    first, second = zip(*itertools.combinations(range(seats), 2))
    return tables[:, list(first)], tables[:, list(second)]


def gain(
    belief: Belief, tables: np.ndarray, rules: Rules, covariance: np.ndarray | None = None
) -> np.ndarray:
    """Per table (rows of bot indices into ``belief.bots``): how much the
    uncertainty that matters (:func:`_importance`) would shrink if it were
    played, every pair of its seats one comparison of weight
    ``1 / (seats - 1)`` per game (a bot against itself: none), from
    ``covariance`` (default: the belief's)."""
    cov = belief.covariance if covariance is None else covariance
    a, b = _pairs(tables)
    k = rules.games_per_table / (tables.shape[1] - 1) * information(belief.mu[a] - belief.mu[b])
    k = np.where(a == b, 0.0, k)
    # Woodbury: the update of the covariance is C U (K^-1 + U'CU)^-1 U'C,
    # U's columns the pairs' difference vectors e_a - e_b
    cu = np.transpose(cov[:, a] - cov[:, b], (1, 0, 2))  # tables x bots x pairs
    row_a, row_b, col_a, col_b = a[:, :, None], b[:, :, None], a[:, None, :], b[:, None, :]
    ucu = cov[row_a, col_a] - cov[row_a, col_b] - cov[row_b, col_a] + cov[row_b, col_b]
    inverse_k = np.where(k > 0, 1.0 / np.maximum(k, 1e-300), 1e12)
    middle = np.linalg.inv(ucu + inverse_k[:, :, None] * np.eye(a.shape[1]))
    weighted = np.einsum("bc,tcp->tbp", _importance(belief, rules), cu)
    return np.einsum("tbp,tpq,tbq->t", cu, middle, weighted)


def _importance(belief: Belief, rules: Rules) -> np.ndarray:
    """``W`` of the uncertainty that matters, ``trace(W C)``: the variance of
    each bot whose sigma is above the target, and (while there is one) of
    the difference between each two bots, weighted by how near they are,
    ``exp(-(mu_a - mu_b)**2 / BETA**2)``: the order of bots far apart is
    not in doubt.  The weighted differences make the graph Laplacian."""
    counted = np.diag(belief.covariance) >= rules.target**2
    weight = np.diag(counted.astype(float))
    if counted.any():
        near = np.exp(-(np.subtract.outer(belief.mu, belief.mu) ** 2) / BETA**2)
        weight += np.diag(near.sum(axis=1)) - near
    return weight


def _after(belief: Belief, table: np.ndarray, rules: Rules, covariance: np.ndarray) -> np.ndarray:
    """The covariance once ``table`` (bot indices) is played as expected."""
    a, b = _pairs(table[None, :])
    a, b = a[0], b[0]
    for x, y in zip(a, b):
        if x == y:
            continue
        k = (
            rules.games_per_table
            / (len(table) - 1)
            * information(np.array([belief.mu[x] - belief.mu[y]]))[0]
        )
        u = covariance[:, x] - covariance[:, y]
        covariance = covariance - np.outer(u, u) * k / (1.0 + k * (u[x] - u[y]))
    return covariance


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def meetings(games: Sequence[Table]) -> Counter:
    """How many of ``games`` (each its bots) each pair of distinct bots met in."""
    met: Counter = Counter()
    for table in games:
        met.update({_pair(a, b) for a, b in itertools.combinations(table, 2) if a != b})
    return met


def _allowed(options: list[Table], met: Counter, bots: Sequence[str], rules: Rules) -> list[Table]:
    """The options that keep the meeting rules, or all of them if none do:
    a table with a pair that never met while one is left, and no pair past
    the spread."""
    pairs = [_pair(a, b) for a, b in itertools.combinations(sorted(set(bots)), 2)]
    least = min((met[pair] for pair in pairs), default=0)
    within = [
        t
        for t in options
        if all(
            met[_pair(a, b)] < least + rules.spread * rules.games_per_table
            for a, b in itertools.combinations(t, 2)
            if a != b
        )
    ] or options
    unmet = [
        t
        for t in within
        if any(met[_pair(a, b)] == 0 for a, b in itertools.combinations(t, 2) if a != b)
    ]
    return unmet or within


def choose(
    belief: Belief,
    candidates: Sequence[Table],
    count: int,
    rules: Rules,
    met: Counter | None = None,
) -> list[Table]:
    """Up to ``count`` tables from ``candidates`` (each a table of bots of
    ``belief``) for the next batch, best first: each the table of most
    expected information among those that keep the rules, given the tables
    chosen before it; a bot seated once per batch while a table of unseated
    bots is left (:attr:`Rules.sequential`: then a bot above the target
    while a table without one seated is left).  Ties go to the earlier
    candidate.  ``met`` counts the games each pair has met in so far
    (:func:`meetings`)."""
    met = Counter(met or {})
    index = {bot: i for i, bot in enumerate(belief.bots)}
    covariance = belief.covariance
    chosen: list[Table] = []
    busy: set[str] = set()
    above = np.diag(covariance) >= rules.target**2
    placing = {bot for bot, a in zip(belief.bots, above) if a} if rules.sequential else set()
    for _ in range(count):
        left = [t for t in candidates if t not in chosen]
        options = (
            [t for t in left if not busy & set(t)]
            or [t for t in left if not busy & placing & set(t)]
            or left
        )
        if not options:
            break
        options = _allowed(options, met, belief.bots, rules)
        seats = np.array([[index[bot] for bot in table] for table in options])
        scores = gain(belief, seats, rules, covariance)
        best = int(np.argmax(scores))
        chosen.append(options[best])
        busy.update(options[best])
        met.update(meetings([options[best]] * rules.games_per_table))
        covariance = _after(belief, seats[best], rules, covariance)
    return chosen
