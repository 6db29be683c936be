"""A game record's trips: from a worker to the driver, and out of the store for the leaderboard.

In a child process per tree (this one, and ``--baseline REF``'s, interleaved):

* **Worker to driver**: Dou Dizhu games played with random moves are made
  into records as the referee makes them; :func:`arena.tournament.executor.run_job`
  (its referee replaced by one that hands those records back) emits each
  game's event, which is pickled as the local pool's pipe pickles it
  (``ForkingPickler``) and as the Dask executor posts it (zlib-compressed
  pickle); the driver's side unpickles it and has the record the store
  takes.  Figures: CPU microseconds a game on each side, and the bytes sent.
* **Store to leaderboard**: a synthetic store of 100,000 games (10,000 with
  --quick; the tournament benchmark's) read as the leaderboard reads it
  (``Store.games``) and the document built from scratch
  (:func:`arena.presentation.leaderboard.build`): CPU seconds.

    .venv/bin/python benchmarks/records.py [--quick] [--baseline REF]

CPU time, so other load on the machine counts less; compare the figures of
one run only.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from types import SimpleNamespace

from support.baseline import ROOT, run_child, tree_of, worktree

REPEATS = 5


def played(games: int) -> list:
    """``games`` Dou Dizhu records, random moves, as the referee records them."""
    from arena.records import GameRecord, SeatRecord
    from engines.dou_dizhu import DouDizhu

    engine = DouDizhu()
    records = []
    for seed in range(games):
        state, rng, steps = engine.new_game(3, seed), random.Random(seed), []
        while acting := state.to_act():
            chosen = {seat: rng.choice(state.legal_actions(seat)) for seat in acting}
            state.apply(chosen)
            steps.append([[seat, chosen[seat]] for seat in acting])
        outcome = state.outcome()
        seats = [
            SeatRecord(
                f"bot{seat}",
                outcome.scores[seat],
                outcome.ranks[seat],
                outcome.teams[seat],
                moves=len(steps) // 3,
                time_used=0.012345,
            )
            for seat in range(3)
        ]
        records.append(
            GameRecord(
                "dou-dizhu", engine.info.version, {}, seed, 3, seats, steps=steps, duration=0.5
            )
        )
    return records


def events_of(records: list) -> list:
    """The events ``run_job`` emits for ``records`` (its referee replaced)."""
    from arena.tournament import executor

    def referee(engine, entrants, deals, options, limit, on_game, **_):
        for record in records:
            on_game(record)
        return records

    job = executor.MatchJob(
        item="i",
        game="dou-dizhu",
        options={},
        entrants=(),
        deals=tuple((r.seed, (0, 1, 2), None) for r in records),
        indices=tuple(range(len(records))),
    )
    events: list = []
    saved = executor.play_match
    vars(executor)["play_match"] = referee
    try:
        executor.run_job(job, events.append, SimpleNamespace(engine=lambda game: None))
    finally:
        vars(executor)["play_match"] = saved
    return events


def received(event):
    """The record the driver stores from ``event``: the event's own, or (a
    tree whose events carry the record as a dict) the one its runner made
    from the dict."""
    from arena.records import GameRecord

    record = event.record
    return record if isinstance(record, GameRecord) else GameRecord.from_dict(record)


def crossing(records: list, pack, unpack) -> dict:
    """Per game: CPU microseconds of the worker's side (event made and
    packed) and of the driver's (unpacked, the record to store in hand),
    and the bytes sent; medians of :data:`REPEATS`."""
    worker_times, driver_times = [], []
    for _ in range(REPEATS):
        started = time.process_time()
        sent = [pack(event) for event in events_of(records)]
        packed = time.process_time()
        for data in sent:
            received(unpack(data))
        worker_times.append(packed - started)
        driver_times.append(time.process_time() - packed)
    return {
        "worker": statistics.median(worker_times) / len(records) * 1e6,
        "driver": statistics.median(driver_times) / len(records) * 1e6,
        "bytes": sum(map(len, sent)) / len(records),
    }


def reading(count: int) -> dict:
    """CPU seconds to read a ``count``-game store as the leaderboard does
    and to build its document from scratch."""
    from tournament import fill_store

    from arena.presentation.leaderboard import build
    from arena.results.store import Store

    with tempfile.TemporaryDirectory(dir=ROOT / ".benchmarks") as folder:
        fill_store(folder, count)
        reads = []
        for _ in range(3):
            with Store(folder, create=False) as store:
                started = time.process_time()
                games = list(store.games())
                reads.append(time.process_time() - started)
        started = time.process_time()
        build(games)
        built = time.process_time() - started
    return {"read": statistics.median(reads), "build": built}


def child(games: int, stored: int) -> None:
    import pickle
    from multiprocessing.reduction import ForkingPickler

    import arena
    from arena.tournament.dask_executor import _pack, _unpack

    records = played(games)
    result = {
        "tree": tree_of(arena),
        "pipe": crossing(records, ForkingPickler.dumps, pickle.loads),
        "dask": crossing(
            records, lambda event: _pack(("event", event)), lambda data: _unpack(data)[1]
        ),
        **reading(stored),
    }
    print(json.dumps(result))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller store")
    parser.add_argument("--games", type=int, default=500, help="records sent across")
    parser.add_argument("--repeats", type=int, default=3, help="children per tree")
    parser.add_argument("--baseline", metavar="REF")
    parser.add_argument("--child", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return
    stored = 10_000 if args.quick else 100_000
    (ROOT / ".benchmarks").mkdir(exist_ok=True)
    with worktree(args.baseline, "records") as baseline:
        trees = {"this tree": ROOT} | ({args.baseline: baseline} if baseline else {})
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for _ in range(args.repeats):  # interleaved, so load changes hit both alike
            for name, tree in trees.items():
                runs[name].append(run_child(__file__, tree, args.games, stored))
    print(
        f"records: {args.games} Dou Dizhu games across the worker boundary (CPU us a game); "
        f"a {stored:,}-game store read and its leaderboard built (CPU s); medians of "
        f"{args.repeats} interleaved children"
    )
    for name, got in runs.items():
        ways = {
            way: {
                figure: statistics.median(result[way][figure] for result in got)
                for figure in ("worker", "driver", "bytes")
            }
            for way in ("pipe", "dask")
        }
        read, built = (
            statistics.median(result[figure] for result in got) for figure in ("read", "build")
        )
        print(
            f"  {name:>12}: "
            + "; ".join(
                f"{way} worker {f['worker']:.1f} + driver {f['driver']:.1f} us, {f['bytes']:,.0f} B"
                for way, f in ways.items()
            )
            + f"; read {read:.2f} s, build {built:.2f} s"
        )


if __name__ == "__main__":
    main()
