"""Registers the built-in bots (entry point ``builtin-bots``).

Only launch specs live here: importing this module never imports bot code.
"""

from arena.bots import BotSpec
from arena.plugins import hookimpl


@hookimpl
def register_bots():
    return [
        BotSpec("random", entry="bots.random_bot:RandomBot", version="1.0",
                description="uniformly random legal actions, seeded"),
        BotSpec("farm-and-furious-racer", games=("farm-and-furious",),
                entry="bots.farm_and_furious:Racer", version="1.0",
                description="expected-advance heuristic against the hands it can deduce"),
    ]
