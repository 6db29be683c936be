"""Registers VEGEtables with the arena (entry point ``vegetables``)."""

from arena.plugins import hookimpl
from engines.vegetables.game import Vegetables


@hookimpl
def register_games():
    return [Vegetables()]
