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
