"""``arena match``: one match between bots, printed or as JSON, optionally
every deal in every seating (``--rotate``) and stored like a tournament's
games (``--results``).

The deals come from a fresh secret key (printed at the end, so ``--key``
replays the match), from the results folder's key, or from ``--seed``,
which makes them predictable to the bots.  With ``--rotate`` each seating
is played by fresh bot processes, so no process meets a deal twice."""

from __future__ import annotations

import hashlib
import json
from itertools import groupby
from pathlib import Path
from typing import Optional

import typer

from arena.plugins.botspec import BotSpecError
from arena.cli._app import app, fail
from arena.cli.catalog import warn_plugin_errors
from arena.game import GameError
from arena.presentation.match_summary import summarize, summary_lines
from arena.plugins import UnknownName, installed
from arena.records import GameRecord
from arena.match.referee import Deal, Entrant, Limit, play_match
from arena.sandbox import SandboxError
from arena.sandbox.layers import choose_level
from arena.match.seeds import BadKey, Key, load_or_create
from arena.game.teams import Teams

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


def match_summary(game_id: str, seed: int | None, records: list[GameRecord],
                  key: Key | None = None) -> dict:
    """The ``--json`` document: deterministic for a given seed or key (no timings)."""
    return {
        "game": game_id,
        "seed": seed,
        "key": None if key is None or key.public else key.hex,
        "options": records[0].options if records else {},
        "summary": [s.to_dict() for s in summarize(records)],
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


def match_deals(key: Key, games: int, names: list[str], rotate: bool, teams: str) -> list[Deal]:
    """``games`` deals from ``key``; with ``rotate`` each is replayed in
    every seating, as a tournament's ``seating = "auto"`` does (the lineup
    rotated through the seats; all distinct permutations for fixed-team games,
    so partnerships vary too; seatings that seat the same bots alike once)."""
    from arena.tournament.keys import Seating
    from arena.tournament.plan import seatings

    order = [tuple(range(len(names)))]
    if rotate:
        order = seatings(names, Seating.PERMUTE if teams == Teams.FIXED else Seating.ROTATE)
    return [Deal(key.derive("deal", number), seating,
                 key.derive("chance", number, position), len(order) * number + position)
            for number in range(games) for position, seating in enumerate(order)]


def match_key(seed: int | None, key: str | None, results: Path | None) -> Key:
    """The key the deals come from: ``--seed``'s (public), ``--key``, the
    results folder's, or a fresh secret one."""
    if seed is not None and key is not None:
        raise ValueError("give --seed or --key, not both")
    given = (Key.from_public_seed(seed) if seed is not None
             else Key.from_hex(key) if key is not None else None)
    if results is None:
        return given or Key.fresh()
    results.mkdir(parents=True, exist_ok=True)
    from arena.results.store import FILE_NAME
    return load_or_create(results, given, has_results=(results / FILE_NAME).exists())


class MatchStore:
    """A match's games in a results folder, as a tournament stores them (one
    plan item, ``match``), so ``arena replay`` and ``arena leaderboard`` read
    them.  The same match run again into the same folder plays only the games
    not stored yet; another match there is refused."""

    def __init__(self, folder: Path, game: str, players: int, options: dict,
                 names: list[str], deals: list[Deal]):
        from arena.results.store import Store
        from arena.tournament.plan import MatchItem, PlannedDeal

        self.item = MatchItem(
            id="match", order=0, game=game, label=game, players=players, options=options,
            lineup=tuple(names),
            deals=tuple(PlannedDeal(d.seed, d.seating, d.chance) for d in deals))
        plan = json.dumps(self.item.to_dict(), sort_keys=True)
        self.name = f"match {game}"
        self.store = Store(folder)
        try:
            self.store.claim(self.name, hashlib.sha256(plan.encode()).hexdigest()[:16])
            self.store.add_items([self.item])
        except BaseException:
            self.store.close()
            raise
        finished = self.store.finished_keys()
        self.todo = [index for index in range(len(deals)) if self.item.key(index) not in finished]

    def add(self, index: int, record: GameRecord) -> None:
        """Store the game played for deal ``index`` of the match."""
        self.store.add_game(self.item, index, record, self.name)


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
    startup: float = typer.Option(Limit.startup, help="seconds for a bot to start"),
    move: float = typer.Option(Limit.move, help="seconds per move"),
    bank: float = typer.Option(Limit.bank, help="time bank per game, seconds"),
    sandbox: str = typer.Option("auto", help="auto (strict where available), strict, basic or none"),
    audit: bool = typer.Option(False, help="check every message for hidden information first"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    rotate: bool = typer.Option(False, "--rotate",
                                help="replay each deal in every seating (duplicate deals)"),
    results: Optional[Path] = typer.Option(None, "--results",
                                           help="store the games in this folder, like a "
                                                "tournament (replay, leaderboard)"),
) -> None:
    """Play GAMES games of GAME between the bots, bot i in seat i (with
    --rotate, every deal in every seating), then a summary line per bot.
    (A third of its length is the options typer reads from the signature;
    the steps are the helpers of this module.)"""
    from arena.results.store import StoreError

    registry = installed()
    warn_plugin_errors(registry)
    try:
        engine = registry.engine(game)
        engine.info.check_players(len(bot))
        options = engine.info.resolve_options(parse_options(option))
        entrants = entrants_for(game, bot)
        limit = Limit(startup=startup, move=move, bank=bank)
        level = choose_level(sandbox)
        secret = match_key(seed, key, results)
    except (UnknownName, GameError, BotSpecError, SandboxError, ValueError, BadKey,
            OSError) as error:
        raise fail(str(error))
    if secret.public:
        typer.echo(PREDICTABLE, err=True)
    deals = match_deals(secret, games, bot, rotate, engine.info.teams)
    store = None
    if results is not None:
        try:
            store = MatchStore(results, game, len(bot), options, [e.name for e in entrants],
                               deals)
        except StoreError as error:
            raise fail(str(error))
        if len(store.todo) < len(deals) and not as_json:
            typer.echo(f"{len(deals) - len(store.todo)} of {len(deals)} games already "
                       f"stored in {results}")
        deals = [deals[index] for index in store.todo]
    numbers = iter(range(1, len(deals) + 1))
    if not as_json:
        source = f"seed {seed}" if secret.public else "a secret key"
        typer.echo(f"{game}, deals from {source}, sandbox {level}")

    def on_game(record: GameRecord, index: int) -> None:
        if store is not None:
            store.add(index, record)
        if not as_json:
            typer.echo(_describe(record, next(numbers)))

    try:
        records = _play_by_seating(engine, entrants, deals, options, limit, level, audit,
                                   on_game)
    finally:
        if store is not None:
            store.store.close()
    if as_json:
        typer.echo(json.dumps(match_summary(game, seed, records, secret)))
        return
    if records:
        typer.echo("\n".join(summary_lines(records)))
    if store is not None:
        typer.echo(f"stored in {results}: arena leaderboard {results}; arena replay {results} 1")
    elif not secret.public:
        typer.echo(f"key {secret.hex} (--key replays this match)")


def _play_by_seating(engine, entrants, deals, options, limit: Limit, level: str, audit: bool,
                     on_game) -> list[GameRecord]:
    """Play ``deals`` as one match (fresh processes) per seating, so no bot
    process meets a deal twice; ``on_game(record, deal index)`` as each
    ends.  The records, in deal order."""
    played: list[tuple[int, GameRecord]] = []
    for _, group in groupby(sorted(deals, key=lambda d: (d.seating, d.index)),
                            key=lambda d: d.seating):
        group = list(group)
        indices = iter(d.index for d in group)
        played += zip((d.index for d in group), play_match(
            engine, entrants, group, options, limit,
            on_game=lambda record: on_game(record, next(indices)),
            sandbox=level, audit=audit))
    return [record for _, record in sorted(played, key=lambda pair: pair[0])]
