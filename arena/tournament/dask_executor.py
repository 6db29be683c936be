"""The Dask executor: matches as tasks on a Dask distributed cluster.

``executor = "dask"`` in a tournament file (or ``--executor dask``) plays every
:class:`~arena.tournament.executor.MatchJob` as one task on the cluster's
workers; the task calls :func:`~arena.tournament.executor.run_job` there, with
the real referee and the sandbox of that machine.  Without a scheduler address
a local cluster is started (``n_workers`` = the tournament's workers, one
thread each, worker processes behind nannies); with ``scheduler =
"tcp://HOST:PORT"`` the driver connects to a running cluster.

* **Events stream back** through a ``distributed.Queue`` (one per run): every
  finished game is posted the moment the referee reports it, as opaque bytes
  (zlib-compressed pickle), so the scheduler needs nothing of the arena.  The
  driver drains the queue and hands each event to the runner, which alone
  writes the store, exactly as with the local pool.  The task returns how many
  games it posted; when it is done the driver waits until it has them all.
  Log records of the ``arena`` loggers made by the task's thread travel the
  same way and end up in ``tournament.log``.
* **Plugins are checked up front**: every worker reports its games and bots
  with their versions (and the arena's); anything the driver has that a
  worker lacks, or has in another version, is one :class:`ClusterError`
  before any game is played.  Each task checks again on its worker (workers
  may join later) and fails its match, without playing it, if they differ.
* **A worker that dies** mid-match loses only that match: the scheduler runs
  the task again on a live worker (Dask's ``allowed-failures``, default 3,
  after which the match is reported as failed and the next run replays it).
  The replay plays the whole job again; the games the first attempt already
  posted are dropped by the driver (the store keys games by ``ITEM/INDEX``),
  so no game is stored twice.  A task that *raises* (an engine bug) is not
  retried, and a bot fault is no exception at all: it is part of the result.
* **Abandoning**: on Ctrl-C the driver cancels the futures (and closes a local
  cluster); a cancelled task notices at its next game and unwinds the
  referee, which ends its bot processes.

Dask is an optional dependency (``pip install farm-arena[dask]``); this module
imports it only when an executor is started.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import signal
import sys
import threading
import time
import traceback
import uuid
import zlib
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from arena.sandbox.process import UNDERTAKER
from arena.tournament.executor import Event, Executor, GameEvent, JobDone, MatchJob, run_job

if TYPE_CHECKING:
    from distributed import Client, LocalCluster, Queue

log = logging.getLogger("arena.tournament")

#: seconds to wait for the scheduler and for the first worker
CONNECT_TIMEOUT = 30.0
#: seconds to wait, once a task is done, for the games it posted
DRAIN_TIMEOUT = 30.0
#: Dask settings for the workers of a local cluster (see docs/cluster.md for
#: the same on a cluster's workers)
WORKER_CONFIG = {"distributed.worker.profile.enabled": False}


class ClusterError(RuntimeError):
    """The cluster cannot play this tournament (unreachable, no workers, or
    workers whose plugins differ from the driver's): one line for the user."""


class PluginMismatch(RuntimeError):
    """Raised by a task on a worker whose plugins differ from the driver's."""


class Abandoned(RuntimeError):
    """Raised inside a task whose future was cancelled: stops its match."""


# -- what a machine has installed ----------------------------------------------------------


def _arena_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("farm-arena")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def inventory(registry=None) -> dict[str, Any]:
    """The games and bots installed in this process, with their versions."""
    if registry is None:
        from arena.plugins import installed

        registry = installed()
    return {
        "arena": _arena_version(),
        "games": {game_id: engine.info.version for game_id, engine in registry.games.items()},
        "bots": {name: spec.version for name, spec in registry.bots.items()},
        "errors": list(registry.errors),
    }


def differences(driver: dict[str, Any], worker: dict[str, Any]) -> list[str]:
    """What the driver has that the worker lacks or has in another version
    (extra games and bots on a worker do no harm and are not listed)."""
    found = []
    if worker.get("arena") != driver.get("arena"):
        found.append(f"farm-arena {worker.get('arena')} (driver {driver.get('arena')})")
    for kind in ("games", "bots"):
        singular = kind[:-1]
        theirs = worker.get(kind, {})
        for name, version in sorted(driver.get(kind, {}).items()):
            if name not in theirs:
                found.append(f"no {singular} '{name}'")
            elif theirs[name] != version:
                found.append(f"{singular} '{name}' {theirs[name]} (driver {version})")
    if found and worker.get("errors"):
        found.append("its plugin errors: " + " / ".join(worker["errors"]))
    return found


def check_workers(driver: dict[str, Any], reports: dict[str, Any]) -> None:
    """Raise one :class:`ClusterError` naming every worker that differs."""
    if not reports:
        raise ClusterError("the Dask cluster has no workers")
    bad = []
    for address, report in sorted(reports.items()):
        if isinstance(report, BaseException):
            bad.append(f"{address}: cannot list its plugins: {report}")
            continue
        found = differences(driver, report)
        if found:
            bad.append(f"{address}: " + ", ".join(found))
    if bad:
        raise ClusterError(
            f"{len(bad)} of {len(reports)} Dask workers do not have the driver's "
            f"games and bots (install the same versions on every worker): " + "; ".join(bad)
        )


# -- the task (runs on a worker) -------------------------------------------------------------


def _pack(value: Any) -> bytes:
    return zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1)


def _unpack(data: bytes) -> Any:
    return pickle.loads(zlib.decompress(data))


class _Forward(logging.Handler):
    """Passes the ``arena`` log records of one thread (the task's) to ``post``."""

    def __init__(self, post: Callable[[Any], None], where: str):
        super().__init__(logging.INFO)
        self.post = post
        self.where = where
        self.thread = threading.get_ident()

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread:
            return
        try:
            text = record.getMessage()
            if record.exc_info and not record.exc_text:
                text += "\n" + "".join(traceback.format_exception(*record.exc_info))
            elif record.exc_text:
                text += "\n" + record.exc_text
            self.post(
                (
                    "log",
                    {
                        "name": record.name,
                        "levelno": record.levelno,
                        "levelname": record.levelname,
                        "msg": text,
                        "args": None,
                        "created": record.created,
                        "msecs": record.msecs,
                        "process": record.process,
                        "processName": self.where,
                    },
                )
            )
        except Exception:  # pragma: no cover - a log record must never stop a match
            pass


def _cancelled(worker, key) -> bool:
    """Whether the driver gave up on this task (Ctrl-C, or the driver is gone)."""
    try:
        task = worker.state.tasks.get(key)
    except Exception:  # pragma: no cover - worker internals changed
        return False
    return task is None or task.state in ("cancelled", "released", "forgotten")


def play_on_worker(
    job: MatchJob, queue_name: str, expected: dict[str, Any], job_runner: Callable = run_job
) -> int:
    """The task: check the plugins, play the job, post every event to the
    queue; return the number of games posted."""
    from distributed import Queue, get_worker

    worker = get_worker()
    key = worker.get_current_task()
    found = differences(expected, inventory())
    if found:
        raise PluginMismatch(
            f"worker {worker.address} does not have the driver's games and bots: {', '.join(found)}"
        )
    queue = Queue(queue_name)
    sent = 0

    def post(value) -> None:
        queue.put(_pack(value))

    def emit(event: Event) -> None:
        nonlocal sent
        if _cancelled(worker, key):
            raise Abandoned(f"match {job.item} abandoned by the driver")
        post(("event", event))
        if isinstance(event, GameEvent):
            sent += 1

    arena_log = logging.getLogger("arena")
    if arena_log.getEffectiveLevel() > logging.INFO:
        arena_log.setLevel(logging.INFO)
    forward = _Forward(post, f"dask-worker {worker.address}")
    arena_log.addHandler(forward)
    try:
        job_runner(job, emit)
    finally:
        UNDERTAKER.drain()  # the task ends with its bots: nothing of it outlives it
        arena_log.removeHandler(forward)
        try:
            queue.close()  # the scheduler drops the queue once the driver's is closed too
        except Exception:  # pragma: no cover - the worker is shutting down
            pass
    return sent


def _interrupts_ignored():
    """A worker plugin: the worker ignores SIGINT (a local cluster's workers
    share the terminal's process group, and Ctrl-C is the driver's to handle:
    it cancels the tasks and closes the cluster), like the local pool's."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class IgnoreInterrupts(WorkerPlugin):
        def setup(self, worker) -> None:
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)

    return IgnoreInterrupts()


@contextlib.contextmanager
def _interrupts_between_calls(wake: threading.Event):
    """Ctrl-C (or SIGTERM) while the driver waits for its tasks becomes a
    ``KeyboardInterrupt`` raised by :meth:`DaskExecutor._wait` between two
    calls to the cluster, never inside one.  distributed's ``sync`` (behind
    every blocking client call) mishandles an interrupt that arrives before
    its coroutine has started: its cancel callback raises ``NameError`` on the
    event loop and tornado prints that traceback (seen in CI, distributed
    2026.8).  Only the main thread can set handlers; elsewhere nothing
    changes.  Yields the event that says an interrupt came."""
    interrupted = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield interrupted
        return

    def defer(signum, frame):
        interrupted.set()
        wake.set()

    previous = {number: signal.signal(number, defer) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield interrupted
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


# -- the executor (runs in the driver) -------------------------------------------------------


class _Quieted:
    """While the executor runs, ``distributed``'s own log in this process
    (its attempts to reconnect, the tracebacks when the scheduler goes) is
    one line each in the arena's log, not pages on the terminal: what
    happened is said once, as the arena's error (:meth:`DaskExecutor.run`)."""

    class _ToArenaLog(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            log.log(record.levelno, "%s: %s", record.name, " ".join(record.getMessage().split()))

    #: the loggers whose own handlers write to the terminal
    ROOTS = ("distributed", "tornado")

    def __init__(self) -> None:
        self.forward = self._ToArenaLog()
        self.saved: list[tuple[logging.Logger, list[logging.Handler], bool]] = []
        for name, logger in list(logging.root.manager.loggerDict.items()):
            if (
                isinstance(logger, logging.Logger)
                and name.split(".")[0] in self.ROOTS
                and (logger.handlers or name in self.ROOTS)
            ):
                self.saved.append((logger, list(logger.handlers), logger.propagate))
                for handler in list(logger.handlers):
                    logger.removeHandler(handler)
                logger.addHandler(self.forward)
                logger.propagate = False

    def restore(self) -> None:
        for logger, handlers, propagate in self.saved:
            logger.removeHandler(self.forward)
            for handler in handlers:
                logger.addHandler(handler)
            logger.propagate = propagate


class DaskExecutor(Executor):
    """Matches as tasks on a Dask cluster: ``scheduler`` is the address of a
    running one, or ``None`` to start a local cluster of ``workers`` processes."""

    def __init__(
        self,
        workers: int = 2,
        scheduler: str | None = None,
        registry=None,
        job_runner: Callable = run_job,
        cluster_options: dict | None = None,
    ):
        self.workers = max(1, workers)
        self.scheduler = scheduler
        self.registry = registry
        self.job_runner = job_runner
        self.cluster_options = cluster_options or {}
        self.cluster: LocalCluster | None = None
        self.client: Client | None = None
        self.queue: Queue | None = None
        self.expected: dict[str, Any] | None = None
        self.futures: dict = {}
        self.known_workers: set[str] = set()
        self.quieted: _Quieted | None = None

    # .. start and close ....................................................................

    def start(self) -> None:
        if self.client is not None:
            return
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ClusterError(
                "the Dask executor needs the distributed package: pip install 'farm-arena[dask]'"
            ) from None
        self.expected = inventory(self.registry)
        self.quieted = self.quieted or _Quieted()
        try:
            if self.scheduler:
                try:
                    self.client = client = Client(
                        self.scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False
                    )
                except (OSError, TimeoutError, ValueError) as error:
                    why = str(error).strip().splitlines()
                    raise ClusterError(
                        f"cannot reach the Dask scheduler at {self.scheduler}: "
                        f"{why[0] if why else type(error).__name__}"
                    ) from None
            else:
                import dask

                options = dict(
                    n_workers=self.workers,
                    threads_per_worker=1,
                    processes=True,
                    # local services stay local: the scheduler and its
                    # dashboard on the loopback (":0" was every interface)
                    host="127.0.0.1",
                    dashboard_address="127.0.0.1:0",
                    silence_logs=logging.ERROR,
                )
                options.update(self.cluster_options)
                # the workers' statistical profiler samples every thread every
                # 10 ms, for a dashboard nobody looks at here
                with dask.config.set(WORKER_CONFIG):
                    self.cluster = LocalCluster(**options)
                self.client = client = Client(self.cluster, set_as_default=False)
                client.register_plugin(_interrupts_ignored(), name="arena-ignore-sigint")
            try:
                client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            except TimeoutError:
                raise ClusterError(
                    f"the Dask cluster at {client.scheduler.address} has no "
                    f"workers (waited {CONNECT_TIMEOUT:.0f} s)"
                ) from None
            reports = client.run(inventory, on_error="return")
            check_workers(self.expected, reports)
            self.workers = max(1, sum(client.nthreads().values()))
            self.known_workers = set(client.nthreads())
            self.queue = self._new_queue()
            log.info(
                "dask: %d workers, %d threads, scheduler %s",
                len(reports),
                self.workers,
                client.scheduler.address,
            )
        except BaseException:
            self.close(cancel=True)
            raise

    def _new_queue(self) -> Queue:
        from distributed import Queue

        return Queue(f"arena-events-{uuid.uuid4().hex}", client=self.client)

    def _started(self) -> tuple[Client, Queue]:
        """The client and the event queue of a started executor."""
        if self.client is None or self.queue is None:
            raise ClusterError("the Dask executor is not started")
        return self.client, self.queue

    def close(self, cancel: bool = False) -> None:
        if self.client is not None:
            if self.futures:
                try:
                    self.client.cancel(list(self.futures), force=True)
                except Exception:  # pragma: no cover - the cluster is going anyway
                    pass
                self.futures = {}
            if self.queue is not None:
                try:
                    self.queue.close()
                except Exception:  # pragma: no cover
                    pass
                self.queue = None
            try:
                self.client.close(timeout=10)
            except Exception:  # pragma: no cover
                pass
            self.client = None
        if self.cluster is not None:
            try:
                self.cluster.close(timeout=20)
            except Exception:  # pragma: no cover
                pass
            self.cluster = None
        if self.quieted is not None:
            self.quieted.restore()
            self.quieted = None

    # .. run ................................................................................

    def worker_pids(self) -> dict[str, int]:
        """The process id of every worker (tests kill one)."""
        return self._started()[0].run(os.getpid)

    def run(self, jobs: Sequence[MatchJob], on_event: Callable[[Event], None]) -> None:
        # here, not at the top: `arena tournament` imports this module for
        # ClusterError, and asyncio alone is ~25 ms of every run's start-up
        # (docs/performance.md); Dask has imported it by now
        import asyncio

        self.start()
        try:
            self._run(jobs, on_event)
        except (OSError, asyncio.CancelledError) as error:  # CommClosedError is an OSError
            address = self.scheduler or "of the local cluster"
            raise ClusterError(
                f"the Dask scheduler {address} went away mid-run "
                f"({' '.join(str(error).split()) or type(error).__name__}); the games stored "
                f"so far are kept: run the same command again when it is back"
            ) from None

    def _run(self, jobs: Sequence[MatchJob], on_event: Callable[[Event], None]) -> None:
        client, queue = self._started()
        seen: dict[str, set[int]] = defaultdict(set)
        wake = threading.Event()
        with _interrupts_between_calls(wake) as interrupted:
            for job in jobs:
                future = client.submit(
                    play_on_worker,
                    job,
                    queue.name,
                    self.expected,
                    self.job_runner,
                    key=f"arena-match-{uuid.uuid4().hex[:12]}-{job.item}",
                    pure=False,
                    retries=0,
                )
                self.futures[future] = job
                future.add_done_callback(lambda _: wake.set())
            self._wait(on_event, seen, wake, interrupted)

    def _wait(self, on_event, seen, wake: threading.Event, interrupted: threading.Event) -> None:
        looked = time.monotonic()
        while self.futures:
            if interrupted.is_set():
                raise KeyboardInterrupt
            if time.monotonic() - looked > 1.0:
                self._say_lost_workers()
                looked = time.monotonic()
            wake.clear()
            drained = self._drain(on_event, seen)
            if not any(future.done() for future in self.futures):
                if not drained:
                    wake.wait(0.05)
                continue
            for future in [f for f in self.futures if f.done()]:
                job = self.futures.pop(future)
                self._finish(future, job, on_event, seen)
        self._say_lost_workers()

    def _say_lost_workers(self) -> None:
        """A worker gone from the scheduler's list (its matches are run
        again on the others) is a line in the log and on the terminal."""
        workers = set(self._started()[0].nthreads())
        for address in sorted(self.known_workers - workers):
            note = f"Dask worker {address} lost; its matches are played again on the others"
            log.warning(note)
            print(f"arena: warning: {note}", file=sys.stderr)
        self.known_workers = workers

    def _drain(self, on_event, seen) -> int:
        count = 0
        for data in self._started()[1].get(batch=True):
            kind, value = _unpack(data)
            count += 1
            if kind == "log":
                record = logging.makeLogRecord(value)
                logging.getLogger(record.name).handle(record)
            elif isinstance(value, GameEvent):
                if value.index in seen[value.item]:
                    # posted again by a task the scheduler ran again after its
                    # worker died: the first copy is stored already
                    log.info(
                        "match %s: game %d played again after a worker died; "
                        "the first copy is kept",
                        value.item,
                        value.index,
                    )
                    continue
                seen[value.item].add(value.index)
                on_event(value)
        return count

    def _finish(self, future, job: MatchJob, on_event, seen) -> None:
        error = None
        if future.status == "finished":
            sent = future.result()
            wanted = set(job.indices[:sent])
            deadline = time.monotonic() + DRAIN_TIMEOUT
            while not wanted <= seen[job.item]:
                if time.monotonic() > deadline:
                    lost = len(wanted - seen[job.item])
                    error = f"{lost} games of the match did not reach the driver"
                    break
                if not self._drain(on_event, seen):
                    time.sleep(0.02)
        else:
            self._drain(on_event, seen)  # games posted before it failed are kept
            if future.status == "cancelled":
                error = "the task was cancelled"
            else:
                exception = future.exception()
                if type(exception).__name__ == "KilledWorker":
                    error = f"the workers playing it died again and again: {exception}"
                else:
                    text = "".join(
                        traceback.format_exception(
                            type(exception), exception, future.traceback(), limit=8
                        )
                    )
                    error = text
        on_event(JobDone(job.item, error))
