"""Registers Farm Hand with the arena (entry point ``farm-hand``)."""

from arena.plugins import hookimpl
from engines.farm_hand.game import FarmHand


@hookimpl
def register_games():
    return [FarmHand()]
