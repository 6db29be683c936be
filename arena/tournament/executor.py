"""Executors: where matches are played.

An :class:`Executor` takes :class:`MatchJob` values (plain, picklable: a match
for the referee, naming the engine by id and the bots by launch spec) and
reports :class:`GameEvent` / :class:`JobDone` events back *in the driver's
process*, as they happen, through a callback.  The driver alone writes the
store.

* :class:`InlineExecutor` (``workers = 0``) plays in the driver's process, one
  match after another: for debugging and tiny runs.
* :class:`LocalExecutor` runs a pool of forked worker processes (the ``fork``
  context is asked for explicitly: multiprocessing-logging funnels log records
  only from forked children).  Each worker runs one referee at a time; a
  worker that dies is replaced and its match reported as failed.

The cluster backend, :class:`arena.tournament.dask_executor.DaskExecutor`
(``executor = "dask"``), fits the same shape: ``run`` submits :func:`run_job`
for each job with an ``emit`` that posts events to a ``distributed.Queue`` the
driver drains, and returns when every future is done.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.match.referee import Deal, Entrant, Prestarted, TimeControl, play_match, prestart
from arena.records import GameRecord
from arena.sandbox.leftovers import remove_leftovers
from arena.sandbox.process import UNDERTAKER
from arena.sandbox.usage import children
from arena.sandbox.view import warm as warm_views

log = logging.getLogger("arena.tournament")
#: jobs sent to a worker ahead of the one it plays (see LocalExecutor.run)
AHEAD = 1


@dataclass(frozen=True)
class MatchJob:
    """One call of the referee: the deals of one plan item still to play,
    all in one seating (an item's other seatings are jobs of their own, so
    no bot process meets a deal twice)."""

    item: str
    game: str
    options: dict[str, Any]
    entrants: tuple[Entrant, ...]  # name, launch spec, resource limits
    deals: tuple[tuple[int, tuple[int, ...], int | None], ...]  # (seed, seating, chance)
    indices: tuple[int, ...]  # each deal's index in the item
    limit: TimeControl = TimeControl()
    sandbox: str | None = None  # a level of arena.sandbox (None/auto: strongest available)
    least: str = "strict"  # the least level its submitted bots may run at
    audit: bool = False  # check every message for hidden information (arena.audit)
    stderr: int = 0  # bytes of each seat's stderr kept per game (0: none; a ladder's)

    @property
    def name(self) -> str:
        """Unique among the jobs of a run: the key of the job's first game."""
        return f"{self.item}/{self.indices[0]}" if self.indices else self.item


@dataclass(frozen=True)
class GameEvent:
    """One finished game of a job: the referee's record, as it is, and the
    end of each seat's stderr in that game when the job keeps it."""

    item: str
    index: int
    record: GameRecord
    stderr: tuple[str, ...] = ()


@dataclass(frozen=True)
class JobDone:
    item: str
    error: str | None = None


Event = GameEvent | JobDone


def run_job(job: MatchJob, emit: Callable[[Event], None], registry=None) -> None:
    """Play one job with the real referee, emitting a GameEvent per game.

    ``registry`` (default: the installed plugins) provides the engine."""
    from arena.plugins import installed

    engine = (registry or installed()).engine(job.game)
    entrants = list(job.entrants)
    deals = _deals(job)
    sent = 0
    logs: dict[int, tuple[str, ...]] = {}

    def on_stderr(position: int, texts: tuple[str, ...]) -> None:
        logs[position] = texts

    def on_game(record) -> None:
        nonlocal sent
        if sent < len(job.indices):
            emit(GameEvent(job.item, job.indices[sent], record, logs.pop(sent, ())))
        sent += 1

    started = time.monotonic()
    records = play_match(
        engine,
        entrants,
        deals,
        options=job.options,
        limit=job.limit,
        on_game=on_game,
        sandbox=job.sandbox,
        least=job.least,
        audit=job.audit,
        started=_PRESTARTED.pop(job.name, None),
        linger=True,
        on_stderr=on_stderr if job.stderr else None,
        stderr=job.stderr,
    )
    log.info("match %s: %d games in %.2f s", job.item, len(records), time.monotonic() - started)
    for position in range(sent, min(len(records), len(job.indices))):
        emit(GameEvent(job.item, job.indices[position], records[position], logs.pop(position, ())))


def _deals(job: MatchJob) -> list[Deal]:
    return [
        Deal(seed, tuple(seating), chance, index)
        for (seed, seating, chance), index in zip(job.deals, job.indices)
    ]


#: a worker's pre-started bots, by the name of the job they are for
_PRESTARTED: dict[str, Prestarted] = {}


def prepare_job(job: MatchJob) -> None:
    """Start the bots of a job a worker will play next, while it plays the
    current one (:func:`arena.match.referee.prestart`: they learn nothing before
    their match starts); :func:`run_job` hands them to the referee."""
    if job.name not in _PRESTARTED:
        _PRESTARTED[job.name] = prestart(job.entrants, _deals(job), job.sandbox, least=job.least)


def _discard_prestarted(name: str | None = None) -> None:
    """End pre-started bots no match took (job ``name``'s, or every one)."""
    for key in [name] if name is not None else list(_PRESTARTED):
        started = _PRESTARTED.pop(key, None)
        if started is not None:
            started.close()


class Executor(ABC):
    """Plays jobs; events reach ``on_event`` in the calling process."""

    workers: int = 1

    def start(self) -> None:  # noqa: B027 -- optional, nothing to do by default
        """Get ready (e.g. start worker processes); called once before run."""

    @abstractmethod
    def run(self, jobs: Sequence[MatchJob], on_event: Callable[[Event], None]) -> None:
        """Play every job, calling ``on_event`` as events arrive; return when
        all are done.  KeyboardInterrupt propagates after in-flight matches
        are abandoned (their finished games were already reported)."""

    def close(self, cancel: bool = False) -> None:  # noqa: B027 -- optional, as start
        """Stop the workers (``cancel``: abandon matches in progress)."""


class InlineExecutor(Executor):
    workers = 0

    def __init__(self, job_runner: Callable = run_job):
        self.job_runner = job_runner

    def run(self, jobs, on_event):
        for job in jobs:
            try:
                self.job_runner(job, on_event)
            except Exception:
                on_event(JobDone(job.item, traceback.format_exc(limit=8)))
            else:
                on_event(JobDone(job.item))


def _die_with_parent() -> None:
    """Ask Linux to send SIGTERM when the driver dies (even by kill -9)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except Exception:  # pragma: no cover - not Linux: the getppid check remains
        pass


def _worker(conn, job_runner, parent: int) -> None:
    """A worker's loop on its own pipe: receive a job, send its events.

    Each worker has a pipe of its own (no lock shared with other workers),
    and every message is written synchronously: whatever a worker sent before
    it died abruptly reaches the driver whole, and a half-written message
    only ends that worker's pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver decides about Ctrl-C

    def stop(signum, frame):
        # unwinds the referee, which ends its bot processes; once only: a
        # second SIGTERM (the driver's, after a killpg's) must not cut that short
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise SystemExit(1)

    signal.signal(signal.SIGTERM, stop)
    _die_with_parent()
    lock = threading.Lock()  # the main thread's events, any thread's log records

    def send(message) -> None:
        with lock:
            conn.send(message)

    arena_log = logging.getLogger("arena")
    for inherited in list(arena_log.handlers):  # the driver's: see _ToDriver
        arena_log.removeHandler(inherited)
    arena_log.addHandler(_ToDriver(send))
    arena_log.propagate = False  # the driver hands them on as its own are

    queued: list[MatchJob | None] = []

    def look_ahead() -> None:
        """Take a job the driver sent ahead and start its bots now."""
        try:
            while conn.poll(0):
                queued.append(conn.recv())
        except (EOFError, OSError):
            return
        if queued and queued[0] is not None:
            try:
                prepare_job(queued[0])
            except Exception:  # only a head start lost: its match starts them
                log.warning("cannot start the bots of %s ahead", queued[0].item, exc_info=True)

    def emit(event) -> None:
        if os.getppid() != parent:  # the driver is gone: stop this match
            raise SystemExit(1)
        send(event)
        if isinstance(event, GameEvent):
            look_ahead()

    try:
        _serve(conn, send, job_runner, parent, emit, queued, look_ahead)
    finally:
        _discard_prestarted()
        UNDERTAKER.drain()  # a forked worker ends with os._exit: no atexit
        if os.getppid() != parent:
            # the driver is gone (killed outright): multiprocessing's exit
            # finalizers would only flush to nobody, and one that waits (a
            # queue's feeder thread a signal interrupted) would hold this
            # worker, and its copy of the driver's stdout, forever
            os._exit(1)


class _ToDriver(logging.Handler):
    """A worker's log records, sent over the worker's own pipe; the driver
    logs them.  Not multiprocessing-logging's queue, which the worker
    inherits: its write lock is one for every process, and a worker killed
    while it held it (mid-record) stopped every record after it and held the
    driver at exit, waiting for its own records to be written."""

    def __init__(self, send: Callable[[Any], None]):
        super().__init__()
        self._send = send

    def emit(self, record: logging.LogRecord) -> None:
        record.msg, record.args = record.getMessage(), None  # picklable
        if record.exc_info:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
        try:
            self._send(record)
        except (OSError, ValueError):
            pass  # the driver is gone: nobody to tell


def _serve(conn, send, job_runner, parent: int, emit, queued: list, look_ahead) -> None:
    while os.getppid() == parent:
        if not queued:
            try:
                if not conn.poll(1.0):
                    continue
                queued.append(conn.recv())
            except (EOFError, OSError):
                return
        job = queued.pop(0)
        if job is None:
            return
        look_ahead()
        try:
            job_runner(job, emit)
        except SystemExit:
            _end_bots()
            raise
        except Exception:
            log.exception("match %s failed", job.item)
            send(JobDone(job.item, traceback.format_exc(limit=8)))
        else:
            send(JobDone(job.item))
        finally:
            _discard_prestarted(job.name)


def _end_bots() -> None:
    """Kill whatever bot the referee had not taken charge of yet when the
    worker was stopped mid-step (one between its start and its handshake):
    every child of a worker is a bot's sandbox, the leader of its own process
    group (those being ended in the background too: the undertaker then
    finds them reaped)."""
    for pid in children(os.getpid()):
        for kill in (os.killpg, os.kill):
            try:
                kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass


@dataclass
class _Slot:
    process: Any
    conn: Any
    #: sent to the worker, in order: the first is playing, the next waits
    #: there (its bots being started meanwhile)
    jobs: list[MatchJob] = field(default_factory=list)


class LocalExecutor(Executor):
    """A pool of forked worker processes on this machine; the driver hands
    each idle worker the next job over the worker's own pipe."""

    def __init__(self, workers: int, job_runner: Callable = run_job):
        self.workers = max(1, workers)
        self.job_runner = job_runner
        self.context = multiprocessing.get_context("fork")
        self.slots: list[_Slot] = []

    def start(self) -> None:
        if len(self.slots) < self.workers:
            warm_views()  # once here, inherited by every worker
        while len(self.slots) < self.workers:
            self._spawn()

    def _spawn(self) -> _Slot:
        ours, theirs = self.context.Pipe(duplex=True)
        process = self.context.Process(
            target=_worker,
            name="arena-worker",
            daemon=True,
            args=(theirs, self.job_runner, os.getpid()),
        )
        process.start()
        theirs.close()
        slot = _Slot(process, ours)
        self.slots.append(slot)
        return slot

    def run(self, jobs, on_event):
        self.start()
        pending = list(jobs)
        pending.reverse()
        busy = 0
        while pending or busy:
            for slot in self.slots:
                # one job ahead per worker while there are more jobs than
                # workers: its bots start while the worker plays; near the
                # end, none, so no worker waits with a job another could play
                while pending and len(slot.jobs) < (
                    AHEAD + 1 if len(pending) >= len(self.slots) else 1
                ):
                    slot.jobs.append(pending.pop())
                    try:
                        slot.conn.send(slot.jobs[-1])
                    except OSError:
                        pass  # a dead worker: noticed below
                    busy += 1
            ready = multiprocessing.connection.wait(
                [slot.conn for slot in self.slots] + [slot.process.sentinel for slot in self.slots],
                timeout=1.0,
            )
            for slot in list(self.slots):
                if slot.conn in ready or slot.process.sentinel in ready:
                    busy -= self._drain(slot, on_event, pending)

    def _drain(self, slot: _Slot, on_event, pending: list[MatchJob]) -> int:
        """Deliver what ``slot`` sent; replace it if it ended (the job it
        was playing failed, the one it had not begun goes back to
        ``pending``).  Returns how many jobs left the slot."""
        finished = 0
        try:
            while slot.conn.poll():
                event = slot.conn.recv()
                if isinstance(event, logging.LogRecord):  # (see _ToDriver)
                    logging.getLogger(event.name).handle(event)
                    continue
                if isinstance(event, JobDone) and slot.jobs and event.item == slot.jobs[0].item:
                    slot.jobs.pop(0)
                    finished += 1
                on_event(event)
            if slot.process.is_alive():
                return finished
        except (EOFError, OSError):
            pass
        slot.process.join(5)
        self.slots.remove(slot)
        slot.conn.close()
        code = slot.process.exitcode
        log.error(
            "worker %s ended (exit code %s)%s",
            slot.process.pid,
            code,
            f" while playing {slot.jobs[0].item}" if slot.jobs else "",
        )
        if slot.jobs:
            finished += len(slot.jobs)
            on_event(JobDone(slot.jobs[0].item, f"worker process ended with exit code {code}"))
            pending.extend(reversed(slot.jobs[1:]))  # next to be handed out
        remove_leftovers()  # what the dead worker's bots held
        self._spawn()
        return finished

    def close(self, cancel: bool = False) -> None:
        slots, self.slots = self.slots, []
        for slot in slots:
            try:
                if cancel:
                    if slot.process.is_alive():
                        slot.process.terminate()
                else:
                    slot.conn.send(None)
            except OSError:
                pass
        deadline = time.monotonic() + (10 if cancel else 60)
        for slot in slots:
            slot.process.join(max(0.1, deadline - time.monotonic()))
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join(5)
            elif not cancel and slot.process.exitcode:  # lost after its last job: still said
                log.error("worker %s ended (exit code %s)", slot.process.pid, slot.process.exitcode)
            slot.conn.close()


def make_executor(workers: int, registry=None) -> Executor:
    """The local executor for ``workers`` (0: inline); ``registry`` (default:
    the installed plugins) is inherited by the forked workers."""
    runner = functools.partial(run_job, registry=registry) if registry is not None else run_job
    return InlineExecutor(runner) if workers == 0 else LocalExecutor(workers, runner)
