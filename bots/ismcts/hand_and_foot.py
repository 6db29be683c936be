"""Hand and Foot for the search: the turn being played, scored by the table.

A random rollout to the end of a game takes ~4000 moves (~90 ms), so the
search would manage a handful of iterations a move.  Instead the search's
horizon is the turn being played (tree and rollouts stop where the next
turn begins; a rollout at most ``DEPTH`` moves) and the position is scored by
each team's total plus what it has on the table (books and melded cards),
compared team against team through a logistic of the point difference.  A
fixed 40-move rollout (a few turns of every seat) was measured first: its
noise drowned the few points a meld is worth, and it lost 4 games of 4 to
``hand-and-foot-builder`` at 100 iterations a move (docs/bots.md has the
measurements since).

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

#: rollout moves at most (a turn is rarely longer)
DEPTH = 40
#: a point difference of this size is worth ~73% (logistic slope): a meld's
#: few points must move a reward of [0, 1] enough for the bandit to see
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
    melded cards).  Cards still held are left out: the other seats' hands
    are sampled, so their penalties are mostly noise of the determinization
    (hundreds of points against the few a meld is worth)."""
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


