"""farm-arena: a tournament arena for card-game AI bots."""

__version__ = "0.1.0"

#: the arena's own distribution: its plugins are trusted, and a bot sees of it
#: only the bot kit, the engines and the built-in bots
DISTRIBUTION = "farm-arena"
