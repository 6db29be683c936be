"""``arena games`` and ``arena bots``: what is installed, from which plugin."""

from __future__ import annotations

import typer

from arena.cli._app import app
from arena.plugins import Registry, installed


def warn_plugin_errors(registry: Registry) -> None:
    for error in registry.errors:
        typer.echo(f"arena: warning: {error}", err=True)


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows
    )


@app.command()
def games() -> None:
    """List the installed games: version, player counts, options and plugin."""
    registry = installed()
    warn_plugin_errors(registry)
    rows = [["GAME", "VERSION", "PLAYERS", "MOVES", "TEAMS", "OPTIONS (defaults)", "PLUGIN"]]
    for game_id, engine in sorted(registry.games.items()):
        info = engine.info
        rows.append([
            game_id,
            info.version,
            ",".join(map(str, info.players)),
            "simultaneous" if info.simultaneous else "in turn",
            info.teams,
            " ".join(f"{o.name}={o.default}" for o in info.options) or "-",
            registry.origin[f"game:{game_id}"],
        ])
    typer.echo(_table(rows))


@app.command()
def bots() -> None:
    """List the installed bots: version, the games each plays, and plugin."""
    registry = installed()
    warn_plugin_errors(registry)
    rows = [["BOT", "VERSION", "GAMES", "PLUGIN", "DESCRIPTION"]]
    for name, spec in sorted(registry.bots.items()):
        plays = "any" if "*" in spec.games else ",".join(spec.games)
        rows.append([name, spec.version, plays, registry.origin[f"bot:{name}"], spec.description])
    typer.echo(_table(rows))
