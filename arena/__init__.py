"""farm-arena: a tournament arena for card-game AI bots."""

__version__ = "0.1.0"

#: the arena's own distribution: its plugins are trusted, and a bot sees of it
#: only the bot kit, the engines and the built-in bots
DISTRIBUTION = "farm-arena"

#: names, to a bot's or plugin host's interpreter, the site folders the
#: arena's process added at run time (arena.sandbox.view.run_time_sites)
SITES_VARIABLE = "ARENA_SITES"


def add_sites() -> None:
    """Add the site folders named in :data:`SITES_VARIABLE`, as site
    folders (``.pth`` files and all): in a bot's or plugin host's fresh
    interpreter, where the distribution it runs may be installed there."""
    import os
    import site
    import sys

    for folder in os.environ.get(SITES_VARIABLE, "").split(os.pathsep):
        if folder and folder not in sys.path:
            site.addsitedir(folder)
