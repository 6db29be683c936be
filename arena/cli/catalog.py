"""``arena games`` and ``arena bots``: what is installed, from which plugin,
as a table or (``--json``) as data for scripts."""

from __future__ import annotations

import io
import json
import sys

import typer

from arena.cli._app import app
from arena.plugins import Registry, installed

#: table width when stdout is not a terminal (a pipe, a file, a test): wide
#: enough never to wrap, so redirected output is one line per row everywhere
PIPE_WIDTH = 400


def warn_plugin_errors(registry: Registry) -> None:
    for error in registry.errors:
        typer.echo(f"arena: warning: {error}", err=True)


def print_table(headers: list[str], rows: list[list[str]]) -> None:
    """A plain rich table (no colour, no box), like the CLI's other tables;
    full width on a terminal, :data:`PIPE_WIDTH` columns elsewhere."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    table = Table(*headers, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for row in rows:
        table.add_row(*row)
    if sys.stdout.isatty():
        Console(highlight=False).print(table)
        return
    text = io.StringIO()
    Console(file=text, width=PIPE_WIDTH, color_system=None, highlight=False).print(table)
    typer.echo("\n".join(line.rstrip() for line in text.getvalue().splitlines()))


def game_info(registry: Registry, game_id: str) -> dict:
    """One game as ``arena games --json`` lists it."""
    info = registry.games[game_id].info
    return {
        "id": game_id,
        "version": info.version,
        "players": list(info.players),
        "simultaneous": info.simultaneous,
        "teams": info.teams,
        "dummies": list(info.dummies),
        "options": [
            {
                "name": o.name,
                "default": o.default,
                "help": o.help,
                "choices": list(o.choices) if o.choices is not None else None,
                "minimum": o.minimum,
                "maximum": o.maximum,
            }
            for o in info.options
        ],
        "summary": info.summary,
        "plugin": registry.origin[f"game:{game_id}"],
    }


def bot_info(registry: Registry, name: str) -> dict:
    """One bot as ``arena bots --json`` lists it (``games``: ``["*"]`` for any)."""
    spec = registry.bots[name]
    return {
        "name": name,
        "version": spec.version,
        "games": list(spec.games),
        "entry": spec.entry,
        "command": list(spec.command) if spec.command else None,
        "description": spec.description,
        "plugin": registry.origin[f"bot:{name}"],
    }


def _catalog(listed: list[dict], as_json: bool, headers: list[str], row) -> None:
    """``listed`` as a JSON list, or as a table of ``row(entry)`` under ``headers``."""
    if as_json:
        typer.echo(json.dumps(listed))
    else:
        print_table(headers, [row(entry) for entry in listed])


@app.command()
def games(as_json: bool = typer.Option(False, "--json", help="print a JSON list")) -> None:
    """List the installed games: version, player counts, options and plugin."""
    registry = installed()
    warn_plugin_errors(registry)
    listed = [game_info(registry, game_id) for game_id in sorted(registry.games)]
    headers = ["GAME", "VERSION", "PLAYERS", "MOVES", "TEAMS", "OPTIONS (defaults)", "PLUGIN"]
    _catalog(
        listed,
        as_json,
        headers,
        lambda g: [
            g["id"],
            g["version"],
            ",".join(map(str, g["players"])),
            "simultaneous" if g["simultaneous"] else "in turn",
            g["teams"],
            " ".join(f"{o['name']}={o['default']}" for o in g["options"]) or "-",
            g["plugin"],
        ],
    )


@app.command()
def bots(as_json: bool = typer.Option(False, "--json", help="print a JSON list")) -> None:
    """List the installed bots: version, the games each plays, and plugin."""
    registry = installed()
    warn_plugin_errors(registry)
    listed = [bot_info(registry, name) for name in sorted(registry.bots)]
    headers = ["BOT", "VERSION", "GAMES", "PLUGIN", "DESCRIPTION"]
    _catalog(
        listed,
        as_json,
        headers,
        lambda b: [
            b["name"],
            b["version"],
            "any" if "*" in b["games"] else ",".join(b["games"]),
            b["plugin"],
            b["description"],
        ],
    )
