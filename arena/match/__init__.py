"""A match: the referee plays a block of deals between sandboxed bots.

:mod:`.referee` (``play_match``) starts one bot process per entrant, speaks
the wire protocol through a :mod:`.session` per seat over a
:mod:`.connection`, charges each seat its own clock, turns every misbehaviour
into a fault value and returns one :class:`~arena.records.GameRecord` a game.
:mod:`.seeds` keeps the secret key, from which :mod:`.deals` derives every
seed of a game (a :class:`~.deals.Deal`); :mod:`.audit` is the
referee"s information-leak debug mode.  It knows neither the store nor the
tournament.
"""

__all__ = ["audit", "connection", "deals", "referee", "seeds", "session"]
