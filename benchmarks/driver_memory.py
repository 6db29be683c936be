"""Tournament driver memory over a long run: bytes kept per game.

The driver (``arena.tournament.run``) is given an executor that plays no
bots: each game of a job comes back at once as a ready-made record (the
seats the plan gave, ranks by the deal seed), so only the driver's own work
is measured -- the plan, the store commit, the progress, the ``[stop]``
rule's bookkeeping, what the planner is fed.  Python's allocations are
traced (``tracemalloc``) after the first fifth of the games and at the end;
the growth per game in between is the figure (goal of issue 16: flat, at
most +10 MiB at 100k games, i.e. about 100 bytes a game).  The plan itself
(made before the first game) is not counted.  Also printed: the process's
peak resident memory.

    .venv/bin/python benchmarks/driver_memory.py                 # 10,000 games
    .venv/bin/python benchmarks/driver_memory.py --quick         # 3,000 games
    .venv/bin/python benchmarks/driver_memory.py --baseline eb272c2

``--baseline REF`` runs the same measurement against another commit (a git
worktree).  Memory figures do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import shutil
import tempfile
import tracemalloc
from typing import Any

from support.baseline import ROOT, run_child, tree_of, worktree

BOTS = ["a", "b", "c", "d"]


def tournament_data(games: int, stop: bool) -> dict:
    """A round robin of 4 bots at 2-player Vegetables: 6 pairs x 2 seatings."""
    data = {
        "name": "memory",
        "seed": 1,
        "format": "round-robin",
        "deals": games // 12,
        "bots": [{"name": name, "bot": "random"} for name in BOTS],
        "games": [{"id": "vegetables", "players": [2]}],
    }
    if stop:
        data["stop"] = {"budget": 10 * games}  # followed, never reached
    return data


def measure(games: int, stop: bool) -> dict:
    from arena.plugins import installed
    from arena.records import GameRecord, SeatRecord
    from arena.tournament import config, run
    from arena.tournament.executor import GameEvent, InlineExecutor

    registry = installed()
    readings: dict[str, int] = {}
    # a tree from before the record crossed to the driver as itself sends its dict
    as_dict = "dict" in str(GameEvent.__dataclass_fields__["record"].type)
    played = [0]
    total = games // 12 * 12
    mark = total // 5

    def ready_made(job, emit) -> None:
        for (seed, seating, _), index in zip(job.deals, job.indices):
            seats = [
                SeatRecord(
                    job.entrants[entrant].name,
                    float((seed + seat) % 3),
                    1 + (seed + seat) % 2,
                    seat,
                    moves=40,
                    time_used=0.01,
                )
                for seat, entrant in enumerate(seating)
            ]
            record = GameRecord(
                "vegetables",
                "1",
                {},
                seed,
                len(seats),
                seats,
                steps=[[[n % 2, "draw"]] for n in range(80)],
                duration=0.01,
            )
            sent: Any = record.to_dict() if as_dict else record  # a tree before 8f4d: dicts
            emit(GameEvent(job.item, index, sent))
            played[0] += 1
            if played[0] in (mark, total):  # after the previous game's bookkeeping
                gc.collect()
                readings["first" if played[0] == mark else "last"] = (
                    tracemalloc.get_traced_memory()[0]
                )

    folder = tempfile.mkdtemp(dir=ROOT / ".benchmarks")
    try:
        tournament = config.parse(
            tournament_data(games, stop), "memory.toml", registry, results=folder, workers=1
        )
        tracemalloc.start()
        summary = run(
            tournament,
            registry,
            progress=False,
            write_leaderboard=False,
            executor=InlineExecutor(ready_made),
        )
        tracemalloc.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if summary.errors or summary.played != total or played[0] != total:
        raise SystemExit(f"the run went wrong: {summary.errors[:3]}")
    return {
        "games": summary.played,
        "per_game": (readings["last"] - readings["first"]) / (total - mark),
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "tree": tree_of(config),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3,000 games")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--baseline", metavar="REF", help="also run this commit")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(int(args.child[0]), args.child[1] == "1")))
        return
    games = args.games or (3_000 if args.quick else 10_000)
    (ROOT / ".benchmarks").mkdir(exist_ok=True)
    with worktree(args.baseline, "driver-memory") as baseline:
        trees = {"this tree": ROOT} | ({f"baseline {args.baseline}": baseline} if baseline else {})
        results = {
            (name, stop): run_child(__file__, tree, games, int(stop))
            for stop in (False, True)
            for name, tree in trees.items()
        }
    print(
        f"tournament driver, round robin of ~{games:,} ready-made games (no bots): "
        f"Python memory kept per game after the first fifth"
    )
    for (name, stop), r in results.items():
        print(
            f"  {name:18} {'with [stop]' if stop else 'no [stop]  '} {r['per_game']:7.0f} B/game"
            f"  (= {r['per_game'] * 100_000 / 2**20:6.1f} MiB at 100k games)"
            f"  peak RSS {r['peak_rss_mib']:.0f} MiB"
        )


if __name__ == "__main__":
    main()
