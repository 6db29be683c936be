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

At the five-hand table, once the bids are revealed, the deals are drawn in
proportion to how likely each rival's bid is with the hand the deal gives it
(:func:`determinize`; the counter's bids by the numbers of its hand, counted
by :mod:`bots.ismcts.farm_hand_bids_fit`): a rival who bid nothing rarely
holds a 7 there, and the search plays as if it knew.

Solitaire, every decision is answered by an exhaustive search over sampled
deals instead (``rule``, :mod:`bots.ismcts.farm_hand_deals`): against the
fixed play of Mac and Donald it scores about a point a game more than the
tree search.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import accumulate
from typing import cast

from arena.game import Action, Engine, Observation, Outcome, State
from bots.farm_hand import CounterBot, seek as seek_card
from bots.ismcts.farm_hand_bids import BIDS, TABLE as BIDS_TABLE
from bots.ismcts.farm_hand_deals import decide
from bots.ismcts.knowledge import Knowledge, random_rollout, rank_rewards, uniform_states
from engines.farm_hand.cards import CARD_CODE, CARD_ID, CARD_NUMBER
from engines.farm_hand.game import sample_hands, state_from

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


#: deals drawn per decision, of which the search's are picked by likelihood
POOL = 256
#: weight of the bids of all hands of a size (the prior) against one hand's
#: own counts, for hands the count saw rarely or never
PRIOR_WEIGHT = 2.0


def _likelihoods() -> dict[int, dict[tuple[int, ...], tuple[float, ...]]]:
    """Per hand size and sorted numbers: the chance of each bid."""
    table = {}
    for size, hands in BIDS.items():
        totals = [sum(counts[bid] for counts in hands.values()) for bid in range(size + 1)]
        prior = [(total + 1) / (sum(totals) + len(totals)) for total in totals]  # none 0
        table[size] = {
            numbers: tuple(
                (count + PRIOR_WEIGHT * share) / (sum(counts) + PRIOR_WEIGHT)
                for count, share in zip(counts, prior)
            )
            for numbers, counts in hands.items()
        }
        table[size][()] = tuple(prior)  # a hand never counted
    return table


LIKELIHOOD = _likelihoods()


def determinize(
    engine: Engine, observation: Observation, rng: random.Random
) -> Callable[[], State]:
    """The search's deals at the five-hand table once the bids are out:
    ``POOL`` drawn alike, then picked by the product over the rivals of the
    chance of the bid each made with the hand the deal gives it (its cards
    in hand and those it has played this round); elsewhere, and while bids
    are hidden, every consistent deal alike."""
    if observation["table"] != BIDS_TABLE or observation["phase"] != "play":
        return uniform_states(engine, observation, rng)
    table, me = observation["table"], observation["seat"]
    played: list[list[int]] = [[] for _ in range(table)]
    for trick in [
        *observation["tricks"],
        {"leader": observation["leader"], "cards": observation["trick"]},
    ]:
        for place, code in enumerate(trick["cards"]):
            played[(trick["leader"] + place) % table].append(CARD_ID[code])
    chances = LIKELIHOOD[observation["hand_size"]]
    rivals = [(seat, bid) for seat, bid in enumerate(observation["bids"]) if seat != me]
    draws, weights = [], []
    for _ in range(POOL):
        hands = sample_hands(observation, rng)
        weight = 1.0
        for seat, bid in rivals:
            dealt = tuple(sorted(CARD_NUMBER[card] for card in hands[seat] + played[seat]))
            weight *= chances.get(dealt, chances[()])[bid]
        draws.append(hands)
        weights.append(weight)
    cumulative = list(accumulate(weights))

    def draw() -> State:
        seed = rng.randrange(2**31)
        (hands,) = rng.choices(draws, cum_weights=cumulative)
        return state_from(observation, [list(hand) for hand in hands], seed)

    return draw


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
    determinize=determinize,
    advice=counter_move,
    advice_seconds=0.4,
    evaluate=evaluate,
    evaluate_end=True,
)
