"""Running a tournament: plan -> executor -> store -> ratings -> leaderboard.

The driver (this module, in the ``arena tournament`` process) plans, hands
matches to the executor, and alone writes the store: every game is
committed the moment its event arrives.  Running the same tournament again
resumes it: planned items come back from the store, and only the games whose
keys are not stored yet are played.  Ctrl-C abandons the matches in progress
and keeps every game already committed; the leaderboard is written anyway.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from arena.records import GameRecord
from arena.referee import Entrant
from arena.store import Store
from arena.tournament.config import Tournament
from arena.tournament.executor import Executor, GameEvent, JobDone, MatchJob, make_executor
from arena.tournament.plan import MatchItem, Results, make_planner

log = logging.getLogger("arena.tournament")
LOG_FILE = "tournament.log"
HTML_FILE = "leaderboard.html"


@dataclass
class Summary:
    results: Path
    played: int = 0           # games played and stored by this run
    stored: int = 0           # games in the store at the end
    skipped: int = 0          # games found already stored (resume)
    faults: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0
    leaderboard: Path | None = None


class _Progress:
    """A rich progress bar: games done/total, rate, ETA, faults so far.

    Rate and ETA count only games played by this run (not the ones a resumed
    run finds already stored)."""

    def __init__(self, enabled: bool, total: int, console=None):
        self.enabled = enabled
        self.faults = 0
        self.played = 0
        self.done = 0
        self.total_games = total
        self.started = time.monotonic()
        self.bar = None
        if not enabled:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
            TimeElapsedColumn
        self.bar = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("games  {task.fields[rate]}  ETA {task.fields[eta]}  "
                       "faults {task.fields[faults]}"), TimeElapsedColumn(),
            console=console, transient=False,
        )
        self.task = self.bar.add_task("tournament", total=total, rate="-", eta="-", faults=0)
        self.bar.start()

    def _refresh(self) -> None:
        if not self.bar:
            return
        elapsed = max(1e-9, time.monotonic() - self.started)
        rate = self.played / elapsed
        left = max(0, self.total_games - self.done)
        eta = "-" if not self.played else time.strftime("%H:%M:%S", time.gmtime(left / rate))
        self.bar.update(self.task, completed=self.done, total=max(self.total_games, self.done),
                        rate=f"{rate:.2f}/s", eta=eta, faults=self.faults)

    def skip(self, games: int) -> None:
        self.done += games
        self._refresh()

    def game(self, faults: int) -> None:
        self.faults += faults
        self.played += 1
        self.done += 1
        self._refresh()

    def stop(self) -> None:
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
    handler.setFormatter(logging.Formatter(
        "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(name)s: %(message)s"))
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
        funnel.close()          # waits for the queue to drain, closes the file
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
    return undo


def _results_view(store: Store) -> Results:
    results = Results()
    for item in store.items():
        results.planned.setdefault((item.group, item.round), []).append(item)
    for game in store.games():
        results.games.setdefault(game.item, []).append((game.bots, game.ranks, game.ranked))

    def ratings(game_id: str):
        from arena.rating import current
        return current(list(store.games(game_id)), game_id)
    results.ratings = ratings
    return results


def jobs_for(tournament: Tournament, registry, items: list[MatchItem],
             finished: set[str]) -> list[MatchJob]:
    """A job per item with the deals not stored yet (none for finished items)."""
    jobs = []
    limit = (tournament.time.startup, tournament.time.move, tournament.time.bank)
    for item in items:
        todo = [index for index in range(len(item.deals)) if item.key(index) not in finished]
        if not todo:
            continue
        entrants = tuple(Entrant(name, registry.bot(tournament.bot(name).bot),
                                 tournament.resources.get(name), tournament.bot(name).settings)
                         for name in item.lineup)
        jobs.append(MatchJob(
            item=item.id, game=item.game, options=dict(item.options), entrants=entrants,
            deals=tuple((item.deals[i].seed, item.deals[i].seating) for i in todo),
            indices=tuple(todo), limit=limit, sandbox=tournament.sandbox,
        ))
    return jobs


def _executor_for(tournament: Tournament, registry) -> Executor:
    """The executor the tournament asks for (``executor``, ``scheduler``)."""
    if tournament.executor == "dask":
        from arena.tournament.dask_executor import DaskExecutor
        return DaskExecutor(tournament.workers, tournament.scheduler, registry)
    return make_executor(tournament.workers, registry)


def run(tournament: Tournament, registry=None, *, progress: bool = True, console=None,
        executor: Executor | None = None, write_leaderboard: bool = True) -> Summary:
    """Play (or resume) a tournament; return what happened."""
    given_registry = registry
    if registry is None:
        from arena.plugins import installed
        registry = installed()
    started = time.monotonic()
    folder = Path(tournament.results)
    folder.mkdir(parents=True, exist_ok=True)
    summary = Summary(results=folder)
    undo_logging = _setup_logging(folder)
    executor = executor or _executor_for(tournament, given_registry)
    bar = None
    store = None
    completed = False
    try:
        executor.start()              # fork the workers before the store is opened
        opened = Store(folder)
        try:
            opened.claim(tournament.name, tournament.fingerprint(), tournament.path)
        except BaseException:
            opened.close()
            raise
        store = opened
        log.info("tournament %s: %s, %d workers, results in %s", tournament.name,
                 tournament.format, executor.workers, folder)
        if tournament.executor == "dask" and executor.workers != tournament.workers:
            # a cluster's threads, not the file's workers, size rated batches
            tournament = replace(tournament, workers=executor.workers)
        planner = make_planner(tournament)
        results = _results_view(store)
        finished = store.finished_keys()
        bar = _Progress(progress, planner.estimate(), console)
        items_by_id: dict[str, MatchItem] = {}
        while True:
            batch = planner.next_batch(results)
            if not batch:
                break
            store.add_items(batch)
            for item in batch:
                items_by_id[item.id] = item
                group = results.planned.setdefault((item.group, item.round), [])
                if all(known.id != item.id for known in group):
                    group.append(item)
            jobs = jobs_for(tournament, registry, batch, finished)
            already = sum(len(item.deals) for item in batch) - sum(len(j.indices) for j in jobs)
            summary.skipped += already
            bar.skip(already)

            def on_event(event) -> None:
                if isinstance(event, GameEvent):
                    item = items_by_id[event.item]
                    record = GameRecord.from_dict(event.record)
                    if store.add_game(item, event.index, record, tournament.name) is not None:
                        summary.played += 1
                        finished.add(item.key(event.index))
                        results.games.setdefault(item.id, []).append(
                            ([s.bot for s in record.seats], [s.rank for s in record.seats],
                             len(record.seats) + len(record.dummies)))
                        faults = record.faults()
                        summary.faults.update(faults)
                        bar.game(len(faults))
                elif isinstance(event, JobDone) and event.error:
                    message = event.error.strip().splitlines()[-1]
                    summary.errors.append(f"{event.item}: {message}")
                    log.error("match %s failed:\n%s", event.item, event.error)

            executor.run(jobs, on_event)
        completed = True
    except KeyboardInterrupt:
        summary.interrupted = True
        log.warning("interrupted: abandoning the matches in progress")
    finally:
        if bar is not None:
            bar.stop()
        executor.close(cancel=not completed)   # abandoned matches: their games are replayed
        if store is not None:
            summary.stored = store.count()
            if write_leaderboard:
                from arena.leaderboard import write_html
                summary.leaderboard = write_html(store, folder / HTML_FILE)
            store.close()
        summary.seconds = time.monotonic() - started
        log.info("played %d games in %.1f s (%d stored)", summary.played, summary.seconds,
                 summary.stored)
        undo_logging()
    return summary
