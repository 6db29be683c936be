"""Registers VEGEtables with the arena (entry point ``vegetables``): its unit."""

from arena.plugins import hookimpl
from engines.vegetables.game import UNIT


@hookimpl
def register_games():
    return [UNIT]
