"""Tournaments end to end with the real referee: every installed game, resume
after a crash and after kill -9, Ctrl-C, faults, logs from the workers."""

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

import arena.cli.tournament  # noqa: F401  (registers the commands)
from arena.cli import app
from arena.match.seeds import SecretKey
from arena.results.store import Store
from arena.tournament import load, plan, run
from arena.tournament.executor import InlineExecutor, run_job

ROOT = Path(__file__).parent.parent
#: this checkout's broken bot (other checkouts' test runs may have theirs running)
BROKEN = str(ROOT / "tests" / "bots" / "broken.py")
#: one key for runs that must deal the same games
KEY = SecretKey(bytes(range(32)))

#: short options for the games that have them (a quick game for the tests)
SHORT = {
    "farm-and-furious": {"track_length": 6},
    "hand-and-foot": {"target": 500, "max_rounds": 1},
    "vegetables": {"max_turns": 60},
}
#: settings for bots that would otherwise search for half of every move
SETTINGS = {"ismcts": "{ iterations = 3 }"}


def toml_value(value):
    return json.dumps(value) if not isinstance(value, bool) else str(value).lower()


def all_games_file(tmp_path, registry, workers=2):
    """A tournament of every installed game: random and every heuristic bot."""
    lines = [
        'name = "everything"',
        "seed = 4",
        f"workers = {workers}",
        "deals = 1",
        "bots = ["
        + ", ".join(
            f"{{ bot = {json.dumps(name)}, settings = {SETTINGS[name]} }}"
            if name in SETTINGS
            else json.dumps(name)
            for name in sorted(registry.bots)
        )
        + "]",
    ]
    for game_id, engine in sorted(registry.games.items()):
        info = engine.info
        known = {o.name for o in info.options}
        options = {k: v for k, v in SHORT.get(game_id, {}).items() if k in known}
        players = [p for p in info.players if p <= 4][:2] or [min(info.players)]
        lines += [
            "[[games]]",
            f'id = "{game_id}"',
            f"players = {players}",
            "options = {" + ", ".join(f"{k} = {toml_value(v)}" for k, v in options.items()) + "}",
        ]
    path = tmp_path / "everything.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def slow_file(tmp_path, broken_bot, deals=6, workers=2, name="slow"):
    path = tmp_path / f"{name}.toml"
    path.write_text(f"""
name = "{name}"
seed = 9
workers = {workers}
deals = {deals}
match_deals = 1
bots = ["random", {{ name = "slow", bot = {json.dumps(broken_bot("slow", "0.01"))} }}]
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 12 }}
""")
    return path


def check_complete(store, items):
    keys = [item.key(k) for item in items for k in range(len(item.deals))]
    rows = store.db.execute("SELECT key FROM games").fetchall()
    assert sorted(k for (k,) in rows) == sorted(keys)  # none missing, none twice


def test_end_to_end_every_installed_game(tmp_path, registry):
    path = all_games_file(tmp_path, registry)
    results = tmp_path / "results"
    result = CliRunner().invoke(app, ["tournament", str(path), "--results", str(results)])
    assert result.exit_code == 0, result.output
    tournament = load(path, registry, results=str(results))
    items = plan(tournament)
    with Store(results) as store:
        check_complete(store, items)
        games = {g.record.game for g in store.games()}
    assert games == set(registry.games)
    assert "overall" in result.output and "random" in result.output
    page = (results / "leaderboard.html").read_text()
    assert "<svg" in page and "<polyline" in page
    for game_id in registry.games:
        assert game_id in page
    # the heuristic bots took part in their games
    for name, spec in registry.bots.items():
        if any(spec.plays(g) for g in registry.games):
            assert name in page
    # running it again plays nothing
    again = run(load(path, registry, results=str(results)), registry, progress=False)
    assert again.played == 0 and again.skipped == len([k for i in items for k in i.deals])


class Crash(BaseException):
    pass


def test_resume_after_a_crash_mid_tournament(tmp_path, registry, broken_bot):
    path = slow_file(tmp_path, broken_bot, deals=4, workers=0)
    tournament = load(path, registry, results=str(tmp_path / "r"))
    items = plan(tournament)
    total = sum(len(item.deals) for item in items)
    emitted = []

    def crashing(job, emit):
        def counting(event):
            emit(event)
            emitted.append(event)
            if len(emitted) == 3:
                raise Crash()

        run_job(job, counting, registry)

    with pytest.raises(Crash):
        run(tournament, registry, progress=False, executor=InlineExecutor(crashing))
    with Store(tournament.results) as store:
        assert store.count() == 3
        first = store.db.execute("SELECT key, finished FROM games ORDER BY id").fetchall()
    summary = run(tournament, registry, progress=False)
    assert summary.skipped == 3 and summary.played == total - 3
    with Store(tournament.results) as store:
        check_complete(store, items)
        # the games stored before the crash were kept, not replayed
        assert (
            store.db.execute("SELECT key, finished FROM games ORDER BY id LIMIT 3").fetchall()
            == first
        )


def run_in_subprocess(path, results, *extra):
    code = "import arena.cli.tournament; from arena.cli import app; app()"
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            code,
            "tournament",
            str(path),
            "--results",
            str(results),
            "--quiet",
            *extra,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_for_games(results, count, process, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stdout.read().decode()
        try:
            with Store(results, create=False) as store:
                if store.count() >= count:
                    return
        except Exception:
            pass
        time.sleep(0.1)
    raise AssertionError("the tournament did not get going")


def test_resume_after_kill_9_of_the_whole_tournament(
    tmp_path, registry, broken_bot, processes_running
):
    path = slow_file(tmp_path, broken_bot, deals=8)
    results = tmp_path / "r"
    process = run_in_subprocess(path, results)
    wait_for_games(results, 3, process)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    with Store(results) as store:
        stored = store.count()
    tournament = load(path, registry, results=str(results))
    summary = run(tournament, registry, progress=False)
    assert summary.skipped == stored and summary.played > 0
    with Store(results) as store:
        check_complete(store, plan(tournament))
    deadline = time.monotonic() + 5
    while processes_running(BROKEN) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not processes_running(BROKEN)


def test_ctrl_c_stops_cleanly_and_keeps_what_finished(tmp_path, broken_bot, processes_running):
    path = slow_file(tmp_path, broken_bot, deals=12)
    results = tmp_path / "r"
    process = run_in_subprocess(path, results)
    wait_for_games(results, 2, process)
    os.killpg(process.pid, signal.SIGINT)
    output, _ = process.communicate(timeout=60)
    text = output.decode()
    assert process.returncode == 130, text
    assert "interrupted" in text and "overall" in text
    with Store(results) as store:
        stored = store.count()
        assert 2 <= stored < 24
        assert all(not g.record.faults() for g in store.games())  # nothing half-played kept
    assert (results / "leaderboard.html").exists()
    assert not processes_running(BROKEN)


def test_faults_are_counted_and_worker_logs_reach_the_log_file(tmp_path, registry, broken_bot):
    path = tmp_path / "faulty.toml"
    path.write_text(f"""
name = "faulty"
workers = 2
deals = 2
bots = ["random", {{ name = "crasher", bot = {json.dumps(broken_bot("exit"))} }}]
[time]
move = 0.5
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 6 }}
""")
    tournament = load(path, registry, results=str(tmp_path / "r"))
    summary = run(tournament, registry, progress=False)
    assert summary.played == 4 and summary.faults == {"crash": 4} and not summary.errors
    log = (tmp_path / "r" / "tournament.log").read_text()
    # the referee's fault warnings were logged in the forked workers
    assert "crasher" in log and "faulted" in log and "arena-worker" in log
    result = CliRunner().invoke(app, ["leaderboard", str(tmp_path / "r"), "--format", "json"])
    board = json.loads(result.output)
    crasher = next(row for row in board["overall"]["bots"] if row["bot"] == "crasher")
    assert crasher["faults_crash"] == 4 and crasher["rank"] == 2


def test_replay_prints_the_moves_and_verifies(tmp_path, registry):
    path = tmp_path / "one.toml"
    path.write_text(
        'name = "one"\nworkers = 0\nbots = ["random", "farm-and-furious-racer"]\n'
        '[[games]]\nid = "farm-and-furious"\nplayers = [2]\n'
    )
    run(load(path, registry, results=str(tmp_path / "r")), registry, progress=False)
    runner = CliRunner()
    result = runner.invoke(app, ["replay", str(tmp_path / "r"), "1", "--verify"])
    assert result.exit_code == 0, result.output
    assert "farm-and-furious" in result.output and "seat 0" in result.output
    assert "    1. " in result.output
    assert "verify: OK" in result.output
    result = runner.invoke(app, ["replay", str(tmp_path / "r"), "99"])
    assert result.exit_code == 2 and "no game '99'" in result.output


def test_killing_only_the_driver_ends_workers_and_bots(tmp_path, broken_bot, processes_running):
    path = slow_file(tmp_path, broken_bot, deals=12)
    results = tmp_path / "r-driver-only"
    process = run_in_subprocess(path, results)
    wait_for_games(results, 2, process)
    assert len(processes_running(str(results))) >= 2  # the driver and its workers
    process.kill()
    process.wait()
    deadline = time.monotonic() + 10
    while (
        processes_running(str(results)) or processes_running(BROKEN)
    ) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not processes_running(str(results))
    assert not processes_running(BROKEN)


def test_ratings_do_not_depend_on_workers_or_finishing_order(tmp_path, registry):
    path = tmp_path / "same.toml"
    path.write_text(
        'name = "same"\nseed = 3\ndeals = 3\nmatch_deals = 1\n'
        'bots = ["random", "farm-and-furious-racer", { name = "r2", bot = "random" }]\n'
        '[[games]]\nid = "farm-and-furious"\nplayers = [2, 3]\n'
        "options = { track_length = 8 }\n"
    )
    boards = []
    for workers in (0, 2):
        folder = tmp_path / f"w{workers}"
        run(
            load(path, registry, results=str(folder), workers=workers),
            registry,
            key=KEY,
            progress=False,
        )
        result = CliRunner().invoke(app, ["leaderboard", str(folder), "--format", "json"])
        boards.append(json.loads(result.output))
    assert boards[0] == boards[1]
    assert boards[0]["overall"]["games"] == 3 * (3 * 2 + 1 * 3)


def test_a_failed_match_is_retried_and_an_adaptive_round_waits_for_it(tmp_path, registry):
    from arena.tournament import make_planner
    from arena.tournament.plan import Results
    from arena.tournament.runner import RETRIES

    path = tmp_path / "swiss.toml"
    path.write_text(
        'name = "s"\nseed = 2\nformat = "swiss"\ndeals = 1\nworkers = 0\n'
        'bots = ["random", { name = "r2", bot = "random" }, '
        '{ name = "r3", bot = "random" }, "farm-and-furious-racer"]\n'
        '[swiss]\nrounds = 2\n[[games]]\nid = "farm-and-furious"\nplayers = [2]\n'
        "options = { track_length = 6 }\n"
    )

    def flaky(failures):
        tries = Counter()

        def job_runner(job, emit):
            tries[job.item] += 1
            if job.item == target and tries[job.item] <= failures:
                raise RuntimeError("worker lost")
            run_job(job, emit, registry)

        return job_runner, tries

    tournament = load(path, registry, results=str(tmp_path / "whole"))
    target = make_planner(tournament, KEY).next_batch(Results())[0].id
    whole = run(tournament, registry, key=KEY, progress=False)
    # a match that fails RETRIES times still completes the run
    job_runner, tries = flaky(RETRIES)
    retried = run(
        load(path, registry, results=str(tmp_path / "retried")),
        registry,
        key=KEY,
        progress=False,
        executor=InlineExecutor(job_runner),
    )
    assert tries[target] == 1 + RETRIES and retried.missing == 0
    # one that keeps failing stops the run before the next round is planned
    job_runner, tries = flaky(99)
    cut = load(path, registry, results=str(tmp_path / "cut"))
    stopped = run(cut, registry, key=KEY, progress=False, executor=InlineExecutor(job_runner))
    assert tries[target] == 1 + RETRIES and stopped.missing > 0
    assert any("worker lost" in error for error in stopped.errors)
    with Store(cut.results) as store:
        assert {item.round for item in store.items()} == {0}
    resumed = run(cut, registry, key=KEY, progress=False)
    assert resumed.missing == 0
    stores = [Store(folder) for folder in (tmp_path / "whole", tmp_path / "retried", cut.results)]
    try:
        views = [
            [(g.key, [(s.bot, s.score, s.rank) for s in g.record.seats]) for g in store.games()]
            for store in stores
        ]
    finally:
        for store in stores:
            store.close()
    assert views[0] == views[1] == views[2] and whole.stored == len(views[0])
