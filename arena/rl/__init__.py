"""Reinforcement learning on the arena's games (``docs/rl.md``).

``aec_env(game_id, players=N, **options)`` gives a PettingZoo ``AECEnv`` for
any installed game with an encoding, ``parallel_env(...)`` a ``ParallelEnv``
(the natural form for simultaneous moves).  Both run the engine exactly as
the referee does.  :class:`~arena.rl.policy_bot.PolicyBot` plays a trained
policy through the referee with the same encoding.  Needs ``pip install
'farm-arena[rl]'`` (pettingzoo, gymnasium, numpy).
"""

from __future__ import annotations

from typing import Any

from arena.rl.encoding import Encoding, EncodingError, encoding_for


def aec_env(
    game_id: str, players: int | None = None, render_mode: str | None = None, **options: Any
):
    """A PettingZoo AEC environment of ``game_id`` (``players``: the game's
    smallest table when omitted)."""
    from arena.plugins import installed
    from arena.rl.env import ArenaAECEnv

    return ArenaAECEnv(installed().engine(game_id), players, options, render_mode)


def parallel_env(
    game_id: str, players: int | None = None, render_mode: str | None = None, **options: Any
):
    """A PettingZoo parallel environment of ``game_id``: every step takes one
    action per live agent and plays those of the seats to act."""
    from arena.plugins import installed
    from arena.rl.parallel import ArenaParallelEnv

    return ArenaParallelEnv(installed().engine(game_id), players, options, render_mode)


__all__ = ["Encoding", "EncodingError", "aec_env", "encoding_for", "parallel_env"]
