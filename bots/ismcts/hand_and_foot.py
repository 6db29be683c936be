"""Hand and Foot for the search: short rollouts scored by the round so far.

A random rollout to the end of a game takes ~4000 moves (~90 ms), so the
search would manage a handful of iterations a move.  Instead a rollout ends
with the turn it is in (at most ``DEPTH`` moves) and the position is scored by
each team's total plus what it has on the table (books and melded cards),
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

from bots.ismcts.knowledge import Knowledge, whose_turn
from engines.hand_and_foot.cards import VALUE, books

#: rollout moves before the position is scored
DEPTH = 40
#: a point difference of this size is worth ~73% (logistic slope); small
#: enough that the few points one meld is worth move the bandit (1000 did not)
SCALE = 300.0
MELDS = ("meld:", "new:")


def meld_first(state: State, seat: int, rng: random.Random) -> Action:
    """A random meld if there is one, else a random legal action."""
    legal = state.legal_actions(seat)
    melds = [action for action in legal if action.startswith(MELDS)]
    return rng.choice(melds or legal)


def evaluate(state) -> list[float]:
    """Per seat: the mean over the other teams of the logistic of the
    difference in totals plus what the team has on the table (books and
    melded cards).  Cards still held are left out: the hands of the other
    seats are sampled, and their penalties (hundreds of points of noise per
    determinization) drowned the few points a meld or a discard is worth --
    counting them, the search discarded cards it could have melded."""
    view = state.observation(0)
    now = []
    for total, sets in zip(view["scores"], view["sets"]):
        clean, dirty = books(sets)
        now.append(total + 500 * clean + 250 * dirty
                   + sum(VALUE[card] for cards in sets.values() for card in cards))
    share = []
    for team, mine in enumerate(now):
        others = [theirs for other, theirs in enumerate(now) if other != team]
        share.append(sum(1 / (1 + math.exp((theirs - mine) / SCALE)) for theirs in others)
                     / len(others))
    return [share[state.team_of(seat)] for seat in range(state.players)]


KNOWLEDGE = Knowledge(rollout=meld_first, rollouts=(("meld-first", meld_first),),
                      depth=DEPTH, horizon=whose_turn, evaluate=evaluate)


