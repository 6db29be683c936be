"""How a game groups its seats into teams: the values of ``GameInfo.teams``.

A leaf module (it imports nothing of the arena), so the engines' contract,
the tournament file's checker and ``arena match`` name the same three
values.  A :class:`~enum.StrEnum`, so an engine that writes the plain string
(``teams="fixed"``) still compares equal, and stored data is unchanged.
"""

from __future__ import annotations

from enum import StrEnum


class Teams(StrEnum):
    #: every seat for itself
    NONE = "none"
    #: known from the seating (Hand and Foot's partnerships): a tournament
    #: replays a deal in every permutation of the seats so partners vary
    FIXED = "fixed"
    #: decided during the game (Dou Dizhu's landlord)
    IN_PLAY = "in-play"
