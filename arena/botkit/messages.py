"""The wire messages as ``TypedDict`` schemas, key for key the tables of
``docs/protocol.md`` (a test holds them to it), so a type checker sees a
misspelt key in the referee, check-bot or a bot before a bot does.

They live apart from :mod:`arena.botkit.protocol` because ``typing`` (with the
``re`` and ``enum`` it imports) is a large part of every bot process's
start-up (docs/performance.md), and a bot never needs them at run time.  It imports nothing
of the arena (the protocol imports it for type checkers only); the tests hold
its message types to the protocol's names.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class Limits(TypedDict):
    """``hello``'s time control, in seconds."""

    startup: float
    move: float
    bank: float


class Hello(TypedDict):
    type: Literal["hello"]
    protocol: int
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    limits: Limits
    settings: dict[str, Any]


class _ReadyType(TypedDict):
    type: Literal["ready"]


class Ready(_ReadyType, total=False):
    """``name`` and ``version`` are optional (``NotRequired`` would be lost
    to this module's postponed annotations on Python 3.11)."""

    name: str
    version: str


class NewGame(TypedDict):
    type: Literal["new_game"]
    index: int
    seat: int
    players: int
    seed: int


class Clock(TypedDict):
    """``act``'s clock: seconds for this move, and left in the game's bank."""

    move: float
    bank: float


class Act(TypedDict):
    type: Literal["act"]
    observation: dict[str, Any]
    legal: list[Any]
    clock: Clock


class Action(TypedDict):
    type: Literal["action"]
    action: str | int


class GameOver(TypedDict):
    type: Literal["game_over"]
    seat: int
    scores: list[float]
    ranks: list[int]
    observation: dict[str, Any]


class Goodbye(TypedDict):
    type: Literal["goodbye"]


#: every message by its type, each way (what the documentation's tables list)
TO_BOT: dict[str, type] = {
    "hello": Hello,
    "new_game": NewGame,
    "act": Act,
    "game_over": GameOver,
    "goodbye": Goodbye,
}
FROM_BOT: dict[str, type] = {"ready": Ready, "action": Action}
