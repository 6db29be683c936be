"""Hook specifications and the plugin host.

A plugin is any module named in the ``arena`` entry-point group; it implements
one or both hooks with ``@hookimpl``::

    from arena.plugins import hookimpl

    @hookimpl
    def register_games():
        return [GameUnit(MyEngine(), encoding="my_game.rl:MyEncoding")]

    @hookimpl
    def register_bots():
        return [BotSpec("my-bot", games=("farm-hand",), entry="my_bot:Bot")]

A game registers as one :class:`~arena.game.GameUnit`: its engine and the
parts other layers plug in (RL encoding, search knowledge, terminal view,
rules page); a plain :class:`~arena.game.Engine` is a unit with no parts.  A
game's plugin registers the bots written for it alone beside it, so a game
is one package and one registration.  The built-in games and bots register
exactly this way, through the project's own entry points.  Loading is per plugin: one that fails to import, raises from
a hook, returns the wrong type or reuses an id is reported in a one-line error
naming it, and every other plugin still loads.

Who is trusted: game engines are code the operator chose to install, bots are
not.  The arena's own distribution and plugins in the ``arena.engines`` group
(third-party games) are imported here.  Every other distribution's ``arena``
plugins are bot plugins: they are loaded in a sandboxed child process
(:mod:`arena.plugins.sandboxed`) that returns their launch specs as plain data,
so this process never imports a third-party bot module; such a plugin may not
add games.  An :class:`EntryPoint` made by the caller, with no distribution,
is the caller's to trust and is imported here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points

import pluggy

from arena import DISTRIBUTION
from arena.game import Engine, GameUnit
from arena.plugins.botspec import COMMAND_PREFIX, BotSpec, BotSpecError

GROUP = "arena"
#: third-party game engines: trusted, imported in the arena process
ENGINE_GROUP = "arena.engines"
hookspec = pluggy.HookspecMarker(GROUP)
hookimpl = pluggy.HookimplMarker(GROUP)


class HookSpecs:
    @hookspec
    def register_games(self) -> list[GameUnit | Engine]:
        """Games this plugin adds: each a :class:`arena.game.GameUnit` (or
        an :class:`arena.game.Engine`, a unit with no parts)."""
        raise NotImplementedError  # a specification: pluggy calls the plugins' hooks

    @hookspec
    def register_bots(self) -> list[BotSpec]:
        """Bots (:class:`arena.plugins.botspec.BotSpec` launch specs) this plugin adds."""
        raise NotImplementedError  # a specification, as register_games


class UnknownName(LookupError):
    """A game or bot name that no installed plugin provides."""

    def __str__(self) -> str:
        return self.args[0]


@dataclass
class Registry:
    """Every installed game (as its unit) and bot, which plugin gave each,
    and what failed."""

    units: dict[str, GameUnit] = field(default_factory=dict)
    bots: dict[str, BotSpec] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    #: names of the bots third-party plugins registered (found in the sandbox)
    found: set[str] = field(default_factory=set)

    @property
    def games(self) -> dict[str, Engine]:
        """The installed games' engines, by game id."""
        return {game_id: unit.engine for game_id, unit in self.units.items()}

    def unit(self, game_id: str) -> GameUnit:
        try:
            return self.units[game_id]
        except KeyError:
            known = ", ".join(sorted(self.units)) or "none"
            raise UnknownName(f"unknown game '{game_id}' (installed: {known})") from None

    def engine(self, game_id: str) -> Engine:
        return self.unit(game_id).engine

    def bot(self, name: str) -> BotSpec:
        """A registered bot, or a spec made on the fly for ``cmd:...``."""
        if name.startswith(COMMAND_PREFIX):
            return BotSpec.from_command(name)
        try:
            return self.bots[name]
        except KeyError:
            known = ", ".join(sorted(self.bots)) or "none"
            raise UnknownName(f"unknown bot '{name}' (installed: {known})") from None

    def submitted(self, name: str) -> bool:
        """Whether bot ``name`` is untrusted code: a ``cmd:`` line or a
        third-party plugin's bot (not one of a plugin this process imports)."""
        return name.startswith(COMMAND_PREFIX) or name in self.found or name not in self.bots

    def add_plugin(self, name: str, module: object) -> None:
        """Register one plugin module, recording (not raising) what is wrong."""
        manager = pluggy.PluginManager(GROUP)
        manager.add_hookspecs(HookSpecs)
        try:
            manager.register(module, name=name)
            units = [
                _as_unit(item)
                for item in _collect(manager.hook.register_games(), (GameUnit, Engine))
            ]
            bots = _collect(manager.hook.register_bots(), BotSpec)
        except Exception as error:  # a broken plugin must not stop the others
            self.errors.append(f"plugin '{name}': {one_line(error)}")
            return
        for unit in units:
            self._add("game", unit.id, unit, self.units, name)
        for bot in bots:
            self._add("bot", bot.name, bot, self.bots, name)

    def add_bot(self, plugin: str, spec: BotSpec) -> None:
        """Register a launch spec found by a sandboxed plugin."""
        self._add("bot", spec.name, spec, self.bots, plugin)
        self.found.add(spec.name)

    def _add(self, kind: str, key: str, value, table: dict, plugin: str) -> None:
        origin_key = f"{kind}:{key}"
        if key in table:
            self.errors.append(
                f"plugin '{plugin}': {kind} '{key}' is already registered by "
                f"plugin '{self.origin[origin_key]}'; ignored"
            )
            return
        table[key] = value
        self.origin[origin_key] = plugin


def _collect(results: list, kind: type | tuple[type, ...]) -> list:
    items = [item for result in results for item in (result or [])]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for item in items:
        if not isinstance(item, kinds):
            expected = " or ".join(k.__name__ for k in kinds)
            raise TypeError(f"hook returned {type(item).__name__}, expected {expected}")
    return items


def _as_unit(item: GameUnit | Engine) -> GameUnit:
    """A registered game as its unit (an engine alone: a unit with no parts)."""
    if isinstance(item, Engine):
        return GameUnit(item)
    if not isinstance(item.engine, Engine):
        raise TypeError(f"game unit's engine is {type(item.engine).__name__}, expected Engine")
    return item


def one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


def trusted(point: EntryPoint) -> bool:
    """Whether ``point`` is imported in this process (see the module's doc)."""
    from packaging.utils import canonicalize_name

    dist = getattr(point, "dist", None)
    return (
        dist is None or point.group == ENGINE_GROUP or canonicalize_name(dist.name) == DISTRIBUTION
    )


def sandboxed_distributions() -> list[str]:
    """Installed distributions whose plugins register in the plugin sandbox."""
    return sorted(
        {p.dist.name for p in entry_points(group=GROUP) if p.dist is not None and not trusted(p)}
    )


def load(points: list[EntryPoint] | None = None) -> Registry:
    """Load every plugin of the ``arena`` and ``arena.engines`` groups, each
    on its own; third-party bot plugins in the sandbox."""
    registry = Registry()
    if points is None:
        points = list(entry_points(group=GROUP)) + list(entry_points(group=ENGINE_GROUP))
    untrusted: set[str] = set()
    for point in sorted(points, key=lambda p: p.name):
        if point.dist is not None and not trusted(point):
            untrusted.add(point.dist.name)
            continue
        try:
            module = point.load()
        except Exception as error:
            dist = f" ({point.dist.name})" if point.dist is not None else ""
            registry.errors.append(f"plugin '{point.name}'{dist}: {one_line(error)}")
            continue
        registry.add_plugin(point.name, module)
    if untrusted:
        from arena.plugins.sandboxed import discover

        for dist, found in sorted(discover(sorted(untrusted)).items()):
            registry.errors += found.errors
            for plugin, spec in found.bots:
                registry.add_bot(f"{plugin} ({dist})", spec)
    return registry


@functools.lru_cache(maxsize=1)
def installed() -> Registry:
    """The registry of this environment, loaded once per process."""
    return load()


__all__ = [
    "GROUP",
    "BotSpec",
    "BotSpecError",
    "GameUnit",
    "Registry",
    "UnknownName",
    "hookimpl",
    "installed",
    "load",
    "one_line",
    "sandboxed_distributions",
    "trusted",
]
