"""Registers Farm & Furious with the arena (entry point ``farm-and-furious``)."""

from arena.plugins import hookimpl
from engines.farm_and_furious.game import FarmAndFurious


@hookimpl
def register_games():
    return [FarmAndFurious()]
