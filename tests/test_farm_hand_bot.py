"""The farm-hand-counter bot: legal, reproducible, aims at its bid."""

from arena.botkit import protocol
from arena.botkit.inprocess import play_game
from bots.farm_hand import CounterBot, seek
from bots.random_bot import RandomBot
from engines.farm_hand import FarmHand
from engines.farm_hand.cards import CARD_ID

ENGINE = FarmHand()


def ids(*codes):
    return [CARD_ID[code] for code in codes]


def test_seek_wins_or_ducks_on_purpose():
    # needs a trick: highest card whose number is not already in the trick
    assert seek(ids("blue4", "blue6"), ids("green6"), need=1) == CARD_ID["blue4"]
    assert seek(ids("blue4", "blue6"), [], need=1) == CARD_ID["blue6"]
    # has enough: cancel with a card already played, else the lowest
    assert seek(ids("blue2", "blue6"), ids("green6", "red1"), need=0) == CARD_ID["blue6"]
    assert seek(ids("blue2", "blue6"), ids("green7"), need=0) == CARD_ID["blue2"]


def test_bot_bids_and_plays_legally_at_every_table_size():
    for players in (1, 2, 3, 4, 5):
        bots = [CounterBot() for _ in range(players)]
        outcome = play_game(ENGINE, bots, seed=players)
        assert len(outcome.scores) == players


def test_bot_is_reproducible_from_its_seed():
    def run():
        return play_game(ENGINE, [CounterBot(), RandomBot(), RandomBot()], seed=4).scores

    assert run() == run()


def test_bot_takes_a_sure_trick_and_avoids_a_sure_one():
    state = ENGINE.new_game(1, 0)  # Mac leads round 1, Donald, then the player
    state.set_hands([["purple7"], ["blue1"], ["orange2"]])
    bot = CounterBot()
    bot.new_match(protocol.hello("farm-hand", {}, 1, 0, {}))
    assert bot.act(state.observation(0), state.legal_actions(0), {}) == 1  # a 7 always wins
    state = ENGINE.new_game(1, 0)
    state.set_hands([["red1"], ["blue2"], ["orange2"]])
    # a 1 wins only if the two dummy cards cancel each other: bid 0
    assert bot.act(state.observation(0), state.legal_actions(0), {}) == 0


def test_bot_beats_random_players():
    wins = 0
    total = 0
    for seed in range(12):
        outcome = play_game(ENGINE, [CounterBot(), RandomBot(), RandomBot(), RandomBot()], seed)
        wins += outcome.ranks[0] == 1
        total += outcome.scores[0]
    assert wins >= 8 and total / 12 > 5
