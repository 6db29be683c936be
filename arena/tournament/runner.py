"""Running a plan: plan -> executor -> store -> ratings -> leaderboard.

The one way games are played, stored and resumed: a tournament's plan, and
a single table's (``arena match``, ``arena sprt``, a :class:`Plan` of
their own).  The driver (this module, in the ``arena`` process) plans,
hands matches to the executor, and alone writes the store: every game is
committed the moment its event arrives.  Running the same tournament again
resumes it: planned items come back from the store, and only the games whose
keys are not stored yet are played.  Ctrl-C abandons the matches in progress
and keeps every game already committed; the leaderboard is written anyway.

The deals come from the results folder's secret key (:mod:`arena.match.seeds`),
made at the first run.  A match that fails is tried again (up to
:data:`RETRIES` more times); if games are still missing the run stops there,
so an adaptive format never plans a round on incomplete results, and the
next run continues exactly where this one stopped.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from arena.game import Result
from arena.match import seeds
from arena.match.referee import Entrant, TimeControl
from arena.presentation.leaderboard import PAYOFF_META
from arena.ratings.rating import Rater
from arena.records import GameRecord
from arena.results.store import FILE_NAME, Store, StoredGame, StoreError
from arena.sandbox.layers import choose_level, refuse_below
from arena.sandbox.leftovers import remove_leftovers
from arena.tournament.config import Tournament
from arena.tournament.executor import Executor, GameEvent, JobDone, MatchJob, make_executor
from arena.tournament.lock import RunLock
from arena.tournament.plan import MatchItem, Planner, Results, SwissPlanner, make_planner
from arena.tournament.stopping import Enough, Stopper, StopRule

log = logging.getLogger("arena.tournament")
LOG_FILE = "tournament.log"
HTML_FILE = "leaderboard.html"
#: how many more times a failed match is tried before the run stops
RETRIES = 2


@dataclass
class RunSummary:
    results: Path
    played: int = 0  # games played and stored by this run
    stored: int = 0  # games in the store at the end
    skipped: int = 0  # games found already stored (resume)
    faults: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    interrupted: bool = False
    missing: int = 0  # games still unplayed when the run stopped on failed matches
    seconds: float = 0.0
    leaderboard: Path | None = None
    stopped: str | None = None  # why a stopping rule ended the run
    #: the leaderboard document (charts included) the page was made from:
    #: the CLI prints it rather than rating the store once more
    board: dict | None = None


class _Progress:
    """A rich progress bar: games done/total, rate, ETA, faults so far.

    When the output is not a terminal (redirected to a file, a CI log) a bar
    would print nothing useful, so a plain line goes to stderr instead, at
    most every :attr:`PLAIN_EVERY` seconds and once at the end.  Rate and ETA
    count only games played by this run (not the ones a resumed run finds
    already stored)."""

    PLAIN_EVERY = 5.0

    def __init__(self, enabled: bool, total: int, console=None):
        self.enabled = enabled
        self.faults = 0
        self.played = 0
        self.done = 0
        self.total_games = total
        self.started = time.monotonic()
        self.bar = None
        self.plain = enabled and console is None and not sys.stdout.isatty()
        self.next_line = self.started + self.PLAIN_EVERY
        if not enabled or self.plain:
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(
                "games  {task.fields[rate]}  ETA {task.fields[eta]}  faults {task.fields[faults]}"
            ),
            TimeElapsedColumn(),
            console=console,
            transient=False,
        )
        self.task = self.bar.add_task("tournament", total=total, rate="-", eta="-", faults=0)
        self.bar.start()

    def _figures(self) -> tuple[str, str]:
        elapsed = max(1e-9, time.monotonic() - self.started)
        rate = self.played / elapsed
        left = max(0, self.total_games - self.done)
        eta = "-" if not self.played else time.strftime("%H:%M:%S", time.gmtime(left / rate))
        return f"{rate:.2f}/s", eta

    def _line(self) -> None:
        rate, eta = self._figures()
        print(
            f"tournament: {self.done}/{max(self.total_games, self.done)} games, {rate}, "
            f"ETA {eta}, faults {self.faults}",
            file=sys.stderr,
            flush=True,
        )

    def _refresh(self) -> None:
        if self.plain and time.monotonic() >= self.next_line:
            self._line()
            self.next_line = time.monotonic() + self.PLAIN_EVERY
        if not self.bar:
            return
        rate, eta = self._figures()
        self.bar.update(
            self.task,
            completed=self.done,
            total=max(self.total_games, self.done),
            rate=rate,
            eta=eta,
            faults=self.faults,
        )

    def skip(self, games: int) -> None:
        self.done += games
        self._refresh()

    def game(self, item: MatchItem, index: int, record: GameRecord) -> None:
        self.faults += len(record.faults())
        self.played += 1
        self.done += 1
        self._refresh()

    def stop(self) -> None:
        if self.plain:
            self._line()
        if self.bar:
            self.bar.stop()


def _setup_logging(folder: Path) -> Callable[[], None]:
    """Log the ``arena`` loggers to FOLDER/tournament.log, records from the
    forked workers included: the file handler is wrapped in
    multiprocessing-logging's handler, whose queue the forked workers inherit
    and whose thread in this process writes their records.  The records stay
    out of the terminal (no propagation) so the progress bar stays clean."""
    logger = logging.getLogger("arena")
    handler = logging.FileHandler(folder / LOG_FILE, encoding="utf-8")
    # a log line the disk has no room for is dropped, not a "--- Logging
    # error ---" block on the terminal: the run's own error says what happened
    handler.handleError = lambda record: None  # type: ignore[method-assign]
    handler.setFormatter(
        logging.Formatter(
            "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(name)s: %(message)s"
        )
    )
    try:
        from multiprocessing_logging import MultiProcessingHandler

        funnel: logging.Handler = MultiProcessingHandler("arena-tournament-log", handler)
    except ImportError:  # pragma: no cover - a declared dependency
        funnel = handler
    saved = (logger.level, logger.propagate)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logger.addHandler(funnel)

    def undo() -> None:
        logger.removeHandler(funnel)
        funnel.close()  # waits for the queue to drain, closes the file
        logger.setLevel(saved[0])
        logger.propagate = saved[1]

    return undo


def _results_view(store: Store, games: bool = True) -> Results:
    """What the planner sees of the store (``games``: the seats of every
    stored game too, for a planner that reads them)."""
    results = Results()
    for item in store.items():
        results.planned.setdefault((item.group, item.round), []).append(item)
    for game in store.games() if games else ():
        _seen(results, game)
    return results


def _seen(results: Results, game: StoredGame) -> None:
    """Show a stored game to the planner: its seats' bots and ranks, and
    its dummies' ranks."""
    record = game.record
    results.games.setdefault(game.item, []).append(
        (
            [s.bot for s in record.seats],
            [s.rank for s in record.seats],
            [d.rank for d in record.dummies],
        )
    )


class _Finished:
    """The keys of the stored games (``key in finished``), kept compact: an
    item whose every deal is stored is one entry instead of a key per game,
    so a long run does not hold every key it ever stored."""

    def __init__(self, keys: set[str]):
        self.partial: dict[str, set[int]] = {}  # item id -> stored indices
        self.complete: set[str] = set()  # item ids, all stored
        for key in keys:
            item, index = key.rsplit("/", 1)
            self.partial.setdefault(item, set()).add(int(index))

    def add(self, item: MatchItem, index: int) -> None:
        if item.id in self.complete:
            return
        stored = self.partial.setdefault(item.id, set())
        stored.add(index)
        if len(stored) == len(item.deals):
            del self.partial[item.id]
            self.complete.add(item.id)

    def __contains__(self, key: str) -> bool:
        item, index = key.rsplit("/", 1)
        return item in self.complete or int(index) in self.partial.get(item, ())


class _GroupRatings:
    """The ratings of one plan group (game entry and table size) for rated
    matchmaking (a :class:`~arena.ratings.matchmaking.Belief`: ``{bot: (mu,
    sigma)}`` and the covariance), kept by the run: the games stored before it are
    read once, each game the run stores is handed in (:meth:`add`), and a
    call adds the games that came since the last one and refits from the
    last fit -- so no game is rated twice and the store is not read again.
    The new games are added in plan order (item order, then index), as the
    store lists them, so the fit depends neither on which worker finished
    first nor on where an interrupted run was resumed."""

    def __init__(self, store: Store, results: Results):
        self.raters: dict[str, tuple[str, Rater]] = {}  # group -> (game id, rater)
        groups = {item.id: group for (group, _), items in results.planned.items() for item in items}
        #: (plan order, group, game) of the games not added yet
        self.pending: list[tuple[tuple[int, int], str, StoredGame]] = [
            ((game.order, game.index), groups[game.item], game)
            for game in store.games()
            if game.item in groups
        ]

    def add(self, item: MatchItem, game: StoredGame) -> None:
        self.pending.append(((game.order, game.index), item.group, game))

    def __call__(self, group: str) -> Mapping[str, tuple[float, float]]:
        self.pending.sort(key=lambda entry: entry[0])
        for _, game_group, game in self.pending:
            self.raters.setdefault(game_group, (game.record.game, Rater()))[1].add(game)
        self.pending.clear()
        if group not in self.raters:
            return {}
        game_id, rater = self.raters[group]
        return rater.belief(game_id)


def swiss_standings(tournament: Tournament, store: Store) -> dict[str, list]:
    """The Swiss table of every group (``label/Np``) from the stored rounds.
    The planner deals nothing here, so any key serves."""
    planner = SwissPlanner(tournament, seeds.SecretKey.from_public_seed(tournament.seed))
    results = _results_view(store)
    return {
        f"{label}/{players}p": planner.standings(entry, f"{label}/{players}p", results)
        for entry, label, players in planner.groups()
    }


@dataclass(frozen=True)
class Seats:
    """Who sits at a plan's tables and under what: the entrant of each
    lineup name, the time control, the sandbox level, the leak audit, the
    least level its submitted bots may run at, how much of each seat's
    stderr the store keeps per game (a ladder's, shown to the bot's author)."""

    entrant: Callable[[str], Entrant]
    limit: TimeControl = TimeControl()
    sandbox: str | None = None
    audit: bool = False
    least: str = "strict"
    #: bytes of each seat's stderr the store keeps per game (0: none)
    stderr: int = 0

    def level(self, names: Iterable[str]) -> str:
        """The level the bots ``names`` will run at here; raises a one-line
        :class:`~arena.sandbox.SandboxError` if a submitted one among them
        would run below :attr:`least` -- before anything is played."""
        level = choose_level(self.sandbox)
        submitted = [name for name in names if self.entrant(name).submitted]
        refuse_below(level, self.least, submitted)
        return level


def tournament_seats(tournament: Tournament, registry) -> Seats:
    """A tournament's seats: each bot entry's launch spec, host files,
    resource limits and settings; the file's time control and sandbox."""

    def entrant(name: str) -> Entrant:
        entry = tournament.bot(name)
        return Entrant(
            name,
            replace(registry.bot(entry.bot), files=tournament.files.get(name, ())),
            tournament.resources.get(name),
            settings=entry.settings,
            submitted=registry.submitted(entry.bot),
        )

    return Seats(entrant, tournament.time, tournament.sandbox, least=tournament.least_sandbox)


def jobs_for(seats: Seats, items: list[MatchItem], finished) -> list[MatchJob]:
    """A job per item and seating with the deals not stored yet (none for
    finished items): each seating is played by processes of its own, so
    none meets a deal twice."""
    jobs = []
    for item in items:
        todo = [index for index in range(len(item.deals)) if item.key(index) not in finished]
        entrants = tuple(seats.entrant(name) for name in item.lineup) if todo else ()
        for seating in sorted({item.deals[index].seating for index in todo}):
            indices = tuple(index for index in todo if item.deals[index].seating == seating)
            jobs.append(
                MatchJob(
                    item=item.id,
                    game=item.game,
                    options=dict(item.options),
                    entrants=entrants,
                    deals=tuple(
                        (item.deals[i].seed, seating, item.deals[i].chance) for i in indices
                    ),
                    indices=indices,
                    limit=seats.limit,
                    sandbox=seats.sandbox,
                    least=seats.least,
                    audit=seats.audit,
                    stderr=seats.stderr,
                )
            )
    return jobs


class Report(Protocol):
    """What a run tells as it goes: the games of a batch found already
    stored (once per batch, before any of its games), each game stored."""

    def skip(self, games: int) -> None: ...

    def game(self, item: MatchItem, index: int, record: GameRecord) -> None: ...

    def stop(self) -> None: ...


@dataclass(frozen=True)
class Plan:
    """What the runner plays into a results folder.  ``name``,
    ``fingerprint``, ``file`` and ``conditions`` tie the folder's store to
    it (a resumed run must match them); ``planner`` makes the planner from
    the folder's key and the executor's workers; ``executor`` makes the
    executor (once the store is known to be this plan's); ``payoff`` names
    the games whose result is their payoff (``GameInfo.result``: the
    leaderboard ranks them by it)."""

    name: str
    kind: str  # what the log calls it: a format, "match"...
    fingerprint: str
    seats: Seats
    planner: Callable[[seeds.SecretKey, int], Any]
    executor: Callable[[], Executor]
    file: str = ""
    conditions: dict[str, Any] | None = None
    stop: StopRule | None = None
    payoff: tuple[str, ...] = ()
    bots: tuple[str, ...] = ()  # every lineup name (the least level is checked for them)


def tournament_plan(tournament: Tournament, registry, given_registry=None) -> Plan:
    """A tournament as the runner plays it (``given_registry``: the one the
    executor's workers use; None: the installed plugins)."""

    def planner(key: seeds.SecretKey, workers: int) -> Planner:
        # a Dask cluster's threads, not the file's workers, size rated batches
        if tournament.executor == "dask" and workers != tournament.workers:
            return make_planner(replace(tournament, workers=workers), key)
        return make_planner(tournament, key)

    stop = None
    if tournament.stop_confidence is not None or tournament.stop_budget is not None:
        stop = StopRule(tournament.stop_confidence, tournament.stop_budget)
    payoff = tuple(
        sorted(
            {
                entry.id
                for entry in tournament.games
                if registry.engine(entry.id).info.result == Result.PAYOFF
            }
        )
    )
    return Plan(
        tournament.name,
        tournament.format,
        tournament.fingerprint(),
        tournament_seats(tournament, registry),
        planner,
        lambda: _executor_for(tournament, given_registry),
        tournament.path,
        tournament.conditions(),
        stop,
        payoff,
        tuple(bot.name for bot in tournament.bots),
    )


def table_plan(
    name: str,
    kind: str,
    fingerprint: str,
    entrants: list[Entrant],
    planner,
    registry,
    *,
    limit: TimeControl,
    sandbox: str | None,
    audit: bool = False,
    least: str = "strict",
) -> Plan:
    """A single table's plan (``arena match``, ``arena sprt``): ``planner``
    seats ``entrants`` (a lineup names them by name), played in this
    process one match after another."""
    by_name = {entrant.name: entrant for entrant in entrants}
    return Plan(
        name,
        kind,
        fingerprint,
        Seats(by_name.__getitem__, limit, sandbox, audit, least),
        lambda key, workers: planner,
        lambda: make_executor(0, registry),
        bots=tuple(by_name),
    )


def run_table(plan: Plan, folder: Path | None, key: seeds.SecretKey, report: Report) -> None:
    """Play a single table's plan into ``folder`` (resumed where it holds
    the plan's games already), or with None into a throwaway one: the same
    way, nothing kept.  The log goes where the ``arena`` loggers go.
    Raises KeyboardInterrupt if interrupted (what was stored is kept),
    ValueError (one line) for games the referee could not play."""
    if folder is not None:
        summary = run_plan(
            plan, folder, key=key, report=report, write_leaderboard=False, log_to_folder=False
        )
    else:
        with tempfile.TemporaryDirectory(prefix="arena-table-") as scratch:
            summary = run_plan(
                plan,
                Path(scratch),
                key=key,
                report=report,
                write_leaderboard=False,
                log_to_folder=False,
            )
    if summary.interrupted:
        raise KeyboardInterrupt
    if summary.errors:
        raise ValueError("; ".join(summary.errors))


def _stopper_for(rule: StopRule | None, store: Store) -> Stopper | None:
    """The ``[stop]`` rule, caught up with what is stored (None: no rule)."""
    if rule is None:
        return None
    stopper = Stopper(rule)
    stopper.plan(store.items())
    for game in store.games():
        stopper.add(game)
    return stopper


def _check(stopper: Stopper | None) -> None:
    reason = stopper.reason() if stopper is not None else None
    if reason:
        raise Enough(reason)


def _executor_for(tournament: Tournament, registry) -> Executor:
    """The executor the tournament asks for (``executor``, ``scheduler``)."""
    if tournament.executor == "dask":
        from arena.tournament.dask_executor import DaskExecutor

        return DaskExecutor(tournament.workers, tournament.scheduler, registry)
    return make_executor(tournament.workers, registry)


def run(
    tournament: Tournament,
    registry=None,
    *,
    key: seeds.SecretKey | None = None,
    progress: bool = True,
    console=None,
    executor: Executor | None = None,
    write_leaderboard: bool = True,
) -> RunSummary:
    """Play (or resume) a tournament; return what happened.  ``key``: the
    tournament's secret (default: the results folder's, made on first use);
    a given key must match a stored one."""
    given_registry = registry
    if registry is None:
        from arena.plugins import installed

        registry = installed()
    plan = tournament_plan(tournament, registry, given_registry)
    if executor is not None:
        plan = replace(plan, executor=lambda: executor)
    return run_plan(
        plan,
        Path(tournament.results),
        key=key,
        progress=progress,
        console=console,
        write_leaderboard=write_leaderboard,
    )


def run_plan(
    plan: Plan,
    folder: Path,
    *,
    key: seeds.SecretKey | None = None,
    report: Report | None = None,
    progress: bool = True,
    console=None,
    write_leaderboard: bool = True,
    log_to_folder: bool = True,
) -> RunSummary:
    """Play (or resume) ``plan`` into the results folder ``folder``; return
    what happened.  ``report`` hears of every game (default: a progress
    bar, if ``progress``); ``log_to_folder`` sends the log to the folder's
    file instead of wherever the ``arena`` loggers go.  Raises a one-line
    :class:`~arena.sandbox.SandboxError` before anything is played if a
    submitted bot would run below the plan's least level."""
    started = time.monotonic()
    level = plan.seats.level(plan.bots)
    try:  # owner-only: no bot under a uid of its own may list or enter it
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.chmod(0o700)
    except OSError:
        pass  # not a folder, or not ours to change: the run lock says what is wrong
    with RunLock(folder), _terminate_as_interrupt():  # one run per folder
        return _run_locked(
            plan,
            folder,
            started,
            key,
            level,
            report=report,
            progress=progress,
            console=console,
            write_leaderboard=write_leaderboard,
            log_to_folder=log_to_folder,
        )


@contextlib.contextmanager
def _terminate_as_interrupt():
    """SIGTERM (``kill``, a service manager) stops the run like Ctrl-C: the
    workers are stopped, their bots ended and the leaderboard written,
    instead of the driver vanishing mid-step.  Only the main thread can set
    a signal handler; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _claim(store: Store, plan: Plan, level: str) -> Store:
    """``store``, tied to ``plan`` played at sandbox ``level`` (closed if it refuses)."""
    try:
        store.claim(plan.name, plan.fingerprint, plan.file, plan.conditions, level)
    except BaseException:
        store.close()
        raise
    return store


def _run_locked(
    plan: Plan,
    folder: Path,
    started: float,
    key: seeds.SecretKey | None,
    level: str,
    *,
    report: Report | None,
    progress: bool,
    console,
    write_leaderboard: bool,
    log_to_folder: bool,
) -> RunSummary:
    """The run under the folder's lock: a bad store or a changed plan is
    refused before anything starts; then the workers start, the store is
    opened and :class:`_Run` plays; whatever happened, the workers are
    stopped and the leaderboard written."""
    if (folder / FILE_NAME).exists():
        _claim(Store(folder), plan, level).close()
    summary = RunSummary(results=folder)
    undo_logging = _setup_logging(folder) if log_to_folder else lambda: None
    remove_leftovers()  # of earlier runs killed outright
    executor = plan.executor()
    playing = None
    store = None
    completed = failed = False
    try:
        executor.start()  # fork the workers before the store is opened
        store = _claim(Store(folder), plan, level)
        store.check_room()  # never play a game that cannot be stored
        planner = _planner_for(plan, store, key, executor, folder)
        playing = _Run(
            plan,
            store,
            planner,
            summary,
            report or _Progress(progress, planner.estimate(), console),
        )
        playing.play(executor)
        completed = not summary.missing
    except Enough as stop:
        summary.stopped = str(stop)
        assert store is not None, "the stopping rule is asked as the games are stored"
        store.set_meta("stopped", summary.stopped)
        log.info("stopped: %s", summary.stopped)
    except KeyboardInterrupt:
        summary.interrupted = True
        log.warning("interrupted: abandoning the matches in progress")
    except BaseException:
        failed = True
        raise
    finally:
        if playing is not None:
            playing.report.stop()
        executor.close(cancel=not completed)  # abandoned matches: their games are replayed
        remove_leftovers()  # of workers that died during the run
        if store is not None:
            try:
                _finish(store, summary, folder, write_leaderboard)
            except (OSError, StoreError) as error:
                if not failed:
                    raise
                # the run's own error is the one to say, not this one it caused
                log.warning("the leaderboard was not written: %s", error)
                store.close()
        summary.seconds = time.monotonic() - started
        log.info(
            "played %d games in %.1f s (%d stored)", summary.played, summary.seconds, summary.stored
        )
        undo_logging()
    return summary


def _planner_for(
    plan: Plan, store: Store, key: seeds.SecretKey | None, executor: Executor, folder: Path
):
    """The plan's key (made on the first run, bound to the store) and its
    planner, its notes said."""
    key = seeds.load_or_create(folder, key, has_results=bool(store.count() or store.items()))
    store.bind_key(key.fingerprint)
    log.info("%s: %s, %d workers, results in %s", plan.name, plan.kind, executor.workers, folder)
    planner = plan.planner(key, executor.workers)
    for note in getattr(planner, "notes", []):
        log.warning(note)
        print(note, file=sys.stderr)
    return planner


def _finish(store: Store, summary: RunSummary, folder: Path, write_leaderboard: bool) -> None:
    """Count what is stored and write the leaderboard page, rating the
    store once: the same document goes back in the summary for the caller
    to print (:attr:`RunSummary.board`)."""
    summary.stored = store.count()
    if write_leaderboard:
        from arena.presentation.leaderboard import from_store, write_html

        summary.board = from_store(store, history=20)
        try:
            summary.leaderboard = write_html(store, folder / HTML_FILE, summary.board)
        except OSError as error:
            raise StoreError(
                f"{folder / HTML_FILE}: cannot write the leaderboard page: {error.strerror}; "
                f"the games are stored: free some space and run the same command again"
            ) from None
    store.close()


class _Run:
    """One run between the planner, the executor and the store: what is
    stored (``finished``), what the planner sees (``results``, the rated
    planner's ratings), the stopping rule and the report (a progress bar).
    The executor reports to :meth:`on_event` in this process, and only it
    writes the store.  Raises :class:`Enough` when the stopping rule is met
    (at once, for a resumed run that already meets it)."""

    def __init__(self, plan: Plan, store: Store, planner, summary: RunSummary, report: Report):
        self.plan, self.store = plan, store
        self.planner, self.summary, self.report = planner, summary, report
        self.results = _results_view(store, games=planner.reads_games)
        self.ratings = _GroupRatings(store, self.results) if planner.reads_ratings else None
        self.results.ratings = self.ratings
        self.finished = _Finished(store.finished_keys())
        store.set_meta("stopped", None)
        store.set_meta(PAYOFF_META, ",".join(plan.payoff) or None)
        self.stopper = _stopper_for(plan.stop, store)
        _check(self.stopper)
        self.items: dict[str, MatchItem] = {}
        self.failures: list[str] = []

    def play(self, executor: Executor) -> None:
        """Batch after batch until the plan is done or games are missing."""
        while batch := self.planner.next_batch(self.results):
            self._plan(batch)
            if not self._play(batch, executor):
                break

    def _plan(self, batch: list[MatchItem]) -> None:
        """Store a batch's items before any of it is played (a resumed
        adaptive run replays them rather than planning again)."""
        self.store.add_items(batch)
        if self.stopper is not None:
            self.stopper.plan(batch)
        for item in batch:
            self.items[item.id] = item
            group = self.results.planned.setdefault((item.group, item.round), [])
            if all(known.id != item.id for known in group):
                group.append(item)

    def _play(self, batch: list[MatchItem], executor: Executor) -> bool:
        """Play a batch's unstored games, a failed match up to
        :data:`RETRIES` more times; False if games are still missing (the
        run stops: never plan, or finish, on incomplete results)."""
        jobs = jobs_for(self.plan.seats, batch, self.finished)
        already = sum(len(item.deals) for item in batch) - sum(len(j.indices) for j in jobs)
        self.summary.skipped += already
        self.report.skip(already)
        for attempt in range(1 + RETRIES):
            if not jobs:
                break
            if attempt:
                log.warning(
                    "trying %d failed matches again (attempt %d of %d)",
                    len(jobs),
                    attempt + 1,
                    1 + RETRIES,
                )
            self.failures.clear()
            executor.run(jobs, self.on_event)
            jobs = jobs_for(self.plan.seats, batch, self.finished)
        if jobs:
            self.summary.errors.extend(self.failures)
            self.summary.missing = sum(len(job.indices) for job in jobs)
            return False
        return True

    def on_event(self, event) -> None:
        """The executor's callback: store a game the moment it arrives, note
        a failed match."""
        if isinstance(event, GameEvent):
            self._store(event)
        elif isinstance(event, JobDone) and event.error:
            message = event.error.strip().splitlines()[-1]
            self.failures.append(f"{event.item}: {message}")
            log.error("match %s failed:\n%s", event.item, event.error)

    def _store(self, event: GameEvent) -> None:
        """Commit one game (none twice) and hand it on: to the planner's
        view, the rated planner's ratings, the report, the stopping rule."""
        item = self.items[event.item]
        game = self.store.add_game(
            item, event.index, event.record, self.plan.name, stderr=event.stderr
        )
        if game is None:
            return
        self.summary.played += 1
        self.finished.add(item, event.index)
        if self.planner.reads_games:
            _seen(self.results, game)
        if self.ratings is not None:
            self.ratings.add(item, game)
        self.summary.faults.update(game.record.faults())
        self.report.game(item, event.index, game.record)
        if self.stopper is not None:
            self.stopper.add(game)
            _check(self.stopper)
