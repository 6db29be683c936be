"""vegetables-planner: legal play from observations only, and it beats random."""

from arena.botkit.inprocess import play_game
from bots.random_bot import RandomBot
from bots.vegetables import UNKNOWN, PlannerBot, view_of
from engines.vegetables import Vegetables

ENGINE = Vegetables()


def test_planner_beats_random_with_seats_swapped():
    margins = []
    for game in range(40):
        seat = game % 2
        bots = [PlannerBot(), RandomBot()] if seat == 0 else [RandomBot(), PlannerBot()]
        outcome = play_game(ENGINE, bots, 900 + game)  # raises on an illegal action
        margins.append(outcome.scores[seat] - outcome.scores[1 - seat])
    assert sum(m > 0 for m in margins) >= 36
    assert sum(margins) / len(margins) > 50


def test_planner_self_play_finishes():
    for game in range(10):
        outcome = play_game(ENGINE, [PlannerBot(), PlannerBot()], 50 + game)
        assert len(outcome.scores) == 2


def test_view_counts_hidden_cards_like_the_engine():
    state = ENGINE.new_game(2, 4)
    view = view_of(state.observation(1))
    # seat 1 sees its own 12 cards, both Grounds and the 16 Silo cards
    assert sum(1 for where in view.loc if where == UNKNOWN) == 80 - 12 - 16 - 16
    assert abs(view.q_mid - 12 / 20) < 1e-9 and view.q_high == 0.0


def _position():
    """Seat 0 to play: hand g17 (finishes g1 at 13), y6 and r9 (dead ends),
    one Tractor; the opponent has a Tractor (cannot be blocked next turn);
    every other card visible in the Silos."""
    import random

    from engines.vegetables import VegetablesState
    from engines.vegetables.game import CARD, STACK

    state = VegetablesState({"max_turns": 300}, random.Random(0))
    state._hands = [sorted(CARD[c] for c in ("g17", "y6", "r9")), [CARD["p20"]]]
    state._tractors = [1, 1]
    state._tops[STACK[CARD["g1"]]] = 13
    state._tops[STACK[CARD["y2"]]] = 2
    state._wells = [[CARD["p19"]], [CARD["p18"]], []]
    placed = set(state._hands[0] + state._hands[1] + [CARD["p19"], CARD["p18"]])
    placed.update(CARD[f"g{n}"] for n in (1, 5, 9, 13))
    placed.add(CARD["y2"])
    state._silos[0] = [c for c in range(80) if c not in placed]
    return state


def test_planner_finishes_a_stack_and_keeps_its_tractor():
    state = _position()
    legal = state.legal_actions(0)
    assert "discard-tractor" in legal and "play:g17" in legal
    bot = PlannerBot()
    bot.new_game({"seat": 0})
    assert bot.act(state.observation(0), legal, {"move": 1.0, "bank": 0.0}) == "play:g17"
    state.step(0, "play:g17")
    # y6 on y2 would open y10 to nobody known; the bot ends its turn by drawing
    choice = bot.act(state.observation(0), state.legal_actions(0), {"move": 1.0, "bank": 0.0})
    assert choice != "discard-tractor"
