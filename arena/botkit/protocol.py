"""The wire format between the referee and a bot (``docs/protocol.md``).

A frame is a 4-byte big-endian unsigned length followed by that many bytes of
one msgpack map.  Every message has a ``"type"``.  The referee checks a frame's
length against its cap *before* reading or decoding the body, so a bot cannot
make the referee buffer a 2 GiB message.

Each message has a ``TypedDict`` in :mod:`arena.botkit.messages`, key for key the
tables of ``docs/protocol.md``; this module does not import them, so that a
bot's start-up does not pay for ``typing``.
"""

from __future__ import annotations

import struct

import msgpack

#: the typing names below are for type checkers only (``typing`` is not
#: imported at run time: see :mod:`arena.botkit.messages`)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import IO, Any, Final

    from arena.botkit.messages import Act, GameOver, Goodbye, Hello, Limits, NewGame

PROTOCOL_VERSION = 1
HEADER = struct.Struct(">I")
#: the largest frame the referee accepts from a bot (actions are tiny)
MAX_BOT_FRAME = 1 << 20

# referee -> bot
HELLO: Final = "hello"
NEW_GAME: Final = "new_game"
ACT: Final = "act"
GAME_OVER: Final = "game_over"
GOODBYE: Final = "goodbye"
# bot -> referee
READY: Final = "ready"
ACTION: Final = "action"


class ProtocolError(Exception):
    """A frame that is oversized, undecodable or not the expected message."""


def hello(
    game: str,
    options: dict[str, Any],
    players: int,
    seed: int,
    limits: Limits,
    settings: dict[str, Any] | None = None,
) -> Hello:
    """Once per match, before any game; the bot answers ``ready``.
    ``settings`` is the bot's own table from the tournament file (its meaning
    is the bot's business; empty when none was given)."""
    return {
        "type": HELLO,
        "protocol": PROTOCOL_VERSION,
        "game": game,
        "options": options,
        "players": players,
        "seed": seed,
        "limits": limits,
        "settings": settings or {},
    }


def new_game(index: int, seat: int, players: int, seed: int) -> NewGame:
    """Before each game of the match; no answer.  ``seed`` is this seat's own
    seed for this game: a bot that draws its chance from it plays the same
    game the same way whatever it played before."""
    return {"type": NEW_GAME, "index": index, "seat": seat, "players": players, "seed": seed}


def act(observation: dict[str, Any], legal: list[Any], move: float, bank: float) -> Act:
    """The bot must answer ``action`` with one element of ``legal``."""
    return {
        "type": ACT,
        "observation": observation,
        "legal": legal,
        "clock": {"move": move, "bank": bank},
    }


def game_over(
    seat: int, scores: list[float], ranks: list[int], observation: dict[str, Any]
) -> GameOver:
    """After each game; no answer."""
    return {
        "type": GAME_OVER,
        "seat": seat,
        "scores": scores,
        "ranks": ranks,
        "observation": observation,
    }


def goodbye() -> Goodbye:
    """At the end of the match; no answer, the bot exits."""
    return {"type": GOODBYE}


def encode(message: Mapping[str, Any]) -> bytes:
    body: bytes = msgpack.packb(message)
    return HEADER.pack(len(body)) + body


def decode(body: bytes) -> dict[str, Any]:
    try:
        message = msgpack.unpackb(body, strict_map_key=False)
    except Exception as error:
        raise ProtocolError(f"undecodable msgpack ({type(error).__name__})") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError("frame is not a map with a 'type'")
    return message


class FrameReader:
    """Splits a byte stream into messages as bytes arrive (non-blocking side)."""

    def __init__(self, cap: int = MAX_BOT_FRAME):
        self.cap = cap
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        self._buffer += data
        messages = []
        while len(self._buffer) >= HEADER.size:
            (length,) = HEADER.unpack_from(self._buffer)
            if length > self.cap:
                raise ProtocolError(f"frame of {length} bytes exceeds the cap of {self.cap}")
            end = HEADER.size + length
            if len(self._buffer) < end:
                break
            messages.append(decode(bytes(self._buffer[HEADER.size : end])))
            del self._buffer[:end]
        # what is left is less than a header, or one frame of at most ``cap``
        # bytes still arriving: the buffer never holds more than a header and a cap
        return messages


def read_message(stream: IO[bytes]) -> dict[str, Any] | None:
    """Blocking read of one message (the bot side); None at end of stream."""
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (length,) = HEADER.unpack(header)
    body = stream.read(length)
    if len(body) < length:
        return None
    return decode(body)


def write_message(stream: IO[bytes], message: Mapping[str, Any]) -> None:
    stream.write(encode(message))
    stream.flush()


def expect_action(message: dict[str, Any]) -> Any:
    """The action in a bot's reply, or ProtocolError if the reply is malformed."""
    if message.get("type") != ACTION or "action" not in message:
        raise ProtocolError(f"expected an 'action' message, got type {message.get('type')!r}")
    action = message["action"]
    if isinstance(action, bool) or not isinstance(action, (str, int)):
        raise ProtocolError(f"action must be a string or an integer, got {type(action).__name__}")
    return action
