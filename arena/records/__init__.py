"""What a played game leaves behind: the referee's record, one shape from the
referee to the ratings.

A :class:`GameRecord` is what every stage passes on: the referee returns it,
a worker sends it to the driver as it is (pickled), the store keeps it
(:class:`arena.results.store.StoredGame` is the record and what the store adds) and
the ratings, the statistics, the leaderboard, the export and the viewer read
it.  It converts to and from JSON-able dicts (:meth:`GameRecord.to_dict`),
the form the store and ``arena export`` write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from arena.game import DummyResult
from arena.records.faults import FaultKind

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: the kinds of fault a seat can commit, in the order they are reported
FAULTS = tuple(FaultKind)


class SeatRecord(NamedTuple):
    """One seat of one game: who sat there and how it went.  A named tuple:
    the smallest frozen row to build (a store read makes one per seat) and
    to pickle."""

    bot: str
    score: float
    rank: int
    team: int
    fault: FaultKind | None = None  # a plain string when read back: the same value
    fault_detail: str | None = None
    moves: int = 0
    time_used: float = 0.0


@dataclass(frozen=True, slots=True)
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
    seats: Sequence[SeatRecord]
    #: engine-played seats (Farm Hand's Mac and Donald), ranked with the bots:
    #: the engine's own :class:`~arena.game.DummyResult`, re-ranked with faults
    dummies: Sequence[DummyResult] = ()
    steps: Sequence[Sequence[Sequence[Any]]] = ()
    duration: float = 0.0
    #: the sandbox level its bots ran at (the weakest of its seats'; "" for a
    #: game recorded before levels were)
    sandbox: str = ""

    def __post_init__(self) -> None:
        # seats and dummies given as lists are kept as tuples: a record
        # compares equal to itself read back, whatever it was built from
        if type(self.seats) is not tuple:
            object.__setattr__(self, "seats", tuple(self.seats))
        if type(self.dummies) is not tuple:
            object.__setattr__(self, "dummies", tuple(self.dummies))

    def __reduce__(self) -> tuple:
        """Pickled (from a worker to the driver) as its constructor's
        arguments: unpickling makes it in one call instead of setting its
        frozen slots one by one."""
        return (
            GameRecord,
            (
                self.game,
                self.version,
                self.options,
                self.seed,
                self.players,
                self.seats,
                self.dummies,
                self.steps,
                self.duration,
                self.sandbox,
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-able data, to be written (the store's blob,
        ``arena export``): it shares the record's ``options`` and ``steps``,
        not copies of them."""
        return {
            "game": self.game,
            "version": self.version,
            "options": self.options,
            "seed": self.seed,
            "players": self.players,
            "seats": [seat._asdict() for seat in self.seats],
            # a frozen value class is a dataclass to dataclasses (arena.game._frozen)
            "dummies": [asdict(cast("DataclassInstance", dummy)) for dummy in self.dummies],
            "steps": self.steps,
            "duration": self.duration,
            "sandbox": self.sandbox,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        data = dict(data)
        data["seats"] = tuple([SeatRecord(**seat) for seat in data["seats"]])
        data["dummies"] = tuple([DummyResult(**dummy) for dummy in data.get("dummies", ())])
        return cls(**data)

    @property
    def deal(self) -> tuple[str, int, int]:
        """Games of one deal (its seatings, and every table given the same
        seed) share this key; the statistics resample whole deals."""
        return (self.game, self.players, self.seed)

    @property
    def ranked(self) -> int:
        """How many places the game had (bot seats and dummies)."""
        return len(self.seats) + len(self.dummies)

    def step_maps(self) -> list[dict[int, Any]]:
        """The move record as the ``{seat: action}`` maps ``apply`` takes."""
        return [{int(seat): action for seat, action in step} for step in self.steps]

    def faults(self) -> list[str]:
        return [seat.fault for seat in self.seats if seat.fault]


__all__ = ["FAULTS", "GameRecord", "SeatRecord"]
