"""Leaderboard figures: how long the statistics and the whole document take.

    .venv/bin/python benchmarks/leaderboard.py [--quick]

Synthetic two-seat games (ten bots, each deal in both seatings) of a few
sizes; for each, the CPU time of the statistics (bootstrap intervals over
whole deals, head-to-head) and of the rating fit, median of three repeats
(process CPU time, so other load on the machine counts less).  The baseline
ratio is statistics over ratings: what the intervals add to what computing
the ratings alone costs.  The web viewer recomputes the document when the
store grows, at most every few times this long.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena import stats  # noqa: E402
from arena.leaderboard import ratings  # noqa: E402
from arena.store import StoredGame  # noqa: E402


def synthetic(games: int, bots: int = 10, seed: int = 1) -> list[StoredGame]:
    rng = random.Random(seed)
    names = [f"bot{i}" for i in range(bots)]
    strength = {name: rng.gauss(0, 1) for name in names}
    result = []
    for k in range(0, games, 2):
        a, b = rng.sample(names, 2)
        luck = rng.gauss(0, 1)
        for seating in ((a, b), (b, a)):
            scores = [strength[seating[0]] + luck + rng.gauss(0, 1),
                      strength[seating[1]] - luck + rng.gauss(0, 1)]
            ranks = [1, 2] if scores[0] >= scores[1] else [2, 1]
            result.append(StoredGame(len(result), f"i/{len(result)}", "i", 0, len(result), "g",
                                     2, list(seating), scores, ranks, [0, 1], [None, None], [],
                                     seed=k))
    return result


def cpu(function, *args) -> float:
    times = []
    for _ in range(3):
        started = time.process_time()
        function(*args)
        times.append(time.process_time() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    sizes = (500, 2000) if parser.parse_args().quick else (500, 2000, 10000)
    print(f"{'games':>7} {'statistics s':>13} {'ratings s':>10} {'ratio':>6}")
    for size in sizes:
        games = synthetic(size)
        figures = cpu(stats.compute, games)
        rated = cpu(ratings, games)
        print(f"{size:>7} {figures:>13.3f} {rated:>10.3f} {figures / rated:>6.2f}")


if __name__ == "__main__":
    main()
