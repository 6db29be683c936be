"""Running a ladder: the tournament's runner with the ladder's planner and seats.

A ladder file is a tournament file (``format = "rated"``: ``[rated] sigma``
is the placement target, ``batch`` the tables per step, ``deals`` the deals
per table; its ``bots`` are the first entrants).  :func:`run_ladder` hands
:func:`arena.tournament.runner.run_plan` a plan whose planner is the
ladder's (:class:`~arena.ladder.planner.LadderPlanner`) and whose seats look
each entrant up in the roster, so everything a tournament run does holds for
a ladder: one run per folder (the lock), the secret key, the driver alone
writing the store, SIGTERM like Ctrl-C, a resume after kill -9 that plays no
game twice, the local pool or Dask.  Unlike a tournament's, its store keeps
the end of each seat's stderr per game (:data:`STDERR`), which the viewer
shows the bot's author alone (:mod:`arena.ladder.web`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from arena.authoring import checkbot
from arena.ladder.entrants import Roster, Version
from arena.ladder.planner import SUSPENSION, LadderPlanner, Suspension
from arena.match.referee import Entrant
from arena.match.seeds import SecretKey
from arena.plugins.botspec import BotSpec
from arena.tournament.config import Tournament
from arena.tournament.executor import Executor
from arena.tournament.runner import Plan, RunSummary, run_plan, tournament_plan

#: bytes of each seat's stderr the store keeps per game: its end
STDERR = 4 << 10


def version_spec(version: Version) -> BotSpec:
    """The launch spec of a submitted version (its command and files)."""
    launch = version.launch
    return BotSpec(
        name=version.entrant,
        command=tuple(launch["argv"]),
        version=f"v{version.version}",
        description=" ".join(launch["argv"]),
        files=tuple(launch.get("files", ())),
    )


class _OneBot:
    """A registry that also knows one more bot (the version being checked)."""

    def __init__(self, registry, spec: BotSpec):
        self.registry, self.spec = registry, spec

    def bot(self, name: str) -> BotSpec:
        return self.spec if name == self.spec.name else self.registry.bot(name)

    def __getattr__(self, name: str):
        return getattr(self.registry, name)


def validation(tournament: Tournament, registry, version: Version) -> str | None:
    """A version's validation run: check-bot in each of the ladder's games
    it plays, under the ladder's time control and sandbox.  None when it
    passes, else the reason (the first problem found)."""
    try:
        spec = version_spec(version)
        games = [entry.id for entry in tournament.games if spec.plays(entry.id)]
        if not games:
            return "it plays none of the ladder's games"
        reports = checkbot.check(
            spec.name,
            registry=_OneBot(registry, spec),
            games=list(dict.fromkeys(games)),
            rounds=1,
            limit=tournament.time,
            sandbox=tournament.sandbox,
        )
    except (ValueError, LookupError, OSError) as error:
        return f"cannot be checked: {error}"
    for report in reports:
        for problem in report.problems:
            return f"{report.game}: {problem.case}: {problem.kind}: {problem.detail}"
    return None


def ladder_plan(
    tournament: Tournament,
    registry,
    *,
    steps: int | None = None,
    poll: float = 1.0,
    suspension: Suspension = SUSPENSION,
    given_registry=None,
) -> Plan:
    """The ladder as the runner plays it (``given_registry``: the one the
    executor's workers use; None: the installed plugins)."""
    base = tournament_plan(tournament, registry, given_registry)
    folder = Path(tournament.results)
    specs: dict[str, Entrant] = {}

    def entrant(name: str) -> Entrant:
        if name not in specs:
            with Roster(folder) as roster:
                version = roster.version(name)
            if "file" in version.launch:
                specs[name] = base.seats.entrant(version.launch["file"])
            else:
                specs[name] = Entrant(name, version_spec(version))
        return specs[name]

    def plays(version: Version, game: str) -> bool:
        if "file" in version.launch:
            entry = next(e for e in tournament.games if e.id == game)
            return version.entrant in entry.bots
        return version_spec(version).plays(game)

    def planner(key, workers: int) -> LadderPlanner:
        return LadderPlanner(
            tournament,
            key,
            folder=folder,
            validate=lambda version: validation(tournament, registry, version),
            plays=plays,
            size=tournament.batch or max(2, 2 * max(1, workers)),
            steps=steps,
            poll=poll,
            suspension=suspension,
        )

    return replace(
        base,
        kind="ladder",
        fingerprint=f"ladder-{base.fingerprint}",
        seats=replace(base.seats, entrant=entrant, stderr=STDERR),
        planner=planner,
        stop=None,
    )


def run_ladder(
    tournament: Tournament,
    registry=None,
    *,
    steps: int | None = None,
    poll: float = 1.0,
    suspension: Suspension = SUSPENSION,
    progress: bool = True,
    executor: Executor | None = None,
    key: SecretKey | None = None,
) -> RunSummary:
    """Run (or resume) the ladder of ``tournament`` in its results folder
    until stopped, or for ``steps`` steps.  ``key``: the ladder's secret
    (default: the results folder's, made on first use)."""
    given_registry = registry
    if registry is None:
        from arena.plugins import installed

        registry = installed()
    folder = Path(tournament.results)
    with Roster(folder) as roster:
        roster.seed(bot.name for bot in tournament.bots)
    plan = ladder_plan(
        tournament,
        registry,
        steps=steps,
        poll=poll,
        suspension=suspension,
        given_registry=given_registry,
    )
    if executor is not None:
        plan = replace(plan, executor=lambda: executor)
    return run_plan(plan, folder, key=key, progress=progress)
