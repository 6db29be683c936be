"""The ladder: submissions validated before they play, withdrawn and
resubmitted while it runs, suspended when they keep faulting; a ladder
killed with kill -9 anywhere and resumed stores the games of one never
killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.ladder import Roster, run_ladder
from arena.ladder.status import status_of
from arena.match.seeds import SecretKey
from arena.results.store import FILE_NAME, Store
from arena.tournament import load

ROOT = Path(__file__).resolve().parents[1]
PLAYER = ROOT / "tests" / "bots" / "ladder_player.py"
BROKEN = ROOT / "tests" / "bots" / "broken.py"
KEY = "1a" * 32
LADDER = """name = "ladder"
seed = 7
format = "rated"
deals = 1
workers = 2
results = "{results}"
bots = ["random", {{ name = "r2", bot = "random" }}, "farm-and-furious-racer"]
[rated]
sigma = 2.0
batch = 2
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 8 }}
"""

cli = CliRunner()


@pytest.fixture
def ladder(tmp_path):
    """The ladder file; its results folder is ``tmp_path / "results"``."""
    path = tmp_path / "ladder.toml"
    path.write_text(LADDER.format(results=tmp_path / "results"))
    return path


def submit(folder: Path, name: str, source: str, *extra: str) -> str:
    """Submit through the command; the token printed (or '')."""
    done = cli.invoke(app, ["ladder", "submit", str(folder), name, source, *extra])
    assert done.exit_code == 0, done.output
    lines = [line for line in done.output.splitlines() if line.startswith("token for")]
    return lines[0].split()[3] if lines else ""


def player(folder: Path) -> str:
    return f"cmd:{sys.executable} {PLAYER} {folder}"


def play(ladder: Path, steps: int):
    return run_ladder(
        load(ladder), steps=steps, poll=0.05, progress=False, key=SecretKey.from_hex(KEY)
    )


def states(folder: Path) -> dict[str, tuple[str, str | None, int]]:
    return {
        row["entrant"]: (row["state"], row["reason"], row["games"]) for row in status_of(folder)
    }


def test_a_version_is_validated_first_and_placed_first_a_failing_one_never_plays(ladder, tmp_path):
    results = tmp_path / "results"
    (tmp_path / "player").mkdir()
    submit(results, "good", player(tmp_path / "player"), "--file", str(tmp_path / "player"))
    submit(results, "bad", f"cmd:{sys.executable} {BROKEN} exit")
    summary = play(ladder, 2)
    assert summary.played == 2 * 2 * 2 and not summary.errors  # steps x tables x seatings
    seen = states(results)
    assert seen["good@v1"][0] == "admitted" and seen["good@v1"][2] > 0
    state, reason, games = seen["bad@v1"]
    assert state == "rejected" and games == 0
    assert "crash" in reason and "exit status 3" in reason
    # the new version (the widest sigma) sits at the first table of its first step
    with Store(results, create=False) as store:
        first = min(store.items(), key=lambda item: item.order)
    assert "good@v1" in first.lineup
    # the CLI says the same, in JSON too
    done = cli.invoke(app, ["ladder", "status", str(results), "--json"])
    rows = {row["entrant"]: row for row in json.loads(done.output)["versions"]}
    assert rows["bad@v1"]["state"] == "rejected" and rows["good@v1"]["games"] == seen["good@v1"][2]
    assert rows["bad@v1"]["ratings"] == {}  # it never played
    rated = rows["good@v1"]["ratings"]["farm-and-furious/2p"]
    low, high = rated["interval"]
    assert low < rated["mu"] < high and 0 < rated["sigma"] < 25 / 3  # below the prior's


def test_a_version_that_keeps_faulting_is_suspended_and_the_ladder_goes_on(ladder, tmp_path):
    results = tmp_path / "results"
    marker = tmp_path / "player"
    marker.mkdir()
    submit(results, "flaky", player(marker), "--file", str(marker))
    play(ladder, 1)
    assert states(results)["flaky@v1"][0] == "admitted"
    (marker / "crash").write_text("now\n")
    summary = play(ladder, 8)
    state, reason, _games = states(results)["flaky@v1"]
    assert state == "suspended", (state, reason)
    assert reason.startswith("faulted in ") and "of its last" in reason
    with Roster(results) as roster:
        left = roster.version("flaky@v1").left
    assert left is not None and left < 8
    with Store(results, create=False) as store:
        step_of = {item.id: item.round for item in store.items()}
        later = [g for g in store.games() if step_of[g.item] >= left]
    assert later, "the ladder played on after the suspension"
    assert all("flaky@v1" not in [s.bot for s in g.record.seats] for g in later)
    assert summary.faults["crash"] >= 3


def test_tokens_guard_new_versions_and_withdrawals(tmp_path):
    results = tmp_path / "results"
    source = f"cmd:{sys.executable} {BROKEN} exit"
    token = submit(results, "mine", source)
    assert token
    for command in (
        ["submit", str(results), "mine", source],
        ["submit", str(results), "mine", source, "--token", "wrong"],
        ["withdraw", str(results), "mine"],
    ):
        done = cli.invoke(app, ["ladder", *command])
        assert done.exit_code == 2 and done.output.startswith("arena: error: "), done.output
        assert "token" in done.output
    assert submit(results, "mine", source, "--token", token) == ""  # no new token
    assert [v.entrant for v in Roster(results).versions()] == ["mine@v1", "mine@v2"]
    done = cli.invoke(app, ["ladder", "withdraw", str(results), "mine", "--token", token])
    assert done.exit_code == 0 and "mine@v1, mine@v2" in done.output


@pytest.mark.parametrize(
    "source, complaint",
    [
        ("cmd:no-such-program", "is not found on the bot's PATH"),
        (".", "needs --entry module:Class"),  # a project folder: built only with it
        ("mybot", "expected 'cmd:COMMAND LINE'"),
    ],
)
def test_a_submission_that_cannot_be_a_bot_is_refused_in_one_line(tmp_path, source, complaint):
    done = cli.invoke(app, ["ladder", "submit", str(tmp_path / "results"), "x", source])
    assert done.exit_code == 2
    assert done.output.startswith("arena: error: ") and complaint in done.output
    assert len(done.output.strip().splitlines()) == 1


def command(ladder: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "arena",
        "ladder",
        "run",
        str(ladder),
        "--key",
        KEY,
        "--quiet",
        "--poll",
        "0.05",
        *extra,
    ]


def wait_for(check, seconds: float = 120.0, what: str = "it", context=None):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"waited {seconds} s for {what}: {context() if context else ''}")


def count(folder: Path) -> int:
    if not (folder / FILE_NAME).exists():
        return 0
    with Store(folder, create=False) as store:
        return store.count()


def test_submit_withdraw_resubmit_while_it_runs_and_sigterm_stops_it(ladder, tmp_path):
    results = tmp_path / "results"
    (tmp_path / "player").mkdir()
    files = ("--file", str(tmp_path / "player"))
    out_file, err_file = tmp_path / "out", tmp_path / "err"
    with open(out_file, "w") as out, open(err_file, "w") as err:
        running = subprocess.Popen(command(ladder), cwd=ROOT, stdout=out, stderr=err)
    try:
        wait_for(lambda: count(results) > 0, what="the first games")
        token = submit(results, "live", player(tmp_path / "player"), *files)
        wait_for(
            lambda: states(results)["live@v1"][2] > 0,
            what="live@v1's first game",
            context=lambda: states(results),
        )
        cli.invoke(app, ["ladder", "withdraw", str(results), "live", "--token", token])
        submit(results, "live", player(tmp_path / "player"), *files, "--token", token)
        wait_for(lambda: states(results)["live@v2"][2] > 0, what="live@v2's first game")
        gone = states(results)["live@v1"]
        time.sleep(0.5)
        assert states(results)["live@v1"] == gone, "a withdrawn version plays no more"
        assert gone[0] == "withdrawn"
        assert running.poll() is None, "the ladder runs until stopped"
        running.send_signal(signal.SIGTERM)
        running.wait(timeout=60)
    finally:
        if running.poll() is None:
            running.kill()
    out, err = out_file.read_text(), err_file.read_text()
    assert running.returncode == 130, err
    assert "run the same command again to carry on" in err and "Traceback" not in err
    assert f"{count(results)} stored" in out
    with Store(results, create=False) as store:
        keys = [g.key for g in store.games()]
    assert len(keys) == len(set(keys))


def kill_group(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def snapshot(folder: Path):
    """Every stored game (key, seats' bots, scores, ranks, faults) and each
    version's state and games."""
    with Store(folder, create=False) as store:
        games = sorted(
            (
                g.key,
                tuple(s.bot for s in g.record.seats),
                tuple(s.score for s in g.record.seats),
                tuple(s.rank for s in g.record.seats),
                tuple(s.fault for s in g.record.seats),
            )
            for g in store.games()
        )
    rows = [
        (r["entrant"], r["state"], r["entered"], r["left"], r["games"]) for r in status_of(folder)
    ]
    return games, rows


def test_kill_9_in_a_validation_and_in_a_game_then_resume_equals_a_run_never_killed(tmp_path):
    steps = 5
    folders = {}
    for name in ("killed", "whole"):
        folders[name] = tmp_path / name / "results"
        file = tmp_path / name / "ladder.toml"
        file.parent.mkdir()
        file.write_text(LADDER.format(results=folders[name]))
        (tmp_path / name / "player").mkdir()
        submit(folders[name], "new", player(tmp_path / name / "player"))
        submit(folders[name], "bad", f"cmd:{sys.executable} {BROKEN} exit")
    play(tmp_path / "whole" / "ladder.toml", steps)

    killed = tmp_path / "killed" / "ladder.toml"
    results = folders["killed"]
    # 1. kill -9 while a submission plays its validation run
    run = subprocess.Popen(command(killed, "--steps", str(steps)), cwd=ROOT, start_new_session=True)
    wait_for(
        lambda: (
            (results / "ladder.sqlite").exists()
            and any(v.state == "validating" for v in Roster(results).versions())
        ),
        what="a validation run",
    )
    kill_group(run)
    assert count(results) == 0
    # 2. kill -9 in the middle of the games
    run = subprocess.Popen(command(killed, "--steps", str(steps)), cwd=ROOT, start_new_session=True)
    wait_for(lambda: count(results) >= 3, what="some games")
    kill_group(run)
    assert 0 < count(results) < 4 * steps + 4 * steps
    # 3. resume to the end
    done = subprocess.run(
        command(killed, "--steps", str(steps)),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    killed_games, killed_rows = snapshot(results)
    whole_games, whole_rows = snapshot(folders["whole"])
    assert len(killed_games) == len({g[0] for g in killed_games})  # none counted twice
    assert killed_games == whole_games  # none lost, the same games
    assert killed_rows == whole_rows  # the same standings of every version


def test_the_ladder_on_a_local_dask_cluster_stores_what_the_local_pool_does(tmp_path):
    """The driver alone writes the store: a Dask cluster's ladder equals the
    local pool's, game for game and version for version."""
    snapshots = []
    for executor in ("local", "dask"):
        file = tmp_path / executor / "ladder.toml"
        file.parent.mkdir()
        file.write_text(LADDER.format(results=tmp_path / executor / "results"))
        (tmp_path / executor / "player").mkdir()
        submit(tmp_path / executor / "results", "new", player(tmp_path / executor / "player"))
        done = subprocess.run(
            command(file, "--steps", "3", "--executor", executor, "--workers", "1"),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        snapshots.append(snapshot(tmp_path / executor / "results"))
    assert snapshots[0] == snapshots[1]
    assert len(snapshots[0][0]) == 3 * 2 * 2


KILLED_SUBMISSION = """
import os, sys
from arena.ladder import entrants

def die(self, kind, error, trace):  # the process dies before its COMMIT
    os.kill(os.getpid(), 9)

entrants._Transaction.__exit__ = die
entrants.Roster(sys.argv[1]).submit("half", {"argv": ["true"], "files": []})
"""


def test_a_submission_killed_half_way_leaves_nothing_behind(ladder, tmp_path):
    results = tmp_path / "results"
    submit(results, "first", f"cmd:{sys.executable} {BROKEN} exit")
    done = subprocess.run([sys.executable, "-c", KILLED_SUBMISSION, str(results)], cwd=ROOT)
    assert done.returncode == -signal.SIGKILL
    with Roster(results) as roster:
        assert [v.entrant for v in roster.versions()] == ["first@v1"]
        assert not roster.check_token("half", "")
    assert submit(results, "half", f"cmd:{sys.executable} {BROKEN} exit")  # the name is free
    play(ladder, 1)
    assert states(results)["half@v1"][0] == "rejected"


def test_one_run_per_folder(ladder, tmp_path):
    from arena.tournament.lock import RunLock

    with RunLock(tmp_path / "results"):
        done = subprocess.run(
            command(ladder, "--steps", "1"), cwd=ROOT, capture_output=True, text=True
        )
    assert done.returncode == 2
    assert done.stderr.startswith("arena: error: ") and "is in use by another" in done.stderr
    assert "Traceback" not in done.stderr
