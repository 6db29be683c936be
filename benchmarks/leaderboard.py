"""Leaderboard figures: how long the statistics and the whole document take.

    .venv/bin/python benchmarks/leaderboard.py [--quick] [--repeats N]

First (issue 16's row): ``arena leaderboard`` on a synthetic store of 100,000
games (10,000 with --quick), each run a fresh process, its CPU time: the
first look (built from scratch, as every look was before the cache: the
baseline), the looks after it (the cached document), and the look after 1%
more games were added (the saved rater and statistics go on: only the new
games are read), the same for ``--format html`` (charted: the ratings are
replayed, the statistics go on), and the floor under every look: a process
that starts and imports what ``arena leaderboard`` imports.  The grown looks
are repeated on copies of the same store and cache (median of
``--repeats``, interleaved with the cached looks).  Then:

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
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament import fill_store

from arena.presentation.leaderboard import ratings
from arena.ratings import stats
from arena.records import GameRecord, SeatRecord
from arena.results.store import (
    Store,
    StoredGame,
)


def synthetic(games: int, bots: int = 10, seed: int = 1) -> list[StoredGame]:
    rng = random.Random(seed)
    names = [f"bot{i}" for i in range(bots)]
    strength = {name: rng.gauss(0, 1) for name in names}
    result: list[StoredGame] = []
    for k in range(0, games, 2):
        a, b = rng.sample(names, 2)
        luck = rng.gauss(0, 1)
        for seating in ((a, b), (b, a)):
            scores = [
                strength[seating[0]] + luck + rng.gauss(0, 1),
                strength[seating[1]] - luck + rng.gauss(0, 1),
            ]
            ranks = [1, 2] if scores[0] >= scores[1] else [2, 1]
            seats = [
                SeatRecord(bot, score, rank, team)
                for team, (bot, score, rank) in enumerate(zip(seating, scores, ranks))
            ]
            result.append(
                StoredGame(
                    GameRecord("g", "1", {}, k, 2, seats),
                    len(result),
                    f"i/{len(result)}",
                    "i",
                    0,
                    len(result),
                    "t",
                    0.0,
                )
            )
    return result


def cpu(function, *args) -> float:
    times = []
    for _ in range(3):
        started = time.process_time()
        function(*args)
        times.append(time.process_time() - started)
    return statistics.median(times)


def cli_seconds(folder: str, *options: str) -> float:
    """CPU seconds (user + system) of one ``arena leaderboard`` process."""
    return _child_seconds([sys.executable, "-m", "arena", "leaderboard", folder, *options])


def floor_seconds() -> float:
    """CPU seconds of a process that only imports what a look imports."""
    return _child_seconds(
        [
            sys.executable,
            "-c",
            "import arena.cli, arena.presentation.leaderboard, "
            "arena.ratings.rating, arena.results.store",
        ]
    )


def _child_seconds(command: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def grow(folder: str, count: int) -> None:
    """Add ``count`` games to the store: copies of its first ones, later in plan order."""
    with Store(folder) as store, store.db:
        store.db.execute("BEGIN")
        columns = (
            "item, ord, idx, tournament, game, version, options, seed, players, bots, "
            "scores, ranks, teams, faults, dummies, moves, time_used, duration, "
            "finished, record"
        )
        store.db.execute(
            f"INSERT INTO games (key, {columns}) SELECT key || '+', "
            f"{columns.replace('ord,', 'ord + 1000000,', 1)} FROM games WHERE id <= ?",
            (count,),
        )


def grown_seconds(saved: Path, work: Path, count: int, *options: str) -> float:
    """One look at a copy of ``saved`` (a store with its cache) after ``count`` more games."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(saved, work)
    grow(str(work), count)
    return cli_seconds(str(work), *options)


def cli_figures(count: int, repeats: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        saved, work = Path(scratch) / "saved", Path(scratch) / "work"
        fill_store(str(saved), count)
        first = cli_seconds(str(saved))
        cli_seconds(str(saved), "--format", "html")  # the charted document cached too
        runs: dict[str, list[float]] = {"again": [], "grown": [], "charted": [], "floor": []}
        for _ in range(repeats):  # interleaved
            runs["again"].append(cli_seconds(str(saved)))
            runs["grown"].append(grown_seconds(saved, work, count // 100))
            runs["charted"].append(grown_seconds(saved, work, count // 100, "--format", "html"))
            runs["floor"].append(floor_seconds())
    again, grown, charted, floor = (
        statistics.median(runs[name]) for name in ("again", "grown", "charted", "floor")
    )
    print(
        f"arena leaderboard, {count:,} stored games, CPU s of a fresh process each, "
        f"medians of {repeats} (goal: <= 1 s after the first):"
    )
    print(f"  first look, from scratch (the baseline):     {first:6.2f} s")
    print(
        f"  again (cached):                              {again:6.2f} s  "
        f"ratio {first / again:.0f}x faster"
    )
    print(
        f"  after {count // 100:,} games more (rater and statistics go on): {grown:6.2f} s  "
        f"ratio {first / grown:.0f}x faster"
    )
    print(f"  the same, --format html (ratings replayed):  {charted:6.2f} s")
    print(f"  floor: a process importing what a look does: {floor:6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--repeats", type=int, default=3, help="looks per figure")
    arguments = parser.parse_args()
    quick = arguments.quick
    cli_figures(10_000 if quick else 100_000, arguments.repeats)
    sizes = (500, 2000) if quick else (500, 2000, 10000)
    print(f"{'games':>7} {'statistics s':>13} {'ratings s':>10} {'ratio':>6}")
    for size in sizes:
        games = synthetic(size)
        figures = cpu(stats.compute, games)
        rated = cpu(ratings, games)
        print(f"{size:>7} {figures:>13.3f} {rated:>10.3f} {figures / rated:>6.2f}")


if __name__ == "__main__":
    main()
