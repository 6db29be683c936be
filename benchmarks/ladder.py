"""Ladder figures: its speed against a tournament, placing a new version, latency.

    .venv/bin/python benchmarks/ladder.py [--steps 10] [--placement 30]

1. Games per second of a ladder of built-in bots (``--steps`` steps; 1 and
   10 deals per table and step) and of ``arena tournament`` (round robin)
   playing as many games of the same game with the same bots and workers,
   wall clock of each run (goal: the ladder within 10 %).  A ladder's table
   plays its deals in one match per seating, as a tournament's block does:
   with one deal per table every game starts its bots afresh.
2. Games until a new version's sigma is below the ladder's placement target
   (``[rated] sigma``), with the ladder's matchmaking and with tables chosen
   at random (same field, same key; at most ``--placement`` steps each),
   and the steps it took; over ``--seeds`` keys, each run and the medians.
3. Seconds from ``arena ladder submit`` to the new version's first stored
   game, the ladder running and idle (nothing else to play but its field).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.ladder import Roster, run_ladder  # noqa: E402
from arena.ladder.submission import launch_of  # noqa: E402
from arena.match.seeds import SecretKey  # noqa: E402
from arena.presentation.leaderboard import from_store  # noqa: E402
from arena.results.store import Store  # noqa: E402
from arena.tournament import load, run  # noqa: E402

KEY = SecretKey.from_hex("b7" * 32)
BOTS = '["random", { name = "r2", bot = "random" }, "farm-and-furious-racer"]'
FILE = """name = "bench"
seed = 11
format = "{format}"
deals = {deals}
workers = 2
results = "{results}"
bots = {bots}
[{format}]
{section}
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 10 }}
"""
PLAYER = ROOT / "tests" / "bots" / "ladder_player.py"


def ladder_file(folder: Path, sigma: float = 2.0, deals: int = 1) -> Path:
    path = folder / "ladder.toml"
    path.write_text(
        FILE.format(
            format="rated",
            deals=deals,
            results=folder / "results",
            bots=BOTS,
            section=f"sigma = {sigma}\nbatch = 4",
        )
    )
    return path


def speed(steps: int, deals: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        (folder / "l").mkdir()
        file = ladder_file(folder / "l", deals=deals)
        ladder = run_ladder(load(file), steps=steps, progress=False, key=KEY)
        # a round robin of 3 bots at 2 seats: 3 tables x 2 seatings per deal
        per_bot_pair = max(1, round(ladder.played / 6))
        path = folder / "t.toml"
        path.write_text(
            FILE.format(
                format="round-robin",
                deals=per_bot_pair,
                results=folder / "t" / "results",
                bots=BOTS,
                section="",
            ).replace("[round-robin]\n", "")
        )
        tournament = run(load(path), progress=False, key=KEY, write_leaderboard=False)
    rate_l = ladder.played / ladder.seconds
    rate_t = tournament.played / tournament.seconds
    print(
        f"ladder ({deals} deals per table and step):\n"
        f"ladder:     {ladder.played} games in {ladder.seconds:.1f} s = {rate_l:.1f} games/s\n"
        f"tournament: {tournament.played} games in {tournament.seconds:.1f} s = "
        f"{rate_t:.1f} games/s\nladder / tournament: {rate_l / rate_t:.2f}"
    )


def _random_choice(belief, candidates, count, rules, met=None):
    rng = random.Random(repr((sorted((met or {}).items()), belief.mu.tolist())))
    return rng.sample(list(candidates), min(count, len(candidates)))


def _player(folder: Path) -> str:
    """A submission's command: the test player, its marker folder beside the results."""
    (folder / "player").mkdir(exist_ok=True)
    return f"cmd:{sys.executable} {PLAYER} {folder / 'player'}"


def placement(limit: int, randomly: bool, key: SecretKey = KEY) -> tuple[int, int] | None:
    """Games the new version plays until its sigma is below the target, and
    the steps it took."""
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        file = ladder_file(folder)
        config = load(file)
        run_ladder(config, steps=3, progress=False, key=key)  # the field first
        with Roster(folder / "results") as roster:
            roster.submit("new", launch_of(_player(folder), [], folder / "results"))
        patch = (
            mock.patch("arena.ratings.matchmaking.choose", _random_choice)
            if randomly
            else contextlib.nullcontext()
        )
        with patch:
            for steps in range(4, 4 + limit):
                run_ladder(config, steps=steps, progress=False, key=key)
                with Store(folder / "results", create=False) as store:
                    board = from_store(store)
                rows = {row["bot"]: row for row in board["farm-and-furious"]["bots"]}
                new = rows.get("new@v1")
                if new and new["sigma"] is not None and new["sigma"] < config.sigma:
                    return new["games"], steps - 3
    return None


def latency() -> float:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        file = ladder_file(folder)
        results = folder / "results"
        args = [sys.executable, "-m", "arena", "ladder", "run", str(file), "--quiet"]
        running = subprocess.Popen(
            args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            while not (results / "results.sqlite").exists():
                time.sleep(0.05)
            time.sleep(1.0)
            started = time.monotonic()
            with Roster(results) as roster:
                roster.submit("late", launch_of(_player(folder), [], results))
            while True:
                with Store(results, create=False) as store:
                    if any("late@v1" in game.item for game in store.games()):
                        return time.monotonic() - started
                time.sleep(0.05)
        finally:
            running.terminate()
            running.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--placement", type=int, default=30)
    parser.add_argument("--seeds", type=int, default=8, help="keys placement is measured with")
    parser.add_argument("--quick", action="store_true", help="2 steps, 5 placement steps, 1 key")
    options = parser.parse_args()
    if options.quick:
        options.steps, options.placement, options.seeds = 2, 5, 1
    for deals in (1, 10):
        speed(options.steps, deals)
    keys = [KEY] + [SecretKey.from_hex(f"{n:02x}" * 32) for n in range(1, options.seeds)]
    for name, randomly in (("matchmaking", False), ("random tables", True)):
        runs = [placement(options.placement, randomly, key) for key in keys]
        placed = [run for run in runs if run is not None]
        shown = ", ".join("-" if run is None else f"{run[0]} ({run[1]})" for run in runs)
        medians = (
            f"median {statistics.median(g for g, _ in placed)} games, "
            f"{statistics.median(s for _, s in placed)} steps"
            if len(placed) == len(runs)
            else f"{len(runs) - len(placed)} not placed within the steps"
        )
        print(f"placement ({name}): games (steps) per key: {shown}; {medians}")
    print(f"submission to first game: {latency():.1f} s")


if __name__ == "__main__":
    main()
