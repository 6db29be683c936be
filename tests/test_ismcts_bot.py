"""The ``ismcts`` bot's use of a game's heuristic advice, in-process: asked
when the move's time allows it, and then deciding the move unless the
search beats it clearly."""

from dataclasses import replace

from bots.ismcts.bot import IsmctsBot
from engines import unit_for


def bot_at_first_bid(settings):
    """An ismcts bot for Farm Hand at three seats and its first bid's observation
    (a bid among bidders: searched, not answered by the deals search)."""
    bot = IsmctsBot()
    bot.new_match({"game": "farm-hand", "seed": 3, "settings": settings})
    state = unit_for("farm-hand").engine.new_game(3, 3)
    return bot, state.observation(0), state.legal_actions(0)


def test_advice_is_asked_only_when_the_move_has_time_for_it():
    bot, observation, legal = bot_at_first_bid({"iterations": 20})
    asked = []

    def advice(observation, legal, rng):
        asked.append(observation["seat"])
        return legal[-1]

    bot.knowledge = replace(bot.knowledge, advice=advice, advice_seconds=0.5)
    bot.act(observation, legal, {"move": 0.3, "bank": 0.0})
    assert asked == []  # 0.3 s a move: not enough for the advice
    bot.act(observation, legal, {"move": 1.0, "bank": 0.0})
    assert asked == [0]


def test_advice_decides_unless_the_search_is_clearly_better():
    # the highest bid of the first round (one card) is an odd choice the search
    # would not make; within a margin of a whole reward the advice stands
    bot, observation, legal = bot_at_first_bid({"iterations": 50, "advice_margin": 1.0})
    bot.knowledge = replace(
        bot.knowledge, advice=lambda obs, legal, rng: legal[-1], advice_seconds=0.0
    )
    assert bot.act(observation, legal, {"move": 1.0}) == legal[-1]
    # control: without the advice the search picks something else here
    plain, observation, legal = bot_at_first_bid({"iterations": 50, "advice": False})
    assert plain.act(observation, legal, {"move": 1.0}) != legal[-1]
