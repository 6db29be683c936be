"""A batch Thurstone fit on the TrueSkill scale: one MAP estimate over all games.

Why not online TrueSkill: bots are fixed programs, so their strength does not
change during a tournament, yet an online update with dynamics remembers only
the last ~90 games and the ratings depend on the order the plan lists the
games.  Why not TrueSkill Through Time (``trueskillthroughtime`` 1.1.0, last
released 2023, pure Python): with no drift and every game in one batch it is
the right model, but far too slow to fit 100,000 games (docs/performance.md).

The model is TrueSkill's: a side's performance is its skill plus Gaussian noise
of variance ``BETA**2``, and a game is decomposed into pairwise comparisons
(``p_a - p_b`` greater than the draw margin: a win; within it: a draw).  The
pairwise marginals of that model are exact, so the fit is a *composite*
likelihood: each comparison carries a weight (``1 / (sides - 1)``, so a seat
adds the information of about one game, not ``sides - 1`` of them: the pairs
of one game share its noise).  tests/test_rating.py checks the predicted
first places against a simulated game at 2 and 4 seats.

What makes it order-free and fast:

* :class:`Evidence` holds integer counts of distinct comparison rows, so adding
  games in any order gives the same object, and a 100,000-game store collapses
  to a few thousand rows; it is additive, so a fit can be updated with new
  games only.
* :func:`fit` sorts the rows and parameters before building arrays, so the
  floating-point sums are the same for any order of the games, and runs
  Newton's method on the (concave) log posterior to convergence, optionally
  from a previous fit (warm start).  ``sigma`` is the Laplace approximation:
  the square root of the diagonal of the inverse negative Hessian.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from statistics import NormalDist

# The matrices here are a few thousand rows by a few dozen columns: BLAS
# threads only wait for each other (docs/performance.md).  Effective when
# this module is the first to load numpy, as in the arena command.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

MU = 25.0
SIGMA = 25.0 / 3
BETA = 25.0 / 6
#: the prior of a role term (e.g. the landlord's advantage): centred on none
ROLE_SIGMA = 25.0 / 3
#: the noise of one comparison: two performances, each with variance BETA**2
SCALE = math.sqrt(2.0) * BETA
#: a participant of the pool's mean strength (the fallback that finishes a
#: faulted seat): a fixed strength such as MU would anchor the closed pool,
#: and one game against it would move every bot's mu
AVERAGE = "\0average"
ROLE_PREFIX = "role:"

NO_ROLE = ""
#: a side of a comparison: its members (team mean; AVERAGE: the players' mean)
#: and its role term (NO_ROLE: none)
Side = tuple[tuple[str, ...], str]
#: (winner, loser, draw) -- for a draw the two sides are in sorted order
Row = tuple[Side, Side, bool]

_SQRT2 = math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_erfc = np.frompyfunc(math.erfc, 1, 1)
_CLIP = 37.0  # |z| beyond this: probabilities below double precision


def comparison(a: Side, b: Side, outcome: int) -> Row:
    """The row for ``a`` against ``b``: ``outcome`` 1 a won, -1 b won, 0 a draw."""
    if outcome > 0:
        return (a, b, False)
    if outcome < 0:
        return (b, a, False)
    return (min(a, b), max(a, b), True)


#: ``{row: {d: how many comparisons of weight 1/d gave it}}``
Counts = dict[Row, dict[int, int]]


def _count(counts: Counts, row: Row, denominator: int) -> None:
    by_weight = counts.get(row)
    if by_weight is None:
        by_weight = counts[row] = {}
    by_weight[denominator] = by_weight.get(denominator, 0) + 1


@dataclass
class Evidence:
    """Comparison rows with their weights, as exact integer counts.

    ``counts[row][d]`` is how many comparisons of weight ``1/d`` gave
    ``row``; ``penalties`` holds the fault penalties the same way (a loss
    of the faulted bot, fitted for that bot alone: see :func:`fit`).
    Integers add exactly, so the same games in any order make the same
    evidence."""

    counts: Counts = field(default_factory=dict)
    penalties: Counts = field(default_factory=dict)

    def add(self, row: Row, denominator: int = 1) -> None:
        _count(self.counts, row, denominator)

    def add_penalty(self, row: Row, denominator: int = 1) -> None:
        _count(self.penalties, row, denominator)


@lru_cache(maxsize=200_000)
def _row_terms(row: Row) -> tuple[tuple[str, float], ...]:
    """A row's (parameter, coefficient) terms of ``winner - loser``
    (AVERAGE among them: :func:`_arrays` spreads it over the players)."""
    winner, loser, _ = row
    terms: dict[str, float] = {}
    for sign, (members, role) in ((1.0, winner), (-1.0, loser)):
        share = sign / len(members)
        for member in members:
            terms[member] = terms.get(member, 0.0) + share
        if role:
            terms[role] = terms.get(role, 0.0) + sign
    return tuple(terms.items())


@dataclass(frozen=True, eq=False)
class Fit:
    """The posterior of one pool: ``(mu, sigma)`` per player and per role term
    (sigma relative to the pool, see :func:`_relative_sigma`), and the whole
    covariance for comparisons between players."""

    ratings: dict[str, tuple[float, float]]
    roles: dict[str, tuple[float, float]]
    draw_margin: float
    iterations: int
    params: tuple[str, ...] = ()
    covariance: np.ndarray | None = None

    def relative_covariance(self, players: Sequence[str]) -> np.ndarray:
        """The covariance of ``players``' mus relative to the pool's mean
        (their sigmas are the square roots of its diagonal)."""
        if not players:
            return np.zeros((0, 0))
        if self.covariance is None:
            raise ValueError("a fit without its covariance has no relative covariance")
        where = [self.params.index(name) for name in players]
        return _relative(self.covariance, self.params)[np.ix_(where, where)]

    def sides(self, sides: Sequence[Mapping[str, float]]) -> list[tuple[float, float]]:
        """Each side's ``(mu, sigma)`` for a prediction, a side given as
        ``{player or role: coefficient}`` (a team: each member ``1/size``):
        the means, and independent sigmas whose sums of squares are the
        posterior variances of the differences between the sides (exact for
        two or three sides, least squares beyond), since only differences
        decide places and the sides' strengths are correlated (a bot always
        in one role is known as bot plus role, not apart).  A name the fit
        lacks is at its prior (MU, SIGMA for a player; none for a role)."""
        index = {name: i for i, name in enumerate(self.params)}
        known = np.zeros((len(sides), len(self.params)))
        mean = np.zeros(len(sides))
        extra = np.zeros(len(sides))
        for row, side in enumerate(sides):
            for name, coef in side.items():
                if name in index:
                    known[row, index[name]] += coef
                    fitted = self.ratings.get(name) or self.roles[name]
                    mean[row] += coef * fitted[0]
                elif not name.startswith(ROLE_PREFIX):
                    mean[row] += coef * MU
                    extra[row] += (coef * SIGMA) ** 2
        cov = (
            known @ self.covariance @ known.T
            if self.params and self.covariance is not None
            else np.zeros((len(sides),) * 2)
        )
        cov = cov + np.diag(extra)
        pairs = list(itertools.combinations(range(len(sides)), 2))
        system = np.zeros((len(pairs), len(sides)))
        for row, (i, j) in enumerate(pairs):
            system[row, [i, j]] = 1.0
        differences = np.array([cov[i, i] + cov[j, j] - 2 * cov[i, j] for i, j in pairs])
        variance = np.linalg.lstsq(system, differences, rcond=None)[0] if pairs else np.diag(cov)
        return [(float(m), math.sqrt(max(0.0, float(v)))) for m, v in zip(mean, variance)]

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """The posterior mean and sd of ``mu[a] - mu[b]``."""
        i, j = self.params.index(a), self.params.index(b)
        cov = self.covariance
        assert cov is not None, "a fit with players has their covariance"
        mean = self.ratings[a][0] - self.ratings[b][0]
        return mean, math.sqrt(max(0.0, cov[i, i] + cov[j, j] - 2 * cov[i, j]))


def _phi(z: np.ndarray) -> np.ndarray:
    return _INV_SQRT_2PI * np.exp(-0.5 * z * z)


def _cdf(z: np.ndarray) -> np.ndarray:
    return 0.5 * np.asarray(_erfc(-z / _SQRT2), dtype=float)


def _terms(d: np.ndarray, draw: np.ndarray, margin: float):
    """Log-likelihood, its first and second derivative in ``d`` (the
    winner's side minus the loser's) for every row."""
    z = np.clip(d / SCALE, -_CLIP, _CLIP)
    value = np.empty_like(z)
    grad = np.empty_like(z)
    hess = np.empty_like(z)
    win = ~draw
    if win.any():
        zw = z[win]
        cdf = _cdf(zw)
        ratio = _phi(zw) / cdf
        value[win] = np.log(cdf)
        grad[win] = ratio / SCALE
        hess[win] = -ratio * (zw + ratio) / SCALE**2
    if draw.any():
        zd = z[draw]
        m = margin / SCALE
        # P(-m < z' - z < m) computed on the tail that keeps precision
        high, low = m - np.abs(zd), -m - np.abs(zd)
        prob = np.maximum(_cdf(high) - _cdf(low), 1e-300)
        # derivatives of log(cdf(a) - cdf(b)) with a = m - z, b = -m - z
        a, b = m - zd, -m - zd
        pa, pb = _phi(a), _phi(b)
        value[draw] = np.log(prob)
        grad[draw] = -(pa - pb) / prob / SCALE
        hess[draw] = (-(a * pa - b * pb) / prob - ((pa - pb) / prob) ** 2) / SCALE**2
    return value, grad, hess


def _draw_margin(weights: np.ndarray, draw: np.ndarray) -> float:
    """The draw margin that makes two equal sides draw as often as the
    weighted comparisons did (0 when nothing was drawn)."""
    total = float(weights.sum())
    share = min(float(weights[draw].sum()) / total, 0.95) if total else 0.0
    return SCALE * NormalDist().inv_cdf(0.5 + share / 2) if share > 0 else 0.0


def _arrays(counts: Counts, index: Mapping[str, int]):
    """The rows of ``counts`` in sorted order as arrays: the design (each
    row's coefficients of ``winner - loser`` over the parameters of
    ``index``, an AVERAGE member's spread evenly over the players), the
    weights and which rows are draws."""
    rows = sorted(counts)
    w = np.array(
        [
            sum(by_weight[d] / d for d in sorted(by_weight))
            for by_weight in (counts[row] for row in rows)
        ]
    )
    players = [i for name, i in index.items() if not name.startswith(ROLE_PREFIX)]
    where = []
    for r, row in enumerate(rows):
        for name, coef in _row_terms(row):
            if name == AVERAGE:
                where += [(r, i, coef / len(players)) for i in players]
            else:
                where.append((r, index[name], coef))
    design = np.zeros((len(rows), len(index)))
    if where:
        r_index, c_index, coefs = zip(*where)
        np.add.at(design, (np.array(r_index), np.array(c_index)), np.array(coefs))
    draw = np.array([row[2] for row in rows], dtype=bool)
    return rows, design, w, draw


def _names(counts: Counts) -> set[str]:
    return {name for row in counts for name, _ in _row_terms(row)} - {AVERAGE}


def fit(
    evidence: Evidence,
    start: Mapping[str, float] | None = None,
    *,
    tolerance: float = 1e-10,
    max_iterations: int = 100,
) -> Fit:
    """The MAP ratings from ``evidence`` (warm-started from ``start``:
    ``{player or role: mu}``, e.g. the previous fit's).  Rows, weights and
    parameters are put in sorted order first, so every sum is the same for
    any order the games came in.

    The fault penalties are left out of the joint fit and then fitted for
    each faulted bot alone, every other parameter held where the joint fit
    put it (:func:`_penalise`): in a closed pool any evidence against an
    absolute reference moves the pool's mean, so a fault fitted jointly
    would move every innocent bot with it."""
    params = sorted(_names(evidence.counts) | _names(evidence.penalties))
    if not params:
        return Fit({}, {}, 0.0, 0)
    index = {name: i for i, name in enumerate(params)}
    _, design, w, draw = _arrays(evidence.counts, index)
    is_role = np.array([name.startswith(ROLE_PREFIX) for name in params], dtype=bool)
    mean = np.where(is_role, 0.0, MU)
    precision = np.where(is_role, 1.0 / ROLE_SIGMA**2, 1.0 / SIGMA**2)
    theta = mean.copy()
    if start:
        theta = np.array([start.get(name, m) for name, m in zip(params, mean)])
    margin = _draw_margin(w, draw)

    def posterior(t):
        value, grad, hess = _terms(design @ t, draw, margin)
        dev = t - mean
        return float(w @ value - 0.5 * (precision * dev * dev).sum()), grad, hess

    current, grad, hess = posterior(theta)
    iterations = 0
    for iterations in range(1, max_iterations + 1):  # noqa: B007 -- the count, read after
        gradient = design.T @ (w * grad) - precision * (theta - mean)
        negative_hessian = (design * (-w * hess)[:, None]).T @ design + np.diag(precision)
        step = np.linalg.solve(negative_hessian, gradient)
        scale = 1.0
        while True:  # backtracking keeps every step an ascent
            trial = theta + scale * step
            value, trial_grad, trial_hess = posterior(trial)
            if value >= current - 1e-12 * abs(current) or scale < 1e-6:
                break
            scale /= 2
        theta, current, grad, hess = trial, value, trial_grad, trial_hess
        if np.max(np.abs(scale * step), initial=0.0) < tolerance:
            break
    negative_hessian = (design * (-w * hess)[:, None]).T @ design + np.diag(precision)
    covariance = np.linalg.inv(negative_hessian)
    sigma = _relative_sigma(covariance, params)
    penalised = _penalise(evidence.penalties, index, theta, design, w, draw, margin, tolerance)
    ratings: dict[str, tuple[float, float]] = {}
    roles: dict[str, tuple[float, float]] = {}
    for name, mu, s in zip(params, theta, sigma):
        mu = penalised.get(name, mu)
        (roles if name.startswith(ROLE_PREFIX) else ratings)[name] = (float(mu), float(s))
    return Fit(ratings, roles, margin, iterations, tuple(params), covariance)


def _penalise(
    penalties: Counts,
    index: Mapping[str, int],
    theta: np.ndarray,
    design: np.ndarray,
    w: np.ndarray,
    draw: np.ndarray,
    margin: float,
    tolerance: float,
) -> dict[str, float]:
    """Each faulted bot's mu with its own fault penalties: its comparisons of
    the joint fit (``design``, at ``theta``) and its penalty rows, every other
    parameter held at ``theta``.  One dimension, concave: Newton's method to
    ``tolerance``."""
    if not penalties:
        return {}
    rows, p_design, p_w, p_draw = _arrays(penalties, index)
    joint, p_joint = design @ theta, p_design @ theta
    result = {}
    for bot in sorted({loser[0][0] for _, loser, _ in rows}):
        i = index[bot]
        mine = design[:, i] != 0
        own = np.array([loser == ((bot,), NO_ROLE) for _, loser, _ in rows], dtype=bool)
        coef = np.concatenate([design[mine, i], p_design[own, i]])
        base = np.concatenate([joint[mine], p_joint[own]])
        weight = np.concatenate([w[mine], p_w[own]])
        drawn = np.concatenate([draw[mine], p_draw[own]])
        shift = 0.0
        for _ in range(100):
            _, grad, hess = _terms(base + coef * shift, drawn, margin)
            gradient = coef @ (weight * grad) - (theta[i] + shift - MU) / SIGMA**2
            curvature = (coef * coef) @ (-weight * hess) + 1.0 / SIGMA**2
            step = gradient / curvature
            shift += step
            if abs(step) < tolerance:
                break
        result[bot] = float(theta[i] + shift)
    return result


def _relative_sigma(covariance: np.ndarray, params: Sequence[str]) -> np.ndarray:
    """Each parameter's sd given the mean of its group (the players; each
    player count's roles): the diagonal of :func:`_relative`."""
    return np.sqrt(np.clip(np.diag(_relative(covariance, params)), 0.0, None))


def _relative(covariance: np.ndarray, params: Sequence[str]) -> np.ndarray:
    """The covariance given the mean of each group of parameters (the
    players; each player count's roles).

    The games fix only differences: adding one number to every player leaves
    every likelihood as it is, so that common mode keeps its prior variance
    (sigma**2 / players) however many games are played.  A rating's sigma here
    is its uncertainty relative to the pool, which shrinks with the games."""
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(params):
        group = name.rsplit(":", 1)[0] if name.startswith(ROLE_PREFIX) else ""
        groups.setdefault(group, []).append(i)
    means = np.zeros((len(groups), len(params)))
    for row, members in enumerate(groups.values()):
        means[row, members] = 1.0 / len(members)
    across = covariance @ means.T
    return covariance - across @ np.linalg.solve(means @ across, across.T)


# -- predictions ----------------------------------------------------------------


def reachable_sigma(games: float) -> float:
    """The sigma a player reaches after ``games`` free-for-all games against
    equal opponents, without draws: each game adds the Fisher information of
    one comparison at even odds, ``phi(0)**2 / (1/4) / SCALE**2``.  Draws,
    teams and lopsided tables add less, so this is a floor."""
    information = (2.0 / math.pi) / SCALE**2
    return 1.0 / math.sqrt(1.0 / SIGMA**2 + games * information)


def beat_probability(a: tuple[float, float], b: tuple[float, float]) -> float:
    """P(a's performance beats b's), with both ratings' uncertainty."""
    spread = math.sqrt(2 * BETA**2 + a[1] ** 2 + b[1] ** 2)
    return 0.5 * math.erfc(-(a[0] - b[0]) / spread / _SQRT2)


_NODES, _NODE_WEIGHTS = np.polynomial.hermite_e.hermegauss(48)
_NODE_WEIGHTS = _NODE_WEIGHTS / _NODE_WEIGHTS.sum()


def first_place_probabilities(ratings: Sequence[tuple[float, float]]) -> list[float]:
    """P(each player's performance is the best of the table), free-for-all,
    with performance variance ``BETA**2 + sigma**2`` (Gauss-Hermite)."""
    mus = np.array([mu for mu, _ in ratings])
    sds = np.sqrt(BETA**2 + np.array([s for _, s in ratings]) ** 2)
    result = []
    for i in range(len(ratings)):
        perf = mus[i] + sds[i] * _NODES  # player i's performance at each node
        product = np.ones_like(perf)
        for j in range(len(ratings)):
            if j != i:
                product *= _cdf((perf - mus[j]) / sds[j])
        result.append(float(_NODE_WEIGHTS @ product))
    return result
