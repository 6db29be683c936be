"""``arena tournament``, ``arena leaderboard`` and ``arena replay``."""

from __future__ import annotations

from pathlib import Path

import typer

from arena.cli._app import (
    EXECUTOR_OVER_FILE,
    LEAST_SANDBOX_OVER_FILE,
    RESULTS_OVER_FILE,
    WORKERS_OVER_FILE,
    app,
    fail,
)

FORMAT_HELP = "table, json, csv or html"


@app.command()
def tournament(
    file: Path = typer.Argument(..., help="the tournament file (TOML)"),
    results: Path | None = RESULTS_OVER_FILE,
    workers: int | None = WORKERS_OVER_FILE,
    quiet: bool = typer.Option(False, "--quiet", help="no progress bar"),
    executor: str | None = EXECUTOR_OVER_FILE,
    scheduler: str | None = typer.Option(
        None,
        "--scheduler",
        help="a running Dask scheduler, tcp://HOST:PORT (implies --executor dask)",
    ),
    key: str | None = typer.Option(
        None,
        "--key",
        help="the tournament's secret key in hex, to reproduce a "
        "published tournament (default: the results "
        "folder's, made on the first run)",
    ),
    least_sandbox: str | None = LEAST_SANDBOX_OVER_FILE,
) -> None:
    """Play (or resume) a tournament; print the overall leaderboard."""
    from arena.match.seeds import BadKey, SecretKey
    from arena.results.store import StoreError
    from arena.sandbox import SandboxError
    from arena.tournament import run
    from arena.tournament.config import default_workers
    from arena.tournament.dask_executor import ClusterError

    config = load_file(
        file,
        results,
        workers=workers,
        executor=executor,
        scheduler=scheduler,
        least_sandbox=least_sandbox,
    )
    serves = default_workers()
    if config.scheduler is None and config.workers > serves:
        typer.echo(
            f"arena: warning: {config.workers} workers on a machine that serves "
            f"{serves} at once: matches will not go faster",
            err=True,
        )
    try:
        summary = run(
            config, key=SecretKey.from_hex(key) if key is not None else None, progress=not quiet
        )
    except (StoreError, ClusterError, BadKey, SandboxError) as error:
        raise fail(str(error)) from None
    except MemoryError:
        raise fail(
            "the driver ran out of memory; the games stored so far are kept: "
            "run the same command again (with fewer --workers)",
            1,
        ) from None
    except OSError as error:  # the folder removed or its permission lost mid-run
        where = f"{error.filename}: " if error.filename else ""
        raise fail(
            f"{where}{error.strerror or error}; the games stored so far are kept: "
            f"run the same command again once it is fixed",
            1,
        ) from None
    _report(config, summary)


def load_file(file: Path, results: Path | None, **flags):
    """The tournament (or ladder) file, the command's flags over it; its
    mistakes are a line each on stderr and exit 2."""
    from arena.tournament import ConfigError, load

    try:
        return load(file, results=str(results) if results is not None else None, **flags)
    except ConfigError as error:
        for line in error.errors:
            typer.echo(f"arena: error: {line}", err=True)
        raise typer.Exit(2) from None


def _report(config, summary) -> None:
    """What a run did: counts, faults, failed matches, the overall table
    (and Swiss standings); exit 130 when interrupted, 1 when games are missing."""
    from arena.presentation.leaderboard import OVERALL, from_store, table_text
    from arena.results.store import FILE_NAME, Store
    from arena.tournament.keys import Format
    from arena.tournament.runner import LOG_FILE, RETRIES, swiss_standings
    from arena.tournament.swiss import standings_text as swiss_text

    typer.echo(
        f"{config.name}: played {summary.played} games"
        + (f", {summary.skipped} already stored" if summary.skipped else "")
        + f" in {summary.seconds:.1f} s; {summary.stored} stored in {summary.results}"
    )
    if summary.stopped:
        typer.echo(f"stopped: {summary.stopped}")
    if summary.faults:
        typer.echo("faults: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.faults.items())))
    for line in summary.errors[:10]:
        typer.echo(f"arena: match failed: {line}", err=True)
    if (summary.results / FILE_NAME).exists():  # not when stopped before it was made
        with Store(summary.results, create=False) as store:
            # the run rated the store once for its page; rate it here only if it did not
            typer.echo(table_text(summary.board or from_store(store), OVERALL))
            if config.format == Format.SWISS:
                for group, standings in swiss_standings(config, store).items():
                    typer.echo(swiss_text(group, standings))
    if summary.leaderboard:
        typer.echo(f"leaderboard: {summary.leaderboard}")
    if summary.interrupted:
        typer.echo("interrupted: run the same command again to resume", err=True)
        raise typer.Exit(130)
    if summary.missing:
        typer.echo(
            f"arena: error: stopped with {summary.missing} games unplayed: matches failed "
            f"{1 + RETRIES} times (see {summary.results / LOG_FILE}); run the same "
            f"command again to continue",
            err=True,
        )
        raise typer.Exit(1)


@app.command()
def key(
    results: Path = typer.Argument(..., help="results folder"),
) -> None:
    """Print a tournament's secret key, to publish once it is over.

    Anyone with the key can recompute every deal of the tournament (and play
    it again with `arena tournament FILE --key KEY`): publish it only when no
    game of the tournament remains to be played."""
    from arena.match.seeds import BadKey, read

    try:
        secret = read(results)
    except BadKey as error:
        raise fail(str(error)) from None
    typer.echo(secret.hex)


@app.command()
def leaderboard(
    results: Path | None = typer.Argument(
        None, help="results folder (default: the latest under results/)"
    ),
    game: str | None = typer.Option(None, "--game", help="only this game"),
    format: str = typer.Option("table", "--format", help=FORMAT_HELP),
) -> None:
    """Ratings per game and overall from a results folder."""
    from arena.presentation.leaderboard import FORMATS, from_store, render
    from arena.results.store import Store, StoreError, find_store

    if format not in FORMATS:
        raise fail(f"--format: '{format}' is not one of {', '.join(FORMATS)}")
    try:
        with Store(find_store(results), create=False) as store:
            board = from_store(store, history=20 if format == "html" else 0)
            title = f"{store.meta().get('name', 'Tournament')} — leaderboard"
    except StoreError as error:
        raise fail(str(error)) from None
    try:
        text = render(board, format, game, title=title)
    except KeyError as error:
        raise fail(error.args[0]) from None
    typer.echo(text.rstrip("\n"))


@app.command()
def replay(
    results: Path = typer.Argument(..., help="results folder"),
    game_id: str = typer.Argument(..., help="the game's number (or its key) in the store"),
    verify: bool = typer.Option(False, "--verify", help="re-run it through the engine and compare"),
    html: Path | None = typer.Option(
        None, "--html", help="write a self-contained replay page to this file"
    ),
) -> None:
    """Print a stored game move by move (and re-run it to verify), or write
    its replay page (--html)."""
    from arena.plugins import UnknownName, installed
    from arena.results.store import Store, StoreError

    try:
        with Store(results, create=False) as store:
            stored = store.record(game_id)
    except StoreError as error:
        raise fail(str(error)) from None
    record, named = stored.record, f"game {stored.id} ({stored.key})"
    if html is not None:
        from arena.cli.viewer import write_replay

        write_replay(record, named, html)
        return
    options = ", ".join(f"{k}={v}" for k, v in sorted(record.options.items())) or "defaults"
    typer.echo(
        f"{named}: {record.game} {record.version}, seed {record.seed}, "
        f"{record.players} players, options {options}"
    )
    for seat, s in enumerate(record.seats):
        fault = f"  FAULT {s.fault}: {s.fault_detail}" if s.fault else ""
        typer.echo(
            f"  seat {seat}: {s.bot}  team {s.team}  score {s.score:g}  rank {s.rank}"
            f"  moves {s.moves}  time {s.time_used:.3f}s{fault}"
        )
    for d in record.dummies:
        typer.echo(f"  dummy {d.name}: score {d.score:g}  rank {d.rank}")
    for turn, step in enumerate(record.steps, start=1):
        moves = "; ".join(
            f"{seat} {record.seats[int(seat)].bot}: {action!r}" for seat, action in step
        )
        typer.echo(f"{turn:5d}. {moves}")
    if not verify:
        return
    try:
        engine = installed().engine(record.game)
    except UnknownName as error:
        raise fail(str(error)) from None
    if engine.info.version != record.version:
        typer.echo(
            f"warning: engine version {engine.info.version}, recorded {record.version}", err=True
        )
    from arena.records.verify import problems

    found = problems(engine, record)
    for problem in found:
        typer.echo(f"verify: FAILED: {problem}", err=True)
    if found:
        raise typer.Exit(1)
    typer.echo(f"verify: OK ({len(record.steps)} turns replayed, same scores and ranks)")
