"""Speed of solitaire Farm Hand's deals search, against an earlier commit's.

    nice -n 10 .venv/bin/python benchmarks/farm_hand_deals_speed.py --baseline e4c67e0

Collects the decisions of a few solitaire games (random play) with a hand
of four cards or more, solves each over 30 sampled deals (three turns
searched, and every turn), and prints the CPU seconds of all solves, median
of 3 repeats interleaved with the baseline's -- the deals search of the
``--baseline`` commit (``git show REF:bots/ismcts/farm_hand_deals.py``),
loaded beside this tree's -- and their ratio.  Both must give the same
totals on the same chance for every card played: the script stops with an
error if they do not.  (Bids are timed but not compared: since bids are
searched per group of deals alike once the dummies have led, their totals
differ from a baseline's before that.)
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots.ismcts import farm_hand_deals  # noqa: E402
from engines import unit_for  # noqa: E402

PATH = "bots/ismcts/farm_hand_deals.py"


def baseline(ref: str):
    """The deals search module as it was at commit ``ref``."""
    try:
        source = subprocess.run(
            ["git", "show", f"{ref}:{PATH}"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
    except subprocess.CalledProcessError:
        fail(f"no {PATH} at commit {ref!r}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "farm_hand_deals_baseline.py"
        path.write_text(source)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None, "a .py file has a loader"
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module


def fail(message: str) -> None:
    print(f"farm_hand_deals_speed: {message}", file=sys.stderr)
    sys.exit(2)


def positions(games: int) -> list[tuple]:
    """(observation, legal) of every decision with four cards or more in hand."""
    found = []
    for seed in range(games):
        state, rng = unit_for("farm-hand").engine.new_game(1, seed), random.Random(seed)
        while state.to_act():
            observation, legal = state.observation(0), state.legal_actions(0)
            if len(legal) > 1 and len(observation["hand"]) >= 4:
                found.append((observation, legal))
            state.apply({0: rng.choice(legal)})
    return found


def solve_all(module, found) -> tuple[float, list]:
    """CPU seconds to solve every position (3 turns and every turn) and the totals."""
    started, answers = time.process_time(), []
    for index, (observation, legal) in enumerate(found):
        for turns in (3, 5):
            rnd = module._Round(observation, float("inf"))
            answers.append(module._solve(rnd, observation, legal, random.Random(index), 30, turns))
    return time.process_time() - started, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--baseline",
        default="e4c67e0",
        metavar="REF",
        help="the commit to compare with (default: before the fourth round)",
    )
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--quick", action="store_true", help="one game")
    args = parser.parse_args()
    if args.quick:
        args.games = 1
    if args.games < 1:
        parser.exit(2, "--games must be at least 1\n")
    old, found = baseline(args.baseline), positions(args.games)
    times: dict[str, list[float]] = {"baseline": [], "now": []}
    plays = [
        index for index, (observation, _) in enumerate(found) if observation["phase"] == "play"
    ]
    for _ in range(3):
        before, expected = solve_all(old, found)
        now, answers = solve_all(farm_hand_deals, found)
        if [answers[2 * i : 2 * i + 2] for i in plays] != [
            expected[2 * i : 2 * i + 2] for i in plays
        ]:
            fail("this tree's solve answers differently from the baseline's")
        times["baseline"].append(before)
        times["now"].append(now)
    before, now = statistics.median(times["baseline"]), statistics.median(times["now"])
    print(
        f"farm-hand deals search, {len(found)} positions x 2 depths, 30 deals each "
        f"(CPU s, median of 3): baseline {args.baseline} {before:.2f}, now {now:.2f}, "
        f"{before / now:.2f}x (the same totals for the cards played)"
    )


if __name__ == "__main__":
    main()
