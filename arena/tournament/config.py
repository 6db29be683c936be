"""Tournament files: TOML in, a validated :class:`Tournament` out.

Every mistake in a file is reported as one line ``FILE: KEY: what is wrong``;
:func:`load` collects them all and raises :class:`ConfigError` holding the
list, before anything runs.  What each key takes (type, default, minimum,
choices) is the key table of :mod:`arena.tournament.keys`, which the key
reference in ``docs/tournaments.md`` is rendered from.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import re
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from arena.game import GameError
from arena.game.teams import Teams
from arena.match.referee import TimeControl
from arena.plugins.botspec import BotSpec, BotSpecError
from arena.sandbox import ResourceLimits
from arena.tournament.keys import (
    EXECUTORS,
    FORMAT_SECTIONS,
    KIND_NAMES,
    Format,
    KeySpec,
    Seating,
    names,
    spec,
)


class ConfigError(ValueError):
    """A tournament file with mistakes; ``errors`` has one line per mistake."""

    def __init__(self, errors: list[str]):
        super().__init__("\n".join(errors))
        self.errors = errors


@dataclass(frozen=True)
class BotEntry:
    """A bot in the tournament: its display name and what to launch."""

    name: str
    bot: str
    games: tuple[str, ...] | None = None  # restricts which games it is entered in
    settings: dict[str, Any] | None = None  # the bot's own table, sent in its hello


@dataclass(frozen=True)
class GameEntry:
    id: str
    players: tuple[int, ...]
    options: dict[str, Any]
    deals: int
    seating: Seating
    bots: tuple[str, ...]  # display names that play this game
    repeats: bool | None = None  # a bot in several seats of one table


@dataclass(frozen=True)
class Tournament:
    name: str
    path: str
    seed: int
    format: Format
    deals: int
    seating: Seating
    workers: int
    match_deals: int
    results: str
    sandbox: str  # auto (strict where available), none, basic, strict
    time: TimeControl  # the referee's own time control, defaults there
    bots: tuple[BotEntry, ...]
    games: tuple[GameEntry, ...]
    challenger: str | None = None  # gauntlet
    rounds: int | None = None  # swiss
    sigma: float = 2.5  # rated: stop when every sigma is below
    budget: int = 500  # rated: at most this many games per game entry
    batch: int = 0  # rated: tables per step (0: twice the workers)
    executor: str = "local"  # local (process pool) or dask (see docs/cluster.md)
    scheduler: str | None = None  # dask: a running scheduler's address (None: a local cluster)
    #: the least level its submitted bots (``cmd:``, third-party) may run at
    least_sandbox: str = "strict"
    #: per bot name: its sandbox resource limits ([limits], then the bot's own)
    resources: dict[str, ResourceLimits] = field(default_factory=dict)
    #: per bot name: the host paths it may read besides its own (``files``);
    #: what a bot sees does not decide the plan, so not in the fingerprint
    files: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: [stop]: when enough is known (not part of the plan: a resumed run may change it)
    stop_confidence: float | None = None
    stop_budget: int | None = None

    def bot(self, name: str) -> BotEntry:
        return next(entry for entry in self.bots if entry.name == name)

    def fingerprint(self) -> str:
        """What decides the plan: a resumed tournament must match it."""
        data = {
            "seed": self.seed,
            "format": self.format,
            "match_deals": self.match_deals,
            "challenger": self.challenger,
            "rounds": self.rounds,
            "sigma": self.sigma,
            "budget": self.budget,
            # a bot without settings keeps the fingerprint it had before settings existed
            "bots": [
                {key: value for key, value in asdict(bot).items() if key != "settings" or value}
                for bot in self.bots
            ],
            "games": [asdict(game) for game in self.games],
        }
        text = json.dumps(data, sort_keys=True, default=list)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def conditions(self) -> dict[str, Any]:
        """What the games are played under without changing the plan: the
        time control and each bot's resource limits.  A store refuses a
        resumed run under other conditions (:meth:`arena.results.store.Store.claim`)."""
        return {
            "time": self.time.as_dict(),
            "limits": {name: asdict(limits) for name, limits in sorted(self.resources.items())},
        }


#: [limits] keys, in the units people write, and the ResourceLimits field and
#: factor each becomes
LIMIT_KEYS = {
    "memory_mb": ("memory", 1 << 20),
    "cpu_seconds": ("cpu_seconds", 1),
    "file_size_mb": ("file_size", 1 << 20),
    "open_files": ("open_files", 1),
    "processes": ("processes", 1),
    "disk_mb": ("disk", 1 << 20),
    "output_kb": ("output", 1 << 10),
}


def default_workers() -> int:
    """What the machine can serve: the CPUs this process may run on, and no
    more than its cgroup's CPU quota.  More workers than that only make every
    bot wait for a CPU (the referee does not charge that wait, but matches
    get no faster)."""
    from arena.sandbox.cgroups import cpu_quota

    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    quota = cpu_quota()
    if quota is not None:
        cpus = min(cpus, math.ceil(quota))
    return max(1, cpus)


def load(
    path: str | os.PathLike,
    registry=None,
    *,
    results: str | None = None,
    workers: int | None = None,
    executor: str | None = None,
    scheduler: str | None = None,
    least_sandbox: str | None = None,
) -> Tournament:
    """Read and validate a tournament file (flags override the file).

    ``registry`` (default: the installed plugins) is what games, options,
    player counts and bots are checked against.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError([f"{path}: no such file"]) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError([f"{path}: cannot read: {error}"]) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError([f"{path}: not valid TOML: {error}"]) from None
    if registry is None:
        from arena.plugins import installed

        registry = installed()
    return parse(
        data,
        str(path),
        registry,
        results=results,
        workers=workers,
        executor=executor,
        scheduler=scheduler,
        least_sandbox=least_sandbox,
    )


_FROM_TABLE = object()  # "the key table's default" (None is a default of its own)


class TableReader:
    """Reads a tournament file's tables by the key table
    (:mod:`arena.tournament.keys`) and collects every mistake as one line
    ``FILE: WHERE: what is wrong``: a wrong value is reported and its
    default read on, so one pass finds all of a file's mistakes."""

    def __init__(self, file: str):
        self.file = file
        self.errors: list[str] = []

    def error(self, where: str, message: str) -> None:
        self.errors.append(f"{self.file}: {where}: {message}")

    def unknown(self, table: dict, known: set[str], prefix: str) -> None:
        """A line for each key of ``table`` not ``known`` (a section's
        :func:`~arena.tournament.keys.names`)."""
        for name in table:
            if name not in known:
                self.error(f"{prefix}{name}", f"unknown key (known: {', '.join(sorted(known))})")

    def read(self, table: dict, section: str, name: str, where: str, default=_FROM_TABLE):
        """``table[name]`` checked as the key table says (type, minimum,
        choices; a choice as its enum), else ``default`` (by default the
        key table's)."""
        found: KeySpec = spec(section, name)
        if default is _FROM_TABLE:
            default = found.default
        if found.choices is not None:
            return self.choice(table, name, found.choices, default, where)
        return self.get(table, name, found.kind, default, where, minimum=found.minimum)

    def get(self, table: dict, name: str, kind, default, where: str, *, minimum=None):
        if name not in table:
            return default
        value = table[name]
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            self.error(where, f"expected {KIND_NAMES.get(kind, kind.__name__)}, got {value!r}")
            return default
        if minimum is not None and value < minimum:
            self.error(where, f"must be at least {minimum}, got {value!r}")
            return default
        return value

    def choice(self, table: dict, name: str, choices, default, where: str):
        value = self.get(table, name, str, default, where)
        if value not in choices:
            self.error(where, f"{value!r} is not one of {', '.join(choices)}")
            return default
        return type(choices[0])(value)


def parse(
    data: dict,
    file: str,
    registry,
    *,
    results: str | None = None,
    workers: int | None = None,
    executor: str | None = None,
    scheduler: str | None = None,
    least_sandbox: str | None = None,
) -> Tournament:
    """The tournament of a file's TOML ``data`` (flags override the file);
    every mistake is collected first, then raised as one :class:`ConfigError`."""
    c = TableReader(file)
    c.unknown(data, names("top"), "")
    name = c.read(data, "top", "name", "name")
    if "name" not in data:
        c.error("name", "missing (every tournament needs a name)")
    elif not name.strip():
        c.error("name", "must not be empty")
    seed = c.read(data, "top", "seed", "seed")
    fmt = c.read(data, "top", "format", "format")
    deals = c.read(data, "top", "deals", "deals")
    seating = c.read(data, "top", "seating", "seating")
    match_deals = c.read(data, "top", "match_deals", "match_deals")
    file_workers = c.read(data, "top", "workers", "workers", default_workers())
    results_dir = c.read(data, "top", "results", "results", f"results/{name or 'tournament'}")
    sandbox = c.read(data, "top", "sandbox", "sandbox")
    _check_sandbox(c, sandbox)
    if least_sandbox is None:
        least_sandbox = c.read(data, "top", "least_sandbox", "least_sandbox")
    _check_least(c, least_sandbox)
    executor, scheduler = _parse_executor(
        c, data, executor, scheduler, file_workers if workers is None else workers
    )
    time = _parse_time(c, c.read(data, "top", "time", "time"))
    default_limits = _parse_limits(
        c, c.read(data, "top", "limits", "limits"), ResourceLimits(), "limits"
    )
    bots, resources, files = _parse_bots(
        c, data, registry, default_limits, results if results is not None else results_dir
    )
    games = _parse_games(c, data, registry, bots, deals, seating, fmt)
    challenger, rounds, rated = _parse_format_sections(c, data, fmt, bots)
    stop_confidence, stop_budget = _parse_stop(c, c.read(data, "top", "stop", "stop"))

    if c.errors:
        raise ConfigError(c.errors)
    return Tournament(
        name=name,
        path=file,
        seed=seed,
        format=fmt,
        deals=deals,
        seating=seating,
        match_deals=match_deals,
        workers=file_workers if workers is None else workers,
        results=results if results is not None else results_dir,
        sandbox=sandbox,
        time=time,
        bots=tuple(bots),
        games=tuple(games),
        files=files,
        challenger=challenger,
        rounds=rounds,
        **rated,
        executor=executor,
        scheduler=scheduler,
        least_sandbox=least_sandbox,
        resources=resources,
        stop_confidence=stop_confidence,
        stop_budget=stop_budget,
    )


def _parse_time(c: TableReader, table: dict) -> TimeControl:
    """``[time]``: the referee's :class:`~arena.match.referee.TimeControl`, its defaults
    where a key is left out."""
    c.unknown(table, names("time"), "time.")
    return TimeControl(
        **{
            name: c.read(table, "time", name, f"time.{name}")
            for name in ("startup", "move", "bank", "floor")
        }
    )


def _parse_format_sections(
    c: TableReader, data: dict, fmt: Format, bots: list[BotEntry]
) -> tuple[str | None, int | None, dict[str, Any]]:
    """``[gauntlet]``, ``[swiss]``, ``[rated]``: only the chosen format's
    may be there.  Returns the challenger, the rounds and the rated keys."""
    sections = {}
    for section in FORMAT_SECTIONS:
        table = c.read(data, "top", section, section)
        c.unknown(table, names(section), f"{section}.")
        sections[section] = table
        if table and section != fmt:
            c.error(section, f"settings for format '{section}' but format is '{fmt}'")
    challenger = None
    if fmt == Format.GAUNTLET:
        gauntlet = sections[Format.GAUNTLET]
        challenger = c.read(gauntlet, "gauntlet", "challenger", "gauntlet.challenger")
        if challenger is None:
            if "challenger" not in gauntlet:
                c.error("gauntlet.challenger", "missing (the gauntlet format needs a challenger)")
        elif bots and challenger not in {bot.name for bot in bots}:
            c.error("gauntlet.challenger", f"'{challenger}' is not one of the bots' names")
    rounds = None
    if fmt == Format.SWISS:
        rounds = c.read(sections[Format.SWISS], "swiss", "rounds", "swiss.rounds")
        if rounds is None:
            rounds = max(1, math.ceil(math.log2(max(2, len(bots))))) + 1
    rated = {
        name: c.read(sections[Format.RATED], "rated", name, f"rated.{name}")
        for name in ("sigma", "budget", "batch")
    }
    return challenger, rounds, rated


def _parse_stop(c: TableReader, table: dict) -> tuple[float | None, int | None]:
    """``[stop]``: ``confidence`` (between 0 and 1) and ``budget`` (games)."""
    c.unknown(table, names("stop"), "stop.")
    confidence = c.read(table, "stop", "confidence", "stop.confidence")
    if confidence is not None and not 0 < confidence < 1:
        c.error("stop.confidence", f"must be between 0 and 1 (e.g. 0.95), got {confidence!r}")
        confidence = None
    budget = c.read(table, "stop", "budget", "stop.budget")
    return confidence, budget


def _parse_limits(c: TableReader, table: dict, base: ResourceLimits, where: str) -> ResourceLimits:
    """A ``limits`` table (MB, KB, seconds, counts) over ``base``."""
    c.unknown(table, set(LIMIT_KEYS), f"{where}.")
    changes = {}
    for name, (attribute, unit) in LIMIT_KEYS.items():
        value = c.get(table, name, int, None, f"{where}.{name}", minimum=1)
        if value is not None:
            changes[attribute] = value * unit
    return replace(base, **changes)


_ADDRESS = re.compile(r"^(?:(?:tcp|tls|ws|wss)://)?(?:\[[0-9a-fA-F:.]+\]|[^\s:/\[\]]+):\d{1,5}$")


def _parse_executor(
    c: TableReader, data: dict, executor: str | None, scheduler: str | None, workers: int
) -> tuple[str, str | None]:
    """``executor`` and ``scheduler`` (flags override the file); a scheduler
    alone selects Dask; ``--executor local`` sets a file's scheduler aside."""
    if scheduler is None and executor != "local":
        scheduler = c.read(data, "top", "scheduler", "scheduler")
    if executor is None:
        default = "dask" if scheduler is not None else "local"
        executor = c.read(data, "top", "executor", "executor", default)
    elif executor not in EXECUTORS:
        c.error("executor", f"'{executor}' is not one of {', '.join(EXECUTORS)}")
        return "local", None
    if scheduler is not None:
        if not _ADDRESS.match(scheduler):
            c.error("scheduler", f"expected an address like tcp://HOST:PORT, got {scheduler!r}")
            scheduler = None
        elif executor != "dask":
            c.error(
                "scheduler",
                f"a scheduler is for executor = 'dask', but the executor is '{executor}'",
            )
            scheduler = None
    if executor == "dask":
        if scheduler is None and workers == 0:
            c.error("workers", "executor 'dask' needs at least 1 worker (0 plays in this process)")
        if importlib.util.find_spec("distributed") is None:
            c.error(
                "executor", "'dask' needs the distributed package: pip install 'farm-arena[dask]'"
            )
    return executor, scheduler


def _check_sandbox(c: TableReader, level: str) -> None:
    try:
        from arena.sandbox import LEVELS
    except ImportError:  # pragma: no cover - the referee checks it then
        return
    if level != "auto" and level not in LEVELS:
        c.error("sandbox", f"'{level}' is not one of auto, {', '.join(LEVELS)}")
    elif level == "strict":
        try:
            from arena.sandbox.layers import strict_available
        except ImportError:  # pragma: no cover
            return
        if not strict_available():
            c.error(
                "sandbox",
                "level 'strict' needs bubblewrap with namespaces, not available "
                "here (see `arena doctor`)",
            )


def _check_least(c: TableReader, level: str) -> None:
    from arena.sandbox import LEVELS

    if level not in LEVELS:
        c.error("least_sandbox", f"'{level}' is not one of {', '.join(LEVELS)}")


def _entries(c: TableReader, raw: list, section: str, key: str, noun: str, missing: str):
    """``(where, table, value)`` for each entry of a list whose entries are
    written as a bare string (the table's ``key``) or as a table; ``value``
    is the entry's ``key``, an entry without a good one is reported (as
    ``missing`` when it has none) and skipped."""
    for index, item in enumerate(raw):
        where = f"{section}[{index}]"
        if isinstance(item, str):
            item = {key: item}
        if not isinstance(item, dict):
            c.error(where, f"expected {noun} or a table, got {item!r}")
            continue
        kind = section.removesuffix("s")
        c.unknown(item, names(kind), f"{where}.")
        value = c.read(item, kind, key, f"{where}.{key}")
        if value is None:
            if key not in item:
                c.error(f"{where}.{key}", f"missing ({missing})")
            continue
        yield where, item, value


def _parse_bots(
    c: TableReader, data: dict, registry, default_limits: ResourceLimits, results: str
) -> tuple[list[BotEntry], dict[str, ResourceLimits], dict[str, tuple[str, ...]]]:
    """The bots, each one's resource limits (``default_limits`` under its
    own ``limits`` table) and the extra paths it may read."""
    raw = c.read(data, "top", "bots", "bots")
    if "bots" not in data:
        c.error("bots", "missing (list the bots that play)")
    bots: list[BotEntry] = []
    limits: dict[str, ResourceLimits] = {}
    files: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()
    for where, item, launch in _entries(
        c, raw, "bots", "bot", "a bot name", "a registered bot name or 'cmd:COMMAND'"
    ):
        name = c.read(item, "bot", "name", f"{where}.name", launch)
        if not name.strip():
            c.error(f"{where}.name", "must not be empty")
            continue
        games = c.read(item, "bot", "games", f"{where}.games")
        if games is not None and not all(isinstance(g, str) for g in games):
            c.error(f"{where}.games", "expected a list of game ids")
            games = None
        try:
            registry.bot(launch)
        except (LookupError, BotSpecError) as error:
            c.error(f"{where}.bot", str(error))
            continue
        if name in seen:
            c.error(f"{where}.name", f"'{name}' is used by another bot (give each a distinct name)")
            continue
        seen.add(name)
        settings = c.read(item, "bot", "settings", f"{where}.settings")
        bots.append(
            BotEntry(
                name=name,
                bot=launch,
                games=tuple(games) if games else None,
                settings=settings or None,
            )
        )
        limits[name] = _parse_limits(
            c, c.read(item, "bot", "limits", f"{where}.limits"), default_limits, f"{where}.limits"
        )
        files[name] = _parse_files(
            c, c.read(item, "bot", "files", f"{where}.files"), results, f"{where}.files"
        )
    return bots, limits, files


def _parse_files(c: TableReader, raw: list, results: str, where: str) -> tuple[str, ...]:
    """A bot's ``files``: existing paths (relative ones from the current
    folder, like a ``cmd:`` line's), none of which shows the results folder,
    where the tournament's secret deal key is kept."""
    paths = []
    store = os.path.realpath(results)
    for index, item in enumerate(raw):
        if not isinstance(item, str) or not item:
            c.error(f"{where}[{index}]", f"expected a file or folder path, got {item!r}")
            continue
        path = os.path.abspath(item)
        real = os.path.realpath(path)
        if not os.path.exists(path):
            c.error(f"{where}[{index}]", f"{item!r}: no such file or folder")
        elif (
            real == store
            or store.startswith(real.rstrip("/") + "/")
            or real.startswith(store + "/")
        ):
            c.error(
                f"{where}[{index}]",
                f"{item!r} would show the bot the results folder {results!r} (and its secret key)",
            )
        else:
            paths.append(path)
    return tuple(paths)


def bot_plays(entry: BotEntry, spec: BotSpec, game_id: str) -> bool:
    if entry.games is not None and game_id not in entry.games:
        return False
    return spec.plays(game_id)


def _parse_games(
    c: TableReader,
    data: dict,
    registry,
    bots: list[BotEntry],
    deals: int,
    seating: Seating,
    fmt: Format,
) -> list[GameEntry]:
    """The game entries, each checked against its engine (player counts,
    options) and the bots entered in it (enough of them for the format)."""
    raw = c.read(data, "top", "games", "games")
    if "games" not in data:
        c.error("games", "missing (list the games to play)")
    elif not raw:
        c.error("games", "must list at least one game")
    games: list[GameEntry] = []
    seen: set[str] = set()
    listed = data.get("bots")
    every_bot_read = isinstance(listed, list) and len(bots) == len(listed)
    for where, item, game_id in _entries(c, raw, "games", "id", "a game id", "the game's id"):
        try:
            engine = registry.engine(game_id)
        except LookupError as error:
            c.error(f"{where}.id", str(error))
            continue
        info = engine.info
        players = _game_players(c, item, info, where)
        options = c.read(item, "game", "options", f"{where}.options")
        try:
            info.resolve_options(options)
        except GameError as error:
            c.error(f"{where}.options", str(error))
        game_deals = c.read(item, "game", "deals", f"{where}.deals", deals)
        game_seating = c.read(item, "game", "seating", f"{where}.seating", seating)
        if game_seating == Seating.AUTO:
            game_seating = Seating.PERMUTE if info.teams == Teams.FIXED else Seating.ROTATE
        repeats = c.read(item, "game", "repeats", f"{where}.repeats")
        entered = _game_bots(c, item, registry, bots, game_id, where)
        if every_bot_read:  # else the missing bot's own line says what is wrong
            _check_enough_bots(c, where, game_id, fmt, bots, entered, players, repeats)
        key = f"{game_id}:{options}"
        if key in seen:
            c.error(f"{where}.id", f"'{game_id}' is listed twice with the same options")
        seen.add(key)
        games.append(
            GameEntry(
                id=game_id,
                players=tuple(players),
                options=dict(options),
                deals=game_deals,
                seating=game_seating,
                bots=tuple(entered),
                repeats=repeats,
            )
        )
    return games


def _game_players(c: TableReader, item: dict, info, where: str) -> list[int]:
    """A game entry's table sizes (a count or a list; default: every count
    the game allows), each one the game allows."""
    players = item.get("players", list(info.players))
    if isinstance(players, int) and not isinstance(players, bool):
        players = [players]
    if not (
        isinstance(players, list)
        and players
        and all(isinstance(p, int) and not isinstance(p, bool) for p in players)
    ):
        c.error(f"{where}.players", f"expected a player count or a list of them, got {players!r}")
        players = []
    good = []
    for count in players:
        try:
            info.check_players(count)
            good.append(count)
        except GameError as error:
            c.error(f"{where}.players", str(error))
    return good


def _game_bots(
    c: TableReader, item: dict, registry, bots: list[BotEntry], game_id: str, where: str
) -> list[str]:
    """The display names of the bots entered in a game: every bot that
    plays it, or those its ``bots`` lists (each of which must play it)."""
    names_given = {bot.name for bot in bots}
    chosen = c.read(item, "game", "bots", f"{where}.bots")
    if chosen is not None:
        for name in chosen:
            if name not in names_given:
                c.error(f"{where}.bots", f"'{name}' is not one of the bots' names")
        chosen = [name for name in chosen if name in names_given]
    entered = []
    for bot in bots:
        if chosen is not None and bot.name not in chosen:
            continue
        if bot_plays(bot, registry.bot(bot.bot), game_id):
            entered.append(bot.name)
        elif chosen is not None:
            c.error(f"{where}.bots", f"bot '{bot.name}' does not play '{game_id}'")
    return entered


def _check_enough_bots(
    c: TableReader,
    where: str,
    game_id: str,
    fmt: Format,
    bots: list[BotEntry],
    entered: list[str],
    players: list[int],
    repeats: bool | None,
) -> None:
    """Someone plays the game, and as many bots as the format needs."""
    if bots and not entered:
        c.error(where, f"no bot plays '{game_id}'")
    if fmt != Format.ROUND_ROBIN and len(entered) < 2 and bots:
        c.error(where, f"format '{fmt}' needs at least two bots playing '{game_id}'")
    elif len(entered) == 1 and min(players, default=1) > 1 and repeats is not True:
        # a lone bot at tables of several seats would only play itself: rated against nobody
        c.error(
            where,
            f"only one bot ('{entered[0]}') plays '{game_id}': a table of {min(players)} needs "
            "at least two (or repeats = true to play it against itself)",
        )
    if entered and players and (repeats is False or fmt == Format.SWISS):
        most = max(players)
        if len(entered) < most:
            why = "format 'swiss'" if fmt == Format.SWISS else "repeats = false"
            c.error(
                where,
                f"{why} needs at least {most} bots playing '{game_id}' "
                f"for {most} players, got {len(entered)}",
            )
