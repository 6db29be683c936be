"""Farm & Furious: engine random playouts/s and the racer bot against random.

Prints medians of several repeats; ``--quick`` for a short run.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from arena.botkit import Bot
from arena.botkit.inprocess import play_game
from bots.farm_and_furious import Racer
from bots.random_bot import RandomBot
from engines.farm_and_furious import FarmAndFurious

ENGINE = FarmAndFurious()


def playouts_per_second(players: int, games: int) -> float:
    rng = random.Random(players)
    started = time.perf_counter()
    for seed in range(games):
        state = ENGINE.new_game(players, seed)
        while acting := state.to_act():
            state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in acting})
        state.outcome()
    return games / (time.perf_counter() - started)


def racer_against_random(players: int, games: int) -> tuple[float, float]:
    """Win rate (rank 1, shared included) and mean rank of one racer among
    random bots, the racer rotated through every seat."""
    wins, ranks = 0, 0
    for game in range(games):
        seat = game % players
        bots: list[Bot] = [RandomBot() for _ in range(players)]
        bots[seat] = Racer()
        outcome = play_game(ENGINE, bots, seed=game)
        wins += outcome.ranks[seat] == 1
        ranks += outcome.ranks[seat]
    return wins / games, ranks / games


def main() -> None:
    quick = "--quick" in sys.argv
    games, repeats, matches = (300, 3, 300) if quick else (3000, 5, 3000)
    for players in (2, 3, 4, 5):
        rate = statistics.median(playouts_per_second(players, games) for _ in range(repeats))
        print(f"{players} players: {rate:,.0f} random playouts/s (median of {repeats})")
    for players in (2, 3, 4, 5):
        win_rate, mean_rank = racer_against_random(players, matches)
        print(
            f"racer vs {players - 1} random, {matches} games: win rate {win_rate:.1%} "
            f"(random's share would be {1 / players:.0%}), mean rank {mean_rank:.2f}"
        )


if __name__ == "__main__":
    main()
