"""Registers Hand and Foot with the arena (entry point ``hand-and-foot``): its unit and
the bots written for it alone (launch specs: no bot code is imported)."""

from arena.plugins.botspec import BotSpec
from arena.plugins import hookimpl
from engines.hand_and_foot.unit import UNIT


@hookimpl
def register_games():
    return [UNIT]


@hookimpl
def register_bots():
    return [
        BotSpec("hand-and-foot-builder", games=("hand-and-foot",),
                entry="bots.hand_and_foot:BuilderBot", version="1.0",
                description="meets the initial meld, builds clean and dirty books, spends wilds "
                "sparingly, takes the pile when it pays, goes out as soon as it can"),
    ]
