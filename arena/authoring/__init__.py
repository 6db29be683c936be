"""Tools for bot authors: a new bot"s package and the check of a bot.

:mod:`.newbot` renders a bot distribution from ``newbot-templates/``;
:mod:`.checkbot` plays a bot through every stage of the protocol and reports
what it got wrong.
"""

__all__ = ["checkbot", "newbot"]
