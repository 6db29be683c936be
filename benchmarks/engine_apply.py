"""The cost of ``State.apply`` per step in every engine, and of its legality check.

    .venv/bin/python benchmarks/engine_apply.py                      # this tree
    .venv/bin/python benchmarks/engine_apply.py --baseline 891a0f6   # and another commit

``apply`` is the hot path of every search rollout and of the engines'
throughput benchmarks, and since the template-method contract of
``arena/game/__init__.py`` it checks (game not over, the right seats, a legal action)
in the base before the engine's ``_apply`` hook.  For each engine, random
games are recorded as positions (a state and the legal joint move chosen
there, its legal lists already asked for, as every caller does); then each
position is applied to a fresh clone, through ``apply`` and -- where the
tree has the hook -- through ``_apply`` alone, alternating the order, 9
passes with the garbage collector off.  The figure is the sum over
positions of each one's fastest time, per step: a minimum filters out the
moments another process held the core, which medians of whole playouts on a
loaded machine do not.  ``apply - _apply`` is what the base check costs.

``--baseline REF`` measures another commit too (a git worktree of it, this
script run against its ``arena``), interleaved with this tree, and prints the
ratio of this tree's ``apply`` to the baseline's.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time

from support.baseline import ROOT, run_child, tree_of, worktree

#: (module, class, players, games, options): enough steps for a steady figure
TABLES = [
    ("engines.dou_dizhu", "DouDizhu", 3, 60, None),
    ("engines.farm_and_furious", "FarmAndFurious", 3, 400, None),
    ("engines.farm_hand", "FarmHand", 4, 20, None),
    ("engines.hand_and_foot", "HandAndFoot", 4, 2, {"max_rounds": 1}),
    ("engines.vegetables", "Vegetables", 2, 10, None),
]
PASSES = 9


def positions(engine, players: int, games: int, options) -> list:
    """(state, legal joint move) at every step of ``games`` random games."""
    rng = random.Random(5)
    found = []
    for seed in range(games):
        state = engine.new_game(players, seed, options)
        while acting := state.to_act():
            chosen = {seat: rng.choice(state.legal_actions(seat)) for seat in acting}
            found.append((state, chosen))
            state = state.clone()
            state.apply(chosen)
    return found


def fastest(recorded: list, methods: list[str]) -> dict[str, float]:
    """Per method, the sum over positions of its fastest time, in ns per step."""
    best = {name: [float("inf")] * len(recorded) for name in methods}
    clock = time.perf_counter_ns
    for rounds in range(PASSES):
        fresh = []
        for state, chosen in recorded:
            copies = [state.clone() for _ in methods]
            for copy in copies:
                for seat in chosen:
                    copy.legal_actions(seat)
            fresh.append(copies)
        gc.disable()
        try:
            for index, ((_, chosen), copies) in enumerate(zip(recorded, fresh)):
                order = list(range(len(methods)))
                if (rounds + index) % 2:
                    order.reverse()
                for which in order:
                    call = getattr(copies[which], methods[which])
                    started = clock()
                    call(chosen)
                    spent = clock() - started
                    if spent < best[methods[which]][index]:
                        best[methods[which]][index] = spent
        finally:
            gc.enable()
    return {name: sum(times) / len(times) for name, times in best.items()}


def child() -> None:
    import importlib

    import arena

    figures: dict[str, object] = {"tree": tree_of(arena)}
    for module, name, players, games, options in TABLES:
        engine = getattr(importlib.import_module(module), name)()
        recorded = positions(engine, players, games, options)
        methods = ["apply"] + (["_apply"] if hasattr(recorded[0][0], "_apply") else [])
        figures[engine.info.id] = fastest(recorded, methods)
    print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REF", help="measure this commit too")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved runs per tree")
    parser.add_argument("--quick", action="store_true", help="one run per tree")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.repeats = 1
    if args.child:
        child()
        return
    with worktree(args.baseline, "engine-apply") as baseline:
        trees = {"this tree": ROOT} | ({"baseline": baseline} if baseline else {})
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for _ in range(args.repeats):
            for name, tree in trees.items():
                runs[name].append(run_child(__file__, tree))
    print(
        f"ns per step, fastest of {PASSES} passes per position, median of {args.repeats} "
        f"interleaved runs" + (f", baseline {args.baseline}" if baseline else "")
    )
    print(
        f"{'engine':18} {'apply':>7} {'_apply':>7} {'check':>7}"
        + (f" {'baseline apply':>15} {'ratio':>6}" if baseline else "")
    )
    for game in (key for key in runs["this tree"][0] if key != "tree"):
        mine = {
            method: statistics.median(run[game][method] for run in runs["this tree"])
            for method in runs["this tree"][0][game]
        }
        line = f"{game:18} {mine['apply']:7.0f}"
        if "_apply" in mine:
            line += f" {mine['_apply']:7.0f} {mine['apply'] - mine['_apply']:7.0f}"
        else:
            line += f" {'-':>7} {'-':>7}"
        if baseline:
            old = statistics.median(run[game]["apply"] for run in runs["baseline"])
            line += f" {old:15.0f} {mine['apply'] / old:6.2f}"
        print(line)


if __name__ == "__main__":
    main()
