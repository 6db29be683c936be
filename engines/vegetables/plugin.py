"""Registers VEGEtables with the arena (entry point ``vegetables``): its unit and
the bots written for it alone (launch specs: no bot code is imported)."""

from arena.plugins.botspec import BotSpec
from arena.plugins import hookimpl
from engines.vegetables.unit import UNIT


@hookimpl
def register_games():
    return [UNIT]


@hookimpl
def register_bots():
    return [
        BotSpec("vegetables-planner", games=("vegetables",), entry="bots.vegetables:PlannerBot",
                version="1.0", description="turn planner: block chances, reserves and runs of "
                "own cards, opponent options"),
    ]
