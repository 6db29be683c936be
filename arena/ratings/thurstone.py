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

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from statistics import NormalDist

# The matrices here are a few thousand rows by a few dozen columns: BLAS
# threads only wait for each other (docs/performance.md).  Effective when
# this module is the first to load numpy, as in the arena command.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

MU = 25.0
SIGMA = 25.0 / 3
BETA = 25.0 / 6
#: the prior of a role term (e.g. the landlord's advantage): centred on none
ROLE_SIGMA = 25.0 / 3
#: the noise of one comparison: two performances, each with variance BETA**2
SCALE = math.sqrt(2.0) * BETA
#: a fixed participant of strength MU (the fault reference, the fallback)
FIXED = "\0fixed"
ROLE_PREFIX = "role:"

NO_ROLE = ""
#: a side of a comparison: its members (team mean; FIXED members count at MU)
#: and its role term (NO_ROLE: none)
Side = tuple[tuple[str, ...], str]
#: (winner, loser, draw) -- for a draw the two sides are in sorted order
Row = tuple[Side, Side, bool]

_SQRT2 = math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_erfc = np.frompyfunc(math.erfc, 1, 1)
_CLIP = 37.0                 # |z| beyond this: probabilities below double precision


def comparison(a: Side, b: Side, outcome: int) -> Row:
    """The row for ``a`` against ``b``: ``outcome`` 1 a won, -1 b won, 0 a draw."""
    if outcome > 0:
        return (a, b, False)
    if outcome < 0:
        return (b, a, False)
    return (min(a, b), max(a, b), True)


@dataclass
class Evidence:
    """Comparison rows with their weights, as exact integer counts.

    ``counts[row][d]`` is how many comparisons of weight ``1/d`` gave
    ``row``.  Integers add exactly, so the same games in any order make the
    same evidence."""

    counts: dict[Row, dict[int, int]] = field(default_factory=dict)

    def add(self, row: Row, denominator: int = 1) -> None:
        by_weight = self.counts.get(row)
        if by_weight is None:
            by_weight = self.counts[row] = {}
        by_weight[denominator] = by_weight.get(denominator, 0) + 1


@lru_cache(maxsize=200_000)
def _row_terms(row: Row) -> tuple[tuple[tuple[str, float], ...], float]:
    """A row's (parameter, coefficient) terms of ``winner - loser`` and the
    constant from FIXED members."""
    winner, loser, _ = row
    terms: dict[str, float] = {}
    offset = 0.0
    for sign, (members, role) in ((1.0, winner), (-1.0, loser)):
        share = sign / len(members)
        for member in members:
            if member == FIXED:
                offset += share * MU
            else:
                terms[member] = terms.get(member, 0.0) + share
        if role:
            terms[role] = terms.get(role, 0.0) + sign
    return tuple(terms.items()), offset


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

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """The posterior mean and sd of ``mu[a] - mu[b]``."""
        i, j = self.params.index(a), self.params.index(b)
        cov = self.covariance
        mean = self.ratings[a][0] - self.ratings[b][0]
        return mean, math.sqrt(max(0.0, cov[i, i] + cov[j, j] - 2 * cov[i, j]))


def _phi(z: np.ndarray) -> np.ndarray:
    return _INV_SQRT_2PI * np.exp(-0.5 * z * z)


def _cdf(z: np.ndarray) -> np.ndarray:
    return 0.5 * _erfc(-z / _SQRT2).astype(float)


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
        hess[win] = -ratio * (zw + ratio) / SCALE ** 2
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
        hess[draw] = (-(a * pa - b * pb) / prob - ((pa - pb) / prob) ** 2) / SCALE ** 2
    return value, grad, hess


def _draw_margin(weights: np.ndarray, draw: np.ndarray) -> float:
    """The draw margin that makes two equal sides draw as often as the
    weighted comparisons did (0 when nothing was drawn)."""
    total = float(weights.sum())
    share = min(float(weights[draw].sum()) / total, 0.95) if total else 0.0
    return SCALE * NormalDist().inv_cdf(0.5 + share / 2) if share > 0 else 0.0


def fit(evidence: Evidence, start: Mapping[str, float] | None = None, *,
        tolerance: float = 1e-10, max_iterations: int = 100) -> Fit:
    """The MAP ratings from ``evidence`` (warm-started from ``start``:
    ``{player or role: mu}``, e.g. the previous fit's).  Rows, weights and
    parameters are put in sorted order first, so every sum is the same for
    any order the games came in."""
    rows = sorted(evidence.counts)
    w = np.array([sum(by_weight[d] / d for d in sorted(by_weight))
                  for by_weight in (evidence.counts[row] for row in rows)])
    terms = [_row_terms(row) for row in rows]
    params = sorted({name for row_terms, _ in terms for name, _ in row_terms})
    if not params:
        return Fit({}, {}, 0.0, 0)
    index = {name: i for i, name in enumerate(params)}
    design = np.zeros((len(rows), len(params)))
    offset = np.array([constant for _, constant in terms])
    where = [(r, index[name], coef) for r, (row_terms, _) in enumerate(terms)
             for name, coef in row_terms]
    if where:
        r_index, c_index, coefs = zip(*where)
        np.add.at(design, (np.array(r_index), np.array(c_index)), np.array(coefs))
    draw = np.array([row[2] for row in rows], dtype=bool)
    is_role = np.array([name.startswith(ROLE_PREFIX) for name in params], dtype=bool)
    mean = np.where(is_role, 0.0, MU)
    precision = np.where(is_role, 1.0 / ROLE_SIGMA ** 2, 1.0 / SIGMA ** 2)
    theta = mean.copy()
    if start:
        theta = np.array([start.get(name, m) for name, m in zip(params, mean)])
    margin = _draw_margin(w, draw)

    def posterior(t):
        value, grad, hess = _terms(design @ t + offset, draw, margin)
        dev = t - mean
        return float(w @ value - 0.5 * (precision * dev * dev).sum()), grad, hess

    current, grad, hess = posterior(theta)
    iterations = 0
    for iterations in range(1, max_iterations + 1):
        gradient = design.T @ (w * grad) - precision * (theta - mean)
        negative_hessian = (design * (-w * hess)[:, None]).T @ design + np.diag(precision)
        step = np.linalg.solve(negative_hessian, gradient)
        scale = 1.0
        while True:       # backtracking keeps every step an ascent
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
    ratings, roles = {}, {}
    for name, mu, s in zip(params, theta, sigma):
        (roles if name.startswith(ROLE_PREFIX) else ratings)[name] = (float(mu), float(s))
    return Fit(ratings, roles, margin, iterations, tuple(params), covariance)


def _relative_sigma(covariance: np.ndarray, params: list[str]) -> np.ndarray:
    """Each parameter's sd given the mean of its group (the players; each
    player count's roles).

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
    conditional = covariance - across @ np.linalg.solve(means @ across, across.T)
    return np.sqrt(np.clip(np.diag(conditional), 0.0, None))


# -- predictions ----------------------------------------------------------------

def reachable_sigma(games: float) -> float:
    """The sigma a player reaches after ``games`` free-for-all games against
    equal opponents, without draws: each game adds the Fisher information of
    one comparison at even odds, ``phi(0)**2 / (1/4) / SCALE**2``.  Draws,
    teams and lopsided tables add less, so this is a floor."""
    information = (2.0 / math.pi) / SCALE ** 2
    return 1.0 / math.sqrt(1.0 / SIGMA ** 2 + games * information)


def beat_probability(a: tuple[float, float], b: tuple[float, float]) -> float:
    """P(a's performance beats b's), with both ratings' uncertainty."""
    spread = math.sqrt(2 * BETA ** 2 + a[1] ** 2 + b[1] ** 2)
    return 0.5 * math.erfc(-(a[0] - b[0]) / spread / _SQRT2)


_NODES, _NODE_WEIGHTS = np.polynomial.hermite_e.hermegauss(48)
_NODE_WEIGHTS = _NODE_WEIGHTS / _NODE_WEIGHTS.sum()


def first_place_probabilities(ratings: list[tuple[float, float]]) -> list[float]:
    """P(each player's performance is the best of the table), free-for-all,
    with performance variance ``BETA**2 + sigma**2`` (Gauss-Hermite)."""
    mus = np.array([mu for mu, _ in ratings])
    sds = np.sqrt(BETA ** 2 + np.array([s for _, s in ratings]) ** 2)
    result = []
    for i in range(len(ratings)):
        perf = mus[i] + sds[i] * _NODES           # player i's performance at each node
        product = np.ones_like(perf)
        for j in range(len(ratings)):
            if j != i:
                product *= _cdf((perf - mus[j]) / sds[j])
        result.append(float(_NODE_WEIGHTS @ product))
    return result
