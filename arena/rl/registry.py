"""Which encoding a game uses: the built-in five here, plugin games through
the ``arena.rl`` entry-point group (name: the game id, value:
``module:EncodingClass``), so a plugin game gets environments too."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any

from arena.game import Engine
from arena.rl.encoding import Encoding, EncodingError

GROUP = "arena.rl"
BUILT_IN = {
    "farm-and-furious": "arena.rl.games.farm_and_furious:FarmAndFuriousEncoding",
    "farm-hand": "arena.rl.games.farm_hand:FarmHandEncoding",
    "vegetables": "arena.rl.games.vegetables:VegetablesEncoding",
    "dou-dizhu": "arena.rl.games.dou_dizhu:DouDizhuEncoding",
    "hand-and-foot": "arena.rl.games.hand_and_foot:HandAndFootEncoding",
}


#: the built-in games' engines, importable without the plugin host (a bot's
#: sandbox has the engines but not the referee's plugin machinery)
BUILT_IN_ENGINES = {
    "farm-and-furious": "engines.farm_and_furious.game:FarmAndFurious",
    "farm-hand": "engines.farm_hand.game:FarmHand",
    "vegetables": "engines.vegetables.game:Vegetables",
    "dou-dizhu": "engines.dou_dizhu.game:DouDizhu",
    "hand-and-foot": "engines.hand_and_foot.game:HandAndFoot",
}


def engine_for(game_id: str) -> Engine:
    """The engine of ``game_id``: a built-in one imported directly, any other
    through the installed plugins."""
    target = BUILT_IN_ENGINES.get(game_id)
    if target is None:
        from arena.plugins import installed
        return installed().engine(game_id)
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)()


def encoding_for(engine: Engine, players: int,
                 options: Mapping[str, Any] | None = None) -> Encoding:
    """The encoding of ``engine``'s game for a table of ``players``."""
    game_id = engine.info.id
    target = BUILT_IN.get(game_id)
    if target is None:
        found = [point for point in entry_points(group=GROUP) if point.name == game_id]
        if not found:
            raise EncodingError(f"game '{game_id}' has no RL encoding (a plugin adds one "
                                f"under the '{GROUP}' entry-point group)")
        target = found[0].value
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)(engine, players, options)
