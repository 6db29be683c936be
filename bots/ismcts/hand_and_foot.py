"""Hand and Foot for the search: the turn being played, scored by the table.

A random rollout to the end of a game takes thousands of moves, so the
search would manage a handful of iterations a move (docs/performance.md).
Instead the search's horizon is the turn being played (tree and rollouts
stop where the next turn begins; a rollout at most ``DEPTH`` moves) and the
position is scored by each team's total plus what it has on the table
(books and melded cards), compared team against team through a logistic of
the point difference.  A fixed 40-move rollout (a few turns of every seat)
drowns the few points a meld is worth in its noise (docs/bots.md).

The rollout policy lays a meld whenever one is legal (random play discards
most of its cards before it ever completes a book, which makes every line
look alike); otherwise it plays at random.
"""

from __future__ import annotations

import math
import random
from typing import cast

from arena.game import Action, State
from bots.hand_and_foot import BuilderBot
from bots.ismcts.knowledge import Knowledge, whose_turn
from engines.hand_and_foot.cards import VALUE, books, set_wilds

#: rollout moves at most (a turn is rarely longer)
DEPTH = 40
#: a point difference of this size is worth ~73% (logistic slope): a meld's
#: few points must move a reward of [0, 1] enough for the bandit to see
SCALE = 300.0
MELDS = ("meld:", "new:")
BOOK = 7
#: share of a book's bonus each card of a set beyond two is worth before the
#: book is complete (a set of six: 4 x 0.05 = a fifth of the bonus)
PROGRESS = 0.05
#: points a card still held costs (penalties of 5-100 a card, ~7 on average)
HELD = 7
_BUILDER = BuilderBot()


def meld_first(state: State, seat: int, rng: random.Random) -> Action:
    """A random meld if there is one, else a random legal action."""
    legal = cast("list[str]", state.legal_actions(seat))  # Hand and Foot's actions are strings
    melds = [action for action in legal if action.startswith(MELDS)]
    return rng.choice(melds or legal)


def builder(state: State, seat: int, rng: random.Random) -> Action:
    """The seat's move as ``hand-and-foot-builder`` makes it (its discard
    tie-breaks drawn from the search's own chance)."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    _BUILDER.rng = rng
    return _BUILDER.act(state.observation(seat), legal, {})


def builder_move(observation, legal: list, rng: random.Random) -> Action:
    """``hand-and-foot-builder``'s move: the search's advice."""
    _BUILDER.rng = rng
    return _BUILDER.act(observation, legal, {})


def team_values(view) -> list[float]:
    """Per team: its total, plus what it has on the table (books and melded
    cards), plus ``PROGRESS`` of a book's bonus per card a set of three or
    more has towards its book (clean if it has no wild), minus ``HELD`` per
    card its seats still hold (Hand or Foot).  Cards held are counted, not
    valued: the other seats' hands are sampled, so their exact penalties are
    noise of the determinization (hundreds of points against the few a meld
    is worth)."""
    size = view["options"]["hand_size"]
    values = []
    for team, (total, sets) in enumerate(zip(view["scores"], view["sets"])):
        clean, dirty = books(sets)
        value = total + 500 * clean + 250 * dirty
        for cards in sets.values():
            value += sum(VALUE[card] for card in cards)
            if len(cards) < BOOK:
                value += PROGRESS * (250 if set_wilds(cards) else 500) * (len(cards) - 2)
        for seat, member in enumerate(view["teams"]):
            if member == team:
                value -= HELD * (view["hand_counts"][seat] + (0 if view["in_foot"][seat] else size))
        values.append(value)
    return values


def evaluate(state) -> list[float]:
    """Per seat: the mean over the other teams of the logistic of the
    difference in :func:`team_values`."""
    now = team_values(state.observation(0))
    share = []
    for team, mine in enumerate(now):
        others = [theirs for other, theirs in enumerate(now) if other != team]
        share.append(
            sum(1 / (1 + math.exp((theirs - mine) / SCALE)) for theirs in others) / len(others)
        )
    return [share[state.team_of(seat)] for seat in range(state.players)]


KNOWLEDGE = Knowledge(
    rollout=meld_first,
    rollouts=(("meld-first", meld_first), ("builder", builder)),
    advice=builder_move,
    advice_seconds=0.1,
    depth=DEPTH,
    horizon=whose_turn,
    evaluate=evaluate,
)
