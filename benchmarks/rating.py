"""Rating figures: the batch fit of a 100,000-game store, cold and warm-started
after 1,000 new games (and their ratio), and the largest change of any mu
over shuffles of the games (order-free: 0).

    .venv/bin/python benchmarks/rating.py            # 100,000 games, 3 repeats
    .venv/bin/python benchmarks/rating.py --quick    # 10,000 games, 1 repeat

The store is tournament.py's synthetic one: five games, eight bots, teams,
dummies and 2% faults.  Medians of interleaved repeats; the machine may be loaded.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from tournament import fill_store  # noqa: E402

from arena.ratings.rating import Rater, compute  # noqa: E402
from arena.results.store import Store  # noqa: E402


def figures(games, extra, repeats: int) -> tuple[float, float]:
    """Median seconds of a cold fit of ``games`` and of a warm refit after ``extra``."""
    cold, warm = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        rater = Rater()
        rater.extend(games)
        rater.board()
        cold.append(time.perf_counter() - started)
        started = time.perf_counter()
        rater.extend(extra)
        rater.board()
        warm.append(time.perf_counter() - started)
    return statistics.median(cold), statistics.median(warm)


def shuffle_spread(games, shuffles: int) -> float:
    reference = compute(games, history=0)
    rng = random.Random(1)
    spread = 0.0
    for _ in range(shuffles):
        order = list(games)
        rng.shuffle(order)
        board = compute(order, history=0)
        for name, pool in board.pools.items():
            for bot, standing in pool.standings.items():
                spread = max(spread, abs(standing.mu - reference.pools[name].standings[bot].mu))
    return spread


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 games, one repeat")
    parser.add_argument("--games", type=int, default=None)
    args = parser.parse_args(argv)
    count = args.games or (10_000 if args.quick else 100_000)
    repeats = 1 if args.quick else 3
    new = 1_000
    with tempfile.TemporaryDirectory() as folder:
        fill_store(folder, count + new)
        with Store(folder, create=False) as store:
            started = time.perf_counter()
            games = list(store.games())
            read = time.perf_counter() - started
    old, extra = games[:count], games[count:]
    cold, warm = figures(old, extra, repeats)
    print(
        f"ratings: {count:,} stored games ({read * count / (count + new):.1f} s to read "
        f"the store, not counted)"
    )
    print(f"  cold batch fit of every pool: {cold:.2f} s ({count / cold:,.0f} games/s)")
    print(
        f"  warm refit after {new:,} more games: {warm:.3f} s; ratio warm / cold: {warm / cold:.3f}"
    )
    sample = old[: min(count, 5_000)]
    shuffles = 3 if args.quick else 20
    print(
        f"  largest mu change over {shuffles} shuffles of {len(sample):,} games: "
        f"{shuffle_spread(sample, shuffles):.1e}"
    )


if __name__ == "__main__":
    main()
