"""Hand and Foot as one unit: its engine and the parts the other layers plug in
(what a bot's process imports to find them: no plugin machinery here)."""

from arena.game import GameUnit
from engines.hand_and_foot.game import HandAndFoot

UNIT = GameUnit(
    HandAndFoot(),
    encoding="engines.hand_and_foot.encoding:HandAndFootEncoding",
    knowledge="bots.ismcts.hand_and_foot:KNOWLEDGE",
    view="engines.hand_and_foot.view:HandAndFootView",
    rules="../../docs/games/hand-and-foot.md",
)
