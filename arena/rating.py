"""TrueSkill ratings, recomputed from the store in plan order.

One rating per bot for each game and one overall rating across all games,
both computed by replaying the stored games in plan order (item order, then
game index in the item), so the numbers never depend on which worker
finished first.

How a game becomes a TrueSkill update:

* **Teams** come from ``SeatRecord.team`` (Dou Dizhu: landlord vs peasants;
  Hand and Foot: partnerships); a team's rank is its members' rank.  In a
  free-for-all each seat is its own team; equal ranks are ties.  A team's
  performance is the *mean* of its members' (TrueSkill's partial-play weight
  1/size for every member), not the sum: a lone landlord against two
  peasants is an even game by design, and with plain sums every Dou Dizhu
  rating drifts down without end (equal bots ended near mu 3 after 600
  simulated deals; with the weights they stay near 25).
* **Faults**: a faulted seat (timeout, crash, protocol, illegal) counts as
  last, whatever the fallback policy that finished its game scored.  In a
  free-for-all it is simply ranked below everybody.  In a team game its place
  in the team is taken by a *fallback* stand-in (the policy that really
  played the seat, at the fixed prior rating, never updated or shown), so
  the teammates are rated on the result the team earned as a team of the
  same size; the faulted bot itself is then rated as having lost one game
  to that fallback (a strong bot that faults loses a lot, a weak one little).
* **Dummies** (Farm Hand's Mac and Donald) are rated like players under the
  names ``dummy:mac`` / ``dummy:donald``: their strength is a fixed policy, so
  their ratings settle and anchor the scale, and a solitaire game (one bot
  against both dummies) still says how good the bot is.  They are shown on
  the leaderboard, marked as dummies.
* **One bot in several seats** (tables with repeats): in a free-for-all the
  bot is one participant, placed at the mean of its seats' ranks (first and
  third beside another bot's second is a draw with it: the bot did not beat
  itself).  In a team game each seat is rated as a copy starting from the
  bot's rating, and the bot takes the mean mu and sigma of its copies.  A
  game with a single distinct player carries no information and only counts
  in the statistics.
* **Statistics** count seats: a bot in two seats of one game has played two
  games there, and each seat in the first place (shared or not) is a win.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import trueskill

from arena.store import StoredGame

ENV = trueskill.TrueSkill(mu=25.0, sigma=25.0 / 3, beta=25.0 / 6, tau=25.0 / 300,
                          draw_probability=0.10)
OVERALL = "overall"
DUMMY_PREFIX = "dummy:"
FALLBACK = "\0fallback"     # the stand-in for a faulted seat inside its team


@dataclass
class Standing:
    name: str
    mu: float = ENV.mu
    sigma: float = ENV.sigma
    games: int = 0          # seats played (a bot in two seats of one game: two)
    wins: int = 0           # of those, seats that finished first (ties included)
    score_sum: float = 0.0
    faults: Counter = field(default_factory=Counter)

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
class Ratings:
    """One rating pool (a game, or ``overall``)."""

    name: str
    standings: dict[str, Standing] = field(default_factory=dict)
    games: int = 0
    #: (games rated so far, {bot: mu}) sampled for the chart
    history: list[tuple[int, dict[str, float]]] = field(default_factory=list)

    def table(self) -> list[Standing]:
        """Best first by the conservative rating mu - 3 sigma."""
        return sorted(self.standings.values(), key=lambda s: (-s.conservative, -s.mu, s.name))

    def get(self, name: str) -> Standing:
        standing = self.standings.get(name)
        if standing is None:
            standing = self.standings[name] = Standing(name)
        return standing

    def snapshot(self) -> None:
        self.history.append((self.games, {n: round(s.mu, 3)
                                          for n, s in self.standings.items()}))


def participants(game: StoredGame) -> tuple[list[list[str]], list[int], list[str]]:
    """The TrueSkill groups (player names) of one game, their ranks (0 best)
    and the faulted bots of team games (rated as losing to the fallback)."""
    worst = max(list(game.ranks) + [d[2] for d in game.dummies] + [1])
    groups: dict[object, list[str]] = {}
    ranks: dict[object, int] = {}
    penalised: list[str] = []
    sizes = Counter(game.teams)
    free_for_all = max(sizes.values()) == 1
    seat_ranks: dict[object, list[int]] = {}
    clean_teams = {team for team, fault in zip(game.teams, game.faults) if not fault}
    for seat, (bot, rank, team, fault) in enumerate(zip(game.bots, game.ranks, game.teams,
                                                        game.faults)):
        if fault and sizes[team] > 1 and team in clean_teams:
            groups.setdefault(("team", team), []).append(FALLBACK)
            penalised.append(bot)
            continue
        if fault:
            groups[("fault", seat)] = [bot]
            ranks[("fault", seat)] = worst + 1
            continue
        if free_for_all:
            # one participant per bot, at the mean of its seats' ranks: a bot
            # that finished first and last beside another drew with it
            key = ("bot", bot)
            groups[key] = [bot]
            seat_ranks.setdefault(key, []).append(rank)
            continue
        key = ("team", team)
        groups.setdefault(key, []).append(bot)
        ranks[key] = min(ranks.get(key, rank), rank)
    for key, places in seat_ranks.items():
        ranks[key] = sum(places) / len(places)
    for name, _score, rank in game.dummies:
        key = ("dummy", name)
        groups[key] = [DUMMY_PREFIX + name]
        ranks[key] = rank
    keys = list(groups)
    return [groups[k] for k in keys], [ranks[k] - 1 for k in keys], penalised




# -- TrueSkill, fast ------------------------------------------------------------
#
# The trueskill package builds a graph of objects for every game (about 0.5 ms
# for a two-player game, 2 ms for five); recomputing 100,000 games twice (per
# game and overall) took minutes.  This is the same message-passing schedule
# (TrueSkill.run_schedule: prior, performance and team layers down, the
# team-difference chain iterated to DELTA, then everything up), on plain
# floats in natural parameters (pi = 1/variance, tau = pi * mean), using the
# package's own v/w functions and draw margin, so the results agree with
# ``ENV.rate`` to rounding (checked in tests/test_rating.py).

_INF = float("inf")
_DELTA = trueskill.DELTA
_MARGINS: dict[int, float] = {}


class _Var:
    __slots__ = ("pi", "tau", "msgs")

    def __init__(self):
        self.pi = 0.0
        self.tau = 0.0
        self.msgs: dict = {}

    def set(self, pi: float, tau: float) -> float:
        pi_delta = abs(self.pi - pi)
        delta = 0.0 if pi_delta == _INF else max(abs(self.tau - tau), math.sqrt(pi_delta))
        self.pi, self.tau = pi, tau
        return delta

    def update_message(self, factor, pi: float, tau: float) -> float:
        old_pi, old_tau = self.msgs[factor]
        self.msgs[factor] = (pi, tau)
        return self.set(self.pi - old_pi + pi, self.tau - old_tau + tau)

    def update_value(self, factor, pi: float, tau: float) -> float:
        old_pi, old_tau = self.msgs[factor]
        self.msgs[factor] = (pi + old_pi - self.pi, tau + old_tau - self.tau)
        return self.set(pi, tau)

    def without(self, factor) -> tuple[float, float]:
        m_pi, m_tau = self.msgs[factor]
        return self.pi - m_pi, self.tau - m_tau


def _sum_update(target: _Var, factor, terms, coeffs) -> float:
    """SumFactor.update: ``target`` = sum of coeff * term (each without this
    factor's own message)."""
    pi_inv = 0.0
    mu = 0.0
    for var, coeff in zip(terms, coeffs):
        d_pi, d_tau = var.without(factor)
        mu += coeff * (d_pi and d_tau / d_pi)
        if pi_inv == _INF:
            continue
        if d_pi == 0:
            pi_inv = _INF
        else:
            pi_inv += coeff * coeff / d_pi
    pi = 1.0 / pi_inv
    return target.update_message(factor, pi, pi * mu)


def _margin(size: int) -> float:
    margin = _MARGINS.get(size)
    if margin is None:
        margin = _MARGINS[size] = trueskill.calc_draw_margin(ENV.draw_probability, size, ENV)
    return margin


def _rate_two(groups, ranks, weights) -> list[list[tuple[float, float]]]:
    """Two teams: the graph has no loop, so the update has a closed form."""
    first, second = (0, 1) if ranks[0] <= ranks[1] else (1, 0)
    dyn2, beta2 = ENV.tau ** 2, ENV.beta ** 2
    widened = [[(mu, sigma * sigma + dyn2, weight) for (mu, sigma), weight in zip(group, ws)]
               for group, ws in zip(groups, weights)]
    c2 = sum(w * w * (var + beta2) for group in widened for _, var, w in group)
    c = math.sqrt(c2)
    mean = sum(w * mu for mu, _, w in widened[first]) - \
        sum(w * mu for mu, _, w in widened[second])
    margin = _margin(len(groups[0]) + len(groups[1]))
    if ranks[0] == ranks[1]:
        v = ENV.v_draw(mean / c, margin / c)
        w = ENV.w_draw(mean / c, margin / c)
    else:
        v = ENV.v_win(mean / c, margin / c)
        w = ENV.w_win(mean / c, margin / c)
    out: list = [None, None]
    for team, sign in ((first, 1.0), (second, -1.0)):
        out[team] = [(mu + sign * k * var / c * v, math.sqrt(var * (1.0 - k * k * var / c2 * w)))
                     for mu, var, k in widened[team]]
    return out


def fast_rate(groups: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int],
              weights: Sequence[Sequence[float]] | None = None
              ) -> list[list[tuple[float, float]]]:
    """``ENV.rate`` on ``(mu, sigma)`` pairs: new ``(mu, sigma)`` by group
    (``weights``: the package's partial-play weights, default 1)."""
    if weights is None:
        weights = [[1.0] * len(group) for group in groups]
    weights = [[max(_DELTA, w) for w in ws] for ws in weights]
    if len(groups) == 2:
        return _rate_two(groups, ranks, weights)
    order = sorted(range(len(groups)), key=lambda i: ranks[i])
    teams = [groups[i] for i in order]
    team_weights = [weights[i] for i in order]
    sorted_ranks = [ranks[i] for i in order]
    beta2, dyn2 = ENV.beta ** 2, ENV.tau ** 2
    ratings, perfs, team_vars = [], [], []
    for t, team in enumerate(teams):
        members = []
        for p, (mu, sigma) in enumerate(team):
            rating, perf = _Var(), _Var()
            # prior factor down
            rating.msgs["prior"] = (0.0, 0.0)
            rating.msgs["like"] = (0.0, 0.0)
            pi = 1.0 / (sigma * sigma + dyn2)
            rating.update_value("prior", pi, pi * mu)
            ratings.append(rating)
            members.append(perf)
            perf.msgs["like"] = (0.0, 0.0)
            perf.msgs[("team", t)] = (0.0, 0.0)
        perfs.append(members)
    # likelihood down (rating -> performance)
    flat_perfs = [perf for members in perfs for perf in members]
    for rating, perf in zip(ratings, flat_perfs):
        m_pi, m_tau = rating.without("like")
        a = 1.0 / (1.0 + beta2 * m_pi)
        perf.update_message("like", a * m_pi, a * m_tau)
    # team performance = sum of its players' performances
    for t, members in enumerate(perfs):
        var = _Var()
        var.msgs[("team", t)] = (0.0, 0.0)
        team_vars.append(var)
        _sum_update(var, ("team", t), members, team_weights[t])
    # team differences and truncation
    diffs = []
    count = len(teams) - 1
    for d in range(count):
        team_vars[d].msgs[("diff", d)] = (0.0, 0.0)
        team_vars[d + 1].msgs[("diff", d)] = (0.0, 0.0)
        var = _Var()
        var.msgs[("diff", d)] = (0.0, 0.0)
        var.msgs["trunc"] = (0.0, 0.0)
        diffs.append(var)
    truncs = []
    for d in range(count):
        size = len(teams[d]) + len(teams[d + 1])
        draw = sorted_ranks[d] == sorted_ranks[d + 1]
        truncs.append((ENV.v_draw, ENV.w_draw) if draw else (ENV.v_win, ENV.w_win))
        truncs[-1] = truncs[-1] + (_margin(size),)

    def diff_down(d):
        return _sum_update(diffs[d], ("diff", d), [team_vars[d], team_vars[d + 1]], [1.0, -1.0])

    def trunc_up(d):
        v_func, w_func, margin = truncs[d]
        var = diffs[d]
        d_pi, d_tau = var.without("trunc")
        sqrt_pi = math.sqrt(d_pi)
        x, m = d_tau / sqrt_pi, margin * sqrt_pi
        v, w = v_func(x, m), w_func(x, m)
        denom = 1.0 - w
        return var.update_value("trunc", d_pi / denom, (d_tau + sqrt_pi * v) / denom)

    def diff_up(d, index):
        if index == 1:   # right team = left team - difference
            return _sum_update(team_vars[d + 1], ("diff", d), [team_vars[d], diffs[d]],
                               [1.0, -1.0])
        return _sum_update(team_vars[d], ("diff", d), [diffs[d], team_vars[d + 1]], [1.0, 1.0])

    for _ in range(10):
        if count == 1:
            diff_down(0)
            delta = trunc_up(0)
        else:
            delta = 0.0
            for d in range(count - 1):
                diff_down(d)
                delta = max(delta, trunc_up(d))
                diff_up(d, 1)
            for d in range(count - 1, 0, -1):
                diff_down(d)
                delta = max(delta, trunc_up(d))
                diff_up(d, 0)
        if delta <= _DELTA:
            break
    diff_up(0, 0)
    diff_up(count - 1, 1)
    # team -> each performance
    for t, members in enumerate(perfs):
        factor = ("team", t)
        ws = team_weights[t]
        for index in range(len(members)):
            terms = list(members)
            terms[index] = team_vars[t]
            coeffs = [-w / ws[index] for w in ws]
            coeffs[index] = 1.0 / ws[index]
            _sum_update(members[index], factor, terms, coeffs)
    # likelihood up (performance -> rating)
    for rating, perf in zip(ratings, flat_perfs):
        m_pi, m_tau = perf.without("like")
        a = 1.0 / (1.0 + beta2 * m_pi)
        rating.update_message("like", a * m_pi, a * m_tau)
    results: list[list[tuple[float, float]]] = []
    position = 0
    for team in teams:
        out = []
        for _ in team:
            var = ratings[position]
            position += 1
            out.append((var.pi and var.tau / var.pi, math.sqrt(1.0 / var.pi) if var.pi else _INF))
        results.append(out)
    unsorted: list = [None] * len(groups)
    for where, original in enumerate(order):
        unsorted[original] = results[where]
    return unsorted


def _update(pool: Ratings, groups: list[list[str]], ranks: list[int]) -> None:
    names = {name for group in groups for name in group} - {FALLBACK}
    if len(names) < 2 or len(groups) < 2:
        return
    prior = (ENV.mu, ENV.sigma)
    standings = pool.standings
    rating_groups = []
    for group in groups:
        members = []
        for name in group:
            if name == FALLBACK:
                members.append(prior)
            else:
                standing = standings.get(name) or pool.get(name)
                members.append((standing.mu, standing.sigma))
        rating_groups.append(members)
    weights = [[1.0 / len(group)] * len(group) for group in groups]
    try:
        rated = fast_rate(rating_groups, ranks, weights)
    except FloatingPointError:   # an upset beyond double precision: leave it unrated
        return
    copies: dict[str, list] = {}
    for group, new in zip(groups, rated):
        for name, rating in zip(group, new):
            if name != FALLBACK:
                copies.setdefault(name, []).append(rating)
    for name, values in copies.items():
        standing = standings[name]
        if len(values) == 1:
            standing.mu, standing.sigma = values[0]
        else:
            standing.mu = sum(mu for mu, _ in values) / len(values)
            standing.sigma = sum(sigma for _, sigma in values) / len(values)


def _penalise(pool: Ratings, name: str) -> None:
    """``name`` lost one game to the fallback policy at the prior rating."""
    standing = pool.get(name)
    try:
        [(lost,), _] = fast_rate([[(standing.mu, standing.sigma)], [(ENV.mu, ENV.sigma)]],
                                 [1, 0])
    except FloatingPointError:
        return
    standing.mu, standing.sigma = lost


def _count(pool: Ratings, game: StoredGame) -> None:
    """Statistics per seat: games (seats played), wins (seats in the best
    place: a shared first place counts for everyone in it), scores, faults."""
    pool.games += 1
    places = [rank for rank, fault in zip(game.ranks, game.faults) if not fault]
    places += [d[2] for d in game.dummies]
    best = min(places, default=None)
    for bot, score, rank, fault in zip(game.bots, game.scores, game.ranks, game.faults):
        standing = pool.get(bot)
        standing.games += 1
        standing.score_sum += score
        if fault:
            standing.faults[fault] += 1
        elif rank == best:
            standing.wins += 1
    for name, score, rank in game.dummies:
        standing = pool.get(DUMMY_PREFIX + name)
        standing.games += 1
        standing.score_sum += score
        if rank == best:
            standing.wins += 1


def compute(games: Iterable[StoredGame], *, history: int = 300,
            total: int | None = None) -> dict[str, Ratings]:
    """Ratings per game id and ``overall`` from games in plan order.

    ``history`` is about how many chart points to keep per pool (0: none);
    ``total`` (the number of games, if known) spaces them evenly."""
    if not isinstance(games, Sequence):
        games = list(games)
    total = len(games) if total is None else total
    pools: dict[str, Ratings] = {OVERALL: Ratings(OVERALL)}
    per_game_total = Counter(g.game for g in games) if history else Counter()
    for game in games:
        groups, ranks, penalised = participants(game)
        pool = pools.get(game.game)
        if pool is None:
            pool = pools[game.game] = Ratings(game.game)
        for target, size in ((pool, per_game_total[game.game]), (pools[OVERALL], total)):
            _count(target, game)
            _update(target, groups, ranks)
            for name in penalised:
                _penalise(target, name)
            if history:
                stride = max(1, math.ceil(size / history))
                if target.games % stride == 0 or target.games == size:
                    target.snapshot()
    return pools


def current(games: Iterable[StoredGame], game: str | None = None) -> dict[str, tuple[float, float]]:
    """``{bot: (mu, sigma)}`` of one game's pool (or overall), no history."""
    pools = compute(games, history=0)
    pool = pools.get(game or OVERALL)
    return {n: (s.mu, s.sigma) for n, s in pool.standings.items()} if pool else {}
