"""``arena new-bot``: write a ready bot package (the work is in :mod:`arena.authoring.newbot`)."""

from __future__ import annotations

from pathlib import Path

import typer

from arena.cli._app import app, fail


@app.command("new-bot")
def new_bot(
    name: str = typer.Argument(
        ..., help="the bot's name, e.g. my-bot (also its folder and package)"
    ),
    game: list[str] = typer.Option(
        [], "--game", "-g", help="a game id it plays, once per game (default: every game)"
    ),
    directory: Path | None = typer.Option(
        None, "--dir", help="where to create NAME/ (default: here)"
    ),
) -> None:
    """Write NAME/: a bot package to install with `pip install -e ./NAME`."""
    from arena.authoring.newbot import NewBotError, create
    from arena.cli.catalog import warn_plugin_errors
    from arena.plugins import installed

    registry = installed()
    warn_plugin_errors(registry)
    try:
        root = create(name, game, directory if directory is not None else Path("."), registry)
    except NewBotError as error:
        raise fail(str(error)) from None
    shown = str(root) if root.is_absolute() or str(root).startswith(".") else f"./{root}"
    typer.echo(f"created {shown}/ (bot '{name}'); next:")
    typer.echo(f"  pip install -e {shown}")
    typer.echo("  arena bots")
    typer.echo(f"  arena check-bot {name}")
