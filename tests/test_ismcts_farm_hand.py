"""Solitaire Farm Hand's exhaustive search over sampled deals
(:mod:`bots.ismcts.farm_hand_deals`) on hand-built rounds whose best bid is
known, and its use of the bot's chance and clock."""

import random
import time

import pytest

from bots.ismcts import farm_hand_deals
from engines import unit_for

FAR = 1e12  # a deadline that never comes


def first_round(players, hands):
    """Round 1 dealt as ``hands`` (table seats, dummies last): its observation
    for seat 0 and its legal actions."""
    state = unit_for("farm-hand").engine.new_game(players, 3)
    state.set_hands(hands)
    return state.observation(0), state.legal_actions(0)


def test_solitaire_bids_the_trick_a_card_surely_wins_and_not_one_it_surely_loses():
    # Mac and Donald show a red and a yellow back: no 7 can be among them, so
    # the purple 7 wins the one trick of round 1 whatever their numbers
    observation, legal = first_round(1, [["purple7"], ["red4"], ["yellow2"]])
    assert farm_hand_deals.decide(observation, legal, random.Random(1), FAR) == 1
    # control: a red 1 beside a blue and a green back wins only if those two
    # cancel each other, which they seldom do
    observation, legal = first_round(1, [["red1"], ["blue6"], ["green5"]])
    assert farm_hand_deals.decide(observation, legal, random.Random(1), FAR) == 0


def test_a_table_of_several_players_is_left_to_the_tree_search():
    state = unit_for("farm-hand").engine.new_game(3, 5)
    assert (
        farm_hand_deals.decide(state.observation(0), state.legal_actions(0), random.Random(1), FAR)
        is None
    )
    state.apply({seat: 1 for seat in state.to_act()})
    seat = state.to_act()[0]
    assert (
        farm_hand_deals.decide(
            state.observation(seat), state.legal_actions(seat), random.Random(1), FAR
        )
        is None
    )
    # control: solitaire, the same kind of decisions are answered
    alone = unit_for("farm-hand").engine.new_game(1, 5)
    assert farm_hand_deals.decide(
        alone.observation(0), alone.legal_actions(0), random.Random(1), FAR
    ) in alone.legal_actions(0)


@pytest.fixture
def counted(monkeypatch):
    """The number of deals of every solve ``decide`` makes."""
    counts = []
    solve = farm_hand_deals._solve

    def counting(rnd, observation, legal, rng, count, turns=farm_hand_deals.TURNS):
        counts.append(count)
        return solve(rnd, observation, legal, rng, count, turns)

    monkeypatch.setattr(farm_hand_deals, "_solve", counting)
    return counts


def test_the_clock_bounds_the_deals_solved(counted):
    observation, legal = first_round(1, [["red1"], ["blue6"], ["green5"]])
    quick, batches = farm_hand_deals.FIRST, farm_hand_deals.WORLDS // farm_hand_deals.FIRST
    farm_hand_deals.decide(observation, legal, random.Random(1), FAR)
    assert counted == [quick] * (1 + batches)  # the quick answer, then every batch
    counted.clear()
    # a deadline already past: the first batch gives up, the quick solve answers
    assert (
        farm_hand_deals.decide(observation, legal, random.Random(1), time.process_time()) in legal
    )
    assert counted == [quick, quick]


def test_a_fixed_budget_solves_a_fixed_number_of_deals_whatever_the_clock_leaves(counted):
    # replaying a match move for move needs the same work at every decision:
    # by the clock the deals solved follow how long the timing solve took
    observation, legal = first_round(1, [["red1"], ["blue6"], ["green5"]])
    quick = farm_hand_deals.FIRST
    for left in (0.5, 5.0, 60.0):
        counted.clear()
        farm_hand_deals.decide(
            observation, legal, random.Random(1), time.process_time() + left, 200
        )
        assert counted == [quick, 200 // farm_hand_deals.ITERATIONS_PER_DEAL]
    counted.clear()
    farm_hand_deals.decide(observation, legal, random.Random(1), FAR, 4000)
    assert counted == [quick, farm_hand_deals.WORLDS]  # at most WORLDS


def test_the_same_chance_gives_the_same_answer():
    state = unit_for("farm-hand").engine.new_game(1, 11)
    while state.observation(0)["hand_size"] < 4:
        state.apply({0: state.legal_actions(0)[0]})
    observation, legal = state.observation(0), state.legal_actions(0)
    answers = set()
    for _ in range(2):
        rng = random.Random(4)
        answers.add((farm_hand_deals.decide(observation, legal, rng, FAR), rng.random()))
    assert len(answers) == 1


def test_one_forked_seek_line_scores_every_bid_as_its_own_line_would():
    # the bid search plays the rest of the round by seek for all bids at once
    # (forking a ducking line at each trick won); a line per bid must agree
    # (bids are searched solitaire only)
    engine, rng, compared = unit_for("farm-hand").engine, random.Random(2), 0
    for seed in (8, 9):
        state = engine.new_game(1, seed)
        while state.to_act():
            seat = state.to_act()[0]
            observation = state.observation(seat)
            if observation["phase"] == "play" and len(observation["hand"]) > 1:
                rnd = farm_hand_deals._Round(observation, FAR)
                hand = [farm_hand_deals.CARD_ID[code] for code in observation["hand"]]
                bids = range(observation["hand_size"] + 1)
                (worlds,) = farm_hand_deals._worlds(rnd, observation, rng, 2).values()
                for world in worlds:
                    each = [
                        farm_hand_deals._seek_values(rnd, [world], hand, range(bid, bid + 1))[0]
                        for bid in bids
                    ]
                    assert farm_hand_deals._seek_values(rnd, [world], hand, bids) == each
                    compared += 1
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    assert compared > 20


def test_the_three_card_winner_table_agrees_with_the_trick_rule():
    # the solve looks every trick up by its card ids; the rules' examples and
    # every other three-card trick must come out as the engine's rule says
    from engines.farm_hand.cards import CARD_NUMBER, DECK_SIZE, card, trick_winner

    assert farm_hand_deals._winner([card("blue4"), card("green6"), card("blue1")]) == 1
    assert farm_hand_deals._winner([card("green3"), card("blue3"), card("orange2")]) == 2
    assert farm_hand_deals._winner([card("green3"), card("blue3")]) is None  # other sizes: the rule
    for first in range(DECK_SIZE):
        for second in range(DECK_SIZE):
            for third in range(DECK_SIZE):
                trick = [first, second, third]
                assert farm_hand_deals._winner(trick) == trick_winner(
                    [CARD_NUMBER[c] for c in trick]
                )


def test_a_single_world_is_searched_as_a_group_of_one_would_be(monkeypatch):
    # groups of one deal (most, a few tricks in) skip the grouping; their
    # values must be those of the grouped search, at every depth
    engine, rng, compared = unit_for("farm-hand").engine, random.Random(3), 0
    for seed in (4, 5):
        state = engine.new_game(1, seed)
        while state.to_act():
            observation = state.observation(0)
            if observation["phase"] == "play" and len(observation["hand"]) > 2:
                rnd = farm_hand_deals._Round(observation, FAR)
                hand = [farm_hand_deals.CARD_ID[code] for code in observation["hand"]]
                bids = range(observation["hand_size"] + 1)
                (worlds,) = farm_hand_deals._worlds(rnd, observation, rng, 3).values()
                for world in worlds:
                    for turns in (1, 2, 5):
                        alone = farm_hand_deals._one_values(rnd, [world], hand, bids, turns)
                        with monkeypatch.context() as grouped_only:  # grouped at every depth
                            grouped_only.setattr(
                                farm_hand_deals, "_one_values", farm_hand_deals._values
                            )
                            assert farm_hand_deals._values(rnd, [world], hand, bids, turns) == alone
                        compared += 1
            state.apply({0: rng.choice(state.legal_actions(0))})
    assert compared > 30


def test_by_the_clock_the_batches_finished_in_time_decide_summed(monkeypatch):
    # the quick solve and the first and last batches favour bid 1, the middle
    # batch bid 0 by more than they do together; a fourth batch runs past the
    # deadline: the sum of the three finished batches (bid 0) decides
    observation, legal = first_round(1, [["red1"], ["blue6"], ["green5"]])
    answers = iter([[0, 9], [0, 2], [9, 0], [0, 2]])  # the quick solve, then batches

    def solve(rnd, observation, legal, rng, count, turns=farm_hand_deals.TURNS):
        for answer in answers:
            return answer
        raise farm_hand_deals._OutOfTime

    monkeypatch.setattr(farm_hand_deals, "_solve", solve)
    assert farm_hand_deals.decide(observation, legal, random.Random(1), FAR) == legal[0]
    # control: when the deadline ends the first batch, the quick answer stands
    answers = iter([[0, 9]])
    assert farm_hand_deals.decide(observation, legal, random.Random(1), FAR) == legal[1]


def test_a_bid_is_valued_by_play_that_sees_the_dummies_leads_first():
    # where a dummy leads, the player chooses its first card after seeing the
    # lead: at a bid the deals are grouped by those leads, every deal of a
    # group at the same trick (so the same cards follow suit), and each
    # group searched apart; where the player leads, one group of all deals
    engine, rng, led, split = unit_for("farm-hand").engine, random.Random(7), 0, 0
    for seed in range(6):
        state = engine.new_game(1, seed)
        while state.to_act():
            observation, legal = state.observation(0), state.legal_actions(0)
            if observation["phase"] == "bid" and len(observation["hand"]) > 1:
                rnd = farm_hand_deals._Round(observation, FAR)
                hand = [farm_hand_deals.CARD_ID[code] for code in observation["hand"]]
                groups = farm_hand_deals._worlds(rnd, observation, rng, 40)
                for shown, worlds in groups.items():
                    assert {tuple(trick) for _, _, trick, _ in worlds} == {shown}
                assert sum(map(len, groups.values())) == 40
                values = farm_hand_deals.bid_values(rnd, groups, hand, range(len(legal)), 2)
                assert values == [
                    sum(column)
                    for column in zip(
                        *(
                            farm_hand_deals._values(rnd, worlds, hand, range(len(legal)), 2)
                            for worlds in groups.values()
                        )
                    )
                ]
                if observation["leader"] == 0:
                    assert list(groups) == [()]
                    led += 1
                else:
                    split += len(groups) > 1  # the leads differ between deals
            state.apply({0: legal[0]})
    assert led and split
