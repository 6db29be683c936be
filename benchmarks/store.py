"""Store commit per game: the time ``Store.add_game`` takes, and that a kill -9 loses nothing.

A child process opens a results store in a folder on the working tree's
disk (not /tmp, which may be a RAM disk where ``fsync`` costs nothing) and
commits games one by one -- a Dou Dizhu-sized record each, as the driver
does -- printing the number of every game as its commit returns; the median
commit time is the figure.  Then the durability check: another child commits
games as fast as it can and is killed with SIGKILL mid-run; every game it
reported committed must be in the store when it is opened again.

    .venv/bin/python benchmarks/store.py                   # 2,000 commits, 3 kills
    .venv/bin/python benchmarks/store.py --quick           # 300 commits, 1 kill
    .venv/bin/python benchmarks/store.py --baseline eb272c2

``--baseline REF`` measures another commit's store too (a git worktree),
interleaved, and prints the ratio.  The disk is shared with other jobs on a
loaded machine: compare figures of one run only.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

from support.baseline import ROOT, child_command, worktree


def _record(seed: int):
    from arena.records import GameRecord, SeatRecord

    seats = [
        SeatRecord(bot, float(score), rank, team, moves=21, time_used=0.01)
        for bot, score, rank, team in (("a", 2, 1, 0), ("b", -1, 2, 1), ("c", -1, 2, 1))
    ]
    return GameRecord(
        game="dou-dizhu",
        version="1",
        options={},
        seed=seed,
        players=3,
        seats=seats,
        steps=[[[n % 3, "3456789"]] for n in range(63)],
        duration=0.05,
    )


def _item():
    from arena.tournament.plan import MatchItem, PlannedDeal

    return MatchItem(
        id="dou-dizhu/3p/a+b+c/d0",
        order=0,
        game="dou-dizhu",
        label="dou-dizhu",
        players=3,
        options={},
        lineup=("a", "b", "c"),
        deals=(PlannedDeal(1, (0, 1, 2)),),
    )


def commit(folder: str, games: int) -> None:
    """Child: commit ``games`` games, one line per commit (its number and
    the seconds it took)."""
    from arena.results.store import Store

    store = Store(folder)
    item = _item()
    store.add_items([item])
    records = [_record(seed) for seed in range(games)]
    for index, record in enumerate(records):
        started = time.perf_counter()
        store.add_game(item, index, record, "bench")
        print(index, time.perf_counter() - started, flush=True)
    store.close()


def _lines(child: subprocess.Popen[str]) -> IO[str]:
    """What the child prints (it is started with its stdout a pipe)."""
    assert child.stdout is not None, "started without a pipe"
    return child.stdout


def _child(tree: Path, folder: str, games: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        child_command(sys.executable, __file__, folder, games),
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        stdout=subprocess.PIPE,
        text=True,
    )


def commit_time(tree: Path, scratch: Path, games: int) -> float:
    """The median seconds per commit in ``tree``'s store."""
    folder = tempfile.mkdtemp(dir=scratch)
    try:
        child = _child(tree, folder, games)
        times = [float(line.split()[1]) for line in _lines(child)]
        if child.wait() != 0 or len(times) != games:
            raise SystemExit(f"{tree}: the committing child failed")
        return statistics.median(times)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def lost_on_kill(tree: Path, scratch: Path, after: int) -> tuple[int, int]:
    """Kill -9 a child after it reported ``after`` commits; (games it
    reported committed, of those missing from the store)."""
    from arena.results.store import Store

    folder = tempfile.mkdtemp(dir=scratch)
    try:
        child = _child(tree, folder, after * 100)
        reported = []
        lines = _lines(child)
        for line in lines:
            reported.append(int(line.split()[0]))
            if len(reported) >= after:
                os.kill(child.pid, signal.SIGKILL)
                break
        reported += [int(line.split()[0]) for line in lines]  # what was in the pipe
        child.wait()
        with Store(folder, create=False) as store:
            stored = {game.index for game in store.games()}
        return len(reported), len(set(reported) - stored)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--baseline", metavar="REF")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        commit(args.child[0], int(args.child[1]))
        return
    games, kills = (300, 1) if args.quick else (2_000, 3)
    repeats = args.repeats or (1 if args.quick else 3)
    scratch = ROOT / ".benchmarks" / "store"
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        with worktree(args.baseline, "store") as baseline:
            trees = {"this tree": ROOT} | ({"baseline": baseline} if baseline else {})
            times: dict[str, list[float]] = {name: [] for name in trees}
            for _ in range(repeats):  # interleaved, so load changes hit both alike
                for name, tree in trees.items():
                    times[name].append(commit_time(tree, scratch, games))
            kill_results = {
                name: [lost_on_kill(tree, scratch, 50 + 37 * k) for k in range(kills)]
                for name, tree in trees.items()
            }
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(
        f"store: one commit per game ({games:,} dou-dizhu-sized games; median of {repeats} "
        f"interleaved runs of per-commit medians)"
        + (f", baseline {args.baseline}" if args.baseline else "")
    )
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, value in medians.items():
        reported = sum(r for r, _ in kill_results[name])
        lost = sum(m for _, m in kill_results[name])
        print(
            f"  {name:9}: {value * 1e3:6.3f} ms per commit ({', '.join(f'{v * 1e3:.3f}' for v in times[name])}); "
            f"kill -9 x{kills}: {lost} of {reported} reported commits lost"
        )
    if baseline:
        print(f"  ratio this tree / baseline: {medians['this tree'] / medians['baseline']:.2f}")


if __name__ == "__main__":
    main()
