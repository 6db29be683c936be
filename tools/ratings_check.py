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
import random
import statistics
import sys
from collections.abc import Callable, Sequence

from arena.ratings import thurstone
from arena.ratings.rating import Rater, compute
from arena.results.store import StoredGame

#: a bot's performance in one game, drawn with the given generator
Performer = Callable[[random.Random], float]


def stored(bots: Sequence[str], ranks: Sequence[int], *, teams: Sequence[int] | None = None,
           faults: Sequence[str | None] | None = None, game: str = "g",
           order: int = 0) -> StoredGame:
    """A simulated game as the store would hand it to the ratings."""
    n = len(bots)
    return StoredGame(id=order, key=f"{order}/0", item=str(order), order=order, index=0,
                      game=game, players=n, bots=list(bots),
                      scores=[float(n - r) for r in ranks], ranks=list(ranks),
                      teams=list(teams if teams is not None else range(n)),
                      faults=list(faults or [None] * n), dummies=[])


def ranks_of(performances: Sequence[float]) -> list[int]:
    """Competition ranks (1 best) of performances, higher is better."""
    return [1 + sum(other > p for other in performances) for p in performances]


def gaussian(strength: float) -> Performer:
    """TrueSkill's own model: strength plus noise of sd BETA."""
    return lambda rng: rng.gauss(strength, thurstone.BETA)


def kendall_tau(truth: dict[str, float], fitted: dict[str, float]) -> float:
    """Kendall's tau between two orders of the same bots (no ties in ``truth``)."""
    bots = sorted(truth)
    agree = total = 0
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            total += 1
            agree += (truth[a] - truth[b]) * (fitted[a] - fitted[b]) > 0
    return (2 * agree - total) / total


# -- faults ----------------------------------------------------------------------------

def _fault_shift(games: list[StoredGame], faulted: int, seat: int) -> float:
    """The largest change of another bot's mu when seat ``seat`` of game
    ``faulted`` is recorded as a timeout instead of its (honest) result."""
    before = compute(games, history=0).pools["g"].standings
    changed = list(games)
    game = changed[faulted]
    faults = [None] * game.players
    faults[seat] = "timeout"
    changed[faulted] = stored(game.bots, game.ranks, teams=game.teams, faults=faults,
                              order=game.order)
    after = compute(changed, history=0).pools["g"].standings
    culprit = game.bots[seat]
    return max(abs(after[bot].mu - before[bot].mu) for bot in before if bot != culprit)


def free_for_all_fault(seed: int, games: int = 60, seats: int = 4) -> float:
    """60 honest four-seat games of four bots; one bot times out in one game
    it lost anyway (so its result says the same): the largest other move."""
    rng = random.Random(seed)
    truth = {f"b{i}": 22.0 + 2 * i for i in range(seats)}
    played = []
    for k in range(games):
        table = rng.sample(sorted(truth), seats)
        played.append(stored(table, ranks_of([rng.gauss(truth[b], thurstone.BETA)
                                              for b in table]), order=k))
    faulted = next(k for k, g in enumerate(played) if max(g.ranks) in g.ranks)
    seat = played[faulted].ranks.index(max(played[faulted].ranks))
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
        lord_wins = rng.gauss(truth[table[lord]] + edge - statistics.fmean(peasants),
                              thurstone.SCALE) > 0
        ranks = [(1 if lord_wins else 2) if s == lord else (2 if lord_wins else 1)
                 for s in range(3)]
        played.append(stored(table, ranks, teams=[0 if s == lord else 1 for s in range(3)],
                             order=k))
    faulted = next(k for k, g in enumerate(played) if g.ranks[g.teams.index(1)] == 1)
    seat = played[faulted].teams.index(1)
    return _fault_shift(played, faulted, seat)


def check_faults(seeds: int) -> dict[str, float]:
    figures = {"free-for-all, 4 seats, 60 games": max(free_for_all_fault(s)
                                                      for s in range(seeds)),
               "1 against 2, 60 games": max(team_fault(s) for s in range(seeds))}
    print(f"faults: one timeout by one bot, largest move of another bot's mu "
          f"(max over {seeds} seeds)")
    for name, value in figures.items():
        print(f"  {name}: {value:.3f}")
    return figures


SECTIONS = ("planner", "faults", "calibration")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", choices=[*SECTIONS, []], default=[],
                        help="which checks (default: all)")
    parser.add_argument("--seeds", type=int, default=5, help="seeds per figure (default 5)")
    args = parser.parse_args(argv)
    for section in args.sections or SECTIONS:
        if section == "faults":
            check_faults(args.seeds)


if __name__ == "__main__":
    sys.exit(main())
