"""Dou Dizhu's move caches stay bounded: memory after many random games in one process.

A child process plays N random games of Dou Dizhu through the engine API
(new_game, legal_actions, a seeded random choice, apply) and reports its
resident memory growth and the entries held by the legal-move memo tables
(``_MEMO``, ``_LEAD_CACHE``, ``_FOLLOW_CACHE`` of engines/dou_dizhu/moves.py).
Before they were bounded, ``_MEMO`` grew without limit (issue 16: 468k
entries, +170 MB after 65k games).

    .venv/bin/python benchmarks/dou_dizhu_memory.py                 # 20,000 games
    .venv/bin/python benchmarks/dou_dizhu_memory.py --quick         # 2,000 games
    .venv/bin/python benchmarks/dou_dizhu_memory.py --baseline eb272c2

``--baseline REF`` runs the same child against another commit (a git
worktree) and prints both side by side.  Memory figures do not depend on
the machine's load; the time column does.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from support.baseline import ROOT, run_child, tree_of, worktree


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def measure(games: int) -> dict:
    from engines.dou_dizhu import DouDizhu, moves as M

    engine = DouDizhu()
    rng = random.Random(7)
    state = engine.new_game(3, 0)  # warm the imports before the first look
    before = rss_kib()
    started = time.process_time()
    for seed in range(games):
        state = engine.new_game(3, seed)
        while acting := state.to_act():
            state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in acting})
    seconds = time.process_time() - started
    entries = sum(len(table) for table in M._MEMO) + len(M._LEAD_CACHE) + len(M._FOLLOW_CACHE)
    return {
        "games": games,
        "rss_mib": (rss_kib() - before) / 1024,
        "entries": entries,
        "memo": sum(len(table) for table in M._MEMO),
        "cpu_s": seconds,
        "tree": tree_of(M),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 games")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--baseline", metavar="REF", help="also run this commit")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        print(json.dumps(measure(args.child)))
        return
    games = args.games or (2_000 if args.quick else 20_000)
    with worktree(args.baseline, "dou-dizhu-memory") as baseline:
        trees = {"this tree": ROOT} | ({f"baseline {args.baseline}": baseline} if baseline else {})
        results = {name: run_child(__file__, tree, games) for name, tree in trees.items()}
    print(
        f"dou-dizhu, {games:,} random games in one process: resident memory growth "
        f"and move-cache entries"
    )
    for name, r in results.items():
        print(
            f"  {name:18} +{r['rss_mib']:7.1f} MiB  {r['entries']:9,} cache entries "
            f"({r['memo']:,} in _MEMO)  {r['cpu_s']:6.1f} s CPU"
        )


if __name__ == "__main__":
    main()
