"""The bot side of the wire: the loop every Python bot runs in.

A bot is a class with an ``act`` method::

    from arena.botkit import Bot

    class MyBot(Bot):
        def act(self, observation, legal, clock):
            return legal[0]

The referee starts it as ``python -m arena.botkit package.module:MyBot`` in a
sandboxed process of its own; this module then reads frames from stdin,
calls the hooks below and writes replies to stdout.  Anything the bot prints
must go to stderr (stdout is the wire), so ``print`` is redirected there.
"""

from __future__ import annotations

import importlib
import random
import sys

from arena import add_sites
from arena.botkit import protocol
from arena.botkit.clock import ChargedClock

TYPE_CHECKING = False  # typing is a large part of a bot's start-up: annotations only
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import IO, Any

    from arena.botkit.messages import Action, Ready


class Bot:
    """Override ``act``; the other hooks are optional.

    ``self.rng`` is the bot's own chance, provided by the kit: seeded from
    ``hello["seed"]`` before ``new_match`` and reseeded from the game's
    ``seed`` before every ``new_game``.  A bot that draws all its chance
    from it plays each game the same way whatever games its process played
    before, which is what makes a resumed tournament equal an uninterrupted
    one (a bot that learns across games gives that up)."""

    #: reported in the ready message
    name = ""
    version = "0"

    def __init__(self) -> None:
        self.rng = random.Random(0)  # until the referee's seeds arrive

    def new_match(self, hello: Mapping[str, Any]) -> None:
        """Once per match: ``hello`` has the game id, its options, the number
        of players, the time limits and a ``seed`` for the bot's own chance."""

    def new_game(self, game: Mapping[str, Any]) -> None:
        """Before each game of the match: ``game["seat"]`` is this bot's seat."""

    def act(self, observation: dict[str, Any], legal: list[Any], clock: ChargedClock) -> Any:
        """Return one element of ``legal``.  ``clock`` has ``move`` (seconds
        for this move) and ``bank`` (time bank left this game), and reads the
        time charged so far (``clock.used()``, ``clock.left()``, the cheap
        ``clock.cpu()``): budget thinking by it, not by the wall clock, which
        runs on while a loaded machine gives the bot no CPU."""
        raise NotImplementedError

    def game_over(self, result: Mapping[str, Any]) -> None:
        """After each game: final scores and ranks of every seat and this
        seat's final observation."""


def handle(bot: Bot, message: Mapping[str, Any]) -> Ready | Action | None:
    """Pass one referee message to the bot's hooks (seeding ``bot.rng`` as
    the class docstring says); return the reply it owes, if any."""
    kind = message["type"]
    if kind == protocol.HELLO:
        bot.rng = random.Random(message.get("seed"))
        bot.new_match(message)
        return {
            "type": protocol.READY,
            "name": bot.name or type(bot).__name__,
            "version": bot.version,
        }
    if kind == protocol.NEW_GAME:
        if "seed" in message:
            bot.rng.seed(message["seed"])
        bot.new_game(message)
    elif kind == protocol.ACT:
        return answer(bot, message)
    elif kind == protocol.GAME_OVER:
        bot.game_over(message)
    return None


def answer(bot: Bot, message: Mapping[str, Any]) -> Action:
    """The bot's reply to an ``act`` message."""
    return {
        "type": protocol.ACTION,
        "action": bot.act(message["observation"], message["legal"], ChargedClock(message["clock"])),
    }


def run(bot: Bot, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> None:
    """Serve the referee until goodbye or end of input."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    while (message := protocol.read_message(stdin)) is not None:
        if message["type"] == protocol.GOODBYE:
            return
        reply = handle(bot, message)
        if reply is not None:
            protocol.write_message(stdout, reply)


def load(entry: str) -> Bot:
    module_name, _, class_name = entry.partition(":")
    bot: Bot = getattr(importlib.import_module(module_name), class_name)()
    return bot


def main(argv: list[str] | None = None) -> None:
    """``python -m arena.botkit [--path FOLDER] package.module:BotClass``:
    ``--path`` puts a folder first on the import path (a wheel installed
    for one ladder version, :mod:`arena.ladder.wheels`)."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) == 3 and argv[0] == "--path":
        sys.path.insert(0, argv[1])
        argv = argv[2:]
    if len(argv) != 1 or ":" not in argv[0]:
        sys.exit("usage: python -m arena.botkit [--path FOLDER] package.module:BotClass")
    add_sites()  # where the bot's distribution may be installed
    wire = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the wire
    run(load(argv[0]), stdout=wire)


__all__ = ["Bot", "ChargedClock", "answer", "handle", "load", "main", "run"]
