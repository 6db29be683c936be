"""Farm & Furious as one unit: its engine and the parts the other layers plug in
(what a bot's process imports to find them: no plugin machinery here)."""

from arena.game import GameUnit
from engines.farm_and_furious.game import FarmAndFurious

UNIT = GameUnit(
    FarmAndFurious(),
    encoding="engines.farm_and_furious.encoding:FarmAndFuriousEncoding",
    view="engines.farm_and_furious.view:FarmAndFuriousView",
    rules="../../docs/games/farm-and-furious.md",
)
