"""The local executor on its own (a stand-in job runner, no referee): events
arrive in the driver, a worker that dies is replaced and its match failed."""

import multiprocessing
import multiprocessing.util
import os
import signal
import threading
import time

from arena.sandbox.leftovers import start_time
from arena.tournament.executor import GameEvent, InlineExecutor, JobDone, LocalExecutor, MatchJob


def job(name, games=3):
    return MatchJob(
        item=name,
        game="g",
        options={},
        entrants=(),
        deals=tuple((k, (0,)) for k in range(games)),
        indices=tuple(range(games)),
    )


def fake_runner(job, emit):
    if job.item == "dies":
        os._exit(7)
    if job.item == "raises":
        raise RuntimeError("engine bug")
    for index in job.indices:
        emit(GameEvent(job.item, index, {"pid": os.getpid()}))


def collect(executor, jobs):
    events = []
    executor.start()
    try:
        executor.run(jobs, events.append)
    finally:
        executor.close()
    return events


def test_events_from_every_worker_reach_the_driver():
    events = collect(LocalExecutor(2, fake_runner), [job(f"m{k}") for k in range(6)])
    games = [e for e in events if isinstance(e, GameEvent)]
    assert sorted((e.item, e.index) for e in games) == sorted(
        (f"m{k}", i) for k in range(6) for i in range(3)
    )
    assert {e.record["pid"] for e in games} - {os.getpid()}  # played in the workers
    assert sorted(e.item for e in events if isinstance(e, JobDone)) == [f"m{k}" for k in range(6)]
    assert all(e.error is None for e in events if isinstance(e, JobDone))


def test_a_dying_worker_is_replaced_and_its_match_reported():
    executor = LocalExecutor(1, fake_runner)
    events = collect(executor, [job("a"), job("dies"), job("b"), job("raises"), job("c")])
    done = {e.item: e.error for e in events if isinstance(e, JobDone)}
    assert set(done) == {"a", "dies", "b", "raises", "c"}
    assert "exit code 7" in done["dies"]
    assert "engine bug" in done["raises"]
    assert done["a"] is None and done["b"] is None and done["c"] is None
    assert sum(isinstance(e, GameEvent) for e in events) == 9


def test_inline_executor_plays_in_this_process():
    events = collect(InlineExecutor(fake_runner), [job("x", 2), job("raises")])
    assert [e.record["pid"] for e in events if isinstance(e, GameEvent)] == [os.getpid()] * 2
    assert [(e.item, e.error is None) for e in events if isinstance(e, JobDone)] == [
        ("x", True),
        ("raises", False),
    ]


def _stuck_at_exit(job, emit):
    """Plays on until stopped, leaving an exit-time finalizer that never
    returns: what a logging queue's feeder thread, left waiting by a SIGTERM
    that landed mid-put, did to a worker whose driver was killed (chaos)."""
    multiprocessing.util.Finalize(None, threading.Event().wait, exitpriority=0)
    with open(job.item, "w") as f:
        f.write(str(os.getpid()))
    time.sleep(120)


def _drive(marker):
    executor = LocalExecutor(1, _stuck_at_exit)
    executor.start()
    executor.run([job(marker)], lambda event: None)


def test_a_worker_whose_driver_was_killed_ends(tmp_path):
    marker = tmp_path / "worker-pid"
    driver = multiprocessing.get_context("fork").Process(target=_drive, args=(str(marker),))
    driver.start()
    deadline = time.monotonic() + 60
    while not (marker.exists() and marker.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    worker = int(marker.read_text())
    started = start_time(worker)
    os.kill(driver.pid, signal.SIGKILL)  # its workers get SIGTERM (PR_SET_PDEATHSIG)
    driver.join()
    try:
        deadline = time.monotonic() + 30
        while start_time(worker) == started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert start_time(worker) != started, "the worker outlived its driver"
    finally:
        if start_time(worker) == started:
            os.kill(worker, signal.SIGKILL)
