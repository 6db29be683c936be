"""Farm Hand for the search: rollouts that play for the bids, to the end of
the round, scored by points.

Every round is a fresh deal, so whatever a rollout plays in later rounds is
noise about the decision at hand: the search stops at the end of the round
(its horizon) and the position is scored by the rank as the scores stand
and the round's own points (:func:`evaluate`), since Farm Hand is about
points (its solitaire challenge: 21).

A round scores only an exact bid, so random card play says little about
whether a bid can be made: the ``seek`` rollout plays every seat as
``farm-hand-counter`` plays itself (:func:`bots.farm_hand.seek`: win while
tricks are still needed, duck once the bid is made).

Solitaire, every decision is answered by an exhaustive search over sampled
deals instead (``rule``, :mod:`bots.ismcts.farm_hand_deals`): against the
fixed play of Mac and Donald it scores about a point a game more than the
tree search.
"""

from __future__ import annotations

import random
from typing import cast

from arena.game import Action, Outcome, State
from bots.farm_hand import CounterBot, seek as seek_card
from bots.ismcts.farm_hand_deals import decide
from bots.ismcts.knowledge import Knowledge, random_rollout, rank_rewards
from engines.farm_hand.cards import CARD_CODE, CARD_ID

#: a round's points at most (its number, 1 to 6): a round scored +6 gets
#: the full half of the reward its score carries, -6 none
ROUND_SCALE = 6.0
_COUNTER = CounterBot()


def this_round(state: State) -> tuple:
    """The round (and tie-break replay) being played: the search's horizon."""
    view = state.observation(0)
    return view["round"], view["replay"]


def seek(state: State, seat: int, rng: random.Random) -> Action:
    """Play for the seat's bid as ``farm-hand-counter`` does (bids: random)."""
    legal = state.legal_actions(seat)
    if len(legal) == 1 or not isinstance(legal[0], str):
        return random_rollout(state, seat, rng)
    view = state.observation(seat)
    trick = [CARD_ID[code] for code in view["trick"]]
    need = view["bids"][seat] - view["won"][seat]
    cards = cast("list[str]", legal)  # past the bids, the actions are card codes
    return CARD_CODE[seek_card([CARD_ID[code] for code in cards], trick, need)]


def counter_move(observation, legal: list, rng: random.Random) -> Action:
    """``farm-hand-counter``'s bid or card: the search's advice."""
    _COUNTER.rng = rng
    return _COUNTER.act(observation, legal, {})


def evaluate(state: State) -> list[float]:
    """Per seat, at the end of a round (the game's end included): half the
    rank among players and dummies by the scores as they stand, half the
    round's own score, linearly (``ROUND_SCALE``).  A squashed total (as
    the final reward blends it) would make a round late in the game worth
    less than an early one, when every round's points count the same."""
    view = state.observation(0)
    players, scores = view["players"], view["scores"]
    standing = Outcome.from_scores(
        scores[:players], dummies=dict(zip(view["dummies"], scores[players:])) or None
    )
    ranks = rank_rewards(standing)
    gained = view["history"][-1]["points"] if view["history"] else [0] * players
    return [
        0.5 * rank + 0.5 * min(1.0, max(0.0, 0.5 + gain / (2 * ROUND_SCALE)))
        for rank, gain in zip(ranks, gained)
    ]


KNOWLEDGE = Knowledge(
    rollouts=(("seek", seek),),
    horizon=this_round,
    rule=decide,
    advice=counter_move,
    advice_seconds=0.4,
    evaluate=evaluate,
    evaluate_end=True,
)
