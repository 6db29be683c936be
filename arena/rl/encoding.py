"""The fixed-size view of a game that learning code sees.

One :class:`Encoding` per game turns a seat's observation -- the very dict the
referee sends a bot -- into a vector of floats in [-1, 1], and a legal list
into a 0/1 mask over a fixed, documented list of engine actions
(``docs/rl.md``).  The PettingZoo environments and the bot kit helper
(:mod:`arena.rl.policy_bot`) both call the same encoding, so a policy trained
on an environment sees exactly the same numbers when it plays through the
referee.  An encoding reads only the observation: never hidden state.

Seats are always *relative*: the observing seat comes first, then the seats
after it in turn order, so one policy can sit anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from arena.game import Action, Engine, Observation


class EncodingError(ValueError):
    """A game without an encoding, or an action outside the encoding."""


class Encoding:
    """One game's observation vector and action index, for a fixed table.

    Subclasses set :attr:`actions` (index -> engine action, the same for
    every table of the game) and implement :meth:`features`.  ``players`` and
    the resolved ``options`` are fixed for the life of the encoding, so the
    vector length is too.
    """

    #: the engine's actions, in index order
    actions: tuple[Action, ...] = ()

    def __init__(self, engine: Engine, players: int, options: Mapping[str, Any] | None = None):
        engine.info.check_players(players)
        self.game_id = engine.info.id
        self.players = players
        self.options = engine.info.resolve_options(options)
        self._index = {action: index for index, action in enumerate(self.actions)}
        first = engine.new_game(players, 0, self.options)
        self.size = len(self.features(first.observation(0)))

    # -- what subclasses write -------------------------------------------
    def features(self, observation: Observation) -> list[float]:
        """The observation as a flat list of numbers in [-1, 1]."""
        raise NotImplementedError

    # -- what environments and bots call ---------------------------------
    def encode(self, observation: Observation) -> np.ndarray:
        vector = np.asarray(self.features(observation), dtype=np.float32)
        if vector.shape != (self.size,):
            raise EncodingError(
                f"{self.game_id}: encoding gave {vector.shape[0]} numbers, expected {self.size}"
            )
        return np.clip(vector, -1.0, 1.0)

    def mask(self, legal: Sequence[Action]) -> np.ndarray:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        for action in legal:
            mask[self.index(action)] = 1
        return mask

    def observe(self, observation: Observation, legal: Sequence[Action]) -> dict[str, np.ndarray]:
        """What an environment's ``observe`` returns for a seat."""
        return {"observation": self.encode(observation), "action_mask": self.mask(legal)}

    def index(self, action: Action) -> int:
        try:
            return self._index[action]
        except KeyError:
            raise EncodingError(f"{self.game_id}: action {action!r} has no index") from None

    def action(self, index: int) -> Action:
        index = int(index)
        if not 0 <= index < len(self.actions):
            raise EncodingError(
                f"{self.game_id}: action index {index} is outside 0..{len(self.actions) - 1}"
            )
        return self.actions[index]


def encoding_for(
    engine: Engine, players: int, options: Mapping[str, Any] | None = None
) -> Encoding:
    """The encoding of ``engine``'s game for a table of ``players``: the
    ``encoding`` part of the game's unit (:class:`arena.game.GameUnit`)."""
    from engines import unit_for

    game_id = engine.info.id
    try:
        encoding = unit_for(game_id).part("encoding")
    except LookupError:  # no installed plugin has the game
        encoding = None
    if encoding is None:
        raise EncodingError(
            f"game '{game_id}' has no RL encoding (its plugin's GameUnit "
            f'names one as encoding="module:Class")'
        )
    return encoding(engine, players, options)


# -- small builders every game's features use ------------------------------
def one_hot(index: int | None, size: int) -> list[float]:
    """``size`` zeros with a 1 at ``index`` (all zeros for None)."""
    vector = [0.0] * size
    if index is not None:
        vector[index] = 1.0
    return vector


def counts(items: Sequence[Any], index: Mapping[Any, int], scale: float = 1.0) -> list[float]:
    """How many of each item (by ``index``), divided by ``scale``."""
    vector = [0.0] * len(index)
    for item in items:
        vector[index[item]] += 1.0 / scale
    return vector


def relative(seat: int, table: int) -> list[int]:
    """The table seats in turn order starting from ``seat``."""
    return [(seat + offset) % table for offset in range(table)]
