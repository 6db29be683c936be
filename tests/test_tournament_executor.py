"""The local executor on its own (a stand-in job runner, no referee): events
arrive in the driver, a worker that dies is replaced and its match failed."""

import multiprocessing
import multiprocessing.util
import os
import signal
import subprocess
import sys
import threading
import time

from arena.sandbox.leftovers import start_time
from arena.sandbox.usage import children
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


def test_a_worker_lost_after_its_last_job_is_still_said(caplog):
    """A worker killed once its jobs are done (the run about to close) is
    a line in the log too, not only one lost mid-match; a close that stops
    healthy workers says nothing (the control)."""
    for kill in (False, True):
        executor = LocalExecutor(1, fake_runner)
        executor.start()
        try:
            executor.run([job("a")], lambda event: None)
            (slot,) = executor.slots
            if kill:
                os.kill(slot.process.pid, signal.SIGKILL)
                slot.process.join(5)
            caplog.clear()
        finally:
            executor.close()
        said = [r.getMessage() for r in caplog.records if "ended" in r.getMessage()]
        assert said == ([f"worker {slot.process.pid} ended (exit code -9)"] if kill else [])


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


DRIVER = """
import logging, os, signal, sys, time
from multiprocessing_logging import MultiProcessingHandler
from arena.tournament.executor import LocalExecutor, MatchJob

logger = logging.getLogger("arena")
logger.setLevel(logging.INFO)
logger.propagate = False
funnel = MultiProcessingHandler("test-log", logging.FileHandler(sys.argv[1]))
logger.addHandler(funnel)

def killed_mid_record(job, emit):
    # as a SIGKILL can find a worker: its feeder thread in the middle of
    # writing a record to the shared log queue, holding the queue's lock
    funnel.queue._send_bytes = lambda *args: time.sleep(3600)
    logging.getLogger("arena.test").warning("from the worker")
    time.sleep(1)
    os.kill(os.getpid(), signal.SIGKILL)

executor = LocalExecutor(1, killed_mid_record)
executor.start()
executor.run([MatchJob("x", "g", {}, (), ((0, (0,), None),), (0,))], lambda event: None)
executor.close()
logging.getLogger("arena.test").warning("after the worker died")
funnel.close()
"""


def test_a_worker_killed_while_logging_stops_neither_the_log_nor_the_driver(tmp_path):
    """Found by make chaos: a worker SIGKILLed while it wrote a log record
    left multiprocessing-logging's queue locked (one lock for every
    process): no record was written after, and the driver hung at exit,
    waiting for its own.  A worker's records now go over its own pipe."""
    log = tmp_path / "tournament.log"
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, str(log)])
    try:
        assert driver.wait(timeout=60) == 0
    finally:
        if driver.poll() is None:
            for pid in [driver.pid, *children(driver.pid)]:
                os.kill(pid, signal.SIGKILL)
            driver.wait()
    text = log.read_text()
    assert "from the worker" in text and "after the worker died" in text, text
