"""farm-arena: a tournament arena for card-game AI bots."""

__version__ = "0.1.0"
