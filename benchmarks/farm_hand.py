"""Farm Hand figures: engine speed and the farm-hand-counter bot's strength.

    .venv/bin/python benchmarks/farm_hand.py            # full run (a few minutes)
    .venv/bin/python benchmarks/farm_hand.py --quick    # small run while developing

Prints:
* random playouts per second (whole games, six rounds plus any tie-break
  replays, random legal actions straight on the engine), median of 3 repeats,
  for every table size (3, 4 and 5 seats are the figures asked for);
* farm-hand-counter against three ``random`` bots (4 seats, the bot's seat
  rotating): its mean score, win rate (outright first place) and share of
  first (shared or not), with the random seats' mean score beside it;
* farm-hand-counter in solitaire against Mac and Donald: mean score, how often
  it beats both dummies outright, and how often it reaches the rulebook's
  challenge of 21 points (the maximum: every bid exact in all six rounds);
  ``random`` in the same seat as a baseline.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.inprocess import play_game  # noqa: E402
from bots.farm_hand import CounterBot  # noqa: E402
from bots.random_bot import RandomBot  # noqa: E402
from engines.farm_hand import FarmHand  # noqa: E402

ENGINE = FarmHand()


def playouts_per_second(players: int, games: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for index in range(games):
        state = ENGINE.new_game(players, seed * 100_003 + index)
        while acting := state.to_act():
            state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in acting})
        state.outcome()
    return games / (time.perf_counter() - start)


def versus_random(games: int) -> dict[str, float]:
    bot_scores, wins, firsts, random_scores = [], 0, 0, []
    start = time.perf_counter()
    for game in range(games):
        seat = game % 4
        bots = [RandomBot() for _ in range(4)]
        bots[seat] = CounterBot()
        outcome = play_game(ENGINE, bots, seed=game)
        bot_scores.append(outcome.scores[seat])
        random_scores.extend(s for i, s in enumerate(outcome.scores) if i != seat)
        firsts += outcome.ranks[seat] == 1
        wins += outcome.ranks[seat] == 1 and list(outcome.ranks).count(1) == 1
    return {
        "games": games,
        "mean": statistics.fmean(bot_scores),
        "stdev": statistics.stdev(bot_scores) if games > 1 else 0.0,
        "win": wins / games,
        "first": firsts / games,
        "random_mean": statistics.fmean(random_scores),
        "seconds": time.perf_counter() - start,
    }


def solitaire(games: int, bot_class) -> dict[str, float]:
    scores, wins, firsts, reached = [], 0, 0, 0
    exact = 0
    start = time.perf_counter()
    for game in range(games):
        outcome = play_game(ENGINE, [bot_class()], seed=game)
        score = outcome.scores[0]
        scores.append(score)
        everyone = [outcome.ranks[0]] + [d.rank for d in outcome.dummies]
        firsts += outcome.ranks[0] == 1
        wins += outcome.ranks[0] == 1 and everyone.count(1) == 1
        reached += score >= 21
        exact += score == 21
    return {
        "games": games,
        "mean": statistics.fmean(scores),
        "stdev": statistics.stdev(scores) if games > 1 else 0.0,
        "win": wins / games,
        "first": firsts / games,
        "reach21": reached / games,
        "seconds": time.perf_counter() - start,
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run while developing")
    args = parser.parse_args(argv)
    playout_games = 100 if args.quick else 400
    bot_games = 100 if args.quick else 2000

    print(f"farm-hand engine: random playouts/s (median of 3 x {playout_games} games)")
    for players in (1, 2, 3, 4, 5):
        runs = [playouts_per_second(players, playout_games, seed) for seed in range(3)]
        label = {1: "1 seat + Mac + Donald", 2: "2 seats + Mac"}.get(players, f"{players} seats")
        print(f"  {label:<22} {statistics.median(runs):8.0f} playouts/s")

    print(f"\nfarm-hand-counter vs 3 x random, 4 seats, {bot_games} games (bot seat rotates)")
    r = versus_random(bot_games)
    print(f"  bot mean score {r['mean']:6.2f} (sd {r['stdev']:.2f})   random seats' mean "
          f"{r['random_mean']:6.2f}")
    print(f"  bot wins outright {r['win']:6.1%}   first incl. shared {r['first']:6.1%}   "
          f"({r['seconds'] / bot_games * 1000:.0f} ms/game)")

    print(f"\nsolitaire vs Mac and Donald, {bot_games} games")
    for name, bot_class in (("farm-hand-counter", CounterBot), ("random", RandomBot)):
        s = solitaire(bot_games, bot_class)
        print(f"  {name:<18} mean score {s['mean']:6.2f} (sd {s['stdev']:.2f})   "
              f"beats both {s['win']:6.1%} (first incl. shared {s['first']:.1%})   "
              f"reaches 21: {s['reach21']:6.1%}   ({s['seconds'] / bot_games * 1000:.0f} ms/game)")


if __name__ == "__main__":
    main()
