"""Registers Dou Dizhu with the arena (entry point ``dou-dizhu``)."""

from arena.plugins import hookimpl
from engines.dou_dizhu.game import DouDizhu


@hookimpl
def register_games():
    return [DouDizhu()]
