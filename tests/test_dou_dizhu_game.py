"""Dou Dizhu engine: auction, play, scoring (spring / anti-spring), sampling,
random-game properties and the arena conformance check."""

import random

import pytest

from arena.game import IllegalAction, OptionError, PlayerCountError
from arena.game.testing import check_engine
from engines.dou_dizhu import DouDizhu, moves as M, state_from_hands

ENGINE = DouDizhu()


def bid_sequence(seed, bids):
    """Play the bids (ints) from the first bidder on; return the state."""
    state = ENGINE.new_game(3, seed)
    first = state.observation(0)["first_bidder"]
    for i, value in enumerate(bids):
        seat = (first + i) % 3
        assert state.to_act() == (seat,)
        state.step(seat, f"bid:{value}")
    return state, first


# ------------------------------------------------------------------ auction
def test_deal_sizes_and_hidden_bottom():
    state = ENGINE.new_game(3, 1)
    obs = [state.observation(s) for s in range(3)]
    assert [len(o["hand"]) for o in obs] == [17, 17, 17]
    assert all(o["bottom"] is None and o["landlord"] is None for o in obs)
    assert obs[0]["phase"] == "auction"
    assert state.legal_actions(state.to_act()[0]) == ["bid:0", "bid:1", "bid:2", "bid:3"]
    total = [sum(x) for x in zip(*(M.counts_of(o["hand"]) for o in obs))]
    assert sum(total) == 51 and all(n <= 4 for n in total)


def test_first_bidder_varies_with_seed():
    firsts = {ENGINE.new_game(3, seed).observation(0)["first_bidder"] for seed in range(30)}
    assert firsts == {0, 1, 2}


def test_bid_three_ends_at_once_and_landlord_takes_bottom():
    state, first = bid_sequence(2, [3])
    obs = state.observation(first)
    assert obs["phase"] == "play" and obs["landlord"] == first and obs["bid"] == 3
    assert len(obs["hand"]) == 20 and len(obs["bottom"]) == 3
    assert obs["hand_sizes"][first] == 20
    # the bottom is public: every seat sees the same three cards
    assert {state.observation(s)["bottom"] for s in range(3)} == {obs["bottom"]}
    assert state.to_act() == (first,)
    assert "pass" not in state.legal_actions(first)


def test_two_passes_after_a_bid_end_the_auction():
    state, first = bid_sequence(3, [1, 0, 0])
    assert state.observation(0)["landlord"] == first
    state, first = bid_sequence(3, [0, 1, 0, 0])
    assert state.observation(0)["landlord"] == (first + 1) % 3
    state, first = bid_sequence(3, [0, 0, 2, 0, 0])
    assert state.observation(0)["landlord"] == (first + 2) % 3
    assert state.observation(0)["bid"] == 2


def test_bids_must_rise_and_a_passer_may_bid_again():
    state, first = bid_sequence(4, [1, 0])
    seat = state.to_act()[0]
    assert state.legal_actions(seat) == ["bid:0", "bid:2", "bid:3"]
    with pytest.raises(IllegalAction):
        state.step(seat, "bid:1")
    state.step(seat, "bid:2")
    # the first bidder passes, then the second (who passed before) bids 3
    state.step(first, "bid:0")
    assert state.to_act() == ((first + 1) % 3,)
    assert state.legal_actions((first + 1) % 3) == ["bid:0", "bid:3"]
    state.step((first + 1) % 3, "bid:3")
    obs = state.observation(0)
    assert obs["landlord"] == (first + 1) % 3 and obs["bid"] == 3
    assert obs["bids"] == [1, 0, 2, 0, 3]


def test_one_pass_after_a_bid_does_not_end_the_auction():
    state, _ = bid_sequence(5, [1, 0])
    assert state.observation(0)["phase"] == "auction"
    state, _ = bid_sequence(5, [0, 1, 0])
    assert state.observation(0)["phase"] == "auction"


def test_all_pass_redeals_and_three_redeals_draw():
    state, _ = bid_sequence(6, [0, 0])
    hand = state.observation(0)["hand"]
    state.step(state.to_act()[0], "bid:0")
    obs = state.observation(0)
    assert obs["phase"] == "auction" and obs["redeals"] == 1 and obs["bids"] == []
    assert len(obs["hand"]) == 17 and obs["hand"] != hand  # a fresh deal
    for round_ in (2, 3):
        for _ in range(3):
            state.step(state.to_act()[0], "bid:0")
        if round_ == 2:
            assert state.observation(0)["redeals"] == 2 and state.to_act()
    assert state.to_act() == ()
    assert state.observation(1)["redeals"] == 3
    outcome = state.outcome()
    assert outcome.scores == (0, 0, 0) and outcome.ranks == (1, 1, 1)
    with pytest.raises(IllegalAction):
        state.step(0, "bid:1")


def test_redeal_then_bid_plays_normally():
    state, first = bid_sequence(7, [0, 0, 0])
    first = state.observation(0)["first_bidder"]
    state.step(first, "bid:1")
    state.step((first + 1) % 3, "bid:0")
    state.step((first + 2) % 3, "bid:0")
    assert state.observation(0)["landlord"] == first
    assert state.observation(0)["redeals"] == 1


def test_only_three_players_and_no_options():
    with pytest.raises(PlayerCountError):
        ENGINE.new_game(4, 0)
    with pytest.raises(OptionError):
        ENGINE.new_game(3, 0, {"nonsense": 1})


# ------------------------------------------------------------------ play
def test_pass_rules_and_new_lead_after_two_passes():
    state = state_from_hands(["345KK", "6A2", "789"], landlord=0)
    with pytest.raises(IllegalAction):
        state.step(0, "pass")  # the leader may not pass
    with pytest.raises(IllegalAction):
        state.step(0, "35")  # not a combination
    state.step(0, "KK")
    assert state.legal_actions(1) == ["pass"]
    state.step(1, "pass")
    state.step(2, "pass")
    # the landlord leads again, anything
    assert "pass" not in state.legal_actions(0)
    state.step(0, "3")
    assert state.legal_actions(1) == ["pass", "6", "A", "2"]
    state.step(1, "6")
    assert state.legal_actions(2) == ["pass", "7", "8", "9"]
    state.step(2, "pass")
    assert state.legal_actions(0) == ["pass"]
    state.step(0, "pass")
    # seat 1 won the trick and leads
    assert state.to_act() == (1,)
    assert "pass" not in state.legal_actions(1)


def test_peasants_win_plain():
    state = state_from_hands(["3345", "6K", "7"], landlord=0, bid=2)
    state.step(0, "33")
    state.step(1, "pass")
    state.step(2, "pass")
    state.step(0, "4")
    state.step(1, "6")
    state.step(2, "7")  # seat 2 is out: the peasants win together
    assert state.to_act() == ()
    out = state.outcome()
    # the landlord played two combinations: no anti-spring; no bombs
    assert out.scores == (-4, 2, 2)
    assert out.teams[1] == out.teams[2] != out.teams[0]
    assert out.ranks == (3, 1, 1)
    assert state.observation(0)["winner"] == 2


def test_spring_doubles():
    state = state_from_hands(["33BR", "6", "7"], landlord=0, bid=2)
    state.step(0, "BR")  # rocket: x2
    state.step(1, "pass")
    state.step(2, "pass")
    state.step(0, "33")
    out = state.outcome()
    # multiplier 2 (rocket) x 2 (spring): peasants lose 2 x 4 each
    assert out.scores == (16, -8, -8)
    assert out.ranks == (1, 2, 2)
    assert state.observation(1)["multiplier"] == 4


def test_no_spring_when_a_peasant_played():
    state = state_from_hands(["3K", "6Q", "789"], landlord=0, bid=3)
    state.step(0, "3")
    state.step(1, "6")
    state.step(2, "pass")
    state.step(0, "K")  # the landlord is out, but a peasant played a card
    assert state.outcome().scores == (6, -3, -3)


def test_anti_spring_doubles():
    state = state_from_hands(["3456", "2", "7"], landlord=0, bid=1)
    state.step(0, "3")
    state.step(1, "2")  # a peasant goes out after the landlord's opening lead only
    out = state.outcome()
    assert out.scores == (-4, 2, 2)
    # with a bomb as well: 1 x 2 (bomb) x 2 (anti-spring)
    state = state_from_hands(["345679", "8888", "K"], landlord=0, bid=3)
    state.step(0, "34567")
    state.step(1, "8888")
    assert state.outcome().scores == (-24, 12, 12)


def test_bombs_double_each():
    state = state_from_hands(["4444BR9", "35555", "66"], landlord=0, bid=1)
    state.step(0, "4444")
    state.step(1, "5555")
    state.step(2, "pass")
    state.step(0, "BR")
    state.step(1, "pass")
    state.step(2, "pass")
    state.step(0, "9")
    # 3 bombs/rockets -> x8; landlord won and peasant 1 played: no spring
    assert state.outcome().scores == (16, -8, -8)


def test_four_with_two_is_not_a_bomb_for_the_multiplier():
    state = state_from_hands(["444456", "3", "7"], landlord=0, bid=1)
    state.step(0, "444456")
    out = state.outcome()
    assert out.scores == (4, -2, -2)  # spring only


# ------------------------------------------------------------------ sampling
def test_sampled_landlord_keeps_unplayed_bottom_cards():
    state, first = bid_sequence(11, [3])
    peasant = (first + 1) % 3
    obs = state.observation(peasant)
    bottom = M.counts_of(obs["bottom"])
    rng = random.Random(0)
    hands = set()
    for _ in range(50):
        sample = ENGINE.sample_state(obs, rng)
        assert sample.observation(peasant) == obs
        lord_hand = M.counts_of(sample.hand(first))
        assert all(lord_hand[r] >= bottom[r] for r in range(15))
        hands.add(sample.hand(first))
    assert len(hands) > 40


def test_sampling_conserves_cards_mid_game():
    rng = random.Random(9)
    for game in range(40):
        state = ENGINE.new_game(3, 300 + game)
        for _ in range(rng.randrange(4, 30)):
            if not state.to_act():
                break
            seat = state.to_act()[0]
            state.step(seat, rng.choice(state.legal_actions(seat)))
        for seat in range(3):
            obs = state.observation(seat)
            sample = ENGINE.sample_state(obs, rng)
            assert sample.observation(seat) == obs
            total = [0] * 15
            for s in range(3):
                for r, n in enumerate(M.counts_of(sample.hand(s))):
                    total[r] += n
            for action in obs["plays"]:
                if action != "pass":
                    for r, n in enumerate(M.counts_of(action)):
                        total[r] += n
            if obs["landlord"] is None:
                for r, n in enumerate(sample._bottom):
                    total[r] += n
            assert total == [4] * 13 + [1, 1]


# ------------------------------------------------------------------ properties
def test_random_games_conserve_cards_and_are_zero_sum():
    rng = random.Random(1)
    results = {"lord": 0, "peasants": 0, "draw": 0}
    for game in range(1500):
        state = ENGINE.new_game(3, game)
        bombs = 0
        while state.to_act():
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            if action not in ("pass",) and not action.startswith("bid"):
                bombs += M.INFO[action][4] > 0
            state.step(seat, action)
            if state.to_act() and state.observation(0)["phase"] == "play":
                obs = state.observation(0)
                played = sum(len(a) for a in obs["plays"] if a != "pass")
                assert sum(obs["hand_sizes"]) + played == 54
        out = state.outcome()
        assert sum(out.scores) == 0
        obs = state.observation(0)
        if obs["landlord"] is None:
            assert out.scores == (0, 0, 0) and obs["redeals"] == 3
            results["draw"] += 1
            continue
        lord = obs["landlord"]
        peasants = [s for s in range(3) if s != lord]
        assert out.scores[peasants[0]] == out.scores[peasants[1]]
        assert out.scores[lord] == -2 * out.scores[peasants[0]]
        unit = abs(out.scores[peasants[0]])
        assert unit % obs["bid"] == 0
        mult = unit // obs["bid"]
        assert mult in (1 << bombs, 2 << bombs)
        winner = obs["winner"]
        assert obs["hand_sizes"][winner] == 0
        assert sum(1 for n in obs["hand_sizes"] if n == 0) == 1
        if winner == lord:
            results["lord"] += 1
            assert out.scores[lord] > 0 and out.ranks[lord] == 1
        else:
            results["peasants"] += 1
            assert out.scores[lord] < 0 and out.ranks[lord] == 3
    assert min(results["lord"], results["peasants"]) > 300


def test_clone_is_independent():
    state = ENGINE.new_game(3, 42)
    rng = random.Random(2)
    for _ in range(20):
        seat = state.to_act()[0]
        state.step(seat, rng.choice(state.legal_actions(seat)))
    before = [state.observation(s) for s in range(3)]
    copy = state.clone()
    while copy.to_act():
        seat = copy.to_act()[0]
        copy.step(seat, rng.choice(copy.legal_actions(seat)))
    assert [state.observation(s) for s in range(3)] == before


def test_observation_hides_other_hands():
    state, first = bid_sequence(12, [1, 0, 0])
    obs = state.observation((first + 1) % 3)
    assert set(obs) >= {"seat", "hand", "hand_sizes", "bids", "bottom", "plays", "landlord"}
    others = [state.hand(s) for s in range(3) if s != (first + 1) % 3]
    for value in obs.values():
        assert value not in others


def test_conformance():
    report = check_engine(ENGINE, 1200, seed=7)
    assert report.games == 1200 and report.hidden_changes > 0


def test_sampling_finished_and_drawn_games():
    state = ENGINE.new_game(3, 6)
    while state.to_act():
        state.step(state.to_act()[0], "bid:0")
    for seat in range(3):
        obs = state.observation(seat)
        sample = ENGINE.sample_state(obs, random.Random(seat))
        assert sample.observation(seat) == obs and sample.to_act() == ()
        assert sample.outcome().scores == (0, 0, 0)
    rng = random.Random(3)
    for game in range(60):
        state = ENGINE.new_game(3, game)
        while state.to_act():
            seat = state.to_act()[0]
            state.step(seat, rng.choice(state.legal_actions(seat)))
        for seat in range(3):
            obs = state.observation(seat)
            sample = ENGINE.sample_state(obs, random.Random(game))
            assert sample.observation(seat) == obs
            assert sample.outcome() == state.outcome()


def test_clone_during_the_auction_keeps_future_redeals():
    state = ENGINE.new_game(3, 77)
    copy = state.clone()
    for s in (state, copy):
        for _ in range(3):
            s.step(s.to_act()[0], "bid:0")
    assert [state.observation(i) for i in range(3)] == [copy.observation(i) for i in range(3)]
    assert state.observation(0)["redeals"] == 1


def test_secrets_are_the_other_hands_and_the_unrevealed_bottom():
    state = ENGINE.new_game(3, 21)
    secrets = state.secrets(0)
    assert len(secrets) == 3  # two hands and the bottom
    assert sorted(len(s) for s in secrets) == [3, 17, 17]
    seat = state.to_act()[0]
    state.step(seat, "bid:3")
    secrets = state.secrets(seat)
    assert sorted(len(s) for s in secrets) == [17, 17]
    assert "".join(secrets[0]) in (state.hand((seat + 1) % 3), state.hand((seat + 2) % 3))


# ------------------------------------------------- found by mutation testing
def test_multiplier_during_play_doubles_per_bomb_and_teams_number_from_zero():
    # the landlord (seat 1) leads; before any bomb the multiplier is 1
    state = state_from_hands(["35555", "4444BR9", "66"], landlord=1, bid=1)
    assert state.landlord == 1
    assert [state.observation(s)["multiplier"] for s in range(3)] == [1, 1, 1]
    state.step(1, "4444")
    assert state.observation(0)["multiplier"] == 2
    state.step(2, "pass")
    state.step(0, "5555")
    assert state.observation(2)["multiplier"] == 4
    state.step(1, "BR")
    assert state.multiplier() == 8
    state.step(2, "pass")
    state.step(0, "pass")
    state.step(1, "9")
    out = state.outcome()
    assert out.scores == (-8, 16, -8)
    assert out.teams == (1, 0, 1)  # the landlord is team 0, the peasants team 1


def test_landlord_is_none_until_the_auction_ends():
    state, first = bid_sequence(4, [0, 2])
    assert state.landlord is None and state.observation(0)["landlord"] is None
    state.step((first + 2) % 3, "bid:0")
    state.step(first, "bid:0")
    assert state.landlord == (first + 1) % 3 == state.observation(0)["landlord"]


def test_sampling_mid_auction_keeps_who_bid_highest():
    # the highest bid was the second of the auction: whatever the first
    # bidder, a sampled state makes that bidder the landlord after two passes
    firsts = set()
    for seed in range(12):
        state, first = bid_sequence(seed, [0, 2])
        firsts.add(first)
        sample = ENGINE.sample_state(state.observation(first), random.Random(seed))
        for s in (state, sample):
            s.step((first + 2) % 3, "bid:0")
            s.step(first, "bid:0")
        assert sample.landlord == state.landlord == (first + 1) % 3
    assert firsts == {0, 1, 2}


def test_sampling_an_observation_read_back_from_json():
    # a bot's observation comes through JSON: its "pass" strings are new
    # objects, not the engine's own
    import json

    state = state_from_hands(["33456789TJQKA2BR", "4", "5"], landlord=0)
    state.step(0, "33")
    state.step(1, "pass")
    state.step(2, "pass")
    obs = json.loads(json.dumps(state.observation(1)))
    sample = ENGINE.sample_state(obs, random.Random(1))
    assert sample.observation(1) == obs
    lord = M.counts_of(sample.hand(0))
    assert sum(lord) == 14 and lord[0] == 0  # both 3s were played


def test_a_spring_doubles_the_multiplier_whoever_is_landlord():
    # seat 1 is landlord and goes out at once: the peasants never played
    state = state_from_hands(["44", "3", "55"], landlord=1)
    state.apply({1: "3"})
    assert state.is_over() and state.multiplier() == 2
    assert state.outcome().scores == (-2, 4, -2)


def test_a_sample_in_the_auction_knows_a_first_bid_is_the_highest():
    """The first bidder bid and the next passed: a state sampled for the
    seat to bid now must make the first bidder landlord if it passes too."""
    state = DouDizhu().new_game(3, 4)
    first = state.to_act()[0]
    state.apply({first: "bid:2"})
    state.apply({(first + 1) % 3: "bid:0"})
    last = (first + 2) % 3
    sampled = DouDizhu().sample_state(state.observation(last), random.Random(1))
    assert sampled.legal_actions(last) == state.legal_actions(last) == ["bid:0", "bid:3"]
    for copy in (state, sampled):
        copy.apply({last: "bid:0"})
        assert copy.landlord == first


def test_sampling_an_auction_observation_read_back_from_msgpack():
    """A bot's observation comes off the wire: its phase is an equal string,
    not the engine's own object.  A state sampled from it mid-auction is
    still in the auction, with the seat's bids, and plays on like the real one."""
    import msgpack

    from engines.dou_dizhu import game as G

    state, first = bid_sequence(3, [1])
    seat = (first + 1) % 3
    wire = msgpack.unpackb(msgpack.packb(state.observation(seat)))
    assert wire["phase"] == G.AUCTION and wire["phase"] is not G.AUCTION  # the premise
    sample = ENGINE.sample_state(wire, random.Random(2))
    assert sample.to_act() == state.to_act() == (seat,)
    assert sample.legal_actions(seat) == state.legal_actions(seat) == ["bid:0", "bid:2", "bid:3"]
    assert sample.observation(seat) == wire
    hidden = sample.secrets(seat)  # the two other hands and the bottom
    assert [len(cards) for cards in hidden] == [17, 17, 3]
    assert sorted(sample.hand(seat) + "".join(map("".join, hidden))) == sorted(
        M.string_of_counts(G.DECK_COUNTS)
    )  # the whole deck, each card once
    for copy in (state, sample):
        copy.apply({seat: "bid:3"})
        assert copy.landlord == seat and copy.to_act() == (seat,)
        assert copy.legal_actions(seat)[0] != "pass"  # the landlord leads


def test_the_deal_draws_what_random_random_draws():
    """A deal seeds its generator once itself (random.Random seeds twice) and
    draws the first bidder without randrange: the hands, the bottom, the first
    bidder and the redeal after an all-pass auction must stay those that
    random.Random's shuffle, randrange and getrandbits give from the seed."""

    def expected(seed):
        rng = random.Random(seed)
        deck = list(range(13)) * 4 + [M.SMALL_JOKER, M.BIG_JOKER]
        deck.sort()
        rng.shuffle(deck)
        parts = [deck[17 * s : 17 * s + 17] for s in range(3)] + [deck[51:]]
        hands = [
            "".join(sorted((M.RANKS[r] for r in part), key=M.RANK_INDEX.get)) for part in parts
        ]
        return hands, rng.randrange(3), rng.getrandbits(64)

    firsts = set()
    for seed in [*range(60), 2**64 - 1]:
        state = ENGINE.new_game(3, seed)
        for _deal in range(2):
            hands, first, seed = expected(seed)
            firsts.add(first)
            assert [state.hand(s) for s in range(3)] == hands[:3]
            assert "".join(state.secrets(0)[2]) == hands[3]  # the bottom
            assert state.observation(0)["first_bidder"] == first
            for i in range(3):  # all pass: redeal
                state.step((first + i) % 3, "bid:0")
    assert firsts == {0, 1, 2}


def test_the_observation_names_the_play_to_beat_and_no_winner_until_the_end():
    state = state_from_hands(["359", "478", "6T"], landlord=0)
    expected = [("3", 0), ("4", 1), ("6", 2), ("6", 2), ("8", 1), ("8", 1)]
    for (seat, action), (to_beat, by) in zip(
        [(0, "3"), (1, "4"), (2, "6"), (0, "pass"), (1, "8"), (2, "pass")], expected
    ):
        state.step(seat, action)
        obs = state.observation(0)
        assert (obs["to_beat"], obs["to_beat_seat"]) == (to_beat, by), action
        assert obs["winner"] is None and obs["payoffs"] is None
    state.step(0, "9")
    state.step(1, "pass")
    state.step(2, "pass")
    assert state.observation(1)["to_beat"] is None  # two passes: a new lead
    state.step(0, "5")  # ... and the landlord goes out
    obs = state.observation(2)
    assert obs["winner"] == 0 and obs["to_beat"] == "5" and state.is_over()


def test_a_state_sampled_after_the_landlords_one_play_still_scores_an_anti_spring():
    """The sampled state counts each seat's plays from the observation:
    the landlord's single lead makes a peasant going out next an
    anti-spring there as in the real game."""
    state = state_from_hands(["3456", "2", "7"], landlord=0, bid=1)
    state.step(0, "3")
    sampled = ENGINE.sample_state(state.observation(1), random.Random(3))
    for copy in (state, sampled):
        copy.step(1, "2")
        assert copy.multiplier() == 2 and copy.outcome().scores == (-4, 2, 2)


def test_in_the_auction_only_the_bidder_has_bids_whoever_bids_first():
    firsts = set()
    for seed in range(30):
        state = ENGINE.new_game(3, seed)
        first = state.to_act()[0]
        firsts.add(first)
        assert [state.legal_actions(s) for s in range(3)] == [
            ["bid:0", "bid:1", "bid:2", "bid:3"] if s == first else [] for s in range(3)
        ]
    assert firsts == {0, 1, 2}


@pytest.mark.parametrize("lord", [0, 1, 2])
def test_secrets_leave_out_the_bottom_once_any_seat_is_landlord(lord):
    state = state_from_hands(["33", "44", "55"], landlord=lord, bottom="")
    assert sorted(map("".join, state.secrets(lord))) == sorted(
        h for s, h in enumerate(["33", "44", "55"]) if s != lord
    )


def test_a_state_from_hands_redeals_from_its_seed():
    """Without a landlord it starts in the auction; an all-pass auction
    redeals from the state's seed (0 by default), as a new game of it deals."""
    for seed in (None, 5):
        state = (
            state_from_hands(["3", "4", "5"])
            if seed is None
            else state_from_hands(["3", "4", "5"], seed=seed)
        )
        for _ in range(3):
            state.step(state.to_act()[0], "bid:0")
        fresh = ENGINE.new_game(3, seed or 0)
        assert [state.hand(s) for s in range(3)] == [fresh.hand(s) for s in range(3)]
        assert state.to_act() == fresh.to_act()
