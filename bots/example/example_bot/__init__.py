"""example-bot: a bot for the farm-arena card-game arena.

``plugin.py`` registers it with the arena; ``bot.py`` is the bot.
"""
