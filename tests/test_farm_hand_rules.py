"""Farm Hand rules: the rules page's examples, hand-built positions and rulings."""

import random

import msgpack
import pytest

from arena.game import IllegalAction
from engines.farm_hand import FarmHand
from engines.farm_hand.cards import (
    CARD_CODE,
    CARD_NUMBER,
    DECK_SIZE,
    HAND_SIZES,
    SUIT_NUMBERS,
    round_score,
    trick_winner,
)
from engines.farm_hand.game import BID, OVER, PLAY

ENGINE = FarmHand()


def at_round(players, round_number, seed=0):
    """A fresh game moved to the bidding of ``round_number`` (dealer rotated)."""
    state = ENGINE.new_game(players, seed)
    state._round = round_number
    state._dealer = (round_number - 1) % state._table
    state._deal()
    return state


def play(state, *codes):
    for code in codes:
        (seat,) = state.to_act()
        state.apply({seat: code})


def test_deck_matches_the_ruling():
    assert DECK_SIZE == 21
    assert sorted(CARD_NUMBER) == sorted(list(range(1, 8)) * 3)
    assert SUIT_NUMBERS["blue"] == (1, 2, 3, 4, 5, 6)
    assert SUIT_NUMBERS["purple"] == (7,)
    assert len(set(CARD_CODE)) == 21 and "green7" in CARD_CODE and "red4" in CARD_CODE


def bidding_views(players, seed=0):
    """Seat 0's view at the bidding of each of the six rounds of a random game."""
    state = ENGINE.new_game(players, seed)
    rng = random.Random(seed)
    views = []
    while state.to_act() and len(views) < 6:
        obs = state.observation(0)
        if obs["phase"] == BID:
            views.append(obs)
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    return views


@pytest.mark.parametrize(
    "players, sizes",
    [
        (1, [1, 2, 3, 4, 5, 6]),
        (2, [1, 2, 3, 4, 5, 6]),
        (3, [1, 2, 3, 4, 5, 6]),
        (4, [1, 2, 3, 4, 5, 5]),
        (5, [1, 2, 3, 4, 4, 4]),
    ],
)
def test_cards_dealt_per_hand_follow_the_round_table(players, sizes):
    # the rules page's table, by hands at the table (dummies included)
    views = bidding_views(players)
    assert [obs["round"] for obs in views] == [1, 2, 3, 4, 5, 6]
    assert [obs["hand_size"] for obs in views] == sizes
    assert [len(obs["hand"]) for obs in views] == sizes
    assert [[len(suits) for suits in obs["hand_suits"]] for obs in views] == [
        [size] * max(players, 3) for size in sizes
    ]


def test_dummy_bids_follow_the_fixed_table_every_round():
    mac, donald = [0, 1, 0, 2, 0, 3], [1, 0, 1, 0, 2, 0]
    views = bidding_views(1)
    assert [obs["bids"] for obs in views] == [[None, m, d] for m, d in zip(mac, donald)]
    views = bidding_views(2)
    assert [obs["bids"] for obs in views] == [[None, None, m] for m in mac]


def test_trick_winner_rule():
    assert trick_winner([4, 6, 1]) == 1
    assert trick_winner([3, 3, 2]) == 2
    assert trick_winner([5, 5, 5]) is None
    assert trick_winner([2, 6, 2, 6]) is None
    assert trick_winner([7, 7, 1, 6, 6]) == 2


def test_both_trick_examples_from_the_rulebook():
    # Round 2, 3 players: dealer is seat 1, so seat 2 (Alex) leads; clockwise
    # Dev (seat 0) then Lee (seat 1).
    state = at_round(3, 2)
    alex, dev, lee = 2, 0, 1
    state.set_hands([["green6", "green3"], ["blue1", "blue3"], ["blue4", "orange2"]])
    state.apply({0: 1, 1: 0, 2: 1})
    assert state.to_act() == (alex,)
    play(state, "blue4")
    assert state.legal_actions(dev) == ["green3", "green6"]  # no blue: anything
    play(state, "green6")
    assert state.legal_actions(lee) == ["blue1", "blue3"]  # must follow blue
    play(state, "blue1")
    obs = state.observation(alex)
    assert obs["tricks"] == [{"leader": alex, "cards": ["blue4", "green6", "blue1"], "winner": dev}]
    assert obs["won"] == [1, 0, 0]
    # Dev leads the next trick with the green 3; the two 3s cancel, Alex's 2 wins.
    assert state.to_act() == (dev,)
    play(state, "green3")
    assert state.legal_actions(lee) == ["blue3"]
    play(state, "blue3")
    assert state.legal_actions(alex) == ["orange2"]
    assert state.observation(dev)["trick"] == ["green3", "blue3"]
    play(state, "orange2")
    obs = state.observation(dev)
    # round over: every bid met (Dev 1, Lee 0, Alex 1) scores the round number 2
    assert obs["history"][0]["won"] == [1, 0, 1]
    assert obs["history"][0]["points"] == [2, 2, 2]
    assert obs["scores"] == [2, 2, 2]
    assert obs["round"] == 3 and obs["phase"] == BID


def test_round_four_scoring_example():
    assert [
        round_score(3, 3, 4),
        round_score(2, 0, 4),
        round_score(0, 1, 4),
        round_score(0, 0, 4),
    ] == [4, -2, -1, 4]
    assert round_score(1, 3, 5) == -2 and round_score(3, 1, 5) == -2
    # The same round played out: 4 players, round 4, dealer seat 3, Alex (seat 0) leads.
    state = at_round(4, 4)
    state.set_hands(
        [
            ["purple7", "green7", "orange7", "red1"],  # Alex
            ["blue1", "blue2", "blue3", "yellow2"],  # Lee
            ["blue6", "green3", "green4", "orange1"],  # Taylor
            ["blue4", "blue5", "yellow3", "yellow5"],  # Dev
        ]
    )
    state.apply({0: 3, 1: 2, 2: 0, 3: 0})
    play(state, "purple7", "blue1")
    assert state.legal_actions(2) == ["blue6", "green3", "green4", "orange1"]  # no purple
    play(state, "green3", "yellow3")
    play(state, "green7", "blue2")
    assert state.legal_actions(2) == ["green4"]  # must follow green
    play(state, "green4", "blue4")
    play(state, "orange7", "blue3", "orange1", "yellow5")
    play(state, "red1", "yellow2", "blue6", "blue5")
    obs = state.observation(0)
    assert obs["tricks"] == [] and obs["round"] == 5  # a new round has been dealt
    last = obs["history"][-1]
    assert last["round"] == 4
    assert last["bids"] == [3, 2, 0, 0]
    assert last["won"] == [3, 0, 1, 0]
    assert last["points"] == [4, -2, -1, 4]
    assert obs["scores"] == [4, -2, -1, 4]


def test_follow_suit_legality_and_illegal_moves_rejected():
    state = at_round(3, 3)
    # dealer seat 2, seat 0 leads
    state.set_hands(
        [
            ["blue2", "green5", "red4"],
            ["blue5", "blue6", "yellow3"],
            ["orange1", "orange2", "purple7"],
        ]
    )
    with pytest.raises(IllegalAction):
        state.apply({0: 4, 1: 0, 2: 0})  # bid above the hand size
    with pytest.raises(IllegalAction):
        state.apply({0: 1, 1: 0})  # a seat missing
    assert state.legal_actions(0) == [0, 1, 2, 3]
    state.apply({0: 1, 1: 1, 2: 1})
    assert state.to_act() == (0,)
    assert state.legal_actions(0) == ["blue2", "green5", "red4"]  # the leader plays anything
    play(state, "blue2")
    assert state.legal_actions(1) == ["blue5", "blue6"]
    with pytest.raises(IllegalAction):
        state.apply({1: "yellow3"})  # must follow blue
    with pytest.raises(IllegalAction):
        state.apply({2: "orange1"})  # not this seat's turn
    with pytest.raises(IllegalAction):
        state.apply({1: "green5"})  # not in hand
    play(state, "blue6")
    assert state.legal_actions(2) == ["orange1", "orange2", "purple7"]  # void in blue
    play(state, "purple7")
    assert state.to_act() == (2,)  # the 7 won


def test_everything_cancels_and_the_same_player_leads_again():
    state = at_round(3, 2)
    state.set_hands([["green3", "blue6"], ["yellow3", "red1"], ["blue3", "orange2"]])
    state._leader = 0  # hand-built position: seat 0 leads this round
    state.apply({0: 0, 1: 1, 2: 1})
    play(state, "green3")
    assert state.legal_actions(1) == ["yellow3", "red1"]  # void in green (suit order)
    play(state, "yellow3", "blue3")  # three 3s: all cancel
    obs = state.observation(1)
    assert obs["tricks"] == [{"leader": 0, "cards": ["green3", "yellow3", "blue3"], "winner": None}]
    assert obs["won"] == [0, 0, 0]
    assert obs["leader"] == 0 and state.to_act() == (0,)  # same player leads again
    play(state, "blue6", "red1", "orange2")
    obs = state.observation(1)
    assert obs["history"][-1]["won"] == [1, 0, 0]
    assert obs["history"][-1]["points"] == [-1, -1, -1]


def test_two_pairs_cancel_with_four_players():
    state = at_round(4, 1)  # dealer 0, seat 1 leads
    state.set_hands([["blue2"], ["green6"], ["orange2"], ["orange6"]])
    state.apply({0: 0, 1: 1, 2: 0, 3: 0})
    play(state, "green6", "orange2", "orange6", "blue2")
    last = state.observation(0)["history"][-1]
    assert last["won"] == [0, 0, 0, 0]
    assert last["points"] == [1, -1, 1, 1]


def test_dummy_mac_bids_and_plays_with_two_players():
    state = ENGINE.new_game(2, 5)
    obs = state.observation(0)
    assert obs["table"] == 3 and obs["dummies"] == ["mac"]
    assert obs["bids"] == [None, None, 0]  # Mac's round-1 bid is public from the start
    assert state.to_act() == (0, 1)
    # round 2: Mac (table seat 2) leads with his top-most card
    state = at_round(2, 2)
    state.set_hands([["blue1", "blue2"], ["green3", "yellow5"], ["orange7", "blue6"]])
    obs = state.observation(0)
    assert obs["bids"] == [None, None, 1]
    assert obs["hand_suits"][2] == ["orange", "blue"]  # in hand order
    assert obs["hand_suits"][1] == ["green", "yellow"]
    assert obs["hand"] == ["blue1", "blue2"]
    state.apply({0: 0, 1: 1})
    assert state.to_act() == (0,)
    assert state.observation(0)["trick"] == ["orange7"]
    assert state.observation(1)["bids"] == [0, 1, 1]
    play(state, "blue1", "green3")  # Mac won with the 7 and leads blue6 at once
    assert state.observation(0)["trick"] == ["blue6"]
    assert state.to_act() == (0,)
    play(state, "blue2", "yellow5")  # 6 wins
    last = state.observation(0)["history"][-1]
    assert last["won"] == [0, 0, 2]
    assert last["points"] == [2, -1, -1]


def test_dummy_follows_with_its_top_most_card_of_the_led_suit():
    state = at_round(2, 3)  # dealer 2 (Mac), seat 0 leads, Mac plays third
    state.set_hands(
        [
            ["blue1", "green3", "red1"],
            ["yellow2", "yellow3", "yellow5"],
            ["orange7", "blue5", "green4"],
        ]
    )
    state.apply({0: 0, 1: 0})
    play(state, "green3", "yellow2")
    # Mac must follow green: green4, not the top-most orange7
    assert state.observation(0)["tricks"][0]["cards"] == ["green3", "yellow2", "green4"]
    # the 4 won, so Mac leads the next trick at once with his top-most card
    assert state.observation(0)["trick"] == ["orange7"]
    assert state.observation(0)["hand_suits"][2] == ["blue"]
    assert state.to_act() == (0,)


def test_solitaire_dummies_bid_and_play():
    state = ENGINE.new_game(1, 3)
    obs = state.observation(0)
    assert obs["dummies"] == ["mac", "donald"] and obs["table"] == 3
    assert obs["bids"] == [None, 0, 1]
    assert state.to_act() == (0,)
    assert obs["leader"] == 1  # Mac leads round 1
    state.set_hands([["blue3"], ["green5"], ["orange6"]])
    state.apply({0: 0})
    # Mac led, Donald played, now the player completes the trick
    assert state.observation(0)["trick"] == ["green5", "orange6"]
    play(state, "blue3")
    last = state.observation(0)["history"][-1]
    assert last["bids"] == [0, 0, 1] and last["won"] == [0, 0, 1]
    assert last["points"] == [1, 1, 1]
    round2 = state.observation(0)
    assert round2["bids"] == [None, 1, 0] and round2["leader"] == 2


def round_leaders(players, seed=0):
    state = ENGINE.new_game(players, seed)
    rng = random.Random(seed)
    leaders, dealers = [], []
    while state.to_act():
        obs = state.observation(0)
        if obs["phase"] == BID and len(leaders) < 6:
            leaders.append(obs["leader"])
            dealers.append(obs["dealer"])
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    return leaders, dealers


def test_leaders_for_two_players_and_solitaire():
    # 2 players: Mac (table seat 2) leads rounds 2 and 5
    leaders, dealers = round_leaders(2)
    assert leaders == [1, 2, 0, 1, 2, 0]
    assert dealers == [0, 1, 2, 0, 1, 2]
    # solitaire: Mac (1) leads rounds 1 and 4, Donald (2) 2 and 5, the player 3 and 6
    leaders, _ = round_leaders(1)
    assert leaders == [1, 2, 0, 1, 2, 0]
    assert round_leaders(4)[0] == [1, 2, 3, 0, 1, 2]
    assert round_leaders(5)[0] == [1, 2, 3, 4, 0, 1]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_card_conservation_and_deal_sizes(players):
    table = max(players, 3)
    rng = random.Random(players)
    for seed in range(120):
        state = ENGINE.new_game(players, seed)
        dealt = None
        rounds_seen = []
        while state.to_act():
            hands = state._hands
            played = [c for _, cards, _ in state._tricks for c in cards] + state._trick
            cards = [c for hand in hands for c in hand] + played
            assert len(cards) == len(set(cards)), "a card is in two places"
            if state._phase == BID:
                size = HAND_SIZES[table][state._round - 1]
                assert [len(hand) for hand in hands] == [size] * table
                assert not played
                dealt = set(cards)
                assert len(dealt) == size * table <= 21
                rounds_seen.append(state._round)
            else:
                assert set(cards) == dealt  # nothing appears or vanishes mid-round
                sizes = {
                    len(hand) + (1 if (seat - state._leader) % table < len(state._trick) else 0)
                    for seat, hand in enumerate(hands)
                }
                assert len(sizes) == 1  # hands shrink one card per trick, in turn
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
        assert rounds_seen[:6] == [1, 2, 3, 4, 5, 6]
        assert all(r == 6 for r in rounds_seen[6:]) and len(rounds_seen) <= 9
        history = state.observation(0)["history"]
        assert len(history) == len(rounds_seen)
        totals = [sum(entry["points"][s] for entry in history) for s in range(table)]
        assert totals == state._scores
        for entry in history:
            size = HAND_SIZES[table][entry["round"] - 1]
            assert sum(entry["won"]) <= size
            for s in range(table):
                assert entry["points"][s] == round_score(
                    entry["bids"][s], entry["won"][s], entry["round"]
                )


def test_tie_break_replays_at_most_three():
    state = at_round(3, 6)
    state._scores = [10, 10, 4]
    state._bids = [1, 1, 0]
    state._won = [1, 1, 0]
    state._end_round()  # +6 each: 16, 16, 10 -> tie for first, replay round 6
    assert state._phase == BID and state._round == 6 and state._replay == 1
    obs = state.observation(0)
    assert obs["hand_size"] == 6 and obs["points"] == 6 and obs["dealer"] == 0
    for replay in (2, 3):
        state._bids, state._won = [1, 1, 1], [1, 1, 1]
        state._end_round()
        assert state._phase == BID and state._replay == replay
        assert state._dealer == (replay + 5) % 3  # the deal keeps passing clockwise
    state._bids, state._won = [0, 0, 0], [0, 0, 0]
    state._end_round()  # still tied after the third replay: they share first place
    assert state._phase == OVER and state.to_act() == ()
    outcome = state.outcome()
    assert outcome.scores == (34, 34, 28) and outcome.ranks == (1, 1, 3)
    assert len(state.observation(2)["history"]) == 4


def test_replay_breaks_the_tie_and_anyone_can_overtake():
    state = at_round(3, 6)
    state._scores = [10, 10, 8]
    state._bids, state._won = [0, 0, 0], [2, 0, 0]
    state._end_round()  # 8, 16, 14: seat 1 wins outright
    assert state._phase == OVER and state.outcome().ranks == (3, 1, 2)
    state = at_round(3, 6)
    state._scores = [10, 10, 8]
    state._bids, state._won = [0, 0, 0], [0, 0, 0]
    state._end_round()  # 16, 16, 14: replay
    state._bids, state._won = [1, 1, 0], [0, 2, 0]
    state._end_round()  # 15, 15, 20: the third player overtakes
    assert state._phase == OVER and state.outcome().ranks == (2, 2, 1)


def test_a_tie_with_a_dummy_is_replayed_and_dummies_are_ranked():
    state = at_round(2, 6)
    state._scores = [5, 3, 5]
    state._bids, state._won = [0, 0, 3], [0, 0, 3]
    state._end_round()  # 11, 9, 11: the player is tied with Mac
    assert state._phase == BID and state._replay == 1
    assert state.observation(0)["bids"] == [None, None, 3]  # Mac's round-6 bid again
    state._bids, state._won = [0, 0, 3], [1, 0, 3]
    state._end_round()  # 10, 15, 17
    outcome = state.outcome()
    assert outcome.ranks == (3, 2)
    assert [(d.name, d.score, d.rank) for d in outcome.dummies] == [("mac", 17, 1)]


def test_random_games_replay_only_on_ties_and_rank_dummies():
    rng = random.Random(7)
    replays_seen = 0
    for seed in range(300):
        players = 1 + seed % 5
        state = ENGINE.new_game(players, seed)
        while state.to_act():
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
        history = state.observation(0)["history"]
        replays = len(history) - 6
        assert 0 <= replays <= 3
        replays_seen += replays
        scores = state._scores
        if replays < 3:
            assert scores.count(max(scores)) == 1
        outcome = state.outcome()
        names = [d.name for d in outcome.dummies]
        assert names == {1: ["mac", "donald"], 2: ["mac"]}.get(players, [])
        assert list(outcome.scores) + [d.score for d in outcome.dummies] == scores
    assert replays_seen > 0


def test_observation_hides_numbers_and_sampling_keeps_suits():
    rng = random.Random(3)
    for seed in range(60):
        players = 1 + seed % 5
        state = ENGINE.new_game(players, seed)
        while state.to_act():
            seat = rng.randrange(players)
            obs = state.observation(seat)
            for other, suits in enumerate(obs["hand_suits"]):
                assert suits == [CARD_CODE[c].rstrip("1234567") for c in state._hands[other]]
            text = repr({k: v for k, v in obs.items() if k != "hand"})
            for other in range(state._table):
                if other != seat:
                    for card in state._hands[other]:
                        assert CARD_CODE[card] not in text  # no number of a hidden card
            sampled = ENGINE.sample_state(obs, random.Random(seed))
            assert sampled.observation(seat) == obs
            assert sampled._hands[seat] == state._hands[seat]
            played = {c for _, cards, _ in state._tricks for c in cards} | set(state._trick)
            hidden = [c for h in sampled._hands for c in h]
            assert len(hidden) == len(set(hidden)) and not played & set(hidden)
            if obs["phase"] == PLAY and seat in state.to_act():
                assert sampled.legal_actions(seat) == state.legal_actions(seat)
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})


def test_same_seed_same_game_and_clone_is_independent():
    def run(seed):
        state = ENGINE.new_game(4, seed)
        rng = random.Random(seed)
        while state.to_act():
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
        return state.observation(0)

    assert run(11) == run(11)
    state = ENGINE.new_game(3, 2)
    copy = state.clone()
    before = state.observation(1)
    copy.apply({0: 1, 1: 1, 2: 1})
    rng = random.Random(0)
    while copy.to_act():
        copy.apply({s: rng.choice(copy.legal_actions(s)) for s in copy.to_act()})
    assert state.observation(1) == before


def test_only_the_seats_to_act_have_legal_actions():
    state = at_round(2, 2)
    state.set_hands([["blue1", "blue2"], ["green3", "yellow5"], ["orange7", "blue6"]])
    # bidding: both bots bid at once; Mac's seat (table seat 2) is the engine's
    assert state.legal_actions(0) == state.legal_actions(1) == [0, 1, 2]
    assert state.legal_actions(2) == []
    state.apply({0: 0, 1: 1})
    (seat,) = state.to_act()
    assert state.legal_actions(seat) == ["blue1", "blue2"]
    assert state.legal_actions(1 - seat) == []
    assert state.legal_actions(2) == []


def test_no_seat_has_legal_actions_once_the_game_is_over():
    state = ENGINE.new_game(3, 8)
    rng = random.Random(8)
    while acting := state.to_act():
        state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in acting})
    assert [state.legal_actions(seat) for seat in range(3)] == [[], [], []]


def test_set_hands_wants_one_hand_of_the_round_size_per_table_seat():
    state = at_round(2, 2)  # a table of three (Mac), two cards each
    with pytest.raises(ValueError, match="need 3 hands of 2 cards"):
        state.set_hands([["blue1", "blue2"], ["green3", "yellow5"]])
    with pytest.raises(ValueError, match="need 3 hands of 2 cards"):
        state.set_hands(
            [["blue1", "blue2"], ["green3", "yellow5"], ["orange7", "blue6"], ["green5", "green6"]]
        )
    with pytest.raises(ValueError, match="need 3 hands of 2 cards"):
        state.set_hands([["blue1", "blue2"], ["green3"], ["orange7", "blue6"]])
    with pytest.raises(ValueError, match="dealt twice"):
        state.set_hands([["blue1", "blue2"], ["green3", "blue1"], ["orange7", "blue6"]])
    state.apply({0: 0, 1: 0})
    with pytest.raises(ValueError, match="before bidding"):
        state.set_hands([["blue1", "blue2"], ["green3", "yellow5"], ["orange7", "blue6"]])


def test_the_leak_audit_is_given_every_other_hand_dummies_included():
    state = at_round(2, 2)
    state.set_hands([["blue1", "blue2"], ["green3", "yellow5"], ["orange7", "blue6"]])
    assert state.secrets(0) == [["green3", "yellow5"], ["orange7", "blue6"]]
    assert state.secrets(1) == [["blue1", "blue2"], ["orange7", "blue6"]]
    assert state.secrets(2) == [["blue1", "blue2"], ["green3", "yellow5"]]


def test_farm_hand_is_a_simultaneous_bidding_game():
    assert FarmHand.info.simultaneous and FarmHand.info.players == (1, 2, 3, 4, 5)


def test_a_second_seat_with_the_card_play_is_refused():
    state = at_round(3, 1)  # dealer 0: seat 1 leads
    state.set_hands([["blue1"], ["green3"], ["orange6"]])
    state.apply({0: 0, 1: 0, 2: 0})
    with pytest.raises(IllegalAction, match=r"seat 1 is to act, got seats \[1, 2\]"):
        state.apply({1: "green3", 2: "orange6"})
    assert state.observation(0)["trick"] == []


def test_sampled_state_from_a_wire_observation_bids_like_the_real_one():
    # an observation as a bot receives it (msgpack-decoded: new string objects)
    state = at_round(3, 2)
    obs = msgpack.unpackb(msgpack.packb(state.observation(0)), strict_map_key=False)
    sampled = ENGINE.sample_state(obs, random.Random(1))
    assert sampled.legal_actions(0) == [0, 1, 2]
    sampled.set_hands([["blue1", "blue2"], ["green3", "green4"], ["red1", "red4"]])
    assert sampled.observation(0)["hand"] == ["blue1", "blue2"]


def test_sampled_states_shuffle_their_later_rounds_each_their_own_way():
    obs = at_round(3, 2).observation(0)
    draws = {ENGINE.sample_state(obs, random.Random(seed))._rng.random() for seed in range(200)}
    assert len(draws) > 150
