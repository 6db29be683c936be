"""Registers Dou Dizhu with the arena (entry point ``dou-dizhu``): its unit and
the bots written for it alone (launch specs: no bot code is imported)."""

from arena.plugins.botspec import BotSpec
from arena.plugins import hookimpl
from engines.dou_dizhu.unit import UNIT


@hookimpl
def register_games():
    return [UNIT]


@hookimpl
def register_bots():
    return [
        BotSpec("dou-dizhu-greedy", games=("dou-dizhu",), entry="bots.dou_dizhu:GreedyBot",
                version="1.0", description="hand-plan heuristic: bids by strength, sheds in "
                "fewest plays, keeps bombs, peasants cooperate"),
    ]
