"""Tournament files: TOML in, a validated :class:`Tournament` out.

Every mistake in a file is reported as one line ``FILE: KEY: what is wrong``;
:func:`load` collects them all and raises :class:`ConfigError` holding the
list, before anything runs.  The full key reference is ``docs/tournaments.md``.
"""

from __future__ import annotations

import hashlib
import json
import importlib.util
import math
import os
import re
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from arena.bots import BotSpec, BotSpecError
from arena.game import GameError
from arena.referee import Limit
from arena.sandbox import ResourceLimits

FORMATS = ("round-robin", "gauntlet", "swiss", "rated")
SEATINGS = ("auto", "rotate", "permute", "none")


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
    seating: str
    bots: tuple[str, ...]          # display names that play this game
    repeats: bool | None = None    # a bot in several seats of one table


@dataclass(frozen=True)
class Tournament:
    name: str
    path: str
    seed: int
    format: str
    deals: int
    seating: str
    workers: int
    match_deals: int
    results: str
    sandbox: str                        # auto (strict where available), none, basic, strict
    time: Limit                         # the referee's own time control, defaults there
    bots: tuple[BotEntry, ...]
    games: tuple[GameEntry, ...]
    challenger: str | None = None       # gauntlet
    rounds: int | None = None           # swiss
    sigma: float = 2.5                  # rated: stop when every sigma is below
    budget: int = 500                   # rated: at most this many games per game entry
    batch: int = 0                      # rated: tables per step (0: twice the workers)
    executor: str = "local"             # local (process pool) or dask (see docs/cluster.md)
    scheduler: str | None = None        # dask: a running scheduler's address (None: a local cluster)
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
            "seed": self.seed, "format": self.format, "match_deals": self.match_deals, "challenger": self.challenger,
            "rounds": self.rounds, "sigma": self.sigma, "budget": self.budget,
            # a bot without settings keeps the fingerprint it had before settings existed
            "bots": [{key: value for key, value in asdict(bot).items()
                      if key != "settings" or value} for bot in self.bots],
            "games": [asdict(game) for game in self.games],
        }
        text = json.dumps(data, sort_keys=True, default=list)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def conditions(self) -> dict[str, Any]:
        """What the games are played under without changing the plan: the
        time control and each bot's resource limits.  A store refuses a
        resumed run under other conditions (:meth:`arena.store.Store.claim`)."""
        return {"time": self.time.as_dict(),
                "limits": {name: asdict(limits) for name, limits in sorted(self.resources.items())}}


#: deals per referee match by default: each match plays its deals in one
#: seating, so this many games share a start-up of the bots (12 keeps the
#: games per start-up of the former four deals in three seatings)
MATCH_DEALS = 12

TOP_KEYS = {"name", "seed", "format", "deals", "match_deals", "seating", "workers", "results", "sandbox",
            "limits", "time", "bots", "games", "gauntlet", "swiss", "rated", "executor", "scheduler",
            "stop"}
EXECUTORS = ("local", "dask")
TIME_KEYS = {"startup", "move", "bank"}
BOT_KEYS = {"name", "bot", "games", "limits", "files", "settings"}
#: [limits] keys, in the units people write, and the ResourceLimits field and
#: factor each becomes
LIMIT_KEYS = {
    "memory_mb": ("memory", 1 << 20), "cpu_seconds": ("cpu_seconds", 1),
    "file_size_mb": ("file_size", 1 << 20), "open_files": ("open_files", 1),
    "processes": ("processes", 1), "disk_mb": ("disk", 1 << 20), "output_kb": ("output", 1 << 10),
}
GAME_KEYS = {"id", "players", "options", "deals", "seating", "bots", "repeats"}
SECTION_KEYS = {"gauntlet": {"challenger"}, "swiss": {"rounds"},
                "rated": {"sigma", "budget", "batch"}}


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


def load(path: str | os.PathLike, registry=None, *, results: str | None = None,
         workers: int | None = None, executor: str | None = None,
         scheduler: str | None = None) -> Tournament:
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
    return parse(data, str(path), registry, results=results, workers=workers,
                 executor=executor, scheduler=scheduler)


class _Checker:
    def __init__(self, file: str):
        self.file = file
        self.errors: list[str] = []

    def error(self, key: str, message: str) -> None:
        self.errors.append(f"{self.file}: {key}: {message}")

    def unknown(self, table: dict, known: set[str], prefix: str) -> None:
        for key in table:
            if key not in known:
                self.error(f"{prefix}{key}", f"unknown key (known: {', '.join(sorted(known))})")

    def get(self, table: dict, key: str, kind, default, where: str, *, minimum=None):
        if key not in table:
            return default
        value = table[key]
        ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            names = {str: "a string", int: "an integer", float: "a number", bool: "true or false",
                     list: "a list", dict: "a table"}
            self.error(where, f"expected {names.get(kind, kind.__name__)}, got {value!r}")
            return default
        if minimum is not None and value < minimum:
            self.error(where, f"must be at least {minimum}, got {value!r}")
            return default
        return value

    def choice(self, table: dict, key: str, choices, default, where: str):
        value = self.get(table, key, str, default, where)
        if value not in choices:
            self.error(where, f"{value!r} is not one of {', '.join(choices)}")
            return default
        return value


def parse(data: dict, file: str, registry, *, results: str | None = None,
          workers: int | None = None, executor: str | None = None,
          scheduler: str | None = None) -> Tournament:
    c = _Checker(file)
    c.unknown(data, TOP_KEYS, "")
    name = c.get(data, "name", str, "", "name")
    if "name" not in data:
        c.error("name", "missing (every tournament needs a name)")
    elif not name.strip():
        c.error("name", "must not be empty")
    seed = c.get(data, "seed", int, 0, "seed")
    fmt = c.choice(data, "format", FORMATS, "round-robin", "format")
    deals = c.get(data, "deals", int, 1, "deals", minimum=1)
    seating = c.choice(data, "seating", SEATINGS, "auto", "seating")
    match_deals = c.get(data, "match_deals", int, MATCH_DEALS, "match_deals", minimum=1)
    file_workers = c.get(data, "workers", int, default_workers(), "workers", minimum=0)
    results_dir = c.get(data, "results", str, f"results/{name or 'tournament'}", "results")
    sandbox = c.get(data, "sandbox", str, "auto", "sandbox")
    _check_sandbox(c, sandbox)
    executor, scheduler = _parse_executor(c, data, executor, scheduler,
                                          file_workers if workers is None else workers)

    time_table = c.get(data, "time", dict, {}, "time")
    c.unknown(time_table, TIME_KEYS, "time.")
    time = Limit(
        startup=c.get(time_table, "startup", float, Limit.startup, "time.startup", minimum=0.001),
        move=c.get(time_table, "move", float, Limit.move, "time.move", minimum=0.001),
        bank=c.get(time_table, "bank", float, Limit.bank, "time.bank", minimum=0.0),
    )

    default_limits = _parse_limits(c, c.get(data, "limits", dict, {}, "limits"),
                                   ResourceLimits(), "limits")
    bots, resources, files = _parse_bots(c, data, registry, default_limits,
                                         results if results is not None else results_dir)
    games = _parse_games(c, data, registry, bots, deals, seating, fmt)

    sections = {}
    for section, keys in SECTION_KEYS.items():
        table = c.get(data, section, dict, {}, section)
        c.unknown(table, keys, f"{section}.")
        sections[section] = table
        if table and section != fmt:
            c.error(section, f"settings for format '{section}' but format is '{fmt}'")
    challenger = None
    if fmt == "gauntlet":
        challenger = c.get(sections["gauntlet"], "challenger", str, None, "gauntlet.challenger")
        if challenger is None:
            if "challenger" not in sections["gauntlet"]:
                c.error("gauntlet.challenger", "missing (the gauntlet format needs a challenger)")
        elif bots and challenger not in {bot.name for bot in bots}:
            c.error("gauntlet.challenger", f"'{challenger}' is not one of the bots' names")
    rounds = None
    if fmt == "swiss":
        rounds = c.get(sections["swiss"], "rounds", int, None, "swiss.rounds", minimum=1)
        if rounds is None:
            rounds = max(1, math.ceil(math.log2(max(2, len(bots))))) + 1
    rated = sections["rated"]
    sigma = c.get(rated, "sigma", float, 2.5, "rated.sigma", minimum=0.01)
    budget = c.get(rated, "budget", int, 500, "rated.budget", minimum=1)
    batch = c.get(rated, "batch", int, 0, "rated.batch", minimum=0)

    stop_confidence, stop_budget = _parse_stop(c, c.get(data, "stop", dict, {}, "stop"))

    if c.errors:
        raise ConfigError(c.errors)
    return Tournament(
        name=name, path=file, seed=seed, format=fmt, deals=deals, seating=seating,
        match_deals=match_deals,
        workers=file_workers if workers is None else workers,
        results=results if results is not None else results_dir,
        sandbox=sandbox, time=time, bots=tuple(bots), games=tuple(games), files=files,
        challenger=challenger, rounds=rounds, sigma=sigma, budget=budget, batch=batch,
        executor=executor, scheduler=scheduler, resources=resources,
        stop_confidence=stop_confidence, stop_budget=stop_budget,
    )


def _parse_stop(c: _Checker, table: dict) -> tuple[float | None, int | None]:
    """``[stop]``: ``confidence`` (between 0 and 1) and ``budget`` (games)."""
    c.unknown(table, {"confidence", "budget"}, "stop.")
    confidence = c.get(table, "confidence", float, None, "stop.confidence")
    if confidence is not None and not 0 < confidence < 1:
        c.error("stop.confidence", f"must be between 0 and 1 (e.g. 0.95), got {confidence!r}")
        confidence = None
    budget = c.get(table, "budget", int, None, "stop.budget", minimum=1)
    return confidence, budget


def _parse_limits(c: _Checker, table: dict, base: ResourceLimits, where: str) -> ResourceLimits:
    """A ``limits`` table (MB, KB, seconds, counts) over ``base``."""
    c.unknown(table, set(LIMIT_KEYS), f"{where}.")
    changes = {}
    for key, (attribute, unit) in LIMIT_KEYS.items():
        value = c.get(table, key, int, None, f"{where}.{key}", minimum=1)
        if value is not None:
            changes[attribute] = value * unit
    return replace(base, **changes)


_ADDRESS = re.compile(r"^(?:(?:tcp|tls|ws|wss)://)?(?:\[[0-9a-fA-F:.]+\]|[^\s:/\[\]]+):\d{1,5}$")


def _parse_executor(c: _Checker, data: dict, executor: str | None, scheduler: str | None,
                    workers: int) -> tuple[str, str | None]:
    """``executor`` and ``scheduler`` (flags override the file); a scheduler
    alone selects Dask; ``--executor local`` sets a file's scheduler aside."""
    if scheduler is None and executor != "local":
        scheduler = c.get(data, "scheduler", str, None, "scheduler")
    if executor is None:
        default = "dask" if scheduler is not None else "local"
        executor = c.choice(data, "executor", EXECUTORS, default, "executor")
    elif executor not in EXECUTORS:
        c.error("executor", f"'{executor}' is not one of {', '.join(EXECUTORS)}")
        return "local", None
    if scheduler is not None:
        if not _ADDRESS.match(scheduler):
            c.error("scheduler", f"expected an address like tcp://HOST:PORT, got {scheduler!r}")
            scheduler = None
        elif executor != "dask":
            c.error("scheduler", f"a scheduler is for executor = 'dask', but the executor "
                                 f"is '{executor}'")
            scheduler = None
    if executor == "dask":
        if scheduler is None and workers == 0:
            c.error("workers", "executor 'dask' needs at least 1 worker (0 plays in this process)")
        if importlib.util.find_spec("distributed") is None:
            c.error("executor", "'dask' needs the distributed package: "
                                "pip install 'farm-arena[dask]'")
    return executor, scheduler


def _check_sandbox(c: _Checker, level: str) -> None:
    try:
        from arena.sandbox import LEVELS
    except ImportError:     # pragma: no cover - the referee checks it then
        return
    if level != "auto" and level not in LEVELS:
        c.error("sandbox", f"'{level}' is not one of auto, {', '.join(LEVELS)}")
    elif level == "strict":
        try:
            from arena.sandbox.layers import strict_available
        except ImportError:  # pragma: no cover
            return
        if not strict_available():
            c.error("sandbox", "level 'strict' needs bubblewrap with namespaces, not available "
                               "here (see `arena doctor`)")


def _entries(c: _Checker, raw: list, section: str, key: str, noun: str):
    """``(where, table)`` for each entry of a list whose entries are written
    as a bare string (the table's ``key``) or as a table."""
    for index, item in enumerate(raw):
        where = f"{section}[{index}]"
        if isinstance(item, str):
            item = {key: item}
        if not isinstance(item, dict):
            c.error(where, f"expected {noun} or a table, got {item!r}")
            continue
        yield where, item


def _parse_bots(c: _Checker, data: dict, registry, default_limits: ResourceLimits, results: str
                ) -> tuple[list[BotEntry], dict[str, ResourceLimits], dict[str, tuple[str, ...]]]:
    """The bots, each one's resource limits (``default_limits`` under its
    own ``limits`` table) and the extra paths it may read."""
    raw = c.get(data, "bots", list, [], "bots")
    if "bots" not in data:
        c.error("bots", "missing (list the bots that play)")
    bots: list[BotEntry] = []
    limits: dict[str, ResourceLimits] = {}
    files: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()
    for where, item in _entries(c, raw, "bots", "bot", "a bot name"):
        c.unknown(item, BOT_KEYS, f"{where}.")
        launch = c.get(item, "bot", str, None, f"{where}.bot")
        if launch is None:
            if "bot" not in item:
                c.error(f"{where}.bot", "missing (a registered bot name or 'cmd:COMMAND')")
            continue
        name = c.get(item, "name", str, launch, f"{where}.name")
        if not name.strip():
            c.error(f"{where}.name", "must not be empty")
            continue
        games = c.get(item, "games", list, None, f"{where}.games")
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
        settings = c.get(item, "settings", dict, None, f"{where}.settings")
        bots.append(BotEntry(name=name, bot=launch, games=tuple(games) if games else None,
                             settings=settings or None))
        limits[name] = _parse_limits(c, c.get(item, "limits", dict, {}, f"{where}.limits"),
                                     default_limits, f"{where}.limits")
        files[name] = _parse_files(c, c.get(item, "files", list, [], f"{where}.files"),
                                   results, f"{where}.files")
    return bots, limits, files


def _parse_files(c: _Checker, raw: list, results: str, where: str) -> tuple[str, ...]:
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
        elif real == store or store.startswith(real.rstrip("/") + "/") or real.startswith(store + "/"):
            c.error(f"{where}[{index}]", f"{item!r} would show the bot the results folder "
                    f"{results!r} (and its secret key)")
        else:
            paths.append(path)
    return tuple(paths)


def bot_plays(entry: BotEntry, spec: BotSpec, game_id: str) -> bool:
    if entry.games is not None and game_id not in entry.games:
        return False
    return spec.plays(game_id)


def _parse_games(c: _Checker, data: dict, registry, bots: list[BotEntry], deals: int,
                 seating: str, fmt: str) -> list[GameEntry]:
    raw = c.get(data, "games", list, [], "games")
    if "games" not in data:
        c.error("games", "missing (list the games to play)")
    elif not raw:
        c.error("games", "must list at least one game")
    games: list[GameEntry] = []
    seen: set[str] = set()
    names = {bot.name for bot in bots}
    for where, item in _entries(c, raw, "games", "id", "a game id"):
        c.unknown(item, GAME_KEYS, f"{where}.")
        game_id = c.get(item, "id", str, None, f"{where}.id")
        if game_id is None:
            if "id" not in item:
                c.error(f"{where}.id", "missing (the game's id)")
            continue
        try:
            engine = registry.engine(game_id)
        except LookupError as error:
            c.error(f"{where}.id", str(error))
            continue
        info = engine.info
        players = item.get("players", list(info.players))
        if isinstance(players, int) and not isinstance(players, bool):
            players = [players]
        if not (isinstance(players, list) and players
                and all(isinstance(p, int) and not isinstance(p, bool) for p in players)):
            c.error(f"{where}.players", f"expected a player count or a list of them, got {players!r}")
            players = []
        good_players = []
        for count in players:
            try:
                info.check_players(count)
                good_players.append(count)
            except GameError as error:
                c.error(f"{where}.players", str(error))
        options = c.get(item, "options", dict, {}, f"{where}.options")
        try:
            info.resolve_options(options)
        except GameError as error:
            c.error(f"{where}.options", str(error))
        game_deals = c.get(item, "deals", int, deals, f"{where}.deals", minimum=1)
        game_seating = c.choice(item, "seating", SEATINGS, seating, f"{where}.seating")
        if game_seating == "auto":
            game_seating = "permute" if info.teams == "fixed" else "rotate"
        repeats = c.get(item, "repeats", bool, None, f"{where}.repeats")
        chosen = c.get(item, "bots", list, None, f"{where}.bots")
        if chosen is not None:
            for name in chosen:
                if name not in names:
                    c.error(f"{where}.bots", f"'{name}' is not one of the bots' names")
            chosen = [name for name in chosen if name in names]
        entered = []
        for bot in bots:
            if chosen is not None and bot.name not in chosen:
                continue
            if bot_plays(bot, registry.bot(bot.bot), game_id):
                entered.append(bot.name)
            elif chosen is not None:
                c.error(f"{where}.bots", f"bot '{bot.name}' does not play '{game_id}'")
        if bots and not entered:
            c.error(where, f"no bot plays '{game_id}'")
        if fmt != "round-robin" and len(entered) < 2 and bots:
            c.error(where, f"format '{fmt}' needs at least two bots playing '{game_id}'")
        if entered and good_players and (repeats is False or fmt == "swiss"):
            most = max(good_players)
            if len(entered) < most:
                why = "format 'swiss'" if fmt == "swiss" else "repeats = false"
                c.error(where, f"{why} needs at least {most} bots playing '{game_id}' "
                               f"for {most} players, got {len(entered)}")
        key = f"{game_id}:{options}"
        if key in seen:
            c.error(f"{where}.id", f"'{game_id}' is listed twice with the same options")
        seen.add(key)
        games.append(GameEntry(
            id=game_id, players=tuple(good_players), options=dict(options),
            deals=game_deals, seating=game_seating, bots=tuple(entered), repeats=repeats,
        ))
    return games
