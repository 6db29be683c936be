"""The built-in game engines, one package per game: rules only, no I/O.

:func:`engine_for` makes one by game id without the plugin host: a bot's
strict sandbox shows it the engines but not the referee's plugin machinery
(search bots and trained policies need the rules engine of their game)."""

from __future__ import annotations

import importlib

#: game id -> the engine class, as ``module:Class``
BUILT_IN = {
    "farm-and-furious": "engines.farm_and_furious.game:FarmAndFurious",
    "farm-hand": "engines.farm_hand.game:FarmHand",
    "vegetables": "engines.vegetables.game:Vegetables",
    "dou-dizhu": "engines.dou_dizhu.game:DouDizhu",
    "hand-and-foot": "engines.hand_and_foot.game:HandAndFoot",
}


def engine_for(game_id: str):
    """A new engine of ``game_id``: a built-in one made directly, any other
    from the installed plugins (which a sandboxed bot cannot reach)."""
    target = BUILT_IN.get(game_id)
    if target is None:
        from arena.plugins import installed
        return installed().engine(game_id)
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)()


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
