"""The ratings measured from outside, with bots of known strength (issue 31).

    .venv/bin/python tools/ratings_check.py              # every section
    .venv/bin/python tools/ratings_check.py faults       # one or more of:
                                                         # planner faults calibration

* ``planner``: the rated planner against random tables, 8 bots of known
  strength at two seats, until every sigma is below 2 (games needed, median
  over seeds) and the final order's Kendall tau against the truth.
* ``faults``: how far one fault by one bot moves every other bot's mu, in a
  pool of 60 honest four-seat games and in a Dou Dizhu-like 1-against-2 game.
* ``calibration``: predicted first-place and pairwise probabilities against
  what happened, per bin, at 2 to 5 seats and for teams (1 against 2, 2
  against 2), bots of known strength.

The games are simulated here (no referee): a seat's performance is drawn from
its bot's distribution and the best performance wins, so the truth is known.
tests/test_rating.py and tests/test_matchmaking.py run small forms of these.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from arena.match.seeds import SecretKey
from arena.ratings import thurstone
from arena.ratings.rating import Rater, compute
from arena.records import GameRecord, SeatRecord
from arena.records.faults import FaultKind
from arena.results.store import StoredGame
from arena.tournament.config import parse
from arena.tournament.plan import RatedPlanner, Results, plan_seed

#: a bot's performance in one game, drawn with the given generator
Performer = Callable[[random.Random], float]


def stored(
    bots: Sequence[str],
    ranks: Sequence[int],
    *,
    teams: Sequence[int] | None = None,
    faults: Sequence[str | None] | None = None,
    game: str = "g",
    order: int = 0,
) -> StoredGame:
    """A simulated game as the store would hand it to the ratings."""
    n = len(bots)
    seats = tuple(
        SeatRecord(bot, float(n - rank), rank, team, FaultKind(fault) if fault else None)
        for bot, rank, team, fault in zip(bots, ranks, teams or range(n), faults or [None] * n)
    )
    record = GameRecord(game, "1", {}, 0, n, seats)
    return StoredGame(
        record,
        id=order,
        key=f"{order}/0",
        item=str(order),
        order=order,
        index=0,
        tournament="check",
        finished=0.0,
    )


def seat_bots(game: StoredGame) -> list[str]:
    return [seat.bot for seat in game.record.seats]


def seat_ranks(game: StoredGame) -> list[int]:
    return [seat.rank for seat in game.record.seats]


def seat_teams(game: StoredGame) -> list[int]:
    return [seat.team for seat in game.record.seats]


def ranks_of(performances: Sequence[float]) -> list[int]:
    """Competition ranks (1 best) of performances, higher is better."""
    return [1 + sum(other > p for other in performances) for p in performances]


def gaussian(strength: float) -> Performer:
    """TrueSkill's own model: strength plus noise of sd BETA."""
    return lambda rng: rng.gauss(strength, thurstone.BETA)


def free_for_all_games(
    truth: dict[str, float], count: int, seats: int, seed: int, game: str = "g"
) -> list[StoredGame]:
    """``count`` games of ``seats`` bots drawn at random from ``truth``, each
    seat's performance its bot's strength plus Gaussian noise of sd BETA."""
    rng = random.Random(seed)
    games = []
    for k in range(count):
        table = rng.sample(sorted(truth), seats)
        games.append(
            stored(
                table,
                ranks_of([rng.gauss(truth[b], thurstone.BETA) for b in table]),
                game=game,
                order=k,
            )
        )
    return games


def kendall_tau(truth: dict[str, float], fitted: dict[str, float]) -> float:
    """Kendall's tau between two orders of the same bots (no ties in ``truth``)."""
    bots = sorted(truth)
    agree = total = 0
    for i, a in enumerate(bots):
        for b in bots[i + 1 :]:
            total += 1
            agree += (truth[a] - truth[b]) * (fitted[a] - fitted[b]) > 0
    return (2 * agree - total) / total


# -- the rated planner -------------------------------------------------------------------


class _Registry:
    """One free-for-all game, ``race``, of 2 to 5 seats; any bot name."""

    class _Info:
        id, players, teams = "race", (2, 3, 4, 5), "none"

        def check_players(self, count: int) -> None:
            if count not in self.players:
                raise ValueError(f"race is for 2 to 5 players, not {count}")

        def resolve_options(self, options: dict | None) -> dict:
            return dict(options or {})

    class _Engine:
        info: Any = None

    def engine(self, game_id: str):
        engine = self._Engine()
        engine.info = self._Info()
        return engine

    def bot(self, name: str):
        from arena.plugins.botspec import BotSpec

        return BotSpec(name, entry="x:Y")


class RandomTables(RatedPlanner):
    """The rated planner's budget, batches and stopping rule, with tables
    drawn at random: the baseline."""

    def _tables(self, entry, group, players, step, size, results):
        chosen = super()._tables(entry, group, players, step, size, results)
        if not chosen:
            return []
        rng = random.Random(plan_seed(self.tournament.seed, "random", group, step))
        return [tuple(rng.sample(list(entry.bots), players)) for _ in chosen]


EIGHT = {f"s{i}": 18.0 + 2.0 * i for i in range(8)}


def rated_run(
    planner_class: type[RatedPlanner],
    truth: dict[str, float],
    seed: int,
    *,
    target: float = 2.0,
    budget: int = 400,
    players: int = 2,
    batch: int = 4,
) -> tuple[int, float, int]:
    """A rated tournament of bots of known (Gaussian) strength, played out
    here: (games played when every sigma was below ``target`` or the budget
    was spent, Kendall tau of the final mus against the truth, pairs met)."""
    from arena.ratings.thurstone import MU

    data = {
        "name": "check",
        "seed": seed,
        "bots": sorted(truth),
        "format": "rated",
        "rated": {"budget": budget, "sigma": target, "batch": batch},
        "games": [{"id": "race", "players": [players]}],
    }
    tournament = parse(data, "check.toml", _Registry())
    planner = planner_class(tournament, SecretKey.from_public_seed(seed))
    rater, results = Rater(), Results()
    results.ratings = lambda group: rater.belief("race") if rater.games else {}
    rng = random.Random(seed)
    met: set[frozenset] = set()
    while batch_items := planner.next_batch(results):
        for item in batch_items:
            results.planned.setdefault((item.group, item.round), []).append(item)
            for k in range(len(item.deals)):
                bots = item.bots_at(k)
                ranks = ranks_of([rng.gauss(truth[b], thurstone.BETA) for b in bots])
                results.games.setdefault(item.id, []).append((bots, ranks, []))
                rater.add(stored(bots, ranks, game="race", order=rater.games))
                met.update(frozenset(p) for p in itertools.combinations(set(bots), 2))
    fitted = (
        {bot: mu for bot, (mu, _) in rater.ratings("race").items()}
        if rater.games
        else {bot: MU for bot in truth}
    )
    return rater.games, kendall_tau(truth, fitted), len(met)


def planner_runs(seeds: int) -> dict[str, list[tuple[int, float, int]]]:
    """Per seed, (games, Kendall tau, pairs met) of the rated planner, of
    random tables until every sigma is below 2, and of random tables for as
    many games as the planner played (its order's fair comparison)."""
    planner = [rated_run(RatedPlanner, EIGHT, seed) for seed in range(seeds)]
    return {
        "rated planner": planner,
        "random tables": [rated_run(RandomTables, EIGHT, seed) for seed in range(seeds)],
        "random tables, the planner's games": [
            rated_run(RandomTables, EIGHT, seed, target=0.01, budget=games)
            for seed, (games, _, _) in enumerate(planner)
        ],
    }


def check_planner(seeds: int) -> dict[str, list[tuple[int, float, int]]]:
    runs = planner_runs(seeds)
    print(
        f"planner: 8 bots of strength 18, 20, ..., 32 at two seats, target sigma 2, "
        f"budget 400, batches of 4 tables ({seeds} seeds)"
    )
    for name, figures in runs.items():
        games = [g for g, _, _ in figures]
        taus = [t for _, t, _ in figures]
        print(
            f"  {name}: games {games}, median {statistics.median(games):g}; "
            f"Kendall tau {[round(t, 3) for t in taus]}, median "
            f"{statistics.median(taus):.3f}, mean {statistics.fmean(taus):.3f}; "
            f"pairs met {[m for _, _, m in figures]} of 28"
        )
    return runs


# -- faults ----------------------------------------------------------------------------


def _fault_shift(games: list[StoredGame], faulted: int, seat: int) -> float:
    """The largest change of another bot's mu when seat ``seat`` of game
    ``faulted`` is recorded as a timeout instead of its (honest) result."""
    before = compute(games, history=0).pools["g"].standings
    changed = list(games)
    game = changed[faulted]
    faults: list[str | None] = [None] * game.record.players
    faults[seat] = "timeout"
    changed[faulted] = stored(
        seat_bots(game), seat_ranks(game), teams=seat_teams(game), faults=faults, order=game.order
    )
    after = compute(changed, history=0).pools["g"].standings
    culprit = seat_bots(game)[seat]
    return max(abs(after[bot].mu - before[bot].mu) for bot in before if bot != culprit)


def free_for_all_fault(seed: int, games: int = 60, seats: int = 4) -> float:
    """60 honest four-seat games of four bots; one bot times out in one game
    it lost anyway (so its result says the same): the largest other move."""
    truth = {f"b{i}": 22.0 + 2 * i for i in range(seats)}
    played = free_for_all_games(truth, games, seats, seed)
    faulted = next(k for k, g in enumerate(played) if max(seat_ranks(g)) in seat_ranks(g))
    seat = seat_ranks(played[faulted]).index(max(seat_ranks(played[faulted])))
    return _fault_shift(played, faulted, seat)


def team_fault(seed: int, games: int = 60) -> float:
    """A Dou Dizhu-like pool (a landlord against two peasants, the landlord
    winning 40% between equals); a peasant of a winning team times out (the
    fallback finishes its seat): the largest move of its partner or the landlord."""
    rng = random.Random(seed)
    truth = {"lord-ish": 27.0, "mid": 25.0, "low": 23.0}
    edge = thurstone.SCALE * statistics.NormalDist().inv_cdf(0.4)
    played = []
    for k in range(games):
        table = rng.sample(sorted(truth), 3)
        lord = rng.randrange(3)
        peasants = [truth[b] for s, b in enumerate(table) if s != lord]
        lord_wins = (
            rng.gauss(truth[table[lord]] + edge - statistics.fmean(peasants), thurstone.SCALE) > 0
        )
        ranks = [
            (1 if lord_wins else 2) if s == lord else (2 if lord_wins else 1) for s in range(3)
        ]
        played.append(
            stored(table, ranks, teams=[0 if s == lord else 1 for s in range(3)], order=k)
        )
    faulted = next(k for k, g in enumerate(played) if seat_ranks(g)[seat_teams(g).index(1)] == 1)
    seat = seat_teams(played[faulted]).index(1)
    return _fault_shift(played, faulted, seat)


def check_faults(seeds: int) -> dict[str, float]:
    figures = {
        "free-for-all, 4 seats, 60 games": max(free_for_all_fault(s) for s in range(seeds)),
        "1 against 2, 60 games": max(team_fault(s) for s in range(seeds)),
    }
    print(
        f"faults: one timeout by one bot, largest move of another bot's mu (max over {seeds} seeds)"
    )
    for name, value in figures.items():
        print(f"  {name}: {value:.3f}")
    return figures


# -- calibration -----------------------------------------------------------------------


def mixture(strong: float, weak: float, share: float) -> Performer:
    """A bot that plays its strong policy in ``share`` of its games and its
    weak one in the rest (each with noise of sd BETA / 2): a performance
    TrueSkill's Gaussian does not describe."""

    def perform(rng: random.Random) -> float:
        mean = strong if rng.random() < share else weak
        return rng.gauss(mean, thurstone.BETA / 2)

    return perform


def gumbel(strength: float) -> Performer:
    """Strength plus Gumbel noise of TrueSkill's variance: luck that acts
    like the best of many chances, whose tail favours the favourite more
    than a Gaussian's (Plackett-Luce's model)."""
    scale = thurstone.BETA * math.sqrt(6.0) / math.pi
    return lambda rng: strength - scale * math.log(-math.log(1.0 - rng.random()))


#: bots of known strength for the calibration, over a range of about 20 mu:
#: mixtures of a strong and a weak policy, Gaussian and Gumbel performers
BOTS: dict[str, Performer] = {
    **{f"mix{round(100 * q)}": mixture(32.0, 18.0, q) for q in (0.1, 0.3, 0.5, 0.7, 0.9)},
    **{f"gauss{m}": gaussian(float(m)) for m in (17, 21, 25, 29, 33)},
    **{f"gumbel{m}": gumbel(float(m)) for m in (16, 20, 24, 28, 32)},
}


def play(
    table: Sequence[str], rng: random.Random, teams: Sequence[int] | None = None, order: int = 0
) -> StoredGame:
    """One game of ``table``: the best performance wins; in a team game a
    side's performance is its members' mean, and every member takes its
    side's rank."""
    performance = [BOTS[bot](rng) for bot in table]
    if teams is None:
        return stored(table, ranks_of(performance), order=order)
    sides = sorted(set(teams))
    side_perf = [
        statistics.fmean(p for p, t in zip(performance, teams) if t == side) for side in sides
    ]
    side_rank = dict(zip(sides, ranks_of(side_perf)))
    return stored(table, [side_rank[t] for t in teams], teams=teams, order=order)


def _teams(seats: int, team_sizes: Sequence[int] | None, rng: random.Random) -> list[int] | None:
    if team_sizes is None:
        return None
    teams = [side for side, size in enumerate(team_sizes) for _ in range(size)]
    rng.shuffle(teams)
    return teams


class Reliability:
    """Predicted probabilities against outcomes, in bins of 0.1."""

    def __init__(self) -> None:
        self.bins: dict[int, list[float]] = {}

    def add(self, predicted: float, happened: float) -> None:
        counts = self.bins.setdefault(min(9, int(predicted * 10)), [0, 0.0, 0.0])
        counts[0] += 1
        counts[1] += predicted
        counts[2] += happened

    def rows(self, least: int) -> list[tuple[int, float, float]]:
        """(games, mean predicted, observed rate) of the bins of ``least`` games or more."""
        return [(int(n), p / n, o / n) for _, (n, p, o) in sorted(self.bins.items()) if n >= least]

    def worst(self, least: int) -> float:
        return max((abs(p - o) for _, p, o in self.rows(least)), default=0.0)


def calibration(
    seats: int, seed: int, train: int, test: int, team_sizes: Sequence[int] | None = None
) -> tuple[Reliability, Reliability]:
    """Fit on ``train`` games of random tables of ``seats`` of :data:`BOTS`,
    then predict ``test`` new games: the reliability of first place (a
    side's, in a team game) and of each pair of sides' order."""
    rng = random.Random(seed)
    bots = sorted(BOTS)
    games = [
        play(rng.sample(bots, seats), rng, _teams(seats, team_sizes, rng), order=k)
        for k in range(train)
    ]
    rater = Rater()
    rater.extend(games)
    first, pairwise = Reliability(), Reliability()
    for _ in range(test):
        game = play(rng.sample(bots, seats), rng, _teams(seats, team_sizes, rng))
        for predicted, happened in predictions(rater, game):
            first.add(predicted, happened)
        for predicted, happened in pair_predictions(rater, game):
            pairwise.add(predicted, happened)
    return first, pairwise


def _sides(game: StoredGame) -> list[tuple[tuple[str, ...], int]]:
    """(members, rank) of each side of a game."""
    members: dict[int, list[str]] = {}
    ranks: dict[int, int] = {}
    for bot, team, rank in zip(seat_bots(game), seat_teams(game), seat_ranks(game)):
        members.setdefault(team, []).append(bot)
        ranks[team] = rank
    return [(tuple(members[t]), ranks[t]) for t in sorted(members)]


def predictions(rater: Rater, game: StoredGame) -> list[tuple[float, float]]:
    """(predicted P(first), 1 if it came first) per side of ``game``."""
    sides = _sides(game)
    chances = rater.first_place(
        game.record.game, game.record.players, [members for members, _ in sides]
    )
    return [(p, float(rank == 1)) for p, (_, rank) in zip(chances, sides)]


def pair_predictions(rater: Rater, game: StoredGame) -> list[tuple[float, float]]:
    """(predicted P(a above b), 1 if it was) per pair of sides, each pair once
    in the order that predicts at least 1/2."""
    sides = _sides(game)
    result = []
    for (a, rank_a), (b, rank_b) in itertools.combinations(sides, 2):
        p = rater.above(game.record.game, game.record.players, a, b)
        happened = 1.0 if rank_a < rank_b else 0.0 if rank_a > rank_b else 0.5
        result.append((p, happened) if p >= 0.5 else (1 - p, 1 - happened))
    return result


#: (name, seats, team sizes or None)
TABLES = [
    ("2 seats", 2, None),
    ("3 seats", 3, None),
    ("4 seats", 4, None),
    ("5 seats", 5, None),
    ("1 against 2", 3, (1, 2)),
    ("2 against 2", 4, (2, 2)),
]


def check_calibration(
    seeds: int, train: int = 3000, test: int = 6000, least: int = 200
) -> dict[str, tuple[float, float]]:
    print(
        f"calibration: {len(BOTS)} bots of known strength (mixtures, Gaussians, Gumbels), "
        f"fitted on {train} games, predicted on {test} new ones per seed ({seeds} seeds); "
        f"bins of 0.1 with {least} predictions or more: mean predicted -> observed "
        f"(predictions)"
    )
    worst = {}
    for name, seats, team_sizes in TABLES:
        first, pairwise = Reliability(), Reliability()
        for seed in range(seeds):
            f, p = calibration(seats, seed, train, test, team_sizes)
            for into, part in ((first, f), (pairwise, p)):
                for key, (n, pred, obs) in part.bins.items():
                    counts = into.bins.setdefault(key, [0, 0.0, 0.0])
                    counts[0] += n
                    counts[1] += pred
                    counts[2] += obs
        worst[name] = (first.worst(least), pairwise.worst(least))
        for label, table in (("first", first), ("pairwise", pairwise)):
            bins = "  ".join(f"{p:.3f}->{o:.3f} ({n})" for n, p, o in table.rows(least))
            print(f"  {name}, {label}: worst {table.worst(least):.3f}: {bins}")
    return worst


SECTIONS = ("planner", "faults", "calibration")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "sections",
        nargs="*",
        choices=[*SECTIONS, []],
        default=[],
        help="which checks (default: all)",
    )
    parser.add_argument("--seeds", type=int, default=5, help="seeds per figure (default 5)")
    args = parser.parse_args(argv)
    for section in args.sections or SECTIONS:
        if section == "planner":
            check_planner(args.seeds)
        if section == "faults":
            check_faults(args.seeds)
        if section == "calibration":
            check_calibration(args.seeds)


if __name__ == "__main__":
    main()
