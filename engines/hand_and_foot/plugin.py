"""Registers Hand and Foot with the arena (entry point ``hand-and-foot``)."""

from arena.plugins import hookimpl
from engines.hand_and_foot.game import HandAndFoot


@hookimpl
def register_games():
    return [HandAndFoot()]
