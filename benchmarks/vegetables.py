"""VEGEtables benchmark: engine speed and the planner bot against ``random``.

    .venv/bin/python benchmarks/vegetables.py [--quick]

Prints (medians of a few repeats where timed):
* random playouts per second (uniform legal actions straight on the engine),
  mean game length in turns and in decisions, and how games end;
* ``vegetables-planner`` against ``random`` over >= 2,000 games (seats swapped
  every game): win / draw / loss rates, mean score margin, and mean scores;
* the planner's own time per game.
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.botkit.inprocess import play_game
from bots.random_bot import RandomBot
from bots.vegetables import PlannerBot
from engines.vegetables import Vegetables

ENGINE = Vegetables()


def random_playouts(games: int, seed: int):
    rng = random.Random(seed)
    turns = decisions = 0
    ends: collections.Counter[str] = collections.Counter()
    start = time.perf_counter()
    for index in range(games):
        state = ENGINE.new_game(2, seed * 100_003 + index)
        while True:
            acting = state.to_act()
            if not acting:
                break
            seat = acting[0]
            state.step(seat, rng.choice(state.legal_actions(seat)))
            decisions += 1
        turns += state.observation(0)["turn"]
        ends[state.observation(0)["end"]] += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, turns / games, decisions / games, ends


class Counting(PlannerBot):
    """The planner, counting the table's decisions and turns (via game_over)."""

    def new_game(self, game):
        super().new_game(game)
        self.decisions = 0
        self.turns = 0
        self.end = None

    def game_over(self, result):
        self.turns = result["observation"]["turn"]
        self.end = result["observation"]["end"]


def bot_vs_random(games: int, seed: int):
    wins = draws = losses = 0
    margins = []
    mine = theirs = 0.0
    ends: collections.Counter[str] = collections.Counter()
    lengths = []
    start = time.perf_counter()
    for index in range(games):
        seat = index % 2
        planner = Counting()
        bots = [planner, RandomBot()] if seat == 0 else [RandomBot(), planner]
        outcome = play_game(ENGINE, bots, seed + index)
        lengths.append(planner.turns)
        ends[planner.end] += 1
        margin = outcome.scores[seat] - outcome.scores[1 - seat]
        margins.append(margin)
        mine += outcome.scores[seat]
        theirs += outcome.scores[1 - seat]
        wins += margin > 0
        draws += margin == 0
        losses += margin < 0
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "win": wins / games,
        "draw": draws / games,
        "loss": losses / games,
        "margin": statistics.fmean(margins),
        "margin_sd": statistics.pstdev(margins),
        "bot_score": mine / games,
        "random_score": theirs / games,
        "ms_per_game": 1000 * elapsed / games,
        "turns": statistics.fmean(lengths),
        "ends": ends,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run")
    args = parser.parse_args()
    playout_games, repeats, bot_games = (200, 3, 200) if args.quick else (2000, 3, 2000)

    runs = [random_playouts(playout_games, seed) for seed in range(repeats)]
    rate = statistics.median(run[0] for run in runs)
    turns = statistics.median(run[1] for run in runs)
    decisions = statistics.median(run[2] for run in runs)
    ends: collections.Counter[str] = sum((run[3] for run in runs), collections.Counter())
    print(f"random playouts/s: {rate:.0f} (median of {repeats} x {playout_games} games)")
    print(f"mean game length (random vs random): {turns:.1f} turns, {decisions:.1f} decisions")
    total = sum(ends.values())
    print("game ends: " + ", ".join(f"{k} {v / total:.1%}" for k, v in ends.most_common()))

    result = bot_vs_random(bot_games, 10_000)
    print(
        f"vegetables-planner vs random, {result['games']} games, seats swapped: "
        f"win {result['win']:.1%}, draw {result['draw']:.1%}, loss {result['loss']:.1%}; "
        f"mean margin {result['margin']:+.1f} (sd {result['margin_sd']:.1f}); "
        f"mean scores {result['bot_score']:.1f} vs {result['random_score']:.1f}; "
        f"{result['ms_per_game']:.1f} ms/game"
    )
    total = sum(result["ends"].values())
    print(
        f"  games last {result['turns']:.1f} turns; ends: "
        + ", ".join(f"{k} {v / total:.1%}" for k, v in result["ends"].most_common())
    )


if __name__ == "__main__":
    main()
