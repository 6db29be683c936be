"""Registers Farm Hand with the arena (entry point ``farm-hand``): its unit and
the bots written for it alone (launch specs: no bot code is imported)."""

from arena.plugins.botspec import BotSpec
from arena.plugins import hookimpl
from engines.farm_hand.unit import UNIT


@hookimpl
def register_games():
    return [UNIT]


@hookimpl
def register_bots():
    return [
        BotSpec("farm-hand-counter", games=("farm-hand",), entry="bots.farm_hand:CounterBot",
                version="1.0", description="Monte Carlo over the hidden numbers (known suits "
                "and dummy order kept); bids and plays for its exact bid"),
    ]
