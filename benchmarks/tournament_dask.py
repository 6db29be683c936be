"""Games per second of one tournament with the local pool and on a local Dask
cluster with the same number of worker processes (2 by default), and the ratio.

    .venv/bin/python benchmarks/tournament_dask.py            # tournaments/quick.toml, 3 repeats
    .venv/bin/python benchmarks/tournament_dask.py --quick    # 2 deals per table, 1 repeat

The Dask figure counts everything from the start of the run: the local
cluster is started (and its workers checked) inside it, as `arena tournament
--executor dask` does.  The time to start the cluster is also shown on its own.
Runs are interleaved, so changes in the machine's load hit both alike; the
figures are medians.  Needs the dask extra (distributed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from tournament import games_per_second, installed_part  # noqa: E402  (benchmarks/tournament.py)

from arena.plugins import installed  # noqa: E402


def cluster_start(workers: int) -> float:
    from arena.tournament.dask_executor import DaskExecutor

    executor = DaskExecutor(workers)
    started = time.perf_counter()
    executor.start()
    seconds = time.perf_counter() - started
    executor.close()
    return seconds


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 deals per table, 1 repeat")
    parser.add_argument("--file", type=Path, default=ROOT / "tournaments" / "quick.toml")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=None, help="runs per executor")
    args = parser.parse_args(argv)
    deals = 2 if args.quick else None
    repeats = args.repeats or (1 if args.quick else 3)

    registry = installed()
    _, left_out = installed_part(args.file, registry, deals)
    name = args.file.relative_to(ROOT) if args.file.is_relative_to(ROOT) else args.file
    print(
        f"tournament: {name}, {args.workers} workers"
        + (f" (not installed, left out: {', '.join(map(str, left_out))})" if left_out else "")
    )
    runs: dict[str, list[float]] = {"local": [], "dask": []}
    played = {}
    starts = []
    for _ in range(repeats):  # interleaved
        for executor in ("local", "dask"):
            played[executor], seconds, _ = games_per_second(
                args.file, args.workers, deals, executor
            )
            runs[executor].append(seconds)
        starts.append(cluster_start(args.workers))
    rates = {}
    for executor, label in (("local", "local pool"), ("dask", "Dask cluster")):
        seconds = statistics.median(runs[executor])
        rates[executor] = played[executor] / seconds
        print(
            f"  {label:12}: {played[executor]} games in {seconds:6.1f} s = "
            f"{rates[executor]:6.2f} games/s (median of {len(runs[executor])}: "
            f"{', '.join(f'{x:.1f}' for x in runs[executor])} s)"
        )
    print(
        f"  Dask cluster start (in its figure): {statistics.median(starts):.2f} s "
        f"(median of {len(starts)})"
    )
    print(f"  ratio Dask / local pool: {rates['dask'] / rates['local']:.2f}")


if __name__ == "__main__":
    main()
