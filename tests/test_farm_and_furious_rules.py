"""Farm & Furious rules, one card interaction at a time (rules page)."""

import msgpack
import pytest

from arena.game import IllegalAction
from arena.game.testing import check_engine
from engines.farm_and_furious import FarmAndFurious

ENGINE = FarmAndFurious()


def turn(state, *cards):
    state.apply(dict(enumerate(cards)))
    return list(state._positions)


def wire_turn(state, *cards):
    """A turn whose cards arrive as a bot sends them (msgpack-decoded: new
    string objects, equal to the engine's names but not the same objects)."""
    actions = msgpack.unpackb(msgpack.packb(dict(enumerate(cards))), strict_map_key=False)
    state.apply(actions)
    return list(state._positions)


def new(players, **options):
    return ENGINE.new_game(players, seed=0, options=options)


def test_ducklings_count_every_duckling_played():
    assert turn(new(3), "duckling", "duckling", "hen") == [2, 2, 3]
    assert turn(new(4), "duckling", "duckling", "duckling", "whistle") == [3, 3, 3, 0]


def test_hen_advances_three_unless_any_dog():
    assert turn(new(2), "hen", "duckling") == [3, 1]
    assert turn(new(2), "hen", "dog") == [0, 1]


def test_dog_counts_others_hens_and_rabbits_even_failed_rabbits():
    # two rabbits fail each other, yet the dog counts both, and the hen
    assert turn(new(4), "dog", "rabbit", "rabbit", "hen") == [3, 0, 0, 0]


def test_every_dog_counts_independently_and_dogs_do_not_cancel_dogs():
    assert turn(new(4), "dog", "dog", "hen", "duckling") == [1, 1, 0, 1]


def test_lone_rabbit_advances_four_two_rabbits_none():
    assert turn(new(3), "rabbit", "hen", "duckling") == [4, 3, 1]
    assert turn(new(3), "rabbit", "rabbit", "duckling") == [0, 0, 1]
    assert turn(new(2), "rabbit", "dog") == [0, 1]


def test_whistle_takes_every_card_back():
    state = new(2)
    turn(state, "hen", "duckling")
    turn(state, "rabbit", "dog")
    assert state.legal_actions(0) == ["dog", "duckling", "whistle"]
    turn(state, "whistle", "hen")
    assert state.legal_actions(0) == ["dog", "hen", "duckling", "rabbit", "whistle"]
    assert state.observation(0)["face_up"] == [[], ["duckling", "dog", "hen"]]


def test_whistle_left_alone_must_be_played():
    state = new(2)
    for card in ("dog", "hen", "duckling", "rabbit"):
        turn(state, card, "whistle")
    assert state.legal_actions(0) == ["whistle"]


def test_rooster_has_no_effect_on_the_first_turn_or_after_a_whistle():
    state = new(2, rooster=True)
    assert turn(state, "rooster", "duckling") == [0, 1]
    state = new(2, rooster=True)
    turn(state, "whistle", "duckling")
    assert turn(state, "rooster", "hen") == [0, 4]


def test_rooster_copies_the_previous_card_for_every_rule():
    state = new(3, rooster=True)
    turn(state, "rabbit", "duckling", "duckling")  # 4, 2, 2
    # a rooster copying a rabbit is a second rabbit: both fail; the dog counts both
    assert turn(state, "rooster", "rabbit", "dog") == [4, 2, 4]
    state = new(2, rooster=True)
    turn(state, "hen", "duckling")  # 3, 1
    # a rooster copying a hen is cancelled by a dog, and counted by it
    assert turn(state, "rooster", "dog") == [3, 2]


def test_rooster_copying_a_duckling_is_a_duckling():
    state = new(2, rooster=True)
    turn(state, "duckling", "hen")  # 1, 3
    assert turn(state, "rooster", "dog") == [2, 3]


def test_rooster_after_a_whistle_cannot_copy_it():
    # the Whistle takes itself back, so no face-up card is left to copy
    state = new(2, rooster=True)
    turn(state, "hen", "duckling")
    turn(state, "whistle", "dog")
    assert state.observation(0)["face_up"][0] == []
    assert turn(state, "rooster", "whistle") == [3, 1]


def test_tie_at_the_finish_shares_first_place():
    state = new(3, track_length=3)
    turn(state, "hen", "hen", "duckling")
    assert state.is_over()
    outcome = state.outcome()
    assert outcome.scores == (3, 3, 1)
    assert outcome.ranks == (1, 1, 3)


def test_furthest_beyond_the_finish_wins():
    state = new(3, track_length=3)
    turn(state, "rabbit", "hen", "duckling")
    assert state.outcome().ranks == (1, 2, 3)


def test_passing_the_finish_without_landing_on_it_ends_the_game():
    state = new(2, track_length=3)
    assert turn(state, "rabbit", "duckling") == [4, 1]  # 4 > 3: past the line
    assert state.is_over() and state.to_act() == ()


def test_cards_as_they_arrive_from_the_wire_count_like_any_other():
    state = new(3)
    assert wire_turn(state, "rabbit", "hen", "duckling") == [4, 3, 1]
    assert wire_turn(state, "dog", "rabbit", "whistle") == [5, 3, 1]
    assert state.observation(0)["face_up"][2] == []  # the Whistle took them back
    assert wire_turn(state, "duckling", "duckling", "dog") == [7, 5, 1]
    state = new(2, rooster=True)
    wire_turn(state, "hen", "duckling")  # 3, 1
    assert wire_turn(state, "rooster", "dog") == [3, 2]  # a Hen again: the Dog counts it


def test_a_dog_counts_a_hen_and_a_rabbit_one_each():
    assert turn(new(3), "dog", "hen", "rabbit") == [2, 0, 0]


def test_default_finish_is_at_20():
    state = new(2)
    assert state.observation(0)["finish"] == 20
    turns = [
        ("hen", "duckling", [3, 1]),
        ("rabbit", "hen", [7, 4]),
        ("duckling", "whistle", [8, 4]),
        ("dog", "hen", [9, 4]),
        ("whistle", "duckling", [9, 5]),
        ("hen", "rabbit", [12, 9]),
        ("rabbit", "whistle", [16, 9]),
        ("duckling", "hen", [17, 12]),
        ("dog", "rabbit", [18, 12]),
        ("whistle", "duckling", [18, 13]),
        ("duckling", "whistle", [19, 13]),
    ]
    for mine, theirs, positions in turns:
        assert turn(state, mine, theirs) == positions
        assert not state.is_over()
    assert turn(state, "dog", "hen") == [20, 13]
    assert state.is_over() and state.outcome().ranks == (1, 2)


def test_five_players_race_at_once():
    assert ENGINE.info.players == (2, 3, 4, 5) and ENGINE.info.simultaneous
    state = new(5)
    assert state.to_act() == (0, 1, 2, 3, 4)
    assert turn(state, "duckling", "duckling", "hen", "dog", "rabbit") == [2, 2, 0, 2, 0]


def test_a_seat_that_is_not_at_the_table_is_refused():
    state = new(2)
    with pytest.raises(IllegalAction, match="every seat plays at once"):
        state.apply({0: "hen", 1: "duckling", 2: "dog"})
    assert state.observation(0)["positions"] == [0, 0]


def test_rooster_copies_the_last_face_up_card_not_the_first():
    state = new(2, rooster=True)
    turn(state, "hen", "rabbit")  # 3, 4
    turn(state, "duckling", "hen")  # 4, 7
    # face up: hen, duckling -- the rooster is the duckling (a hen would be 3)
    assert turn(state, "rooster", "whistle") == [5, 7]


def test_default_game_stops_after_200_turns():
    state = new(2, track_length=1000)
    for _ in range(199):
        turn(state, "whistle", "whistle")  # nobody moves
    assert not state.is_over()
    turn(state, "whistle", "whistle")
    assert state.is_over() and state.observation(0)["turn"] == 200


def test_a_long_game_stops_at_its_max_turns():
    state = new(2, track_length=1000, max_turns=300)
    for _ in range(299):
        turn(state, "whistle", "whistle")
    assert not state.is_over()
    turn(state, "whistle", "whistle")
    assert state.is_over()


def test_the_smallest_options_are_accepted():
    state = new(2, max_turns=1, track_length=1)
    assert not state.is_over()
    turn(state, "whistle", "whistle")
    assert state.is_over()
    with pytest.raises(ValueError):
        ENGINE.new_game(2, 0, {"max_turns": 0})


def test_game_stops_after_max_turns_ranked_by_position():
    state = new(2, max_turns=2)
    turn(state, "dog", "duckling")
    assert not state.is_over()
    turn(state, "hen", "whistle")
    assert state.is_over() and state.to_act() == ()
    assert state.outcome().scores == (3, 1) and state.outcome().ranks == (1, 2)


def test_option_validation():
    with pytest.raises(ValueError):
        ENGINE.new_game(2, 0, {"track_length": 0})
    with pytest.raises(ValueError):
        ENGINE.new_game(6, 0)
    with pytest.raises(ValueError):
        ENGINE.new_game(2, 0, {"speed": 1})


@pytest.mark.parametrize("rooster", [False, True])
def test_conformance(rooster):
    report = check_engine(ENGINE, 1500, options={"rooster": rooster}, hidden=False)
    assert report.games == 1500 and report.samples > 0


@pytest.mark.parametrize(
    "card, complaint",
    [
        ("dog", "seat 0 has no 'dog' in hand"),  # played last turn, still face up
        ("rooster", "seat 0 has no 'rooster' in hand"),  # only with the rooster option
        ("tractor", "seat 0 has no 'tractor' in hand"),  # no such card
        (3, "seat 0 has no 3 in hand"),
    ],
)
def test_a_card_not_in_the_hand_is_rejected_and_nothing_moves(card, complaint):
    state = new(2)
    turn(state, "dog", "hen")
    before = state.observation(0)
    with pytest.raises(IllegalAction, match=complaint):
        state.apply({0: card, 1: "duckling"})
    assert state.observation(0) == before


def test_every_seat_plays_at_once_and_nothing_after_the_end():
    state = new(2, track_length=3)
    with pytest.raises(IllegalAction, match="every seat plays at once"):
        state.apply({0: "hen"})
    turn(state, "hen", "duckling")
    assert state.is_over()
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply({0: "duckling", 1: "dog"})
    assert state.observation(0)["positions"] == [3, 1]
