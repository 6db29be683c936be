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
