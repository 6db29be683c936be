"""A tournament interrupted any number of times, in any way, and resumed
stores exactly the games (and gives exactly the leaderboard) of an
uninterrupted run with the same file and key: every game carries its own
seeds, and an adaptive format never plans a round on incomplete results."""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from arena.results.store import FILE_NAME, Store

KEY = "5e" * 32
STATIC = """name = "static"
seed = 5
deals = 4
match_deals = 2
workers = 2
bots = ["random", { name = "r2", bot = "random" }, "farm-and-furious-racer", "dou-dizhu-greedy"]
[[games]]
id = "farm-and-furious"
players = [2, 3]
options = { track_length = 10 }
[[games]]
id = "dou-dizhu"
players = [3]
"""
SWISS = """name = "swiss"
seed = 6
format = "swiss"
deals = 3
workers = 2
bots = ["random", { name = "r2", bot = "random" }, { name = "r3", bot = "random" },
        "farm-and-furious-racer"]
[swiss]
rounds = 4
[[games]]
id = "farm-and-furious"
players = [2]
options = { track_length = 10 }
"""
#: a worker killed last: the run goes on, replays that match, and completes
INTERRUPTIONS = ("kill-group", "sigint", "sigterm", "kill-worker")


def command(path, folder):
    return [
        sys.executable,
        "-m",
        "arena",
        "tournament",
        str(path),
        "--results",
        str(folder),
        "--key",
        KEY,
        "--quiet",
    ]


def interrupt(process, how) -> bool:
    """Interrupt a running tournament; False if there was nothing to hit yet."""
    if how == "kill-group":
        os.killpg(process.pid, signal.SIGKILL)
    elif how == "sigint":  # Ctrl-C in a terminal: the whole group
        os.killpg(process.pid, signal.SIGINT)
    elif how == "sigterm":
        process.send_signal(signal.SIGTERM)
    else:
        found = subprocess.run(
            ["pgrep", "-P", str(process.pid)], capture_output=True, text=True
        ).stdout.split()
        if not found:
            return False
        os.kill(int(found[0]), signal.SIGKILL)
    return True


def stored_count(folder) -> int:
    try:
        db = sqlite3.connect(f"file:{folder / FILE_NAME}?mode=ro", uri=True, timeout=5)
    except sqlite3.OperationalError:
        return 0
    try:
        return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.DatabaseError:
        return 0  # not made yet
    finally:
        db.close()


def run_interrupted(path, folder, rng):
    """Run until the tournament completes, interrupting it once in each way
    when a random few more games (1 to 4) are stored; returns the
    interruptions that hit a running run."""
    hits = []
    while True:
        before = stored_count(folder)
        process = subprocess.Popen(
            command(path, folder),
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        if len(hits) < len(INTERRUPTIONS):
            how = INTERRUPTIONS[len(hits)]
            target = before + rng.randint(1, 4)
            while process.poll() is None:
                if stored_count(folder) >= target and interrupt(process, how):
                    hits.append(how)
                    break
                time.sleep(0.05)
        status = process.wait(300)
        try:
            os.killpg(process.pid, signal.SIGKILL)  # whatever a killed driver left
        except ProcessLookupError:
            pass
        if status == 0:
            return hits
        # killed or interrupted: resume; anything else is a failure
        assert status in (-signal.SIGKILL, -signal.SIGTERM, -signal.SIGINT, 130), (
            status,
            process.stderr.read(),
        )


def stored(folder):
    with Store(folder, create=False) as store:
        games = {}
        for game in store.games():
            record = store.record(game.id).record
            games[game.key] = (
                record.seed,
                [(s.bot, s.score, s.rank, s.fault) for s in record.seats],
                [(d.name, d.score, d.rank) for d in record.dummies],
                record.steps,
            )
    board = subprocess.run(
        [sys.executable, "-m", "arena", "leaderboard", str(folder), "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return games, json.loads(board.stdout)


@pytest.mark.parametrize("text", [STATIC, SWISS], ids=["round-robin", "swiss"])
def test_interrupted_runs_store_what_an_uninterrupted_run_stores(tmp_path, text):
    path = tmp_path / "t.toml"
    path.write_text(text)
    whole = subprocess.run(command(path, tmp_path / "whole"), capture_output=True, text=True)
    assert whole.returncode == 0, whole.stderr
    hits = run_interrupted(path, tmp_path / "cut", random.Random(text))
    assert hits == list(INTERRUPTIONS), f"the tournament finished too soon: {hits}"
    expected, expected_board = stored(tmp_path / "whole")
    games, board = stored(tmp_path / "cut")
    assert len(games) == len(expected)
    different = [key for key in expected if games.get(key) != expected[key]]
    assert different == [], f"{len(different)} games differ after {hits}"
    assert board == expected_board
