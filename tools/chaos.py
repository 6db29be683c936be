"""Fault injection for the tournament runner (``make chaos``; a short form
runs in the test suite, tests/test_chaos.py): from a seed, play a tiny
tournament, hit it with a fault at a point chosen from the seed, resume it,
and check that the store equals an uninterrupted run's, game for game, that
no output has a traceback and that no temporary file is left.

Kinds of fault so far: the driver killed (SIGKILL) or stopped (SIGTERM) at
a random moment, the leaderboard cache edited under its keys or removed.
(Not yet: a worker or the Dask scheduler killed, a full disk, damaged store
pages -- the tests of tests/test_tournament_dask.py, test_disk_full.py and
test_damage.py cover those one at a time.)

    python tools/chaos.py [--faults N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARENA = [sys.executable, "-m", "arena"]
#: a tournament of the fast built-in bots, a few games
TOURNAMENT = """
name = "chaos"
seed = {seed}
workers = 1
deals = 3
bots = ["random", "farm-and-furious-racer"]
[time]
move = 1.0
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 8 }}
"""
#: what must agree between two runs (not ids or finishing times)
COLUMNS = "key, item, ord, idx, game, options, seed, bots, scores, ranks, teams, faults, moves"
KINDS = ("driver-sigkill", "driver-sigterm", "cache-edited", "cache-removed")
LEFTOVER_SUFFIXES = (".tmp", ".room", ".new")


class Failed(AssertionError):
    pass


def _command(tournament: Path, results: Path) -> list[str]:
    """The tournament under the reference run's key (``key`` beside the
    tournament file once that run made it): the same deals every time."""
    key = tournament.with_name("key")
    given = ["--key", key.read_text().strip()] if key.exists() else []
    return ARENA + ["tournament", str(tournament), "--results", str(results), "--quiet", *given]


def _play(tournament: Path, results: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        _command(tournament, results),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )


def rows(results: Path) -> list[tuple]:
    db = sqlite3.connect(f"{(results / 'results.sqlite').as_uri()}?mode=ro", uri=True)
    try:
        return db.execute(f"SELECT {COLUMNS} FROM games ORDER BY ord, idx").fetchall()
    finally:
        db.close()


def _check_output(kind: str, *outputs: str) -> None:
    for text in outputs:
        if "Traceback" in text or "Logging error" in text:
            raise Failed(f"{kind}: a traceback in the output:\n{text}")


def _inject(kind: str, rng: random.Random, tournament: Path, results: Path) -> list[str]:
    """Run with the fault; the outputs seen."""
    if kind.startswith("driver-"):
        process = subprocess.Popen(
            _command(tournament, results),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        time.sleep(rng.uniform(0.5, 3.0))  # arena starts in ~1 s; the games take ~1 s
        process.send_signal(signal.SIGKILL if kind == "driver-sigkill" else signal.SIGTERM)
        out, err = process.communicate(timeout=120)
        return [out, err]
    first = _play(tournament, results)
    cache = results / "leaderboard-cache.json"
    if kind == "cache-removed":
        cache.unlink()
    else:
        sealed = json.loads(cache.read_text())
        body = json.loads(sealed["body"])
        for board in body["boards"].values():
            board["tournament"]["name"] = "edited-by-chaos"
        sealed["body"] = json.dumps(body)
        cache.write_text(json.dumps(sealed))
    board = subprocess.run(
        ARENA + ["leaderboard", str(results), "--format", "html"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    if board.returncode != 0 or "edited-by-chaos" in board.stdout or "chaos" not in board.stdout:
        raise Failed(f"{kind}: the leaderboard believed the cache: {board.stdout[:200]}")
    return [first.stdout, first.stderr, board.stderr]


def survive(kind: str, seed: int, reference: list[tuple], work: Path) -> None:
    """One fault of ``kind``: inject, resume, compare; raises Failed."""
    rng = random.Random(seed)
    tournament = work / "chaos.toml"
    tournament.write_text(TOURNAMENT.format(seed=0))
    results = work / f"r{seed}"
    outputs = _inject(kind, rng, tournament, results)
    resumed = _play(tournament, results)
    _check_output(kind, *outputs, resumed.stdout, resumed.stderr)
    if resumed.returncode != 0:
        raise Failed(f"{kind}: the resumed run failed: {resumed.stderr}")
    got = rows(results)
    if got != reference:
        lost = len({r[0] for r in reference} - {r[0] for r in got})
        raise Failed(f"{kind}: the store differs from an uninterrupted run's ({lost} lost)")
    left = [p.name for p in results.iterdir() if p.name.endswith(LEFTOVER_SUFFIXES)]
    if left:
        raise Failed(f"{kind}: temporary files left: {left}")


def campaign(faults: int, seed: int, say=print) -> Counter:
    """``faults`` faults, kinds in turn, points from ``seed``: how many of
    each kind were survived.  Raises Failed (with the seed) on the first
    that was not."""
    survived: Counter = Counter()
    with tempfile.TemporaryDirectory(prefix="arena-chaos-") as folder:
        work = Path(folder)
        tournament = work / "chaos.toml"
        tournament.write_text(TOURNAMENT.format(seed=0))
        plain = _play(tournament, work / "reference")
        if plain.returncode != 0:
            raise Failed(f"the uninterrupted run failed: {plain.stderr}")
        reference = rows(work / "reference")
        (work / "key").write_text((work / "reference" / "key").read_text())
        for number in range(faults):
            kind = KINDS[number % len(KINDS)]
            try:
                survive(kind, seed * 100_003 + number, reference, work)
            except Failed as error:
                raise Failed(f"seed {seed}, fault {number}: {error}") from None
            survived[kind] += 1
            say(f"{number + 1}/{faults} {kind}: survived")
    return survived


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--faults", type=int, default=100)
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    args = parser.parse_args()
    try:
        survived = campaign(args.faults, args.seed)
    except Failed as error:
        print(f"chaos: FAILED: {error}", file=sys.stderr)
        return 1
    print(
        f"chaos (seed {args.seed}): survived {sum(survived.values())} faults: "
        + ", ".join(f"{kind} {count}" for kind, count in sorted(survived.items()))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
