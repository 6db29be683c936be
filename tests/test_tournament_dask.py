"""Tournaments on a Dask cluster (needs the ``dask`` extra: distributed).

A real tournament on a local cluster of 2 worker processes stores the same
games, results and ratings as the local pool; a worker killed mid-match
loses only that match, which is played again elsewhere (no game lost or
stored twice); workers whose plugins differ from the driver's are one error
before any game; a strict match in a worker gives the bot no network (the
scheduler's port is out of its reach, as it is not with no sandbox).
"""

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import distributed  # noqa: F401  (the test extra installs it: a missing one fails here)
import pytest
from typer.testing import CliRunner

import arena.cli.tournament  # noqa: F401  (registers the commands)
from arena.cli import app
from arena.match.referee import Entrant
from arena.ratings.rating import compute
from arena.results.store import Store
from arena.sandbox.process import sandbox_orphans
from arena.tournament import ConfigError, dask_executor, load, plan, run
from arena.tournament.dask_executor import (
    ClusterError,
    DaskExecutor,
    check_workers,
    differences,
    inventory,
)
from arena.tournament.executor import GameEvent, JobDone, MatchJob

TESTS = Path(__file__).parent
HOSTILE = TESTS / "bots" / "hostile.py"
COLUMNS = (
    "key, item, ord, idx, tournament, game, version, options, seed, players, bots, "
    "scores, ranks, teams, faults, dummies, moves"
)


@pytest.fixture(scope="module")
def cluster():
    """A running cluster the tests connect to by address (``--scheduler``)."""
    from distributed import LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    yield cluster
    cluster.close()


def games_file(tmp_path, broken_bot, workers=2):
    path = tmp_path / "mixed.toml"
    quitter = json.dumps(broken_bot("exit"))
    path.write_text(f"""
name = "mixed"
seed = 11
workers = {workers}
deals = 3
match_deals = 1
bots = ["random", "farm-and-furious-racer", "dou-dizhu-greedy",
        {{ name = "quitter", bot = {quitter}, games = ["farm-and-furious"] }}]
[time]
move = 0.5
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 8 }}
[[games]]
id = "dou-dizhu"
players = [3]
deals = 1
""")
    return path


def stored_rows(results):
    db = sqlite3.connect(Path(results) / "results.sqlite")
    try:
        return db.execute(f"SELECT {COLUMNS} FROM games ORDER BY ord, idx").fetchall()
    finally:
        db.close()


def ratings(results):
    with Store(results, create=False) as store:
        board = compute(list(store.games()), history=0)
    per_game = {
        pool: [
            (s.name, round(s.mu, 9), round(s.sigma, 9), s.games, s.wins, dict(s.faults))
            for s in ratings.table()
        ]
        for pool, ratings in board.pools.items()
    }
    return per_game, [(s.name, round(s.strength, 9), s.entered) for s in board.overall]


def check_complete(results, tournament):
    keys = [item.key(k) for item in plan(tournament) for k in range(len(item.deals))]
    assert sorted(row[0] for row in stored_rows(results)) == sorted(keys)


def test_a_dask_tournament_stores_what_the_local_pool_stores(tmp_path, registry, broken_bot):
    path = games_file(tmp_path, broken_bot)
    local, dask = tmp_path / "local", tmp_path / "dask"
    runner = CliRunner()
    key = ["--key", "d1" * 32]  # both runs deal the same games
    result = runner.invoke(app, ["tournament", str(path), "--results", str(local), "--quiet", *key])
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        app,
        ["tournament", str(path), "--results", str(dask), "--quiet", "--executor", "dask", *key],
    )
    assert result.exit_code == 0, result.output
    tournament = load(path, registry, results=str(dask))
    check_complete(dask, tournament)
    rows = stored_rows(dask)
    assert rows == stored_rows(local)  # same games, same results
    assert any("crash" in row[14] for row in rows)  # the quitter's faults are results
    assert ratings(dask) == ratings(local)
    assert (dask / "leaderboard.html").exists()
    log = (dask / "tournament.log").read_text()
    # the workers' records (the referee's fault warnings) reach the driver's log
    assert "dask-worker tcp://" in log and "quitter" in log and "faulted" in log
    # resuming on the cluster plays nothing more
    again = runner.invoke(
        app, ["tournament", str(path), "--results", str(dask), "--quiet", "--executor", "dask"]
    )
    assert again.exit_code == 0 and "played 0 games" in again.output, again.output
    assert stored_rows(dask) == rows


def test_a_worker_killed_mid_match_loses_only_that_match(
    tmp_path, registry, broken_bot, processes_running
):
    # an argument the slow bot ignores tells its processes apart
    slow = f"dask-kill-test-{uuid.uuid4().hex}"
    bot = broken_bot("slow", "0.02", slow)
    path = tmp_path / "slow.toml"
    path.write_text(f"""
name = "slow"
seed = 5
workers = 2
deals = 6
match_deals = 2
bots = ["random", {{ name = "slow", bot = {json.dumps(bot)} }}]
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 10 }}
""")
    tournament = load(path, registry, results=str(tmp_path / "r"))
    executor = DaskExecutor(2, registry=registry)
    executor.start()
    workers = executor.worker_pids()
    killed = []

    def kill_one_mid_match():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            for pid in processes_running(slow):
                owner = _worker_above(pid, set(workers.values()))
                if owner is not None:
                    time.sleep(0.5)  # well into the match (4 games take ~0.8 s)
                    os.kill(owner, signal.SIGKILL)
                    killed.append(owner)
                    return
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one_mid_match)
    killer.start()
    summary = run(tournament, registry, progress=False, executor=executor)
    killer.join()
    assert killed, "no worker was caught playing"
    total = sum(len(item.deals) for item in plan(tournament))
    assert summary.errors == [] and summary.played == total == summary.stored
    check_complete(tournament.results, tournament)  # none lost, none twice
    assert [row[14] for row in stored_rows(tournament.results) if "null, null" not in row[14]] == []
    deadline = time.monotonic() + 10
    while processes_running(slow) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_running(slow) == []  # the killed worker's bots ended too
    # issue 30: a worker lost is said (it was silent, not even in the log)
    lost = [
        line
        for line in (tmp_path / "r" / "tournament.log").read_text().splitlines()
        if "lost" in line
    ]
    assert lost and "Dask worker tcp://" in lost[0], lost


def _worker_above(pid, workers):
    """The worker process ``pid`` descends from, if any."""
    while pid > 1:
        if pid in workers:
            return pid
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            return None
    return None


def test_workers_without_the_drivers_plugins_are_one_error(
    tmp_path, cluster, monkeypatch, broken_bot
):
    # the driver believes it runs another farm-arena: every worker differs
    monkeypatch.setattr(dask_executor, "_arena_version", lambda: "0.0-driver")
    path = games_file(tmp_path, broken_bot)
    results = tmp_path / "r"
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            str(path),
            "--results",
            str(results),
            "--scheduler",
            cluster.scheduler_address,
        ],
    )
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("arena: error:")]
    assert len(errors) == 1 and "2 of 2 Dask workers" in errors[0]
    assert "(driver 0.0-driver)" in errors[0]
    assert not (results / "results.sqlite").exists()  # before any game


def test_plugin_differences_name_what_is_missing_or_another_version():
    driver = {"arena": "1", "games": {"g": "1.0", "h": "2.0"}, "bots": {"b": "1"}, "errors": []}
    worker = {
        "arena": "1",
        "games": {"g": "1.1", "extra": "1"},
        "bots": {},
        "errors": ["plugin 'x': ImportError"],
    }
    assert differences(driver, worker) == [
        "game 'g' 1.1 (driver 1.0)",
        "no game 'h'",
        "no bot 'b'",
        "its plugin errors: plugin 'x': ImportError",
    ]
    assert differences(driver, dict(driver, games={**driver["games"], "more": "1"})) == []
    with pytest.raises(ClusterError, match=r"1 of 2 Dask workers .* tcp://b: no bot 'b'"):
        check_workers(driver, {"tcp://a": driver, "tcp://b": dict(driver, bots={})})
    with pytest.raises(ClusterError, match="no workers"):
        check_workers(driver, {})
    assert set(inventory()) == {"arena", "games", "bots", "errors"}


def test_an_unreachable_scheduler_is_one_error(tmp_path, broken_bot, monkeypatch):
    monkeypatch.setattr(dask_executor, "CONNECT_TIMEOUT", 1.0)
    path = games_file(tmp_path, broken_bot)
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            str(path),
            "--results",
            str(tmp_path / "r"),
            "--scheduler",
            "tcp://127.0.0.1:9",
        ],
    )
    assert result.exit_code == 2, result.output
    assert "arena: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output


def test_a_strict_match_in_a_worker_has_no_network(cluster, registry):
    # the hostile bot plays PWNED:network if it can connect to the port: here
    # the scheduler's, on the worker's own network
    port = int(cluster.scheduler_address.rsplit(":", 1)[1])
    attacker = registry.bot(f"cmd:{sys.executable} {HOSTILE} network {os.getpid()} x {port}")
    jobs = [
        MatchJob(
            item=level,
            game="farm-and-furious",
            options={},
            sandbox=level,
            least=level,  # the control runs the submitted attacker unsandboxed on purpose
            entrants=(Entrant("attacker", attacker), Entrant("honest", registry.bot("random"))),
            deals=((5, (0, 1), None),),
            indices=(0,),
        )
        for level in ("strict", "none")
    ]
    events = []
    executor = DaskExecutor(scheduler=cluster.scheduler_address, registry=registry)
    try:
        executor.run(jobs, events.append)
        pids = set(executor.worker_pids().values())
        # the inner bubblewrap of every strict bot came back to the worker
        # (a subreaper) and was reaped: long-lived workers keep no zombies
        orphans = executor.client.run(sandbox_orphans)
    finally:
        executor.close()
    assert [e.error for e in events if isinstance(e, JobDone)] == [None, None]
    records = {e.item: e.record for e in events if isinstance(e, GameEvent)}
    strict, bare = records["strict"].seats, records["none"].seats
    assert strict[0].fault is None and "PWNED" not in (strict[0].fault_detail or "")
    # the control: without a sandbox the same bot reaches the scheduler
    assert "PWNED:network" in (bare[0].fault_detail or "")
    assert os.getpid() not in pids  # played in the worker processes
    assert list(orphans.values()) == [[], []]


def test_config_keys_executor_and_scheduler(tmp_path, registry):
    def parse(text, **flags):
        path = tmp_path / "t.toml"
        path.write_text('name = "t"\nbots = ["random"]\ngames = ["farm-hand"]\n' + text)
        return load(path, registry, **flags)

    assert (parse("").executor, parse("").scheduler) == ("local", None)
    assert parse('executor = "dask"').executor == "dask"
    chosen = parse('scheduler = "tcp://10.0.0.5:8786"')
    assert (chosen.executor, chosen.scheduler) == ("dask", "tcp://10.0.0.5:8786")
    assert parse('executor = "dask"', scheduler="tls://h:1").scheduler == "tls://h:1"
    assert parse("", executor="dask").executor == "dask"
    for text, flags, message in [
        ('executor = "ray"', {}, "executor: 'ray' is not one of local, dask"),
        (
            'executor = "local"\nscheduler = "tcp://h:1"',
            {},
            "scheduler: a scheduler is for executor = 'dask', but the executor is 'local'",
        ),
        ('scheduler = "h"', {}, "scheduler: expected an address like tcp://HOST:PORT, got 'h'"),
        ("scheduler = 8786", {}, "scheduler: expected a string, got 8786"),
        (
            'executor = "dask"\nworkers = 0',
            {},
            "workers: executor 'dask' needs at least 1 worker (0 plays in this process)",
        ),
        (
            'executor = "dask"',
            {"workers": 0},
            "workers: executor 'dask' needs at least 1 worker (0 plays in this process)",
        ),
    ]:
        with pytest.raises(ConfigError) as caught:
            parse(text, **flags)
        assert caught.value.errors == [f"{tmp_path / 't.toml'}: {message}"]


def test_dask_without_distributed_installed_is_a_config_error(tmp_path, registry, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *args: None if name == "distributed" else real(name, *args),
    )
    path = tmp_path / "t.toml"
    path.write_text('name = "t"\nexecutor = "dask"\nbots = ["random"]\ngames = ["farm-hand"]\n')
    with pytest.raises(ConfigError) as caught:
        load(path, registry)
    assert caught.value.errors == [
        f"{path}: executor: 'dask' needs the distributed package: pip install 'farm-arena[dask]'"
    ]


def test_a_match_that_raises_is_reported_not_retried(cluster, registry):
    # an engine error (here: a game the workers do not have) is no worker death
    job = MatchJob(
        item="broken",
        game="no-such-game",
        options={},
        entrants=(),
        deals=((1, (0,), None),),
        indices=(0,),
    )
    events = []
    executor = DaskExecutor(scheduler=cluster.scheduler_address, registry=registry)
    try:
        executor.run([job], events.append)
    finally:
        executor.close()
    assert len(events) == 1 and isinstance(events[0], JobDone)
    assert "unknown game 'no-such-game'" in events[0].error


def test_ctrl_c_abandons_the_matches_on_the_cluster(tmp_path, broken_bot, processes_running):
    marker = f"dask-ctrl-c-test-{uuid.uuid4().hex}"
    path = tmp_path / "long.toml"
    path.write_text(f"""
name = "long"
seed = 2
workers = 2
deals = 16
match_deals = 8
bots = ["random", {{ name = "slow", bot = {json.dumps(broken_bot("slow", "0.02", marker))} }}]
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 10 }}
""")
    results = tmp_path / "r"
    code = "import arena.cli.tournament; from arena.cli import app; app()"
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            code,
            "tournament",
            str(path),
            "--results",
            str(results),
            "--quiet",
            "--executor",
            "dask",
        ],
        cwd=TESTS.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    stored = 0
    while stored < 2 and time.monotonic() < deadline:
        assert process.poll() is None, process.stdout.read().decode()
        time.sleep(0.1)
        try:
            with Store(results, create=False) as store:
                stored = store.count()
        except Exception:
            pass
    os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C: the workers get it too
    output, _ = process.communicate(timeout=60)
    text = output.decode()
    assert process.returncode == 130, text
    assert "interrupted" in text and "Traceback" not in text  # the workers ignore it
    with Store(results, create=False) as store:
        assert 2 <= store.count() < 32
    deadline = time.monotonic() + 10
    while processes_running(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_running(marker) == []


def test_the_scheduler_dying_mid_run_is_one_line_and_keeps_the_games(tmp_path):
    """Issue 30, finding 1: the driver printed ~128 lines of ``distributed``
    tracebacks (CommClosedError) and no arena line; it is one line, exit
    non-zero, and the games stored before stay."""
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    dask = str(Path(sys.executable).parent / "dask")
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], **quiet
    )
    worker = subprocess.Popen(
        [dask, "worker", address, "--nthreads", "1", "--no-dashboard"], **quiet
    )
    from test_results_folder import TINY

    path = tmp_path / "long.toml"
    long_run = {
        "workers = 0": "workers = 1",
        "deals = 1": "deals = 600",
        "length = 6": "length = 30",
    }
    text = TINY
    for old, new in long_run.items():
        text = text.replace(old, new)
    path.write_text(text)
    results = tmp_path / "r"
    try:
        driver = subprocess.Popen(
            [sys.executable, "-m", "arena", "tournament", str(path), "--results", str(results)]
            + ["--executor", "dask", "--scheduler", address, "--quiet"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        stored = 0
        while time.monotonic() < deadline and not stored and driver.poll() is None:
            time.sleep(0.2)
            if (results / "results.sqlite").exists():  # connecting would make it
                with contextlib.suppress(sqlite3.Error):
                    stored = len(stored_rows(results))
        if not stored:
            driver.kill()
            pytest.fail(
                f"no game stored before the scheduler was to be killed: {driver.communicate()}"
            )
        scheduler.kill()
        _, stderr = driver.communicate(timeout=180)
    finally:
        for process in (scheduler, worker):
            process.kill()
            process.wait(30)
    assert driver.returncode not in (0, None)
    assert stderr.strip().splitlines() == [stderr.strip()], stderr
    assert stderr.startswith(f"arena: error: the Dask scheduler {address} went away mid-run")
    assert "Traceback" not in stderr
    assert len(stored_rows(results)) >= stored  # kept
