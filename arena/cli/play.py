"""``arena play``: a person takes a seat against bots, in the terminal.

The person is an entrant like any other -- the same referee, the same
sandboxed bots, the same observations and legal lists -- whose process
(:mod:`arena.cli.seat`) talks to this terminal.  That one seat runs in
sandbox level ``none`` (a sandbox would hide the terminal) and without a
time limit unless ``--time`` asks for one.
"""

from __future__ import annotations

import os
import random
import sys

import typer
from rich.console import Console

from arena.cli._app import app, fail
from arena.cli.catalog import warn_plugin_errors
from arena.cli.match import entrants_for, parse_options
from arena.game import GameError
from arena.match.deals import Deal
from arena.match.referee import Entrant, TimeControl, play_match
from arena.plugins import UnknownName, installed
from arena.plugins.botspec import BotSpec, BotSpecError
from arena.sandbox import SandboxError
from arena.sandbox.layers import choose_level

#: "no time limit" for a person: a day per move (the referee needs a deadline)
DAY = 86400.0
#: exit status after Ctrl-C, as a shell reports SIGINT
INTERRUPTED = 130


def human_entrant(tty: str, move: float | None) -> Entrant:
    colours = Console().color_system or "none"
    spec = BotSpec(
        "you",
        command=(sys.executable, "-m", "arena.cli.seat", tty, colours),
        version="human",
        description="a person at this terminal",
    )
    return Entrant("you", spec, limit=TimeControl(startup=30.0, move=move or DAY), sandbox="none")


@app.command()
def play(
    game: str = typer.Argument(..., help="game id (see `arena games`)"),
    bot: list[str] = typer.Option(
        [], "--bot", "-b", help="an opponent (bot name or cmd:COMMAND LINE), once per seat"
    ),
    seat: int = typer.Option(0, help="your seat (0 is first)"),
    seed: int | None = typer.Option(None, help="seed of the deal (random if omitted)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option KEY=VALUE"),
    time: float | None = typer.Option(
        None, "--time", min=0.001, help="your seconds per move (default: no limit)"
    ),
    move: float = typer.Option(1.0, help="the bots' seconds per move"),
    sandbox: str = typer.Option("auto", help="the bots' sandbox: auto, strict, basic or none"),
) -> None:
    """Play one game of GAME in this terminal against the bots."""
    registry = installed()
    warn_plugin_errors(registry)
    players = len(bot) + 1
    try:
        engine = registry.engine(game)
        engine.info.check_players(players)
        options = engine.info.resolve_options(parse_options(option))
        if not 0 <= seat < players:
            raise ValueError(f"--seat {seat}: seats are 0 to {players - 1}")
        bots = entrants_for(game, bot)
        limit = TimeControl(move=move)
        level = choose_level(sandbox)
    except (UnknownName, GameError, BotSpecError, SandboxError, ValueError) as error:
        raise fail(str(error)) from None
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise fail("arena play needs a terminal (stdin and stdout)")
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    entrants = [human_entrant(os.ttyname(sys.stdin.fileno()), time)] + bots
    seating = list(range(1, players))  # the bots in order, the person at --seat
    seating.insert(seat, 0)
    typer.echo(
        f"{game}, seed {seed} (the same seed deals the same cards), "
        f"you in seat {seat}, bots sandbox {level}"
    )
    try:
        [record] = play_match(
            engine, entrants, [Deal(seed, tuple(seating))], options, limit, sandbox=level
        )
    except KeyboardInterrupt:
        typer.echo("\narena: game abandoned (Ctrl-C)", err=True)
        raise typer.Exit(INTERRUPTED) from None
    you = record.seats[seat]
    if you.fault:
        typer.echo(f"You left the table ({you.fault}); your seat was played out at random.")
    typer.echo(
        "Result: "
        + ", ".join(f"{s.bot} {s.score:g} (#{s.rank})" for s in record.seats)
        + "".join(f", {d.name} {d.score:g} (#{d.rank})" for d in record.dummies)
    )
