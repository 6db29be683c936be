"""VEGEtables as one unit: its engine and the parts the other layers plug in
(what a bot's process imports to find them: no plugin machinery here)."""

from arena.game import GameUnit
from engines.vegetables.game import Vegetables

UNIT = GameUnit(
    Vegetables(),
    encoding="engines.vegetables.encoding:VegetablesEncoding",
    knowledge="bots.ismcts.vegetables:KNOWLEDGE",
    view="engines.vegetables.view:VegetablesView",
    rules="../../docs/games/vegetables.md",
)
