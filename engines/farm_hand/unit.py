"""Farm Hand as one unit: its engine and the parts the other layers plug in
(what a bot's process imports to find them: no plugin machinery here)."""

from arena.game import GameUnit
from engines.farm_hand.game import FarmHand

UNIT = GameUnit(
    FarmHand(),
    encoding="engines.farm_hand.encoding:FarmHandEncoding",
    knowledge="bots.ismcts.farm_hand:KNOWLEDGE",
    view="engines.farm_hand.view:FarmHandView",
    rules="../../docs/games/farm-hand.md",
)
