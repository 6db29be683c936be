"""Registers example-bot with the arena (the "arena" entry point in pyproject.toml).

Only the launch spec lives here.  The arena imports this module to list the
bot (`arena bots`) but never imports the bot class: the referee starts it in
a sandboxed process of its own, as `python -m arena.botkit example_bot.bot:ExampleBot`.
So keep this module free of heavy imports, and do not import .bot here.
"""

from importlib.metadata import PackageNotFoundError, version

from arena.plugins.botspec import BotSpec
from arena.plugins import hookimpl

#: the game ids this bot plays ("*": every game); see `arena games`
GAMES = ('*',)

try:
    VERSION = version("example-bot")
except PackageNotFoundError:  # not installed (run from a source checkout)
    VERSION = "0"


@hookimpl
def register_bots():
    """The bots this plugin adds to the arena (a list: a plugin may add several)."""
    return [
        BotSpec(
            "example-bot",
            games=GAMES,
            entry="example_bot.bot:ExampleBot",
            version=VERSION,
            description="the example standalone bot distribution (seeded random legal actions)",
        )
    ]
