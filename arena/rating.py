"""TrueSkill ratings, recomputed from the store in plan order.

One rating per bot for each game and one overall rating across all games,
both computed by replaying the stored games in plan order (item order, then
game index in the item), so the numbers never depend on which worker
finished first.

How a game becomes a TrueSkill update:

* **Teams** come from ``SeatRecord.team`` (Dou Dizhu: landlord vs peasants;
  Hand and Foot: partnerships); a team's rank is its members' rank.  In a
  free-for-all each seat is its own team; equal ranks are ties.
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
* **One bot in several seats** (tables with repeats): each seat is rated as a
  copy starting from the bot's rating; the bot then takes the mean mu and the
  mean sigma of its copies.  A game with a single distinct player carries no
  information and only counts in the statistics.
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
        key = ("team", team)
        groups.setdefault(key, []).append(bot)
        ranks[key] = min(ranks.get(key, rank), rank)
    for name, _score, rank in game.dummies:
        key = ("dummy", name)
        groups[key] = [DUMMY_PREFIX + name]
        ranks[key] = rank
    keys = list(groups)
    return [groups[k] for k in keys], [ranks[k] - 1 for k in keys], penalised


PRIOR = trueskill.Rating(ENV.mu, ENV.sigma)


def _update(pool: Ratings, groups: list[list[str]], ranks: list[int]) -> None:
    names = {name for group in groups for name in group} - {FALLBACK}
    if len(names) < 2 or len(groups) < 2:
        return
    rating_groups = [tuple(PRIOR if n == FALLBACK else trueskill.Rating(pool.get(n).mu,
                                                                        pool.get(n).sigma)
                           for n in group)
                     for group in groups]
    rated = ENV.rate(rating_groups, ranks=ranks)
    copies: dict[str, list] = {}
    for group, new in zip(groups, rated):
        for name, rating in zip(group, new):
            if name != FALLBACK:
                copies.setdefault(name, []).append(rating)
    for name, values in copies.items():
        standing = pool.standings[name]
        if len(values) == 1:
            standing.mu, standing.sigma = values[0].mu, values[0].sigma
        else:
            standing.mu = sum(r.mu for r in values) / len(values)
            standing.sigma = sum(r.sigma for r in values) / len(values)


def _penalise(pool: Ratings, name: str) -> None:
    """``name`` lost one game to the fallback policy at the prior rating."""
    standing = pool.get(name)
    (lost,), _ = ENV.rate([(trueskill.Rating(standing.mu, standing.sigma),), (PRIOR,)],
                          ranks=[1, 0])
    standing.mu, standing.sigma = lost.mu, lost.sigma


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
