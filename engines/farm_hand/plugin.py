"""Registers Farm Hand with the arena (entry point ``farm-hand``): its unit."""

from arena.plugins import hookimpl
from engines.farm_hand.game import UNIT


@hookimpl
def register_games():
    return [UNIT]
