"""What a played game leaves behind: the referee's output, the store's input.

Plain dataclasses that convert to and from JSON-able dicts, so a record can
cross a process (or cluster) boundary and be stored and replayed as-is.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, cast

from arena.records.faults import FaultKind
from arena.game import DummyResult

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: the kinds of fault a seat can commit, in the order they are reported
FAULTS = tuple(FaultKind)


@dataclass
class SeatRecord:
    """One seat of one game: who sat there and how it went."""

    bot: str
    score: float
    rank: int
    team: int
    fault: FaultKind | None = None   # a plain string when read back: the same value
    fault_detail: str | None = None
    moves: int = 0
    time_used: float = 0.0


@dataclass
class GameRecord:
    """One finished game: enough to rate it, show it and replay it exactly.

    ``steps`` is the move record: one ``[[seat, action], ...]`` list per turn,
    which with ``game``, ``players``, ``seed`` and ``options`` re-runs the game
    through the engine (:func:`arena.game.replay`).
    """

    game: str
    version: str
    options: dict[str, Any]
    seed: int
    players: int
    seats: list[SeatRecord]
    #: engine-played seats (Farm Hand's Mac and Donald), ranked with the bots:
    #: the engine's own :class:`~arena.game.DummyResult`, re-ranked with faults
    dummies: list[DummyResult] = field(default_factory=list)
    steps: list[list[list[Any]]] = field(default_factory=list)
    duration: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-able dicts and lists, sharing nothing mutable
        with it -- what ``dataclasses.asdict`` gives, without its deep copy
        of every immutable leaf (a move record has thousands, and a game's
        is made twice: in the worker and for the store)."""
        return {
            "game": self.game, "version": self.version, "options": _plain(self.options),
            "seed": self.seed, "players": self.players,
            "seats": [asdict(seat) for seat in self.seats],
            # a frozen value class is a dataclass to dataclasses (arena.game._frozen)
            "dummies": [asdict(cast("DataclassInstance", dummy)) for dummy in self.dummies],
            "steps": _plain(self.steps), "duration": self.duration,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameRecord":
        data = dict(data)
        data["seats"] = [SeatRecord(**seat) for seat in data["seats"]]
        data["dummies"] = [DummyResult(**dummy) for dummy in data.get("dummies", [])]
        return cls(**data)

    def step_maps(self) -> list[dict[int, Any]]:
        """The move record as the ``{seat: action}`` maps ``apply`` takes."""
        return [{int(seat): action for seat, action in step} for step in self.steps]

    def faults(self) -> list[str]:
        return [seat.fault for seat in self.seats if seat.fault]


def _plain(value: Any) -> Any:
    """A copy of JSON-like data: lists (and tuples, as ``asdict`` keeps
    them) and dicts copied all the way down, immutable leaves shared."""
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value


__all__ = ["FAULTS", "GameRecord", "SeatRecord"]
