"""Registers the built-in bots that play any game (entry point
``builtin-bots``); a bot written for one game is registered by that game's
plugin (``engines/<game>/plugin.py``).

Only launch specs live here: importing this module never imports bot code.
"""

from arena.plugins.botspec import BotSpec
from arena.plugins import hookimpl


@hookimpl
def register_bots():
    return [
        BotSpec("random", entry="bots.random_bot:RandomBot", version="1.0",
                description="uniformly random legal actions, seeded"),
        BotSpec("ismcts", entry="bots.ismcts.bot:IsmctsBot", version="1.0",
                description="information-set Monte Carlo tree search over sampled hidden "
                "states, any game; settings in docs/bots.md"),
    ]
