"""``arena ladder run|submit|withdraw|status``: a competition that never ends."""

from __future__ import annotations

import json
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

ladder_app = typer.Typer(
    help="A ladder: a tournament that never ends, bots submitted and withdrawn while it runs.",
    no_args_is_help=True,
)
app.add_typer(ladder_app, name="ladder")


@ladder_app.command("run")
def run(
    file: Path = typer.Argument(..., help="the ladder file (a tournament file, format 'rated')"),
    results: Path | None = RESULTS_OVER_FILE,
    workers: int | None = WORKERS_OVER_FILE,
    executor: str | None = EXECUTOR_OVER_FILE,
    steps: int | None = typer.Option(
        None, "--steps", min=1, help="stop after this many steps (default: run until stopped)"
    ),
    poll: float = typer.Option(
        1.0, "--poll", min=0.01, help="seconds between looks at the roster while idle"
    ),
    quiet: bool = typer.Option(False, "--quiet", help="no progress bar"),
    key: str | None = typer.Option(
        None, "--key", help="the ladder's secret key in hex (default: the results folder's)"
    ),
    least_sandbox: str | None = LEAST_SANDBOX_OVER_FILE,
) -> None:
    """Run (or resume) a ladder until stopped (Ctrl-C or SIGTERM)."""
    from arena.cli.tournament import load_file
    from arena.ladder import LadderError, run_ladder
    from arena.match.seeds import BadKey, SecretKey
    from arena.results.store import StoreError
    from arena.sandbox import SandboxError
    from arena.tournament.dask_executor import ClusterError

    config = load_file(
        file, results, workers=workers, executor=executor, least_sandbox=least_sandbox
    )
    try:
        summary = run_ladder(
            config,
            steps=steps,
            poll=poll,
            progress=not quiet,
            key=SecretKey.from_hex(key) if key is not None else None,
        )
    except (StoreError, ClusterError, LadderError, BadKey, SandboxError) as error:
        raise fail(str(error)) from None
    typer.echo(
        f"{config.name}: played {summary.played} games in {summary.seconds:.1f} s; "
        f"{summary.stored} stored in {summary.results}"
    )
    for line in summary.errors[:10]:
        typer.echo(f"arena: match failed: {line}", err=True)
    if summary.interrupted:
        typer.echo("stopped: run the same command again to carry on", err=True)
        raise typer.Exit(130)
    if summary.missing:
        raise fail(f"stopped with {summary.missing} games unplayed: matches failed", 1)


@ladder_app.command("submit")
def submit(
    results: Path = typer.Argument(..., help="the ladder's results folder"),
    name: str = typer.Argument(..., help="the bot's name (each submission is a new version)"),
    source: str = typer.Argument(
        ...,
        help="'cmd:COMMAND LINE' starting the bot, or with --entry a built wheel (.whl), "
        "a project folder or a source distribution (.tar.gz), built in the sandbox",
    ),
    files: list[str] = typer.Option(
        [], "--file", help="a file or folder the bot may read (repeat for more)"
    ),
    entry: str | None = typer.Option(
        None,
        "--entry",
        help="a wheel's or project's bot class, module:Class (its plugin's BotSpec entry)",
    ),
    wheels: str | None = typer.Option(
        None,
        "--wheels",
        help="the folder of wheels a wheel's requirements are installed from "
        "(default: the wheel's own folder)",
    ),
    token: str | None = typer.Option(
        None, "--token", help="the bot's token (printed at its first submission)"
    ),
) -> None:
    """Submit a new version of bot NAME; it plays once its validation run passes."""
    from arena.ladder import LadderError, Roster
    from arena.ladder.submission import launch_of

    try:
        launch = launch_of(source, files, results, entry, wheels)
        with Roster(results) as roster:
            version, fresh = roster.submit(name, launch, token)
    except LadderError as error:
        raise fail(str(error)) from None
    typer.echo(f"submitted {version.entrant}: pending its validation run")
    if fresh:
        typer.echo(f"token for {name}: {fresh}  (keep it: it shows your bot's logs)")


@ladder_app.command("withdraw")
def withdraw(
    results: Path = typer.Argument(..., help="the ladder's results folder"),
    name: str = typer.Argument(..., help="the bot to withdraw (every live version)"),
    token: str | None = typer.Option(None, "--token", help="the bot's token"),
) -> None:
    """Withdraw bot NAME: it plays no more games (its games and ratings are kept)."""
    from arena.ladder import LadderError, Roster

    try:
        with Roster(results, create=False) as roster:
            gone = roster.withdraw(name, token)
    except LadderError as error:
        raise fail(str(error)) from None
    typer.echo(f"withdrawn: {', '.join(gone) or 'nothing live'}")


@ladder_app.command("status")
def status(
    results: Path = typer.Argument(..., help="the ladder's results folder"),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of a table"),
) -> None:
    """List every version: its state (and why), its games and rating."""
    from arena.ladder import LadderError
    from arena.ladder.status import status_of, status_text

    try:
        rows = status_of(results)
    except LadderError as error:
        raise fail(str(error)) from None
    if as_json:
        typer.echo(json.dumps({"versions": rows}, indent=2))
    else:
        typer.echo(status_text(rows))
