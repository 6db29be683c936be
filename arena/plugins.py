"""Hook specifications and the plugin host.

A plugin is any module named in the ``arena`` entry-point group; it implements
one or both hooks with ``@hookimpl``::

    from arena.plugins import hookimpl

    @hookimpl
    def register_games():
        return [MyEngine()]

    @hookimpl
    def register_bots():
        return [BotSpec("my-bot", games=("farm-hand",), entry="my_bot:Bot")]

The built-in games and bots register exactly this way, through the project's
own entry points.  Loading is per plugin: one that fails to import, raises from
a hook, returns the wrong type or reuses an id is reported in a one-line error
naming it, and every other plugin still loads.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points

import pluggy

from arena.bots import COMMAND_PREFIX, BotSpec, BotSpecError
from arena.game import Engine

GROUP = "arena"
hookspec = pluggy.HookspecMarker(GROUP)
hookimpl = pluggy.HookimplMarker(GROUP)


class HookSpecs:
    @hookspec
    def register_games(self) -> list[Engine]:
        """Game engines (instances of :class:`arena.game.Engine`) this plugin adds."""

    @hookspec
    def register_bots(self) -> list[BotSpec]:
        """Bots (:class:`arena.bots.BotSpec` launch specs) this plugin adds."""


class UnknownName(LookupError):
    """A game or bot name that no installed plugin provides."""

    def __str__(self) -> str:
        return self.args[0]


@dataclass
class Registry:
    """Every installed game and bot, which plugin gave each, and what failed."""

    games: dict[str, Engine] = field(default_factory=dict)
    bots: dict[str, BotSpec] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def engine(self, game_id: str) -> Engine:
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise UnknownName(f"unknown game '{game_id}' (installed: {known})") from None

    def bot(self, name: str) -> BotSpec:
        """A registered bot, or a spec made on the fly for ``cmd:...``."""
        if name.startswith(COMMAND_PREFIX):
            return BotSpec.from_command(name)
        try:
            return self.bots[name]
        except KeyError:
            known = ", ".join(sorted(self.bots)) or "none"
            raise UnknownName(f"unknown bot '{name}' (installed: {known})") from None

    def add_plugin(self, name: str, module: object) -> None:
        """Register one plugin module, recording (not raising) what is wrong."""
        manager = pluggy.PluginManager(GROUP)
        manager.add_hookspecs(HookSpecs)
        try:
            manager.register(module, name=name)
            games = _collect(manager.hook.register_games(), Engine)
            bots = _collect(manager.hook.register_bots(), BotSpec)
        except Exception as error:  # a broken plugin must not stop the others
            self.errors.append(f"plugin '{name}': {_one_line(error)}")
            return
        for engine in games:
            self._add("game", engine.info.id, engine, self.games, name)
        for bot in bots:
            self._add("bot", bot.name, bot, self.bots, name)

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


def _collect(results: list, kind: type) -> list:
    items = [item for result in results for item in (result or [])]
    for item in items:
        if not isinstance(item, kind):
            raise TypeError(f"hook returned {type(item).__name__}, expected {kind.__name__}")
    return items


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


def load(points: list[EntryPoint] | None = None) -> Registry:
    """Load every plugin of the ``arena`` entry-point group, each on its own."""
    registry = Registry()
    chosen = entry_points(group=GROUP) if points is None else points
    for point in sorted(chosen, key=lambda p: p.name):
        try:
            module = point.load()
        except Exception as error:
            dist = f" ({point.dist.name})" if getattr(point, "dist", None) else ""
            registry.errors.append(f"plugin '{point.name}'{dist}: {_one_line(error)}")
            continue
        registry.add_plugin(point.name, module)
    return registry


@functools.lru_cache(maxsize=1)
def installed() -> Registry:
    """The registry of this environment, loaded once per process."""
    return load()


__all__ = ["BotSpec", "BotSpecError", "Registry", "UnknownName", "hookimpl", "installed", "load"]
