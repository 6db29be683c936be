"""Hand and Foot benchmark: random playout speed and the builder bot's results.

    .venv/bin/python benchmarks/hand_and_foot.py [--quick]

Prints (medians of a few repeats):
* random playouts per second of single rounds (option ``max_rounds=1``) and
  the mean number of decisions per round, for every table size;
* the ``hand-and-foot-builder`` team against a ``random`` team at 4 players,
  target 2,000, seats alternating between the two teams every game.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arena.inprocess import play_game  # noqa: E402
from bots.hand_and_foot import BuilderBot  # noqa: E402
from bots.random_bot import RandomBot  # noqa: E402
from engines.hand_and_foot import HandAndFoot  # noqa: E402

ENGINE = HandAndFoot()


def random_rounds(players: int, rounds: int, seed: int) -> tuple[float, float]:
    """(rounds per second, decisions per round) of uniformly random play."""
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for index in range(rounds):
        state = ENGINE.new_game(players, seed * 100_003 + index, {"max_rounds": 1})
        while acting := state.to_act():
            seat = acting[0]
            state.apply({seat: rng.choice(state.legal_actions(seat))})
            decisions += 1
    elapsed = time.perf_counter() - start
    return rounds / elapsed, decisions / rounds


def bot_vs_random(games: int, seed: int) -> dict:
    wins = ties = losses = 0
    margins = []
    rounds = 0
    start = time.perf_counter()
    for game in range(games):
        bot_team = game % 2
        bots = []
        for seat in range(4):
            bots.append(BuilderBot() if seat % 2 == bot_team else RandomBot())
        outcome = play_game(ENGINE, bots, seed + game, {"target": 2000})
        mine, theirs = outcome.scores[bot_team], outcome.scores[1 - bot_team]
        wins += mine > theirs
        ties += mine == theirs
        losses += mine < theirs
        margins.append(mine - theirs)
    return {"games": games, "wins": wins, "ties": ties, "losses": losses,
            "mean_margin": statistics.mean(margins),
            "seconds": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run")
    args = parser.parse_args()
    repeats = 3
    rounds = 10 if args.quick else 60
    games = 100 if args.quick else 1000

    print("random playouts of single rounds (default options, max_rounds=1)")
    for players in (2, 4, 6, 8, 9):
        runs = [random_rounds(players, rounds, seed) for seed in range(repeats)]
        speed = statistics.median(r[0] for r in runs)
        decisions = statistics.mean(r[1] for r in runs)
        print(f"  {players} players: {speed:7.1f} rounds/s, "
              f"{decisions:6.1f} decisions per round "
              f"({speed * decisions:,.0f} decisions/s; median of {repeats} x {rounds})")

    result = bot_vs_random(games, seed=12345)
    rate = result["wins"] / result["games"]
    print(f"builder team vs random team, 4 players, target 2000, {games} games "
          f"(bot seats alternate 0,2 / 1,3):")
    print(f"  wins {result['wins']}, ties {result['ties']}, losses {result['losses']} "
          f"-> win rate {rate:.1%}; mean margin {result['mean_margin']:+.0f} points "
          f"({result['seconds']:.1f} s)")


if __name__ == "__main__":
    main()
