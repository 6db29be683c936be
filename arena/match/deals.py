"""Deals: every seed of a game, derived from the secret key -- here and
nowhere else.

A planned game takes two seeds from the :class:`~arena.match.seeds.SecretKey`:

* its deal's (:func:`deal_seed`): the engine's seed, shared by every game
  that replays the deal (each seating, and every table of a tournament
  group, so the deal is duplicate across them);
* its own *chance* (:func:`chance_seed`): one per game, the secret from
  which a :class:`Deal` derives every other seed of the game -- each seat's
  (sent in ``new_game``), each entrant's ``hello`` seed, the fallback's that
  plays out a faulted seat, the leak audit's.

Each seed is derived under a purpose of its own (``"deal"``, ``"chance"``,
``"seat"``...), so no seed a bot is sent reveals another, nor the deal.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.match.seeds import SecretKey, child


def deal_seed(key: SecretKey, number: int, *group: object) -> int:
    """The seed of deal ``number`` of ``group`` (a tournament's game entry
    and table size; nothing for a single table's match)."""
    return key.derive("deal", *group, number)


def chance_seed(key: SecretKey, *game: object) -> int:
    """The chance seed of the game that ``game`` names within its plan (a
    plan item and the index in it; a deal's number and its seating's)."""
    return key.derive("chance", *game)


@dataclass(frozen=True)
class Deal:
    """One game of a match: its seed, and ``seating[seat]`` = the index of the
    entrant in that seat.

    ``chance`` is the game's secret for every other seed (the seats' own,
    the fallback's); None derives it from the deal seed, which is as secret.
    ``index`` is the game's number sent in ``new_game`` (None: its position
    in this match) -- a tournament sends the game's place in its plan item,
    so a resumed match numbers its games as an uninterrupted one would."""

    seed: int
    seating: tuple[int, ...]
    chance: int | None = None
    index: int | None = None

    @property
    def chance_seed(self) -> int:
        return child(self.seed, "chance") if self.chance is None else self.chance

    def seat_seed(self, seat: int) -> int:
        """The seed of the bot in ``seat`` for this game."""
        return child(self.chance_seed, "seat", seat)

    def hello_seed(self, entrant: int) -> int:
        """The ``hello`` seed of entrant ``entrant`` when it starts in this
        game, so a restarted bot gets a new one."""
        return child(self.chance_seed, "hello", entrant)

    @property
    def fallback_seed(self) -> int:
        """The seed of the random fallback that plays out a faulted seat."""
        return child(self.chance_seed, "fallback")

    @property
    def audit_seed(self) -> int:
        """The seed of the leak audit's samples (a match audits with its
        first deal's)."""
        return child(self.chance_seed, "audit")
