"""Registers Farm & Furious with the arena (entry point ``farm-and-furious``): its unit and
the bots written for it alone (launch specs: no bot code is imported)."""

from arena.plugins.botspec import BotSpec
from arena.plugins import hookimpl
from engines.farm_and_furious.unit import UNIT


@hookimpl
def register_games():
    return [UNIT]


@hookimpl
def register_bots():
    return [
        BotSpec("farm-and-furious-racer", games=("farm-and-furious",),
                entry="bots.farm_and_furious:Racer", version="1.0",
                description="expected-advance heuristic against the hands it can deduce"),
        BotSpec("farm-and-furious-learned", games=("farm-and-furious",),
                entry="bots.farm_and_furious_learned:LearnedBot", version="1.0",
                description="tabular policy trained on arena.rl's environment (docs/rl.md); "
                "needs the rl extra"),
    ]
