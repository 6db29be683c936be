"""``arena match``: one match between bots, printed or as JSON."""

from __future__ import annotations

import json
from typing import Optional

import typer

from arena.bots import BotSpecError
from arena.cli._app import app, fail
from arena.cli.catalog import warn_plugin_errors
from arena.game import GameError
from arena.plugins import UnknownName, installed
from arena.records import GameRecord
from arena.referee import Deal, Entrant, Limit, play_match
from arena.sandbox import SandboxError
from arena.sandbox.layers import choose_level
from arena.seeds import Key

PREDICTABLE = ("warning: --seed makes the deals predictable to the bots (a bot that knows "
               "the seed can recompute every hand); omit it for secret deals")


def parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option {pair!r}: expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def entrants_for(game_id: str, names: list[str]) -> list[Entrant]:
    """Look up every bot and give each a distinct display name
    (``random``, ``random#2``, ...)."""
    registry = installed()
    entrants, seen = [], {}
    for name in names:
        spec = registry.bot(name)
        if not spec.plays(game_id):
            raise ValueError(f"bot '{name}' does not play '{game_id}' "
                             f"(it plays: {', '.join(spec.games)})")
        seen[name] = seen.get(name, 0) + 1
        display = name if seen[name] == 1 else f"{name}#{seen[name]}"
        entrants.append(Entrant(display, spec))
    return entrants


def match_deals(key: Key, players: int, games: int) -> list[Deal]:
    """The match's deals, bot i in seat i, every seed from the key."""
    return [Deal(key.derive("deal", number), tuple(range(players)),
                 key.derive("chance", number)) for number in range(games)]


def match_summary(game_id: str, seed: int | None, records: list[GameRecord],
                  key: Key | None = None) -> dict:
    """The ``--json`` document: deterministic for a given seed or key (no timings)."""
    return {
        "game": game_id,
        "seed": seed,
        "key": None if key is None or key.public else key.hex,
        "options": records[0].options if records else {},
        "games": [
            {
                "seed": record.seed,
                "seats": [
                    {"bot": s.bot, "score": s.score, "rank": s.rank, "fault": s.fault}
                    for s in record.seats
                ],
                "dummies": [{"name": d.name, "score": d.score, "rank": d.rank}
                            for d in record.dummies],
            }
            for record in records
        ],
    }


def _describe(record: GameRecord, number: int) -> str:
    seats = [f"{s.bot} {s.score:g} (#{s.rank})" + (f" FAULT {s.fault}: {s.fault_detail}"
                                                    if s.fault else "")
             for s in record.seats]
    seats += [f"{d.name} {d.score:g} (#{d.rank})" for d in record.dummies]
    return f"game {number} seed {record.seed}: " + ", ".join(seats)


@app.command()
def match(
    game: str = typer.Argument(..., help="game id (see `arena games`)"),
    bot: list[str] = typer.Option(..., "--bot", "-b",
                                  help="a bot name or cmd:COMMAND LINE, once per seat"),
    seed: Optional[int] = typer.Option(None, help="a public seed for the deals: "
                                                  "predictable to the bots (default: a secret key)"),
    key: Optional[str] = typer.Option(None, "--key", help="the secret key (hex) an earlier "
                                                          "match printed, to replay it"),
    games: int = typer.Option(1, "--games", "-n", min=1, help="games in the match"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option KEY=VALUE"),
    startup: float = typer.Option(10.0, help="seconds for a bot to start"),
    move: float = typer.Option(1.0, help="seconds per move"),
    bank: float = typer.Option(0.0, help="time bank per game, seconds"),
    sandbox: str = typer.Option("auto", help="auto (strict where available), strict, basic or none"),
    audit: bool = typer.Option(False, help="check every message for hidden information first"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
) -> None:
    """Play GAMES games of GAME between the bots, bot i in seat i."""
    registry = installed()
    warn_plugin_errors(registry)
    try:
        engine = registry.engine(game)
        engine.info.check_players(len(bot))
        options = engine.info.resolve_options(parse_options(option))
        entrants = entrants_for(game, bot)
        limit = Limit(startup=startup, move=move, bank=bank)
        level = choose_level(sandbox)
        if seed is not None and key is not None:
            raise ValueError("give --seed or --key, not both")
        secret = (Key.from_public_seed(seed) if seed is not None
                  else Key.from_hex(key) if key is not None else Key.fresh())
    except (UnknownName, GameError, BotSpecError, SandboxError, ValueError) as error:
        raise fail(str(error))
    if secret.public:
        typer.echo(PREDICTABLE, err=True)
    deals = match_deals(secret, len(bot), games)
    numbers = iter(range(1, games + 1))
    if not as_json:
        source = f"seed {seed}" if secret.public else "a secret key"
        typer.echo(f"{game}, deals from {source}, sandbox {level}")

    def show(record: GameRecord) -> None:
        typer.echo(_describe(record, next(numbers)))

    records = play_match(engine, entrants, deals, options, limit,
                         on_game=None if as_json else show, sandbox=level, audit=audit)
    if as_json:
        typer.echo(json.dumps(match_summary(game, seed, records, secret)))
    elif not secret.public:
        typer.echo(f"key {secret.hex} (--key replays this match)")
