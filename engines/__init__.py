"""The built-in game engines, one package per game: its rules and its unit
(``game.py``: no I/O; ``UNIT``, the engine and the parts other layers plug
in, :class:`arena.game.GameUnit`), its plugin (``plugin.py``: registers the
unit) and two of those parts (``encoding.py``, ``view.py``).

:func:`unit_for` finds a game's unit without the plugin host: a bot's strict
sandbox shows it the engines but not the referee's plugin machinery (search
bots and trained policies need the rules engine of their game and its
parts)."""

from __future__ import annotations

import importlib

#: ``typing.TYPE_CHECKING`` without importing :mod:`typing` (as
#: :mod:`arena.game` does): a bot of a game's cards alone imports this
#: package, and neither the engine contract nor typing
TYPE_CHECKING = False
if TYPE_CHECKING:
    from arena.game import Engine, GameUnit


def unit_for(game_id: str) -> GameUnit:
    """The unit of ``game_id``: a built-in game's from its package here (the
    game id with ``_`` for ``-``), any other from the installed plugins
    (which a sandboxed bot cannot reach); ``arena.plugins.UnknownName`` if
    no plugin has it."""
    from importlib.util import find_spec

    package = game_id.replace("-", "_")
    if package.isidentifier() and find_spec(f"{__name__}.{package}") is not None:
        return importlib.import_module(f"{__name__}.{package}.game").UNIT
    from arena.plugins import installed

    return installed().unit(game_id)


def built_in_unit(engine: Engine, *, knowledge: bool = True) -> GameUnit:
    """A built-in game's unit: its parts where every built-in game keeps
    them -- ``engines/<game>/encoding.py``'s ``<Engine>Encoding`` and
    ``view.py``'s ``<Engine>View``, ``drawing.py``'s ``<Engine>Drawing``, the search bot's ``KNOWLEDGE`` in
    ``bots/ismcts/<game>.py`` (unless ``knowledge`` is false) and the rules
    page ``docs/games/<id>.md``.  A game of another distribution names its
    parts itself (:class:`arena.game.GameUnit`); ``check_unit`` checks both."""
    from arena.game import GameUnit

    package, _, _ = type(engine).__module__.rpartition(".")
    name = type(engine).__name__
    return GameUnit(
        engine,
        encoding=f"{package}.encoding:{name}Encoding",
        knowledge=f"bots.ismcts.{package.rpartition('.')[2]}:KNOWLEDGE" if knowledge else "",
        view=f"{package}.view:{name}View",
        drawing=f"{package}.drawing:{name}Drawing",
        rules=f"../../docs/games/{engine.info.id}.md",
    )


def lazy_exports(package: str, module: str, names: tuple[str, ...]):
    """A package's ``__getattr__`` (PEP 562) that imports ``names`` from its
    ``module`` on first use: a bot that needs only a game's cards or move
    tables (``bots/hand_and_foot.py``, ``bots/dou_dizhu.py``) then does not
    import its rules engine and the engine contract at every start-up (a
    tournament starts a bot process per entrant of every seating's block)."""

    def __getattr__(name: str):
        if name in names:
            return getattr(importlib.import_module(f"{package}.{module}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
