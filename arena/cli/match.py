"""``arena match``: one match between bots, printed or as JSON, optionally
every deal in every seating (``--rotate``) and stored like a tournament's
games (``--results``).

The match is a plan of one item, ``match``, played by the tournament's
runner (:func:`arena.tournament.runner.run_table`): into the results
folder, where a match run again resumes, or into a throwaway one.  The
deals come from a fresh secret key (printed at the end, so ``--key``
replays the match), from the results folder's key, or from ``--seed``,
which makes them predictable to the bots.  With ``--rotate`` each seating
is played by fresh bot processes, so no process meets a deal twice."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import typer

from arena.cli._app import LEAST_SANDBOX, app, fail
from arena.cli.catalog import warn_plugin_errors
from arena.game import GameError
from arena.game.teams import Teams
from arena.match.referee import Entrant, TimeControl
from arena.match.seeds import BadKey, SecretKey, load_or_create
from arena.plugins import UnknownName, installed
from arena.plugins.botspec import BotSpecError
from arena.presentation.match_summary import summarize, summary_lines
from arena.records import GameRecord
from arena.results.items import MatchItem
from arena.sandbox import SandboxError
from arena.sandbox.layers import choose_level, refuse_below

PREDICTABLE = (
    "warning: --seed makes the deals predictable to the bots (a bot that knows "
    "the seed can recompute every hand); omit it for secret deals"
)


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
    entrants: list[Entrant] = []
    seen: dict[str, int] = {}
    for name in names:
        spec = registry.bot(name)
        if not spec.plays(game_id):
            raise ValueError(
                f"bot '{name}' does not play '{game_id}' (it plays: {', '.join(spec.games)})"
            )
        seen[name] = seen.get(name, 0) + 1
        display = name if seen[name] == 1 else f"{name}#{seen[name]}"
        entrants.append(Entrant(display, spec, submitted=registry.submitted(name)))
    return entrants


def match_summary(
    game_id: str, seed: int | None, records: list[GameRecord], key: SecretKey | None = None
) -> dict:
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
                "dummies": [
                    {"name": d.name, "score": d.score, "rank": d.rank} for d in record.dummies
                ],
            }
            for record in records
        ],
    }


def match_item(
    key: SecretKey,
    game: str,
    options: dict,
    bots: list[str],
    lineup: list[str],
    games: int,
    rotate: bool,
    teams: str,
) -> MatchItem:
    """The match as a plan item: ``games`` deals from ``key`` for the bots
    named ``bots`` (``lineup``: their display names); with ``rotate`` each
    is replayed in every seating, as a tournament's ``seating = "auto"``
    does (the lineup rotated through the seats; all distinct permutations
    for fixed-team games, so partnerships vary too; seatings that seat the
    same bots alike once)."""
    from arena.tournament.keys import Seating
    from arena.tournament.plan import seatings, table_item

    order = [tuple(range(len(bots)))]
    if rotate:
        order = seatings(bots, Seating.PERMUTE if teams == Teams.FIXED else Seating.ROTATE)
    return table_item(key, "match", game, options, lineup, range(games), list(enumerate(order)))


def match_key(seed: int | None, key: str | None, results: Path | None) -> SecretKey:
    """The key the deals come from: ``--seed``'s (public), ``--key``, the
    results folder's, or a fresh secret one."""
    if seed is not None and key is not None:
        raise ValueError("give --seed or --key, not both")
    given = (
        SecretKey.from_public_seed(seed)
        if seed is not None
        else SecretKey.from_hex(key)
        if key is not None
        else None
    )
    if results is None:
        return given or SecretKey.fresh()
    results.mkdir(parents=True, exist_ok=True)
    from arena.results.store import FILE_NAME

    return load_or_create(results, given, has_results=(results / FILE_NAME).exists())


def play_match_item(
    item: MatchItem,
    entrants: list[Entrant],
    registry,
    key: SecretKey,
    results: Path | None,
    report,
    *,
    limit: TimeControl,
    sandbox: str,
    audit: bool,
    least: str = "strict",
) -> None:
    """Play the match's item through the tournament's runner, stored as a
    tournament stores its games (plan item ``match``), so ``arena replay``
    and ``arena leaderboard`` read them: the same match run again into the
    same folder plays only the games not stored yet; another match there is
    refused.  Raises StoreError, or a one-line ValueError for games the
    referee could not play; KeyboardInterrupt if interrupted."""
    from arena.tournament.plan import ItemsPlanner
    from arena.tournament.runner import run_table, table_plan

    fingerprint = hashlib.sha256(json.dumps(item.to_dict(), sort_keys=True).encode())
    plan = table_plan(
        f"match {item.game}",
        "match",
        fingerprint.hexdigest()[:16],
        entrants,
        ItemsPlanner([item]),
        registry,
        limit=limit,
        sandbox=sandbox,
        audit=audit,
        least=least,
    )
    run_table(plan, results, key, report)


class _Printer:
    """What ``arena match`` shows as it plays (nothing with ``quiet``): the
    games found already stored, the header, a line per game.  It keeps
    every game played, for the summary."""

    def __init__(self, header: str, total: int, results: Path | None, quiet: bool):
        self.header, self.total, self.results, self.quiet = header, total, results, quiet
        self.played: dict[int, GameRecord] = {}

    def skip(self, games: int) -> None:
        if self.quiet:
            return
        if games:
            typer.echo(f"{games} of {self.total} games already stored in {self.results}")
        typer.echo(self.header)

    def game(self, item: MatchItem, index: int, record: GameRecord) -> None:
        self.played[index] = record
        if not self.quiet:
            typer.echo(_describe(record, len(self.played)))

    def stop(self) -> None:
        pass

    def records(self) -> list[GameRecord]:
        """The games played, in deal order."""
        return [self.played[index] for index in sorted(self.played)]


def _describe(record: GameRecord, number: int) -> str:
    seats = [
        f"{s.bot} {s.score:g} (#{s.rank})"
        + (f" FAULT {s.fault}: {s.fault_detail}" if s.fault else "")
        for s in record.seats
    ]
    seats += [f"{d.name} {d.score:g} (#{d.rank})" for d in record.dummies]
    return f"game {number} seed {record.seed}: " + ", ".join(seats)


@app.command()
def match(
    game: str = typer.Argument(..., help="game id (see `arena games`)"),
    bot: list[str] = typer.Option(
        ..., "--bot", "-b", help="a bot name or cmd:COMMAND LINE, once per seat"
    ),
    seed: int | None = typer.Option(
        None, help="a public seed for the deals: predictable to the bots (default: a secret key)"
    ),
    key: str | None = typer.Option(
        None, "--key", help="the secret key (hex) an earlier match printed, to replay it"
    ),
    games: int = typer.Option(1, "--games", "-n", help="games in the match (at least 1)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option KEY=VALUE"),
    startup: float = typer.Option(TimeControl.startup, help="seconds for a bot to start"),
    move: float = typer.Option(TimeControl.move, help="seconds per move"),
    bank: float = typer.Option(TimeControl.bank, help="time bank per game, seconds"),
    sandbox: str = typer.Option(
        "auto", help="auto (strict where available), strict, basic or none"
    ),
    least_sandbox: str = LEAST_SANDBOX,
    audit: bool = typer.Option(False, help="check every message for hidden information first"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    rotate: bool = typer.Option(
        False, "--rotate", help="replay each deal in every seating (duplicate deals)"
    ),
    results: Path | None = typer.Option(
        None,
        "--results",
        help="store the games in this folder, like a tournament (replay, leaderboard)",
    ),
) -> None:
    """Play GAMES games of GAME between the bots, bot i in seat i (with
    --rotate, every deal in every seating), then a summary line per bot.
    (A third of its length is the options typer reads from the signature;
    the steps are the helpers of this module.)"""
    from arena.results.store import StoreError

    if games < 1:
        raise fail(f"--games must be at least 1, got {games}")
    registry = installed()
    warn_plugin_errors(registry)
    try:
        engine = registry.engine(game)
        engine.info.check_players(len(bot))
        options = engine.info.resolve_options(parse_options(option))
        entrants = entrants_for(game, bot)
        limit = TimeControl(startup=startup, move=move, bank=bank)
        level = choose_level(sandbox)
        refuse_below(level, least_sandbox, [e.name for e in entrants if e.submitted])
        secret = match_key(seed, key, results)
    except (
        UnknownName,
        GameError,
        BotSpecError,
        SandboxError,
        ValueError,
        BadKey,
        OSError,
    ) as error:
        raise fail(str(error)) from None
    if secret.public:
        typer.echo(PREDICTABLE, err=True)
    item = match_item(
        secret, game, options, bot, [e.name for e in entrants], games, rotate, engine.info.teams
    )
    source = f"seed {seed}" if secret.public else "a secret key"
    printer = _Printer(
        f"{game}, deals from {source}, sandbox {level}", len(item.deals), results, as_json
    )
    try:
        play_match_item(
            item,
            entrants,
            registry,
            secret,
            results,
            printer,
            limit=limit,
            sandbox=level,
            audit=audit,
            least=least_sandbox,
        )
    except (StoreError, ValueError, SandboxError) as error:
        raise fail(str(error)) from None
    records = printer.records()
    if as_json:
        typer.echo(json.dumps(match_summary(game, seed, records, secret)))
        return
    if records:
        typer.echo("\n".join(summary_lines(records)))
    if results is not None:
        typer.echo(f"stored in {results}: arena leaderboard {results}; arena replay {results} 1")
    elif not secret.public:
        typer.echo(f"key {secret.hex} (--key replays this match)")
