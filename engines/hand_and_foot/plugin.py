"""Registers Hand and Foot with the arena (entry point ``hand-and-foot``): its unit."""

from arena.plugins import hookimpl
from engines.hand_and_foot.game import UNIT


@hookimpl
def register_games():
    return [UNIT]
