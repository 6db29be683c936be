"""Dou Dizhu as one unit: its engine and the parts the other layers plug in
(what a bot's process imports to find them: no plugin machinery here)."""

from arena.game import GameUnit
from engines.dou_dizhu.game import DouDizhu

UNIT = GameUnit(
    DouDizhu(),
    encoding="engines.dou_dizhu.encoding:DouDizhuEncoding",
    knowledge="bots.ismcts.dou_dizhu:KNOWLEDGE",
    view="engines.dou_dizhu.view:DouDizhuView",
    rules="../../docs/games/dou-dizhu.md",
)
