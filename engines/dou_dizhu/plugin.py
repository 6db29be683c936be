"""Registers Dou Dizhu with the arena (entry point ``dou-dizhu``): its unit."""

from arena.plugins import hookimpl
from engines.dou_dizhu.game import UNIT


@hookimpl
def register_games():
    return [UNIT]
