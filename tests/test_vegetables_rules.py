"""VEGEtables rules on hand-built positions (rules: docs/games/vegetables.md)."""

import random

import msgpack
import pytest

from arena.game import IllegalAction
from engines.vegetables import Vegetables, VegetablesState
from engines.vegetables.game import CARD, NAMES, STACK


def ids(names):
    return sorted(CARD[n] for n in names)


def make(
    hand0=(),
    hand1=(),
    grounds0=(),
    grounds1=(),
    tops=None,
    silos=None,
    wells=None,
    tractors=(0, 0),
    to_move=0,
    played=0,
    max_turns=300,
):
    """A position: ``tops`` maps a stack's base card name ('g1') to its top
    number; ``silos`` lists columns front card first; ``wells`` three lists."""
    state = VegetablesState({"max_turns": max_turns}, random.Random(0))
    state._hands = [ids(hand0), ids(hand1)]
    state._grounds = [ids(grounds0), ids(grounds1)]
    for base, top in (tops or {}).items():
        state._tops[STACK[CARD[base]]] = top
    state._silos = [[CARD[c] for c in reversed(col)] for col in (silos or [[], [], [], []])]
    state._wells = [[CARD[c] for c in w] for w in (wells or [[], [], []])]
    state._tractors = list(tractors)
    state._to_move = to_move
    state._played = played
    return state


FULL_WELLS = [["p13", "p14"], ["p15", "p16"], ["p5", "p6"]]


# ------------------------------------------------------------ playability
def test_cards_1_to_4_play_on_their_empty_square_at_any_time():
    state = make(grounds0=["g1", "g2", "r3", "y4"], hand0=["p5"], wells=FULL_WELLS)
    legal = state.legal_actions(0)
    assert {"play:g1", "play:g2", "play:r3", "play:y4"} <= set(legal)
    assert "play:p5" not in legal  # p1 not on the board


def test_n_plus_4_only_on_its_own_stack_with_top_four_lower():
    state = make(hand0=["g9", "g13", "g10", "r9", "g5"], tops={"g1": 5}, wells=FULL_WELLS)
    legal = state.legal_actions(0)
    assert "play:g9" in legal
    for name in ("g13", "g10", "r9", "g5"):
        assert "play:" + name not in legal
    state.step(0, "play:g9")
    assert state._tops[STACK[CARD["g1"]]] == 9
    assert "play:g13" in state.legal_actions(0)


def test_playing_an_unplayable_card_is_rejected():
    state = make(hand0=["g13"], tops={"g1": 5}, tractors=(1, 0), wells=FULL_WELLS)
    with pytest.raises(IllegalAction):
        state.step(0, "play:g13")
    with pytest.raises(IllegalAction):
        state.step(1, "discard-tractor")


# ------------------------------------------------------------ silos
def test_ground_card_forces_a_silo_take_and_the_taken_card_is_playable():
    state = make(
        grounds0=["g1", "r2"],
        hand0=["g5", "g9"],
        tops={"g1": 0},
        silos=[["r17"], [], ["g13", "p20"], ["y18"]],
        wells=FULL_WELLS,
    )
    state.step(0, "play:g1")
    assert state._phase == "take"
    assert state.legal_actions(0) == ["take:0", "take:2", "take:3"]
    state.step(0, "take:2")
    assert CARD["g13"] in state._hands[0]
    assert [CARD["p20"]] == state._silos[2]  # the next card came to the front
    state.step(0, "play:g5")
    state.step(0, "play:g9")
    assert "play:g13" in state.legal_actions(0)  # taken this turn, playable now
    obs1 = state.observation(1)
    assert "g13" in obs1["opponent_known"]  # a Silo take is public
    assert "take:2=g13" in obs1["this_turn"]


def test_hand_card_play_has_no_silo_take():
    state = make(
        hand0=["g5"], grounds0=["r1"], tops={"g1": 1}, silos=[["r17"], [], [], []], wells=FULL_WELLS
    )
    state.step(0, "play:g5")
    assert state._phase == "play"


def test_no_take_when_the_silos_are_empty():
    state = make(grounds0=["g1", "r2"], hand0=["y9"], wells=FULL_WELLS)
    state.step(0, "play:g1")
    assert state._phase == "play"
    assert "play:r2" in state.legal_actions(0)


# ------------------------------------------------------------ tractors
def full_silos():
    return [["p17", "p18"], ["g17", "g18"], ["r17", "r18"], ["y17", "y18"]]


def test_tractors_unlock_at_the_fourth_and_the_last_ground_card():
    grounds = ["p1", "p2", "p3", "p4", "g1", "g2", "g3", "g4"]
    state = make(grounds0=grounds, wells=FULL_WELLS, tractors=(1, 1))
    state._silos = [[CARD[c] for c in col] * 3 for col in full_silos()]  # enough takes
    counts = []
    for card in grounds:
        state.step(0, "play:" + card)
        counts.append(state._tractors[0])
        state.step(0, state.legal_actions(0)[0])  # the take
    assert counts == [1, 1, 1, 3, 3, 3, 3, 5]
    assert state._tractors_locked[0] == 0
    assert state.observation(1)["tractors"] == [5, 1]


def stand_in_position(opp_has_g5=True, tractor=1):
    hand1 = ["g5", "r6"] if opp_has_g5 else ["r6"]
    wells = [["p13", "p14"], ["p15", "p16"], [] if opp_has_g5 else ["g5"]]
    return make(
        hand0=["g9", "g13", "y6"],
        hand1=hand1,
        grounds1=["r1"],
        tops={"g1": 1},
        tractors=(tractor, 0),
        wells=wells,
    )


def test_tractor_stands_in_only_for_a_card_the_opponent_holds():
    assert "tractor:g9" in stand_in_position(True).legal_actions(0)
    assert "tractor:g9" not in stand_in_position(False).legal_actions(0)
    assert "tractor:g9" not in stand_in_position(True, tractor=0).legal_actions(0)
    # the stand-in needs the card N+4 in Hand and a stack that accepts N
    assert "tractor:g13" not in stand_in_position(True).legal_actions(0)
    # a Ground card of the opponent can be stood in for too (N = 1-4)
    state = make(hand0=["r5"], grounds1=["r1"], tractors=(1, 0), wells=FULL_WELLS)
    assert "tractor:r5" in state.legal_actions(0)


def test_stand_in_puts_tractor_and_card_and_kills_the_real_card():
    state = stand_in_position(True)
    assert state.observation(0)["tractor_targets"] == ["g5"]
    assert "g5" in state.observation(0)["opponent_known"]  # the offer reveals it
    state.step(0, "tractor:g9")
    assert state._tops[STACK[CARD["g1"]]] == 9
    assert state._tractors == [0, 0] and state._tractors_used[0] == 1
    assert CARD["g9"] not in state._hands[0]
    assert CARD["g5"] in state._hands[1]  # the real g5 stays with the opponent
    obs = state.observation(1)
    assert obs["stacks"][STACK[CARD["g1"]]] == ["g1", "T", "g9"]
    assert obs["standins"] == [["g5", 0]]
    state.step(0, "play:g13")
    state.step(0, "pass") if "pass" in state.legal_actions(0) else state.step(0, "draw:0")
    while state._to_move == 0 and not state.is_over():
        state.step(0, state.legal_actions(0)[0])
    assert "play:g5" not in state.legal_actions(1)  # dead for good


def test_a_refused_offer_is_remembered_after_the_turn():
    # seat 0 sees the offer for g5 once it has played; it keeps knowing that
    # seat 1 holds g5 during seat 1's turn, while g5 stays in that Hand
    state = make(
        hand0=["g9", "y5", "p13"], hand1=["g5", "r6"], tops={"g1": 1, "y1": 1}, tractors=(1, 0)
    )
    state.step(0, "play:y5")
    state.step(0, "pass")  # the Wells are empty: any Hand may pass
    assert state._to_move == 1
    obs = state.observation(0)
    assert obs["tractor_targets"] == [] and obs["opponent_known"] == ["g5"]
    state.step(1, "play:g5")
    assert state.observation(0)["opponent_known"] == []


def test_a_stand_in_that_empties_the_hand_goes_out():
    tops = {f"{c}{b}": 16 + b for c in "pgry" for b in range(1, 5)} | {"g1": 1, "r2": 6}
    state = make(hand0=["g9"], hand1=["g5"], tops=tops, tractors=(1, 0))
    state._scores = [3, 4]
    state.step(0, "tractor:g9")
    assert state.is_over() and state._end == "out"
    assert state._scores == [3 + 20, 4]  # g1 (now at 9) and r2 unfinished

    state = make(hand0=["y13"], tractors=(1, 0), wells=FULL_WELLS)
    assert state.legal_actions(0) == ["discard-tractor"]
    state.step(0, "discard-tractor")
    assert state._tractors[0] == 0 and state._tractors_discarded[0] == 1
    assert state._played == 1
    assert "draw:0" in state.legal_actions(0)


# ------------------------------------------------------------ ending a turn
def hand_of(count):
    cards = [f"{c}{n}" for c in "pgry" for n in range(13, 21)]
    return cards[:count]


def test_pass_only_after_a_play_and_with_8_or_more_cards():
    state = make(hand0=hand_of(8) + ["y5"], tops={"y1": 1}, wells=FULL_WELLS)
    assert "pass" not in state.legal_actions(0)  # nothing played yet
    state.step(0, "play:y5")
    assert "pass" in state.legal_actions(0)  # 8 cards left
    state = make(hand0=hand_of(7) + ["y5"], tops={"y1": 1}, wells=FULL_WELLS)
    state.step(0, "play:y5")
    legal = state.legal_actions(0)
    assert "pass" not in legal and "draw:0" in legal and "draw:1" in legal


def test_no_draw_with_12_cards():
    state = make(hand0=hand_of(12) + ["y5"], tops={"y1": 1}, wells=FULL_WELLS)
    state.step(0, "play:y5")
    assert state.legal_actions(0) == ["pass"]


def test_short_hand_draws_to_8_then_may_pass_or_go_on_to_12():
    wells = [[f"p{n}" for n in range(13, 21)], [f"g{n}" for n in range(13, 21)], []]
    state = make(
        hand0=hand_of(0) + ["y5", "r9", "r10", "r11", "r12", "y8"], tops={"y1": 1}, wells=wells
    )
    state.step(0, "play:y5")  # 5 cards left
    for size in (6, 7, 8):
        assert "pass" not in state.legal_actions(0)
        state.step(0, "draw:0")
        assert state.hand_size(0) == size and state._to_move == 0
    assert state.legal_actions(0) == ["draw:0", "draw:1", "pass"]
    assert not any(a.startswith("play") for a in state.legal_actions(0))
    state.step(0, "draw:1")  # 9: must now go on to 12
    assert state.legal_actions(0) == ["draw:0", "draw:1"]
    state.step(0, "draw:1")
    state.step(0, "draw:1")
    assert state.hand_size(0) == 11 and state._to_move == 0
    state.step(0, "draw:0")
    assert state.hand_size(0) == 12 and state._to_move == 1 and state._turn == 1


def test_stopping_at_8_ends_the_turn():
    state = make(
        hand0=["y5"] + hand_of(6),
        hand1=["r5"],
        grounds1=["r1"],
        tops={"y1": 1},
        wells=[hand_of(20)[8:12], hand_of(20)[12:16], []],
    )
    state.step(0, "play:y5")
    state.step(0, "draw:0")
    state.step(0, "draw:0")
    state.step(0, "pass")
    assert state._to_move == 1 and state.hand_size(0) == 8


def test_hand_of_9_that_draws_must_go_to_12():
    state = make(
        hand0=hand_of(10) + ["y5"], tops={"y1": 1}, wells=[[f"p{n}" for n in range(5, 13)], [], []]
    )
    state._wells = [[CARD[f"y{n}"] for n in range(13, 21)], [CARD["r13"]], []]
    state.step(0, "play:y5")
    state.step(0, "draw:1")  # 11, well 1 now empty
    assert state._to_move == 0 and state.legal_actions(0) == ["draw:0"]
    state.step(0, "draw:0")
    assert state._to_move == 1


def test_drawing_stops_when_the_wells_run_dry():
    state = make(
        hand0=["y5"] + hand_of(2),
        hand1=["r5"],
        grounds1=["r1"],
        tops={"y1": 1},
        wells=[[], ["p13"], ["p5"]],
    )
    state.step(0, "play:y5")
    state.step(0, "draw:2")  # the third Well: Well 0 is empty
    assert state._to_move == 0 and state.legal_actions(0) == ["draw:1"]
    state.step(0, "draw:1")
    assert state._to_move == 1 and state.hand_size(0) == 4


def test_pass_with_a_short_hand_once_the_wells_are_empty():
    state = make(hand0=["y5"] + hand_of(2), hand1=["r5"], grounds1=["r1"], tops={"y1": 1})
    state.step(0, "play:y5")
    assert state.legal_actions(0) == ["pass"]


def test_third_well_opens_when_well_0_or_1_is_empty():
    state = make(
        hand0=["y5"] + hand_of(3), tops={"y1": 1}, wells=[["p13"], ["p14", "p15"], ["g5", "g6"]]
    )
    state.step(0, "play:y5")
    assert "draw:2" not in state.legal_actions(0)
    assert state.observation(0)["third_well_open"] is False
    state.step(0, "draw:0")  # well 0 is now empty
    assert state.legal_actions(0) == ["draw:1", "draw:2"]
    assert state.observation(1)["third_well_open"] is True
    state.step(0, "draw:2")
    assert CARD["g6"] in state._hands[0]


def test_drawn_cards_wait_for_the_next_turn():
    state = make(
        hand0=["y5", "y13"] + hand_of(0),
        hand1=["r5", "r9"],
        grounds1=["r1"],
        tops={"y1": 1},
        wells=[["y9"], ["p14"], []],
    )
    state.step(0, "play:y5")
    state.step(0, "draw:0")  # y9 playable on y5, but the turn goes on with draws
    assert all(a.startswith("draw") for a in state.legal_actions(0))


# ------------------------------------------------------------ scoring and the end
def test_finishing_a_stack_scores_10():
    state = make(hand0=["g17", "g14"] + hand_of(0), tops={"g1": 13, "g2": 10}, wells=FULL_WELLS)
    state.step(0, "play:g17")
    assert state._scores == [10, 0]
    state.step(0, "play:g14")
    assert state._scores == [10, 0]


def test_a_16_finishes_nothing():
    state = make(hand0=["r16", "r9"], tops={"r4": 12}, wells=FULL_WELLS)
    state.step(0, "play:r16")
    assert state._scores == [0, 0]


def test_finishing_the_row_scores_30_more():
    state = make(
        hand0=["r20", "r9"], tops={"r1": 17, "r2": 18, "r3": 19, "r4": 16}, wells=FULL_WELLS
    )
    state.step(0, "play:r20")
    assert state._scores == [40, 0]


def test_stand_in_that_finishes_a_stack_scores():
    state = make(
        hand0=["p18", "g5"], hand1=["p14"], tops={"p2": 10}, tractors=(1, 0), wells=FULL_WELLS
    )
    state.step(0, "tractor:p18")
    assert state._scores == [10, 0]


def test_going_out_with_empty_wells_ends_the_game_and_scores_each_unfinished_stack():
    tops = {f"{c}{b}": 16 + b for c in "pgry" for b in range(1, 5)}
    tops["p1"] = 9
    tops["g2"] = 14
    state = make(hand0=["p13"], hand1=["g18"], tops=tops)
    state._scores = [5, 7]
    state.step(0, "play:p13")
    assert state.is_over() and state._end == "out"
    assert state._scores == [5 + 20, 7]  # p1 and g2 unfinished
    assert state.outcome().ranks == (1, 2)


def test_no_going_out_while_a_well_has_cards():
    state = make(hand0=["p13"], hand1=["g18"], tops={"p1": 9}, wells=[[], [], ["y5"]])
    state.step(0, "play:p13")
    assert not state.is_over()
    assert state.legal_actions(0) == ["draw:2"]


def test_no_going_out_while_a_tractor_is_in_hand():
    state = make(hand0=["p13"], hand1=["g18"], tops={"p1": 9}, tractors=(1, 0))
    state.step(0, "play:p13")
    assert not state.is_over()
    state.step(0, "discard-tractor")
    assert state.is_over() and state._end == "out"


def test_blocked_player_ends_the_game_and_the_opponent_scores():
    state = make(
        hand0=["y5"] + hand_of(8),
        hand1=["r9", "g13"],
        grounds1=[],
        tops={"y1": 1, "p1": 17, "p2": 18},
        wells=FULL_WELLS,
    )
    state.step(0, "play:y5")
    state.step(0, "pass")
    assert state.is_over() and state._end == "blocked"
    assert state._scores == [14 * 10, 0]
    assert state.outcome().ranks == (1, 2)


def test_a_tractor_in_hand_is_never_blocked():
    state = make(
        hand0=["y5"] + hand_of(8), hand1=["r9"], tractors=(0, 1), tops={"y1": 1}, wells=FULL_WELLS
    )
    state.step(0, "play:y5")
    state.step(0, "pass")
    assert not state.is_over() and state.legal_actions(1) == ["discard-tractor"]


def test_all_stacks_finished_ends_the_game():
    tops = {f"{c}{b}": 16 + b for c in "pgry" for b in range(1, 5)}
    tops["y4"] = 16
    state = make(hand0=["y20", "p5"], hand1=["g5"], tops=tops, wells=FULL_WELLS)
    state.step(0, "play:y20")
    assert state.is_over() and state._end == "all-finished"
    assert state._scores == [40, 0]


def test_max_turns_ends_the_game():
    state = Vegetables().new_game(2, 3, {"max_turns": 2})
    while not state.is_over():
        state.step(state._to_move, state.legal_actions(state._to_move)[0])
    assert state._turn == 2 and state._end == "max-turns"


def test_equal_scores_draw():
    state = make(
        hand0=["y5"] + hand_of(8),
        hand1=["r9"],
        tractors=(0, 0),
        tops={f"{c}{b}": 16 + b for c in "pgry" for b in range(1, 5)} | {"y1": 1},
        wells=FULL_WELLS,
    )
    state.step(0, "play:y5")
    state.step(0, "pass")  # opponent blocked: 1 unfinished stack
    assert state._scores == [10, 0]
    state._scores = [10, 10]
    assert state.outcome().ranks == (1, 1)


# ------------------------------------------------------------ setup and information
def test_setup_deals_by_backs():
    state = Vegetables().new_game(2, 11)
    for seat in (0, 1):
        assert len(state._grounds[seat]) == 8
        assert all(c % 20 < 4 for c in state._grounds[seat])
        assert len(state._hands[seat]) == 12
        assert all(4 <= c % 20 < 12 for c in state._hands[seat])
    assert [len(c) for c in state._silos] == [4, 4, 4, 4]
    assert [len(w) for w in state._wells] == [8, 8, 8]
    assert all(c % 20 >= 12 for w in state._wells[:2] for c in w)
    assert all(4 <= c % 20 < 12 for c in state._wells[2])
    assert state._tractors == [1, 1] and state._tractors_locked == [4, 4]
    assert state.to_act() == (0,)
    obs = state.observation(1)
    assert obs["hand_sizes"] == [13, 13]
    assert len(obs["hand"]) == 12 and obs["wells"] == [8, 8, 8]
    assert obs["third_well_open"] is False


def test_observation_hides_the_opponent_hand_and_the_wells():
    state = Vegetables().new_game(2, 5)
    obs = state.observation(0)
    text = repr(obs)
    for card in state._hands[1]:
        name = f"'{'pgry'[card // 20]}{card % 20 + 1}'"
        assert name not in text
    sampled = Vegetables().sample_state(obs, random.Random(1))
    assert sampled.observation(0) == obs
    assert sampled._hands[1] != state._hands[1] or sampled._wells != state._wells


def test_sample_keeps_known_cards_and_refused_offers():
    state = stand_in_position(True)
    obs = state.observation(0)
    for seed in range(30):
        sampled = Vegetables().sample_state(obs, random.Random(seed))
        assert CARD["g5"] in sampled._hands[1]
        assert sampled.legal_actions(0) == state.legal_actions(0)
    state = stand_in_position(False)
    obs = state.observation(0)
    for seed in range(30):
        sampled = Vegetables().sample_state(obs, random.Random(seed))
        assert CARD["g5"] not in sampled._hands[1]
        assert sampled.legal_actions(0) == state.legal_actions(0)


def test_sampled_opponent_about_to_play_is_never_blocked():
    # seat 1 watches seat 0 start a turn; seat 0's only play is the hidden r9
    hand0 = ["r9", "p13", "p14", "p15", "p16", "p17", "p18", "p19", "p20"]
    state = make(
        hand0=hand0,
        hand1=["y13"],
        tops={"r1": 5, "p1": 1, "p2": 2},
        wells=[
            ["g13", "g14", "g15", "g16"],
            ["g17", "g18", "g19", "g20"],
            ["y5", "y6", "y7", "y8", "y9", "y10"],
        ],
    )
    placed = set(state._hands[0] + state._hands[1] + [c for w in state._wells for c in w])
    placed.update(CARD[n] for n in ("r1", "r5", "p1", "p2"))
    state._silos[3] = [c for c in range(80) if c not in placed]  # all the rest, visible
    assert state.legal_actions(0) == ["play:r9"]
    obs = state.observation(1)
    for seed in range(40):
        sampled = Vegetables().sample_state(obs, random.Random(seed))
        assert sampled.observation(1) == obs
        assert sampled.legal_actions(0), f"seed {seed}: sampled opponent is blocked"


def wire(observation):
    """An observation as a bot receives it (msgpack-decoded: new objects)."""
    return msgpack.unpackb(msgpack.packb(observation), strict_map_key=False)


def test_sample_from_a_wire_observation_keeps_refused_offers():
    state = stand_in_position(False)  # g5 is not offered: it is in a Well
    obs = wire(state.observation(0))
    for seed in range(30):
        sampled = Vegetables().sample_state(obs, random.Random(seed))
        assert CARD["g5"] not in sampled._hands[1]
        assert sampled.legal_actions(0) == state.legal_actions(0)


def rest_in_a_silo(state):
    """Every card not placed yet goes, visible, into Silo column 3."""
    placed = {c for part in state._hands + state._grounds + state._wells for c in part}
    for stack, top in enumerate(state._tops):
        colour, base = divmod(stack, 4)
        placed.update(colour * 20 + number - 1 for number in range(base + 1, top + 1, 4))
    state._silos[3] = [c for c in range(80) if c not in placed]


def test_no_offer_is_known_while_a_silo_take_is_due():
    # the Ground g1 makes g5 standable-in only now: seat 0 has not been told
    # whether seat 1 holds it, so a sample may give it to seat 1
    state = make(
        hand0=["g9"], grounds0=["g1"], hand1=["g5"], tractors=(1, 0), wells=[[], [], ["y5"]]
    )
    rest_in_a_silo(state)
    state.step(0, "play:g1")
    assert state._phase == "take"
    obs = state.observation(0)
    holders = []
    for seed in range(30):
        sampled = Vegetables().sample_state(obs, random.Random(seed))
        assert sampled.observation(0) == obs
        holders.append(CARD["g5"] in sampled._hands[1])
    assert any(holders) and not all(holders)


def test_sampled_opponent_is_never_blocked_even_when_its_play_is_unlikely():
    # seat 0's only play, p13, is one of 17 unknown high cards of which seat 0
    # holds one: a random deal rarely gives it, so the sampler must make sure
    state = make(
        hand0=["p13"],
        hand1=["r5"],
        tops={"p1": 9},
        wells=[[f"g{n}" for n in range(13, 21)], [f"y{n}" for n in range(13, 21)], []],
    )
    rest_in_a_silo(state)
    assert state.legal_actions(0) == ["play:p13"]
    obs = state.observation(1)
    for seed in range(300):
        sampled = Vegetables().sample_state(obs, random.Random(seed))
        assert [NAMES[c] for c in sampled._hands[0]] == ["p13"], f"seed {seed}"


def test_actions_as_they_arrive_from_the_wire_work_like_any_other():
    # msgpack-decoded actions are new string objects, equal to the engine's
    state = make(
        grounds0=["g1"],
        hand0=["g5", "r9", "p13"],
        hand1=["r5", "g9"],
        tops={"r1": 1},
        silos=[["y17"], [], [], []],
        tractors=(1, 0),
        wells=[["p14", "p15", "p18"], ["p16", "p17"], ["y5"]],
    )
    for action in ("play:g1", "take:0", "play:g5", "tractor:r9", "discard-tractor", "draw:0"):
        state.step(0, wire({"a": action})["a"])
    assert state._this_turn == [
        "play:g1",
        "take:0=y17",
        "play:g5",
        "tractor:r9",
        "discard-tractor",
        "draw:0",
    ]
    assert state._tops[STACK[CARD["g1"]]] == 5 and state._tops[STACK[CARD["r1"]]] == 9
    # its last Ground card played gave seat 0 two more Tractors: 1 + 2 - 2
    assert state._tractors == [1, 0] and state.hand_size(0) == 4
    for action in ("draw:1", "draw:1", "draw:2"):
        state.step(0, wire({"a": action})["a"])
    assert state._to_move == 0 and state.hand_size(0) == 7
    state.step(0, wire({"a": "draw:0"})["a"])
    assert state.hand_size(0) == 8 and "pass" in state.legal_actions(0)
    state.step(0, wire({"a": "pass"})["a"])
    assert state._to_move == 1 and state._turn == 1


def test_the_second_seat_ends_its_turn_and_the_first_plays_again():
    state = make(
        hand0=["y5", "g5"] + hand_of(8),
        hand1=["r5"] + hand_of(20)[8:16],
        tops={"y1": 1, "r1": 1, "g1": 1},
        wells=FULL_WELLS,
    )
    state.step(0, "play:y5")
    assert state.observation(1)["played_this_turn"] == 1
    state.step(0, "pass")
    assert state.observation(0)["to_move"] == 1
    state.step(1, "play:r5")
    state.step(1, "pass")
    obs = state.observation(1)
    assert obs["to_move"] == 0 and obs["turn"] == 2 and obs["played_this_turn"] == 0
    assert "play:g5" in state.legal_actions(0)


def test_a_ground_play_counts_once():
    state = make(grounds0=["g1", "g2"], hand0=hand_of(8), wells=FULL_WELLS)
    state.step(0, "play:g1")
    assert state.observation(0)["played_this_turn"] == 1


def test_the_game_over_has_nobody_to_move():
    state = make(hand0=["p13"], hand1=["g18"], tops={"p1": 9})
    assert state.observation(1)["to_move"] == 0
    state.step(0, "play:p13")
    assert state.is_over() and state.observation(1)["to_move"] is None


def test_the_leak_audit_gets_the_unknown_cards_of_the_other_hand():
    state = make(
        hand0=["y5", "p13"], hand1=["r6", "g14"], tops={"y1": 1}, wells=[["p15"], ["p16"], ["y7"]]
    )
    assert state.secrets(0) == [["g14", "r6"], ["p15"], ["p16"], ["y7"]]
    assert state.secrets(1) == [["p13", "y5"], ["p15"], ["p16"], ["y7"]]


def test_tractor_targets_name_the_card_stood_in_for_and_only_for_the_seat_to_play():
    state = make(
        hand0=["r9", "g5"],
        hand1=["r5", "g9"],
        tops={"r1": 1, "g1": 1},
        tractors=(1, 1),
        wells=FULL_WELLS,
    )
    assert state.observation(0)["tractor_targets"] == ["r5"]
    assert state.observation(1)["tractor_targets"] == []  # seat 1 could stand in for g5, waits


def test_discarded_tractors_are_counted_per_seat():
    state = make(hand0=["y13"], tractors=(1, 1), wells=FULL_WELLS)
    assert state.observation(1)["tractors_discarded"] == [0, 0]
    state.step(0, "discard-tractor")
    assert state.observation(1)["tractors_discarded"] == [1, 0]


def test_a_stack_at_16_is_unfinished():
    tops = {f"{c}{b}": 16 + b for c in "pgry" for b in range(1, 5)} | {"y4": 16, "p1": 9}
    state = make(hand0=["p13"], hand1=["g5"], tops=tops)
    state.step(0, "play:p13")
    assert state._end == "out" and state._scores == [20, 0]  # p1 and y4 unfinished


def test_the_last_stack_finished_with_the_last_card_ends_as_all_finished():
    tops = {f"{c}{b}": 16 + b for c in "pgry" for b in range(1, 5)} | {"y4": 16}
    state = make(hand0=["y20"], hand1=["g5"], tops=tops)
    state.step(0, "play:y20")
    assert state._end == "all-finished" and state._scores == [40, 0]


def test_third_well_opens_when_well_1_is_empty_too():
    state = make(hand0=["y5"], tops={"y1": 1}, wells=[["p13"], [], ["g5"]])
    assert state.observation(0)["third_well_open"] is True


def test_sampled_opponent_with_a_known_unplayable_card_still_gets_its_play():
    # as above, and seat 0 also holds a Silo card everyone knows, not playable
    state = make(
        hand0=["p13", "y13"],
        hand1=["r5"],
        tops={"p1": 9},
        wells=[[f"g{n}" for n in range(13, 21)], [f"y{n}" for n in range(14, 21)] + ["r13"], []],
    )
    state._public[0] = {CARD["y13"]}
    rest_in_a_silo(state)
    assert state.legal_actions(0) == ["play:p13"]
    obs = state.observation(1)
    assert obs["opponent_known"] == ["y13"]
    for seed in range(300):
        sampled = Vegetables().sample_state(obs, random.Random(seed))
        assert sorted(NAMES[c] for c in sampled._hands[0]) == ["p13", "y13"], f"seed {seed}"


def test_only_the_seat_to_move_has_legal_actions():
    state = make(hand0=["g1"], hand1=["r1"], to_move=1, wells=FULL_WELLS)
    assert state.legal_actions(0) == []
    assert state.legal_actions(1) != []


def test_a_sampled_state_splits_the_high_cards_between_the_hand_and_both_wells():
    """Once play has drawn from the Wells, their counts are no longer equal
    (or 8): the opponent's share of the unknown high cards is what is left
    after *both* Wells', so a sampled state shows the seat what it saw."""
    checked = 0
    for seed in range(40):
        state = Vegetables().new_game(2, seed)
        rng = random.Random(seed)
        while not state.is_over() and checked < 12:
            seat = state.to_act()[0]
            obs = state.observation(1 - seat)
            if obs["wells"][1] not in (0, 8) and obs["wells"][0] > 0:
                sampled = Vegetables().sample_state(obs, random.Random(seed))
                assert sampled.observation(1 - seat) == obs
                checked += 1
            state.apply({seat: rng.choice(state.legal_actions(seat))})
        if checked >= 12:
            break
    assert checked >= 12  # the positions the test is about were reached
