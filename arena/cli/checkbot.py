"""``arena check-bot``: a conformance run for one bot (the work is in
:mod:`arena.authoring.checkbot`)."""

from __future__ import annotations

import json

import typer

from arena.cli._app import app, fail


@app.command("check-bot")
def check_bot(
    bot: str = typer.Argument(..., help="a bot name (see `arena bots`) or cmd:COMMAND LINE"),
    game: list[str] = typer.Option(
        [],
        "--game",
        "-g",
        help="check only this game, once per game (default: every game it claims)",
    ),
    games: int = typer.Option(3, "--games", "-n", min=1, help="games against random per game"),
    seed: int = typer.Option(0, help="seed for the deals and the edge-case positions"),
    startup: float = typer.Option(10.0, help="seconds for the bot to start"),
    move: float = typer.Option(1.0, help="seconds per move"),
    bank: float = typer.Option(0.0, help="time bank per game, seconds"),
    sandbox: str = typer.Option(
        "auto", help="auto (strict where available), strict, basic or none"
    ),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object (full messages)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress lines on stderr"),
) -> None:
    """Conformance run: games against random, then edge cases; exit 1 on any failure.

    For each game the bot claims: a few games against random through the real
    referee, then the first move, a single legal action, the largest
    legal-action list, the end of a game and a new match.  Each game is ok, or
    each mishandled message is shown with the fault and the message sent."""
    from arena.authoring.checkbot import check, render_text, to_json
    from arena.cli.catalog import warn_plugin_errors
    from arena.game import GameError
    from arena.match.referee import TimeControl
    from arena.plugins import UnknownName, installed
    from arena.plugins.botspec import BotSpecError
    from arena.sandbox import SandboxError
    from arena.sandbox.layers import choose_level

    registry = installed()
    warn_plugin_errors(registry)

    def progress(text: str) -> None:
        if not quiet:
            typer.echo(f"checking {text} ...", err=True)

    try:
        limit = TimeControl(startup=startup, move=move, bank=bank)
        level = choose_level(sandbox)
        reports = check(
            bot,
            registry=registry,
            games=game,
            rounds=games,
            limit=limit,
            sandbox=level,
            seed=seed,
            progress=progress,
        )
    except (UnknownName, GameError, BotSpecError, SandboxError, ValueError) as error:
        raise fail(str(error)) from None
    if not reports:
        raise fail(f"bot '{bot}' plays no installed game")
    if as_json:
        typer.echo(json.dumps(to_json(bot, reports), default=repr))
    else:
        typer.echo(render_text(bot, reports))
    if not all(report.ok for report in reports):
        raise typer.Exit(1)
