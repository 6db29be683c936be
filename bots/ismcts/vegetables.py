"""VEGEtables for the search: a rollout that plays, then draws.

A uniformly random rollout ends most turns at once (``pass`` and the draws
are usually most of the legal actions) and rarely refills its Hand, so its
games end in a block whatever was played at the root, and the search learns
to pass.  The ``play-first`` rollout plays a random card (or Tractor) while
it can, then draws (cards drawn are cards the opponent cannot have, and a
full Hand is what keeps a player from being blocked), and passes only when
nothing else is legal: closer to how either bot really plays, and as cheap.
"""

from __future__ import annotations

import random

from arena.game import Action, State

from bots.ismcts.knowledge import Knowledge

PLAYS = ("play:", "tractor:", "take:")
DRAW = "draw:"


def play_first(state: State, seat: int, rng: random.Random) -> Action:
    """A random play if there is one, else a random draw, else pass."""
    legal = state.legal_actions(seat)
    plays = [action for action in legal if action.startswith(PLAYS)]
    if plays:
        return rng.choice(plays)
    draws = [action for action in legal if action.startswith(DRAW)]
    return rng.choice(draws or legal)


KNOWLEDGE = Knowledge(rollout=play_first, rollouts=(("play-first", play_first),))
