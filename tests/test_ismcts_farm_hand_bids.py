"""The ismcts bot's Farm Hand deals at the five-hand table, drawn by what
the rivals' bids reveal (:func:`bots.ismcts.farm_hand.determinize`), and the
count of the counter's bids it reads (:mod:`bots.ismcts.farm_hand_bids_fit`)."""

import random

from bots.ismcts import farm_hand_bids_fit
from bots.ismcts.farm_hand import determinize
from bots.ismcts.farm_hand_bids import BIDS
from engines import unit_for
from engines.farm_hand.cards import CARD_ID

ENGINE = unit_for("farm-hand").engine
#: round 1 at five hands: seat 1 holds the green 7, seat 2 another green
HANDS = [["blue1"], ["green7"], ["green3"], ["blue2"], ["yellow2"]]


def after_bids(bids, hands=HANDS, players=5):
    """Seat 0's observation once round 1 is dealt as ``hands`` and bid."""
    state = ENGINE.new_game(players, 2)
    state.set_hands(hands)
    state.apply(dict(zip(state.to_act(), bids)))
    return state.observation(0)


def share_of_the_seven(draw, count=2000):
    """How often a drawn deal gives seat 1 the green 7."""
    return sum(draw()._hands[1] == [CARD_ID["green7"]] for _ in range(count)) / count


def test_a_rival_who_bid_nothing_is_rarely_dealt_the_seven_and_one_who_bid_a_trick_often():
    # seats 1 and 2 show green backs, and green has five numbers: uniformly
    # seat 1 holds the 7 in one deal of five (control), whatever it bid
    for bid in (0, 1):
        observation = after_bids([0, bid, 0, 0, 0])
        rng = random.Random(1)
        uniform = share_of_the_seven(lambda: ENGINE.sample_state(observation, rng))
        weighted = share_of_the_seven(determinize(ENGINE, observation, random.Random(1)))
        assert 0.15 < uniform < 0.25
        if bid == 0:  # the counter bids nothing with a lone 7 in one deal of five
            assert weighted < uniform / 2
        else:  # and a trick with a 6 in one of six, lower never
            assert weighted > 0.6


def test_every_drawn_deal_is_one_the_seat_could_be_seeing():
    observation = after_bids([0, 1, 0, 1, 0])
    draw = determinize(ENGINE, observation, random.Random(3))
    for _ in range(200):
        assert draw().observation(0) == observation


def test_while_bids_are_hidden_and_at_other_tables_the_deals_are_the_engines():
    hidden = ENGINE.new_game(5, 2).observation(0)
    three = after_bids([0, 1, 0], HANDS[:3], players=3)
    for observation in (hidden, three):
        ours, engines = random.Random(5), random.Random(5)
        draw = determinize(ENGINE, observation, ours)
        for _ in range(20):
            assert draw()._hands == ENGINE.sample_state(observation, engines)._hands
    # control: at five hands once bid, the draws are the model's, not the engine's
    observation = after_bids([0, 0, 0, 0, 0])
    ours, engines = random.Random(5), random.Random(5)
    draw = determinize(ENGINE, observation, ours)
    assert [draw()._hands for _ in range(20)] != [
        ENGINE.sample_state(observation, engines)._hands for _ in range(20)
    ]


def test_the_committed_counts_are_what_the_fit_counts():
    size = 1  # the quickest to recount; every size is counted the same way
    counted = farm_hand_bids_fit.count_bids(
        farm_hand_bids_fit.TABLE,
        size,
        farm_hand_bids_fit.DEALS[size],
        farm_hand_bids_fit.FIRST_SEED + 10_000 * size,
    )
    assert {
        numbers: tuple(counts[bid] for bid in range(size + 1))
        for numbers, counts in counted.items()
    } == BIDS[size]
