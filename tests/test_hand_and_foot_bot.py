"""Hand and Foot: the builder bot plays legally, decides sensibly, beats random."""

from test_hand_and_foot_rules import BOOKS, position

from arena.botkit.inprocess import play_game
from bots.hand_and_foot import BuilderBot
from bots.random_bot import RandomBot
from engines.hand_and_foot import HandAndFoot

ENGINE = HandAndFoot()


def _bot():
    bot = BuilderBot()
    bot.new_match({"seed": 1})
    return bot


def _act(state):
    seat = state.to_act()[0]
    return _bot().act(state.observation(seat), state.legal_actions(seat), {})


def test_bot_plays_legal_moves_at_every_table_size():
    for players in (2, 4, 6, 8, 9):
        outcome = play_game(
            ENGINE, [_bot() for _ in range(players)], players, {"target": 2000, "max_rounds": 2}
        )
        assert len(outcome.scores) == players


def test_bot_team_beats_random_team():
    wins = 0
    for game in range(20):
        bot_team = game % 2
        bots = [_bot() if seat % 2 == bot_team else RandomBot() for seat in range(4)]
        outcome = play_game(ENGINE, bots, game, {"target": 2000})
        wins += outcome.scores[bot_team] > outcome.scores[1 - bot_team]
    assert wins >= 17


def test_bot_makes_initial_meld_and_lays_naturals():
    state = position(hands={0: ["ac", "ad", "ah", "kc", "9s"]})
    assert _act(state) == "new:a"
    state = position(hands={0: ["7c", "9s", "9d"]}, sets={0: {"7": ["7s"] * 3}})
    assert _act(state) == "meld:7"


def test_bot_takes_a_rich_pile_and_not_one_full_of_red_threes():
    rich = ["9c", "9d", "jk", "kc", "kd", "qh", "7h"]
    state = position(
        hands={0: ["7c", "7d", "9s", "kh"]}, sets={0: {"q": ["qc"] * 3}}, discard=rich, phase="draw"
    )
    assert _act(state) == "pile"
    poor = ["3h", "3d", "5c", "6d", "7h"]
    state = position(
        hands={0: ["7c", "7d", "9s", "kh"]}, sets={0: {"q": ["qc"] * 3}}, discard=poor, phase="draw"
    )
    assert _act(state) == "draw"


def test_bot_discards_red_three_and_does_not_feed_next_team():
    state = position(hands={0: ["3h", "9s", "kd", "kh"]}, sets={0: {"q": ["qc"] * 3}})
    assert _act(state) == "discard:3h"
    # seat 1 (next, other team) has a set of 9s: the lone 9 stays, the lone 5 goes
    state = position(
        hands={0: ["9s", "5c", "kd", "kh", "2c"]}, sets={0: {"q": ["qc"] * 3}, 1: {"9": ["9c"] * 3}}
    )
    assert _act(state) == "discard:5c"


def _play_turn(state):
    seat = state.to_act()[0]
    while state.to_act() == (seat,) and not state._outs:
        state.step(seat, _act(state))


def test_bot_goes_out_as_soon_as_it_can():
    ahead = position(hands={0: ["8d", "kc"]}, sets={0: BOOKS}, in_foot=[0], scores=[0, 0])
    _play_turn(ahead)
    assert ahead._outs == [0]
    behind = position(hands={0: ["8d", "kc"]}, sets={0: BOOKS}, in_foot=[0], scores=[0, 9000])
    _play_turn(behind)
    assert behind._outs == [0]


def test_bot_holding_back_keeps_two_cards():
    class Holder(BuilderBot):
        def _want_out(self, obs):
            return False

    state = position(hands={0: ["8d", "kc"]}, sets={0: BOOKS}, in_foot=[0])
    bot = Holder()
    bot.new_match({"seed": 2})
    while state.to_act() == (0,):
        state.step(0, bot.act(state.observation(0), state.legal_actions(0), {}))
    # melding the 8 would leave one card: it discards the king and keeps the 8
    assert state._outs == [] and state._hands[0] == ["8d"]


def test_bot_completes_a_book_to_go_out():
    state = position(
        hands={0: ["9d", "kd"]}, in_foot=[0], sets={0: {"8": ["8c"] * 7, "9": ["9c"] * 5 + ["2d"]}}
    )
    _play_turn(state)
    assert state._outs == [0]  # meld:9 (dirty book), then the king
