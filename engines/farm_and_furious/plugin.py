"""Registers Farm & Furious with the arena (entry point ``farm-and-furious``): its unit."""

from arena.plugins import hookimpl
from engines.farm_and_furious.game import UNIT


@hookimpl
def register_games():
    return [UNIT]
