"""What a bot did wrong, as a value: the kind of fault, and where it was.

A fault is data, never text to be parsed: its kind (:class:`FaultKind`, the
strings stored in every game record), the message the bot was handling when
the fault was found (:class:`Stage`), its move in the game, and a one-line
detail for people.  The pipes (:mod:`arena.match.connection`) know only kind and
detail; the bot's session (:mod:`arena.match.session`) adds where.  The referee
stores kind and detail (:mod:`arena.records`); ``arena check-bot`` reads the
stage and move to show the message the bot was sent.

A leaf module (the standard library and :mod:`arena.botkit.protocol` only), so the
pipes, the referee, the records and check-bot share one vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from arena.botkit import protocol


class FaultKind(StrEnum):
    """The kinds of fault (docs/protocol.md, "Faults"), in the order they are
    reported.  Each member is its string, so records stored before this type
    existed read the same."""

    TIMEOUT = "timeout"
    CRASH = "crash"
    PROTOCOL = "protocol"
    ILLEGAL = "illegal"


class Stage(StrEnum):
    """The message a bot was last sent when its fault was found: the one it
    was answering (``hello``, ``act``) or handling.  ``hello`` is start-up as
    a whole, the process's launch included."""

    HELLO = protocol.HELLO
    NEW_GAME = protocol.NEW_GAME
    ACT = protocol.ACT
    GAME_OVER = protocol.GAME_OVER


@dataclass(frozen=True)
class Fault:
    """Why a bot gave no usable answer, and where.

    ``stage`` and ``move`` are None for a fault the pipes found, before a
    session placed it.  ``move`` is the number of ``act`` messages the bot
    had been sent in the game: at stage ``act``, the number of the move it
    was answering (1 for its first).
    """

    kind: FaultKind
    detail: str
    stage: Stage | None = None
    move: int | None = None
