"""Each game drawn as its table (the ``drawing`` part of a game's unit,
:mod:`arena.game.drawing`): well-formed tables through every view, no card a
view may not see, and the things a newcomer needs to follow a game --
who played what in Dou Dizhu, the melds by team in words in Hand and Foot."""

import json
import random

import pytest

from arena.game import GameUnit
from arena.game.drawing import Drawing, check_table
from arena.game.testing import check_unit
from engines import unit_for
from engines.farm_and_furious.game import FarmAndFurious
from engines.hand_and_foot.drawing import meld_text

GAMES = {"dou-dizhu": 3, "hand-and-foot": 4, "farm-hand": 3, "vegetables": 2, "farm-and-furious": 3}


def played(game: str, players: int, moves: int, seed: int = 3):
    state = unit_for(game).engine.new_game(players, seed, None)
    rng = random.Random(seed)
    for _ in range(moves):
        if not state.to_act():
            break
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    return state


def face_up(drawn) -> list[str]:
    zones = [z for s in drawn["seats"] for z in s["zones"]] + drawn["middle"]
    return [c["code"] for z in zones for c in z["cards"] if c["code"]]


@pytest.mark.parametrize("game", GAMES)
def test_every_built_in_game_has_a_drawing_check_unit_accepts(game):
    assert "drawing" in check_unit(unit_for(game), require=("drawing",))


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_sees_on_the_table_only_cards_it_was_shown(game):
    players = GAMES[game]
    draw = unit_for(game).part("drawing")(players, [f"b{n}" for n in range(players)])
    for moves in (0, 7, 30):
        state = played(game, players, moves)
        views = {s: state.observation(s) for s in range(players)}
        seen = draw.draw({0: views[0]})
        assert not check_table(seen, players)
        mine = json.dumps(views[0])
        assert all(code in mine for code in face_up(seen))
        whole = draw.draw(views)
        # the whole table shows every seat's hand face up
        for seat in range(players):
            hand = views[seat].get("hand")
            if hand:
                assert set(hand) <= set(face_up(whole)), (game, seat)


def test_hand_and_foot_other_hands_are_face_down_to_a_seat():
    state = played("hand-and-foot", 4, 20)
    draw = unit_for("hand-and-foot").part("drawing")(4, ["a", "b", "c", "d"])
    seen = draw.draw({0: state.observation(0)})
    for seat in seen["seats"][1:]:
        hand = seat["zones"][0]
        assert (
            hand["cards"] == []
            and hand["hidden"] == state.observation(seat["seat"])["hand_counts"][seat["seat"]]
        )
    assert [c["code"] for c in seen["seats"][0]["zones"][0]["cards"]] == state.observation(0)[
        "hand"
    ]


def test_dou_dizhu_says_which_seat_played_what_and_who_is_landlord():
    engine = unit_for("dou-dizhu").engine
    state = engine.new_game(3, 11, None)
    while state.observation(0)["landlord"] is None:  # the first bidder takes it at 3
        seat = state.to_act()[0]
        state.apply({seat: "bid:3" if "bid:3" in state.legal_actions(seat) else "bid:0"})
    lord = state.observation(0)["landlord"]
    plays = {}
    for seat in (lord, (lord + 1) % 3):
        legal = [a for a in state.legal_actions(seat) if a != "pass"]
        plays[seat] = min(legal, key=len)
        state.apply({seat: plays[seat]})
    drawn = (
        unit_for("dou-dizhu")
        .part("drawing")(3, ["x", "y", "z"])
        .draw({s: state.observation(s) for s in range(3)})
    )
    roles = [s["role"] for s in drawn["seats"]]
    assert roles[lord] == "landlord" and roles.count("peasant") == 2
    for seat, play in plays.items():
        zone = next(z for z in drawn["seats"][seat]["zones"] if z["label"] == "played")
        assert "".join(c["code"] for c in zone["cards"]) == play
    assert any("bid: 3" in text for text in drawn["seats"][lord]["texts"])
    assert drawn["seats"][(lord + 1) % 3 + 0]["turn"] is False
    assert drawn["seats"][(lord + 2) % 3]["turn"] is True
    assert any(
        z["label"] == "landlord's extra cards" and len(z["cards"]) == 3 for z in drawn["middle"]
    )
    assert any("multiplier 1" in text for text in drawn["texts"])


def test_hand_and_foot_melds_read_as_words_by_team():
    assert meld_text("7", ["7c", "7d", "7h", "7s", "7s"]) == "7s ×5 (clean)"
    assert meld_text("k", ["kc"] * 6 + ["2h"]) == "Kings ×7 dirty book"
    assert meld_text("k", ["kc"] * 7) == "Kings ×7 clean book"
    assert meld_text("t", ["tc", "tc", "jk"]) == "10s ×3 (1 wild)"
    state = played("hand-and-foot", 4, 400, seed=5)
    obs = state.observation(0)
    drawn = unit_for("hand-and-foot").part("drawing")(4, list("abcd")).draw({0: obs})
    teams = [z for z in drawn["middle"] if z["label"].startswith("Team ")]
    assert [z["label"][:6] for z in teams] == ["Team A", "Team B"]
    for team, sets in enumerate(obs["sets"]):
        for rank, cards in sets.items():
            assert meld_text(rank, cards) in teams[team]["text"]
    assert "Team A (a, c)" in teams[0]["label"]


def test_a_game_without_a_drawing_gets_the_plain_one_and_a_broken_one_is_reported():
    assert GameUnit(FarmAndFurious()).part("drawing") is None
    plain = Drawing(2, ["p", "q"]).draw({1: FarmAndFurious().new_game(2, 1, None).observation(1)})
    assert not check_table(plain, 2) and plain["seats"][1]["zones"][0]["cards"]
    assert plain["seats"][0]["zones"] == []  # seat 0's hand is not seen by seat 1

    unit = GameUnit(FarmAndFurious(), drawing="tests.test_drawing:BackwardsDrawing")
    with pytest.raises(AssertionError, match=r"drawing: move 0, seen by \[0, 1\]: seats \[1, 0\]"):
        check_unit(unit)
    unit = GameUnit(FarmAndFurious(), drawing="tests.test_drawing:BrokenDrawing")
    with pytest.raises(AssertionError, match=r"drawing: move 0, .*KeyError: 'nothing'"):
        check_unit(unit)
    unit = GameUnit(FarmAndFurious(), drawing="tests.test_drawing:OneLineEndDrawing")
    with pytest.raises(AssertionError, match=r"drawing: move 0, seen by \[0\]: ended\(\) gave"):
        check_unit(unit)


class BackwardsDrawing(Drawing):
    def draw(self, views):
        drawn = super().draw(views)
        drawn["seats"].reverse()
        return drawn


class BrokenDrawing(Drawing):
    def draw(self, views):
        return self.public(views)["nothing"]


class OneLineEndDrawing(Drawing):
    def ended(self, observation):
        return "the race goes on"  # a line, not a list of lines
