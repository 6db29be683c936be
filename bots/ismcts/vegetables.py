"""VEGEtables for the search: a rollout that plays before it draws.

A uniformly random rollout ends most turns at once (``pass`` and the draws
are usually most of the legal actions), so its games are decided by who gets
blocked first, whatever was played at the root.  The ``play-first`` rollout
plays a random card (or Tractor) while it can, and only then passes or draws:
closer to how either bot really plays, and as cheap.
"""

from __future__ import annotations

import random

from arena.game import Action, State

from bots.ismcts.knowledge import Knowledge

PLAYS = ("play:", "tractor:", "take:")


def play_first(state: State, seat: int, rng: random.Random) -> Action:
    """A random play if there is one, else a random legal action."""
    legal = state.legal_actions(seat)
    plays = [action for action in legal if action.startswith(PLAYS)]
    return rng.choice(plays or legal)


KNOWLEDGE = Knowledge(rollout=play_first, rollouts=(("play-first", play_first),))
