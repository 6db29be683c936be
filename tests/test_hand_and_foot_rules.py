"""Hand and Foot: hand-built positions for every rule of the rules page."""

from collections import Counter

import pytest

from arena.game import IllegalAction, OptionError
from engines.hand_and_foot import HandAndFoot
from engines.hand_and_foot.cards import (
    DECK,
    books,
    can_go_out,
    max_meld_value,
    sort_cards,
    threshold,
)

ENGINE = HandAndFoot()


def position(
    players=4,
    *,
    hands=None,
    feet=None,
    sets=None,
    melded=None,
    discard=("4c",),
    stock=None,
    turn=0,
    phase="meld",
    in_foot=None,
    scores=None,
    options=None,
):
    """A state with the given cards (every unnamed hand/foot is a few 4s)."""
    state = ENGINE.new_game(players, 1, options)
    teams = state._num_teams
    state._hands = [sort_cards((hands or {}).get(seat, ["4d", "4h"])) for seat in range(players)]
    state._feet = [list((feet or {}).get(seat, ["4s", "4s"])) for seat in range(players)]
    state._in_foot = [False] * players
    for seat in in_foot or ():
        state._in_foot[seat] = True
        state._feet[seat] = []
    # copies of the set lists: melding appends to them, and BOOKS is shared
    state._sets = [
        {rank: list(cards) for rank, cards in (sets or {}).get(team, {}).items()}
        for team in range(teams)
    ]
    state._melded = [bool(state._sets[team]) for team in range(teams)]
    for team, value in (melded or {}).items():
        state._melded[team] = value
    state._discard = list(discard)
    state._stock = list(stock) if stock is not None else ["5c"] * 40
    state._turn = turn
    state._phase = phase
    if scores is not None:
        state._scores = list(scores)
    return state


def legal(state):
    return state.legal_actions(state.to_act()[0])


# ------------------------------------------------------------------- cards
def test_card_points_and_deck():
    from engines.hand_and_foot.cards import PENALTY, VALUE

    assert [
        VALUE[c] for c in ("4c", "7d", "8h", "ks", "ah", "2c", "jk", "3c", "3s", "3d", "3h")
    ] == [5, 5, 10, 10, 20, 20, 50, -50, -50, -500, -500]
    assert PENALTY["3h"] == 500 and PENALTY["3s"] == 50 and PENALTY["jk"] == 50
    assert len(DECK) == 54 and DECK.count("jk") == 2
    state = ENGINE.new_game(4, 3)
    assert Counter(state.all_cards()) == Counter(DECK * 5)
    assert all(len(hand) == 10 for hand in state._hands)
    assert all(len(foot) == 10 for foot in state._feet)
    assert len(state._discard) == 1 and len(state._stock) == 5 * 54 - 80 - 1
    state = ENGINE.new_game(2, 3, {"hand_size": 13})
    assert len(state._stock) == 3 * 54 - 52 - 1


# --------------------------------------------------------------- meld rules
def test_new_set_needs_three_cards():
    state = position(hands={0: ["7c", "7d", "9s"]}, sets={0: {"k": ["kc"] * 3}})
    assert not any(a.startswith("new:7") for a in legal(state))
    state = position(hands={0: ["7c", "7d", "7h", "9s"]}, sets={0: {"k": ["kc"] * 3}})
    assert "new:7" in legal(state)
    state.step(0, "new:7")
    assert state._sets[0]["7"] == ["7c", "7d", "7h"] and state._hands[0] == ["9s"]


def test_wild_needs_two_naturals():
    melded = {0: {"k": ["kc"] * 3}}
    state = position(hands={0: ["7c", "2s", "jk", "9s"]}, sets=melded)
    assert not any(a.startswith("new:7") for a in legal(state))
    state = position(hands={0: ["7c", "7s", "2s", "jk", "9s"]}, sets=melded)
    actions = legal(state)
    assert "new:7:2" in actions and "new:7:jk" in actions and "new:7" not in actions
    state.step(0, "new:7:jk")
    assert sorted(state._sets[0]["7"]) == ["7c", "7s", "jk"]
    # the joker goes, not a card sorted before it
    state = position(hands={0: ["7c", "7s", "kc", "tc", "jk", "9s"]}, sets=melded)
    state.step(0, "new:7:jk")
    assert sorted(state._sets[0]["7"]) == ["7c", "7s", "jk"]
    assert state._hands[0] == ["9s", "tc", "kc"]


def test_at_most_two_wilds_per_set():
    hand = ["2c", "jk", "9s", "9d"]
    one = position(hands={0: hand}, sets={0: {"7": ["7c", "7d", "2h"]}})
    assert {"meld:7:2", "meld:7:jk"} <= set(legal(one))
    two = position(hands={0: hand}, sets={0: {"7": ["7c", "7d", "2h", "jk"]}})
    assert not any(a.startswith("meld:7:") for a in legal(two))
    # a wild may be added one at a time up to two
    one.step(0, "meld:7:2")
    assert "meld:7:jk" not in legal(one)


def test_threes_and_wilds_never_form_sets():
    state = position(
        hands={0: ["3c", "3s", "3h", "2c", "2d", "2h", "jk", "jk", "jk", "9s"]},
        sets={0: {"k": ["kc"] * 3}},
    )
    actions = legal(state)
    assert not any(a.startswith(("new:3", "meld:3", "new:2", "meld:2", "new:j")) for a in actions)
    assert max_meld_value(["3c", "3s", "3h", "2c", "jk"], {}) == 0


def test_one_set_per_rank_per_team():
    state = position(hands={0: ["7c", "7d", "7h", "9s"]}, sets={0: {"7": ["7s"] * 3}})
    actions = legal(state)
    assert "new:7" not in actions and "meld:7" in actions
    # the other team's set of 7s does not matter
    state = position(
        hands={0: ["7c", "7d", "7h", "9s"]}, sets={0: {"k": ["kc"] * 3}, 1: {"7": ["7s"] * 3}}
    )
    assert "new:7" in legal(state)


def test_books_clean_and_dirty():
    assert books({"7": ["7c"] * 7}) == (1, 0)
    assert books({"7": ["7c"] * 6}) == (0, 0)
    assert books({"7": ["7c"] * 6 + ["2d"]}) == (0, 1)
    assert books({"7": ["7c"] * 8 + ["jk"], "9": ["9c"] * 9}) == (1, 1)
    assert can_go_out({"7": ["7c"] * 5 + ["2c", "2d"], "9": ["9c"] * 7})
    assert not can_go_out({"7": ["7c"] * 7, "9": ["9c"] * 7})
    # adding a wild to a clean book makes it dirty
    state = position(hands={0: ["2c", "9s"]}, sets={0: {"7": ["7c"] * 7}})
    state.step(0, "meld:7:2")
    assert books(state._sets[0]) == (0, 1)


# --------------------------------------------------------------- thresholds
@pytest.mark.parametrize(
    "score, need",
    [
        (-3000, 50),
        (0, 50),
        (1499, 50),
        (1500, 75),
        (2999, 75),
        (3000, 100),
        (4999, 100),
        (5000, 150),
        (6499, 150),
        (6500, 200),
        (20000, 200),
    ],
)
def test_threshold_bounds(score, need):
    assert threshold(score) == need
    state = position(scores=[score, 0])
    assert state.threshold(0) == need
    assert state.observation(0)["thresholds"][0] == need


@pytest.mark.parametrize(
    "score, hand, ok",
    [
        # 50: three aces (60) / tens 5x (50 exactly) / tens and fives 45
        (0, ["ac", "ad", "ah"], True),
        (1499, ["tc", "td", "th", "ts", "tc"], True),
        (0, ["tc", "td", "th", "5c", "5d", "5h"], False),
        # 75 from 1500: aces + fours = 75 exactly; 70 is not enough
        (1500, ["ac", "ad", "ah", "4c", "4d", "4h"], True),
        (2999, ["ac", "ad", "ah", "4c", "4d", "9h"], False),
        (1500, ["ac", "ad", "ah", "kc", "kd"], False),
        # 100 from 3000: aces + a pair of kings with a joker = 60+20+50 = 130
        (3000, ["ac", "ad", "ah", "kc", "kd", "jk"], True),
        (3000, ["ac", "ad", "ah", "4c", "4d", "4h"], False),
        # 150 from 5000 / 200 from 6500
        (5000, ["ac", "ad", "ah", "kc", "kd", "kh", "jk", "9c"], True),  # 60+30+50+... = 150
        (6499, ["ac", "ad", "ah", "kc", "kd", "kh", "2c", "9c"], False),  # 120 < 150
        (6500, ["ac", "ad", "ah", "ac", "kc", "kd", "jk", "jk", "2c"], True),  # 80+20+150
        (6500, ["ac", "ad", "ah", "ac", "kc", "kd", "jk", "2c", "2d"], False),  # 80+20+90 = 190
    ],
)
def test_initial_meld_threshold(score, hand, ok):
    state = position(hands={0: hand + ["9s", "9s"][:1]}, scores=[score, 0])
    actions = legal(state)
    melds = [a for a in actions if a.startswith(("new:", "meld:"))]
    assert bool(melds) == ok
    assert any(a.startswith("discard:") for a in actions)  # nothing pending yet
    if not ok:
        return
    # play the melds until the team has melded: never stuck, discard only after
    seen = 0
    while not state._melded[0]:
        assert not any(a.startswith("discard:") for a in legal(state)) or seen == 0
        state.step(0, next(a for a in legal(state) if a.startswith(("new:", "meld:"))))
        seen += 1
        assert legal(state)
    assert sum(max(0, _value(c)) for s in state._sets[0].values() for c in s) >= threshold(score)


def _value(card):
    from engines.hand_and_foot.cards import VALUE

    return VALUE[card]


def test_pending_meld_blocks_discard_and_shows_in_observation():
    state = position(hands={0: ["kc", "kd", "kh", "qc", "qd", "qh", "9s"]})
    assert "new:k" in legal(state)
    state.step(0, "new:k")
    view = state.observation(2)
    assert view["sets"][0] == {"k": ["kc", "kd", "kh"]} and view["melded"][0] is False
    actions = legal(state)
    assert not any(a.startswith("discard:") for a in actions)
    assert actions == ["new:q"]  # 9s, a lone card, cannot help
    state.step(0, "new:q")
    assert state._melded[0] and "discard:9s" in legal(state)


def test_initial_meld_cannot_empty_the_hand_below_threshold():
    # 30 + 30 = 60 only if all six are laid: the last set empties the Hand,
    # which is allowed since the threshold is met by that very set
    state = position(hands={0: ["kc", "kd", "kh", "qc", "qd", "qh"]})
    state.step(0, "new:k")
    state.step(0, "new:q")
    assert state._melded[0] and state._in_foot[0] and state._hands[0] == ["4s", "4s"]
    # 45 cannot be reached: not even the first set may be started
    state = position(hands={0: ["kc", "kd", "kh", "5c", "5d", "5h"]})
    assert not any(a.startswith("new:") for a in legal(state))


def test_teammates_meld_freely_after_initial_meld():
    state = position(hands={2: ["7c", "7d", "7h", "9s"]}, sets={0: {"k": ["kc"] * 3}}, turn=2)
    assert "new:7" in legal(state)  # 15 points: fine once the team has melded
    state = position(hands={1: ["7c", "7d", "7h", "9s"]}, sets={0: {"k": ["kc"] * 3}}, turn=1)
    assert "new:7" not in legal(state)  # the other team still needs 50


# ------------------------------------------------------------ discard pile
def test_take_pile_allowed_with_pair_and_eight_cards_only():
    discard = ["4c", "5c", "6c", "8c", "9c", "tc", "qc", "kc", "jc", "ac", "7h"]
    state = position(
        hands={0: ["7c", "7d", "9s"]}, sets={0: {"k": ["kc"] * 3}}, discard=discard, phase="draw"
    )
    assert legal(state) == ["draw", "pile"]
    state.step(0, "pile")
    assert state._sets[0]["7"] == ["7h", "7c", "7d"]
    assert state._discard == ["4c", "5c", "6c"]
    assert sorted(state._hands[0]) == sorted(["9s", "8c", "9c", "tc", "qc", "kc", "jc", "ac"])
    assert state._phase == "meld" and state.to_act() == (0,)


def test_take_pile_onto_existing_set_and_fewer_than_eight():
    state = position(
        hands={0: ["9s"]}, sets={0: {"7": ["7s"] * 3}}, discard=["qc", "7h"], phase="draw"
    )
    assert "pile" in legal(state)
    state.step(0, "pile")
    assert state._sets[0]["7"] == ["7s"] * 3 + ["7h"]
    assert state._discard == [] and state._hands[0] == ["9s", "qc"]


def test_take_pile_with_more_than_a_pair_of_the_rank_in_hand_uses_two():
    # three (or four) 7s in hand: the pile is still open, and only two go with the top
    for sevens in (["7c", "7d", "7s"], ["7c", "7d", "7s", "7s"]):
        state = position(
            hands={0: sevens + ["9s"]},
            sets={0: {"k": ["kc"] * 3}},
            discard=["qc", "7h"],
            phase="draw",
        )
        assert legal(state) == ["draw", "pile"]
        state.step(0, "pile")
        assert state._sets[0]["7"] == ["7h", "7c", "7d"]
        assert sorted(state._hands[0]) == sorted(sevens[2:] + ["9s", "qc"])


def test_take_pile_refused():
    melded = {0: {"k": ["kc"] * 3}}
    # under a 3 (black or red), even with a pair of them
    for three in ("3c", "3h"):
        state = position(
            hands={0: ["3s", "3d", "7c", "7d"]}, sets=melded, discard=["7h", three], phase="draw"
        )
        assert legal(state) == ["draw"]
    # one natural of the rank in hand and no set
    state = position(hands={0: ["7c", "9s"]}, sets=melded, discard=["7h"], phase="draw")
    assert legal(state) == ["draw"]
    # two of the rank only among the other pile cards: not from the Hand
    state = position(hands={0: ["9s"]}, sets=melded, discard=["7c", "7d", "7h"], phase="draw")
    assert legal(state) == ["draw"]


def test_take_pile_with_wild_top_only_onto_existing_set():
    state = position(
        hands={0: ["9s", "9d"]},
        discard=["5c", "2h"],
        phase="draw",
        sets={0: {"k": ["kc"] * 3, "7": ["7c", "7d", "jk", "2c"], "8": ["8c", "8d", "2s"]}},
    )
    assert legal(state) == ["draw", "pile:8", "pile:k"]
    state.step(0, "pile:k")
    assert state._sets[0]["k"] == ["kc"] * 3 + ["2h"] and state._hands[0] == ["5c", "9d", "9s"]
    # no existing set (team not melded): a wild top card cannot be taken
    state = position(hands={0: ["9s", "9d", "2c"]}, discard=["jk"], phase="draw")
    assert legal(state) == ["draw"]


def test_take_pile_for_initial_meld():
    # top ace + two aces from the Hand = 60 >= 50: the team has melded at once
    state = position(hands={0: ["ac", "ad", "9s"]}, discard=["5c", "ah"], phase="draw")
    assert "pile" in legal(state)
    state.step(0, "pile")
    assert state._melded[0] and state._sets[0]["a"] == ["ah", "ac", "ad"]
    # kings (30) alone are not enough ...
    state = position(hands={0: ["kc", "kd", "9s"]}, discard=["5c", "kh"], phase="draw")
    assert "pile" not in legal(state)
    # ... but the other cards taken may complete the threshold
    state = position(hands={0: ["kc", "kd", "9s"]}, discard=["qc", "qd", "qh", "kh"], phase="draw")
    assert "pile" in legal(state)
    state.step(0, "pile")
    assert not state._melded[0] and legal(state) == ["new:q"]
    state.step(0, "new:q")
    assert state._melded[0]


# -------------------------------------------------------------------- feet
def test_foot_picked_up_by_melding_keeps_playing():
    state = position(hands={0: ["7c"]}, feet={0: ["qc", "5d"]}, sets={0: {"7": ["7s"] * 3}})
    state.step(0, "meld:7")
    assert state._in_foot[0] and state._hands[0] == ["5d", "qc"] and state._feet[0] == []
    assert state.to_act() == (0,) and state._phase == "meld"
    assert state.observation(0)["hand"] == ["5d", "qc"]
    assert state.observation(1)["in_foot"][0] and "hand" in state.observation(1)


def test_foot_picked_up_by_discard_plays_next_turn():
    state = position(hands={0: ["9c"]}, feet={0: ["qc", "5d"]}, sets={0: {"7": ["7s"] * 3}})
    assert legal(state) == ["discard:9c"]
    state.step(0, "discard:9c")
    assert state._in_foot[0] and state._hands[0] == ["5d", "qc"]
    assert state.to_act() == (1,) and state._phase == "draw"
    assert state._discard[-1] == "9c"


# --------------------------------------------------------------- going out
BOOKS = {"8": ["8c"] * 7, "9": ["9c"] * 6 + ["2d"]}


def test_going_out_requires_both_books():
    # in the Foot without books: the last card may not be discarded
    state = position(hands={0: ["kc"]}, sets={0: {"8": ["8c"] * 7}}, in_foot=[0])
    assert legal(state) == [] or not any(a.startswith("discard") for a in legal(state))
    # nor may a meld leave one card that cannot go out, or none
    state = position(
        hands={0: ["7c", "kd"]}, sets={0: {"7": ["7s"] * 3, "8": ["8c"] * 7}}, in_foot=[0]
    )
    assert legal(state) == ["discard:7c", "discard:kd"]
    state = position(hands={0: ["7c", "7d", "kd"]}, in_foot=[0], sets={0: {"7": ["7s"] * 3}})
    assert "meld:7" in legal(state)
    state.step(0, "meld:7")
    assert legal(state) == ["discard:7d", "discard:kd"]
    # with a clean and a dirty book the player may go out by discarding
    state = position(hands={0: ["kc"]}, sets={0: BOOKS}, in_foot=[0])
    assert legal(state) == ["discard:kc"]
    state.step(0, "discard:kc")
    assert state._outs == [0] and state._round == 2


def test_going_out_by_melding_the_last_card():
    state = position(
        hands={0: ["9d", "kd"]}, in_foot=[0], sets={0: {"8": ["8c"] * 7, "9": ["9c"] * 5 + ["2d"]}}
    )
    # melding the 9 completes the dirty book, so keeping one card is fine
    assert "meld:9" in legal(state)
    state.step(0, "meld:9")
    assert can_go_out(state._sets[0]) and "discard:kd" in legal(state)
    state = position(
        hands={0: ["9d"]}, in_foot=[0], sets={0: {"8": ["8c"] * 7, "9": ["9c"] * 5 + ["2d"]}}
    )
    # the single last card goes out by completing the dirty book
    assert legal(state) == ["meld:9"]
    state.step(0, "meld:9")
    assert state._outs == [0]
    assert state._history[0][0] == 70 + 500 + 60 + 20 + 250 - 10 - 10  # teammate 2: 4d 4h, 4s 4s
    # in the Hand (not the Foot) emptying the hand is always fine
    state = position(hands={0: ["9d"]}, sets={0: {"9": ["9c"] * 3}})
    assert legal(state) == ["meld:9", "discard:9d"]


# ----------------------------------------------------------------- scoring
def test_round_scoring_example_by_hand():
    sets0 = {
        "k": ["kc"] * 7,  # 70 + clean book 500
        "5": ["5c"] * 4 + ["2c", "jk"] + ["5d"],  # 25 + 70 + dirty book 250
        "a": ["ac", "ad", "ah"],
    }  # 60
    sets1 = {"7": ["7c", "7d", "2s"]}  # 10 + 20 = 30
    state = position(
        hands={0: ["qd"], 1: ["3h", "ac"], 2: ["3s", "4c"], 3: ["jk"]},
        feet={1: ["6c", "6d"], 3: ["kc", "2c"]},
        in_foot=[0, 2],
        sets={0: sets0, 1: sets1},
        options={"go_out_bonus": 100},
    )
    # team 0: 70+500+95+250+60 = 975; minus seat 2's 3s (50) and 4c (5)
    # team 1: 30; minus 3h 500, ac 20, 6c 6d 10, jk 50, kc 10, 2c 20 = 610
    # (seat 0 still holds the queen until it discards it)
    assert state.round_scores() == [910, -580]
    assert state.round_scores(goer=0) == [1010, -580]
    state.step(0, "discard:qd")  # goes out: the bonus and the discarded card
    assert state._history == [[1020, -580]] and state._scores == [1020, -580]
    assert state._outs == [0] and state._round == 2 and state._first == 1
    assert state.observation(3)["history"] == [[1020, -580]]


# ----------------------------------------------------------- stock exhausted
def test_stock_exhausted_ends_round():
    state = position(hands={0: ["9c", "kd"]}, stock=[], sets={0: {"k": ["kc"] * 3}})
    state.step(0, "discard:9c")
    assert state._outs == [None] and len(state._history) == 1 and state._round == 2
    assert state._first == 1 and state.to_act() == (1,) and state._phase == "draw"
    # however many discards lie under the top card
    state = position(
        hands={0: ["9c", "kd"]}, stock=[], sets={0: {"k": ["kc"] * 3}}, discard=["5c", "6c", "7c"]
    )
    state.step(0, "discard:9c")
    assert state._outs == [None] and state._round == 2
    # one card left: the round goes on
    state = position(hands={0: ["9c", "kd"]}, stock=["qh"], sets={0: {"k": ["kc"] * 3}})
    state.step(0, "discard:9c")
    assert state._round == 1 and state.to_act() == (1,) and state._phase == "draw"
    # a last single card is drawn alone
    state = position(hands={0: ["9c"]}, stock=["qh"], phase="draw")
    state.step(0, "draw")
    assert state._hands[0] == ["9c", "qh"] and state._stock == []


def test_stock_exhausted_reshuffles():
    options = {"stock_exhausted": "reshuffle"}
    state = position(
        hands={0: ["9c", "kd"]}, stock=[], options=options, discard=["5c", "6c", "7c", "8c"]
    )
    state.step(0, "discard:9c")
    assert state._round == 1 and state.to_act() == (1,)
    state.step(1, "draw")
    assert state._discard == ["9c"] and len(state._stock) == 2
    assert Counter(state._stock + state._hands[1]) == Counter(["5c", "6c", "7c", "8c", "4d", "4h"])
    # reshuffling mid-draw: one card left, then the discards under the top
    state = position(
        hands={0: ["9c"]}, stock=["qh"], options=options, phase="draw", discard=["5c", "6c"]
    )
    state.step(0, "draw")
    assert state._hands[0] == ["5c", "9c", "qh"] and state._discard == ["6c"]
    # exactly two under the top card: the round goes on
    state = position(hands={0: ["9c", "kd"]}, stock=[], options=options, discard=["5c", "6c"])
    state.step(0, "discard:9c")
    assert state._round == 1 and state.to_act() == (1,)
    state.step(1, "draw")
    assert sorted(state._hands[1]) == ["4d", "4h", "5c", "6c"] and state._discard == ["9c"]
    # fewer than two cards to draw from: the round ends
    state = position(hands={0: ["9c", "kd"]}, stock=[], options=options, discard=["5c"])
    state.step(0, "discard:9c")
    assert state._outs == [None] and state._round == 2


# ---------------------------------------------------------- teams and game
@pytest.mark.parametrize(
    "players, teams",
    [
        (2, [0, 1]),
        (4, [0, 1, 0, 1]),
        (6, [0, 1, 2, 0, 1, 2]),
        (8, [0, 1, 2, 3, 0, 1, 2, 3]),
        (9, [0, 1, 2, 0, 1, 2, 0, 1, 2]),
    ],
)
def test_teams_by_player_count(players, teams):
    state = ENGINE.new_game(players, 5, {"max_rounds": 1, "target": 100})
    assert state.observation(0)["teams"] == teams
    assert Counter(state.all_cards()) == Counter(DECK * (players + 1))
    assert len(state._scores) == max(teams) + 1
    import random

    rng = random.Random(players)
    while state.to_act():
        seat = state.to_act()[0]
        state.step(seat, rng.choice(state.legal_actions(seat)))
    outcome = state.outcome()
    assert list(outcome.teams) == teams
    for seat, team in enumerate(teams):
        assert outcome.scores[seat] == state._scores[team]


def test_teams_option():
    assert ENGINE.new_game(6, 1, {"teams": 2}).observation(0)["teams"] == [0, 1, 0, 1, 0, 1]
    assert ENGINE.new_game(8, 1, {"teams": 2})._num_teams == 2
    assert ENGINE.new_game(9, 1, {"teams": 9})._num_teams == 9
    with pytest.raises(OptionError):
        ENGINE.new_game(6, 1, {"teams": 4})
    with pytest.raises(OptionError):
        ENGINE.new_game(4, 1, {"teams": 1})
    with pytest.raises(OptionError):
        ENGINE.new_game(4, 1, {"stock_exhausted": "stop"})
    # the rules page's defaults: 10 cards, 10,000 points, at most 20 rounds
    assert ENGINE.info.resolve_options({}) == {
        "target": 10000,
        "hand_size": 10,
        "go_out_bonus": 0,
        "stock_exhausted": "end",
        "max_rounds": 20,
        "teams": 0,
    }
    opts = ENGINE.info.resolve_options({"target": "2000", "max_rounds": "3"})
    assert opts == {
        "target": 2000,
        "hand_size": 10,
        "go_out_bonus": 0,
        "stock_exhausted": "end",
        "max_rounds": 3,
        "teams": 0,
    }


def test_game_ends_above_target_and_ranks_teams():
    state = position(
        hands={0: ["kc"]},
        sets={0: BOOKS},
        in_foot=[0],
        scores=[1500, 1900],
        options={"target": 2000},
    )
    # round: team 0 = 70+500+80+250 - (4d 4h + 4s 4s of seat 2) = 880; team 1 = -40
    state.step(0, "discard:kc")
    assert state.is_over() and state._scores == [2380, 1860]
    outcome = state.outcome()
    assert outcome.scores == (2380, 1860, 2380, 1860) and outcome.ranks == (1, 3, 1, 3)
    # exactly the target is not more than it: play on
    state = position(
        hands={0: ["kc"]}, sets={0: BOOKS}, in_foot=[0], scores=[1120, 0], options={"target": 2000}
    )
    state.step(0, "discard:kc")
    assert state._scores[0] == 2000 and not state.is_over()


def test_max_rounds_and_tied_ranks():
    state = position(
        hands={0: ["9c", "kd"], 1: ["4c"], 2: ["4c"], 3: ["4c", "9h"]},
        stock=[],
        options={"max_rounds": 1},
    )
    state.step(0, "discard:9c")
    assert state.is_over() and state.to_act() == ()
    # team 0: -(kd 10 + 4c 5 + feet 20) ; team 1: -(4c 5 + 4c 9h 15 + feet 20)
    assert state._scores == [-35, -40]
    state = position(
        hands={0: ["9c", "4c"], 1: ["4c"], 2: ["4c"], 3: ["4h"]},
        stock=[],
        options={"max_rounds": 1},
    )
    state.step(0, "discard:9c")
    assert state.outcome().ranks == (1, 1, 1, 1)


def test_illegal_action_raises():
    state = ENGINE.new_game(4, 2)
    with pytest.raises(IllegalAction):
        state.step(0, "discard:3h")
    with pytest.raises(IllegalAction):
        state.step(1, "draw")


# ------------------------------------------------- meld arithmetic (cards.py)
def test_wild_cards_are_the_2s_and_jokers_also_read_from_json():
    import json

    from engines.hand_and_foot.cards import is_wild, set_wilds

    # a bot's cards come through JSON: equal strings, not the module's objects
    cards = json.loads(json.dumps(["2c", "2h", "jk", "3c", "4d", "tc", "kc", "ah"]))
    assert [is_wild(card) for card in cards] == [True] * 3 + [False] * 5
    assert set_wilds(cards) == 3
    assert max_meld_value(json.loads('["kc", "kd", "jk"]'), {}) == 70


def test_threes_are_the_only_dead_cards():
    from engines.hand_and_foot.cards import is_three

    assert is_three("3c") and is_three("3h")
    assert not any(is_three(card) for card in ("2c", "4d", "9s", "tc", "ah", "jk"))


@pytest.mark.parametrize(
    "hand, sets, value",
    [
        # a pair completed by a wild counts both naturals: kings 2 x 10 + joker 50
        (["kc", "kd", "jk"], {}, 70),
        (["kc", "kd", "2c"], {}, 40),
        # the best wilds are used first: two slots (the completed pair's set
        # holds at most two wilds), so both jokers, not the 2
        (["kc", "kd", "2c", "jk", "jk"], {}, 20 + 100),
        # a set on the table has two free slots, a completed pair two more:
        # three wilds all fit (aces 60 on the table, kings 20, 2 + 2 + joker 90)
        (["kc", "kd", "2c", "2d", "jk"], {"a": ["ac", "ad", "ah"]}, 60 + 20 + 90),
        # without a wild a pair is worth nothing; three or four of a rank are
        (["kc", "kd", "5c", "5d", "5h"], {}, 15),
        (["5c", "5d", "5h", "5s"], {}, 20),
        # a new set from the hand opens two wild slots (several decks: three jokers)
        (["5c", "5d", "5h", "jk", "jk", "jk"], {}, 15 + 100),
        # a set on the table with one wild has one slot left
        (["jk", "jk"], {"a": ["ac", "ad", "2c"]}, 60 + 50),
        # one wild for two pairs: it completes the better pair
        (["5c", "5d", "kc", "kd", "2c"], {}, 20 + 20),
    ],
)
def test_max_meld_value_by_hand(hand, sets, value):
    assert max_meld_value(hand, sets) == value


# ------------------------------------------- the last card of the Foot (game.py)
def test_a_meld_may_leave_a_last_wild_that_goes_out():
    # in the Foot with 7c and 2c: melding the 7 leaves the 2, which completes
    # the dirty book of 7s (the clean book of 8s is down), so it is legal
    sets = {"8": ["8c"] * 7, "7": ["7s"] * 4 + ["jk"]}
    state = position(hands={0: ["7c", "2c"]}, sets={0: sets}, in_foot=[0])
    assert "meld:7" in legal(state)
    state.step(0, "meld:7")
    assert legal(state) == ["meld:7:2"]
    state.step(0, "meld:7:2")
    assert state._outs == [0]
    # a last 2 that fits only the clean book (the 7s hold two wilds), making
    # it dirty, cannot go out: the 7 may not be melded first
    sets = {"8": ["8c"] * 7, "7": ["7s"] * 3 + ["jk", "2d"]}
    state = position(hands={0: ["7c", "2c"]}, sets={0: sets}, in_foot=[0])
    assert "meld:7" not in legal(state)


# ------------------------------------------------ sampling the hidden cards
def full_position(hands, sets, turn, in_foot=(), seed=7):
    """A 4-player state whose cards add up (as sample_state needs): the given
    Hands and sets, every other Hand, Foot and the draw pile dealt from the
    rest of the five decks."""
    state = ENGINE.new_game(4, seed)
    pool = Counter(DECK * 5)
    for cards in list(hands.values()) + [c for team in sets.values() for c in team.values()]:
        pool.subtract(cards)
    rest = sorted(pool.elements())
    import random

    random.Random(seed).shuffle(rest)
    state._hands, state._feet = [], []
    for seat in range(4):
        state._hands.append(sort_cards(hands.get(seat) or [rest.pop() for _ in range(10)]))
        state._feet.append([] if seat in in_foot else [rest.pop() for _ in range(10)])
    state._in_foot = [seat in in_foot for seat in range(4)]
    state._sets = [
        {rank: list(cards) for rank, cards in sets.get(team, {}).items()} for team in range(2)
    ]
    state._melded = [bool(state._sets[team]) for team in range(2)]
    state._discard, state._stock, state._legal = [rest.pop()], rest, None
    state._phase, state._turn = "meld", turn
    return state


def test_sample_state_gives_a_later_seat_a_hand_that_can_finish_its_pending_meld(monkeypatch):
    import random

    import engines.hand_and_foot.game as game

    # seat 1 (after the observer, seat 0), its team at 5000 points, has laid
    # kings (30 of 150) and holds eight cards that must still make 120: few
    # random deals do, so the repair swaps in good cards for the worst ones
    mine = ["kc", "kd", "kh", "ac", "ad", "ah", "qc", "qd", "jk", "jk", "9s"]
    state = full_position({1: mine}, {}, turn=1)
    state._scores = [0, 5000]
    state.step(1, "new:k")
    assert not state._melded[1] and len(state._hands[1]) == 8
    view = state.observation(0)
    monkeypatch.setattr(game, "SAMPLE_TRIES", 1)  # one deal, then the repair
    repaired = 0
    for index in range(20):
        sampled = ENGINE.sample_state(view, random.Random(index))
        assert sampled.observation(0) == view
        assert sampled.legal_actions(1), index  # it can still reach 150
        assert Counter(sampled.all_cards()) == Counter(state.all_cards())
        repaired += sampled._hands[1] != state._hands[1]
    assert repaired  # hidden hands really are resampled


def test_sample_state_gives_a_last_foot_card_that_goes_out(monkeypatch):
    import random

    import engines.hand_and_foot.game as game

    # seat 1 in its Foot melded down to one card, which must complete the
    # dirty book of 9s (already holding two wilds): a natural 9, though a
    # joker would add more points; the observer cannot see which it holds
    sets = {1: {"8": ["8c"] * 7, "9": ["9c"] * 4 + ["2d", "2h"]}}
    state = full_position({1: ["9d"]}, sets, turn=1, in_foot=(1,))
    assert state.legal_actions(1) == ["meld:9"]
    view = state.observation(0)
    monkeypatch.setattr(game, "SAMPLE_TRIES", 1)
    for index in range(20):
        sampled = ENGINE.sample_state(view, random.Random(index))
        assert sampled.observation(0) == view
        card = sampled._hands[1][0]
        assert card[0] == "9", (index, card)
        assert sampled.legal_actions(1)


def test_a_wild_meld_in_the_foot_keeps_the_natural_that_goes_out_next():
    # in the Foot with 7c, 2c, kd: the 2 onto the 7s leaves 7c and kd, two
    # cards, so it is legal; the 7 after it would leave kd alone, no books
    sets = {"8": ["8c"] * 7, "7": ["7s"] * 3 + ["jk"]}
    state = position(hands={0: ["7c", "2c", "kd"]}, sets={0: sets}, in_foot=[0])
    assert "meld:7:2" in legal(state)
    state.step(0, "meld:7:2")
    assert state._hands[0] == ["7c", "kd"] and legal(state) == ["discard:7c", "discard:kd"]


def test_sample_state_of_a_nine_player_game_uses_ten_decks():
    import random

    state = ENGINE.new_game(9, 4)
    sampled = ENGINE.sample_state(state.observation(3), random.Random(1))
    assert Counter(sampled.all_cards()) == Counter(DECK * 10)
    assert sampled.observation(3) == state.observation(3)


def test_a_new_set_with_a_wild_takes_two_naturals_even_with_a_third_in_hand():
    state = position(hands={0: ["7c", "7s", "7h", "2s", "9s"]}, sets={0: {"k": ["kc"] * 3}})
    assert "new:7:2" in legal(state)
    state.step(0, "new:7:2")
    assert len(state._sets[0]["7"]) == 3 and "2s" in state._sets[0]["7"]
    hand = state._hands[0]
    assert len(hand) == 2 and "9s" in hand and sum(card[0] == "7" for card in hand) == 1


# ------------------------------------------ the counts the moves keep up to date
def recounted(state):
    """A clone whose counts are made afresh from its cards (``_legal = None``
    says the cards were set by hand)."""
    fresh = state.clone()
    fresh._legal = None
    fresh.legal_actions(fresh._turn)
    return fresh


def counts(state):
    return state._held, state._copies, state._set_wilds


@pytest.mark.parametrize(
    "players, options",
    [
        (2, {"max_rounds": 2}),
        (4, {"max_rounds": 3, "hand_size": 3, "go_out_bonus": 100}),
        (6, {"max_rounds": 1, "stock_exhausted": "reshuffle"}),
    ],
)
def test_counts_kept_by_every_move_are_those_of_the_cards(players, options):
    # random games: after every move the kept counts (cards per rank, copies
    # per card, wilds per set) and the legal actions equal those made afresh
    # from the cards, and a clone taken before the move is not touched by it
    import random

    rng = random.Random(players)
    state = ENGINE.new_game(players, players, options)
    kinds = Counter()
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        fresh = recounted(state)
        assert fresh.legal_actions(seat) == legal
        assert counts(state) == counts(fresh)
        before = state.clone()
        action = rng.choice(legal)
        kinds[action.split(":")[0]] += 1
        state.apply({seat: action})
        assert counts(before) == counts(recounted(before))
        before._legal = False  # outdated: made again from the kept counts
        assert before.legal_actions(seat) == legal
    assert set(kinds) == {"draw", "pile", "meld", "new", "discard"}
    assert state._round > 1 or players == 6


def melds_found_the_slow_way(state, seat):
    """The meld actions the rules allow ``seat``, from its cards alone: every
    shape in hand, moved on copies of the cards and kept if the turn can
    still be finished (``_placement_ok`` on the lists)."""
    from engines.hand_and_foot.game import _MELDS

    team = state._team_of[seat]
    sets, hand = state._sets[team], state._hands[seat]
    found = set()
    for action, (rank, naturals, wild, new) in _MELDS.items():
        has_wild = wild is None or any(card == wild or card[0] == wild for card in hand)
        room = (
            new or sum(card == "jk" or card[0] == "2" for card in sets[rank]) < 2
            if rank in sets
            else True
        )
        if (
            new == (rank not in sets)
            and has_wild
            and (wild is None or room)
            and sum(card[0] == rank and card != "jk" for card in hand) >= naturals
        ):
            moved, left = state._take(hand, rank, naturals, wild)
            if state._placement_ok(seat, left, {**sets, rank: sets.get(rank, []) + moved}):
                found.add(action)
    return found


@pytest.mark.parametrize("players, scores", [(2, (0, 1500)), (2, (3000, 5000)), (4, (6500, 0))])
def test_melds_while_the_initial_meld_is_pending_or_in_the_foot_are_those_of_the_rules(
    players, scores
):
    # the counted shortcut (cards per rank, cards.meld_value) against the
    # cards themselves, in random rounds with Hands of 2 or 4
    import random

    rng = random.Random(players + scores[0])
    checked = Counter()
    for game in range(12):
        state = ENGINE.new_game(players, game, {"hand_size": 2 + game % 2 * 2, "max_rounds": 1})
        state._scores = list(scores)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            team = state._team_of[seat]
            melds = [a for a in legal if a.startswith(("meld", "new"))]
            if state._phase == "meld" and not (state._melded[team] and not state._in_foot[seat]):
                assert set(melds) == melds_found_the_slow_way(state, seat)
                checked["pending" if not state._melded[team] else "foot"] += 1
                checked["melds"] += len(melds)
            state.apply({seat: rng.choice(melds or legal)})  # melds first: the Foot comes soon
    assert checked["pending"] > 20 and checked["foot"] > 20 and checked["melds"] > 40, checked


def test_secrets_are_the_other_hands_the_unpicked_feet_and_the_draw_pile():
    state = position(
        hands={0: ["5c", "6c"], 1: ["7c", "8c"], 2: ["9c", "tc"], 3: ["jc", "qc"]},
        feet={2: ["kc", "ac"]},
        in_foot=[0],
        stock=["4c", "4d"],
    )
    assert state.secrets(1) == [
        ["5c", "6c"],
        ["9c", "tc"],
        ["jc", "qc"],
        ["4s", "4s"],
        ["kc", "ac"],
        ["4s", "4s"],
        ["4c", "4d"],
    ]
    assert state.secrets(3)[:3] == [["5c", "6c"], ["7c", "8c"], ["9c", "tc"]]


def test_the_game_ends_after_max_rounds_also_beyond_the_cached_small_ints():
    # round numbers are counted, so round 300 is another int object than the
    # option's 300: only a comparison of values ends the game
    state = ENGINE.new_game(2, 5, {"max_rounds": 300, "target": 10**9})
    state._round = 298
    state._end_round(None)
    state._end_round(None)
    assert not state.is_over() and state._round == 300
    state._end_round(None)
    assert state.is_over() and state._round == 300


@pytest.mark.parametrize(
    "name, lowest, highest",
    [
        ("target", 1, None),
        ("hand_size", 2, 20),
        ("go_out_bonus", 0, None),
        ("max_rounds", 1, None),
        ("teams", 0, None),
    ],
)
def test_each_option_takes_its_bounds_and_refuses_what_lies_beyond(name, lowest, highest):
    assert ENGINE.info.resolve_options({name: lowest})[name] == lowest
    with pytest.raises(OptionError, match="below the minimum"):
        ENGINE.info.resolve_options({name: lowest - 1})
    if highest is not None:
        assert ENGINE.info.resolve_options({name: highest})[name] == highest
        with pytest.raises(OptionError, match="above the maximum"):
            ENGINE.info.resolve_options({name: highest + 1})


def test_a_sample_of_a_finished_game_sent_as_json_is_over():
    # a bot gets its view through JSON: the phase is then another str object
    # than the engine's constant, so only a comparison of values ends the game
    import json
    import random

    rng = random.Random(3)
    state = ENGINE.new_game(2, 3, {"max_rounds": 1})
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply({seat: rng.choice(state.legal_actions(seat))})
    view = json.loads(json.dumps(state.observation(0)))
    assert view["phase"] == "over" and view["phase"] is not state._phase
    sampled = ENGINE.sample_state(view, random.Random(0))
    assert sampled.to_act() == () and sampled.legal_actions(0) == []
    assert sampled.outcome() == state.outcome()


def test_a_sample_at_the_observers_own_turn_keeps_its_hand_even_one_short_of_the_threshold():
    # the re-deals and the repair are for the acting player's *hidden* Hand:
    # a seat sampling its own turn knows its Hand, even one that cannot reach
    # the initial meld's threshold (it may still discard)
    import random

    rng = random.Random(5)
    checked = 0
    for game in range(20):
        state = ENGINE.new_game(2, game, {"max_rounds": 1})
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if state._phase == "meld" and not state._turn_finishable(seat):
                view = state.observation(seat)
                sampled = ENGINE.sample_state(view, random.Random(checked))
                assert sampled.observation(seat) == view
                checked += 1
            state.apply({seat: rng.choice(legal)})
    assert checked >= 10


def test_a_new_set_with_a_two_lists_its_cards_in_hand_order():
    # the set's cards as every observation shows them: the 2 first, as it sorts
    melded = {0: {"k": ["kc"] * 3}}
    state = position(hands={0: ["7c", "7s", "2s", "9s", "9d"]}, sets=melded)
    state.step(0, "new:7:2")
    assert state._sets[0]["7"] == ["2s", "7c", "7s"]
    assert state.observation(1)["sets"][0]["7"] == ["2s", "7c", "7s"]
