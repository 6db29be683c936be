"""Hand and Foot for the search: short rollouts scored by the round so far.

A random rollout to the end of a game takes ~4000 moves (~90 ms), so the
search would manage a handful of iterations a move.  Instead a rollout ends
with the turn it is in (at most ``DEPTH`` moves) and the position is scored by
each team's total plus what its round is worth right now (books and melded
cards, minus the cards still held: the engine's own ``round_scores``),
compared team against team through a logistic of the point difference.  A
fixed 40-move horizon (a few turns of every seat) was measured first: its
noise drowned the few points a meld is worth, and it lost 4 games of 4 to
``hand-and-foot-builder`` at 100 iterations a move, where the one-turn
horizon won 3 of the same 4.

The rollout policy lays a meld whenever one is legal (random play discards
most of its cards before it ever completes a book, which makes every line
look alike); otherwise it plays at random.
"""

from __future__ import annotations

import math
import random

from arena.game import Action, State

from bots.ismcts.knowledge import Knowledge, turn_over

#: rollout moves before the position is scored
DEPTH = 40
#: a point difference of this size is worth ~73% (logistic slope)
SCALE = 1000.0
MELDS = ("meld:", "new:")


def meld_first(state: State, seat: int, rng: random.Random) -> Action:
    """A random meld if there is one, else a random legal action."""
    legal = state.legal_actions(seat)
    melds = [action for action in legal if action.startswith(MELDS)]
    return rng.choice(melds or legal)


def evaluate(state) -> list[float]:
    """Per seat: the mean over the other teams of the logistic of the point
    difference (totals plus the round as it stands)."""
    totals = state.observation(0)["scores"]
    now = [total + add for total, add in zip(totals, state.round_scores())]
    share = []
    for team, mine in enumerate(now):
        others = [theirs for other, theirs in enumerate(now) if other != team]
        share.append(sum(1 / (1 + math.exp((theirs - mine) / SCALE)) for theirs in others)
                     / len(others))
    return [share[state.team_of(seat)] for seat in range(state.players)]


KNOWLEDGE = Knowledge(rollout=meld_first, rollouts=(("meld-first", meld_first),),
                      depth=DEPTH, cutoff=turn_over, evaluate=evaluate)


