"""VEGEtables: conformance check and properties over thousands of random games."""

import collections
import random

from arena.game.testing import check_engine
from engines.vegetables import Vegetables
from engines.vegetables.game import NUMBER

ENGINE = Vegetables()


def board_cards(state):
    cards = []
    for stack, top in enumerate(state._tops):
        colour, base = divmod(stack, 4)
        for number in range(base + 1, top + 1, 4):
            card = colour * 20 + number - 1
            if card not in state._standins:
                cards.append(card)
    return cards


def check_invariants(state, where):
    places = (
        state._hands[0]
        + state._hands[1]
        + state._grounds[0]
        + state._grounds[1]
        + [c for col in state._silos for c in col]
        + [c for w in state._wells for c in w]
        + board_cards(state)
    )
    assert sorted(places) == list(range(80)), f"{where}: numbered cards not conserved"
    for seat in (0, 1):
        tractors = (
            state._tractors[seat]
            + state._tractors_locked[seat]
            + state._tractors_used[seat]
            + state._tractors_discarded[seat]
        )
        assert tractors == 5, f"{where}: seat {seat} has {tractors} tractors"
        by_seat = sum(1 for who in state._standins.values() if who == seat)
        assert by_seat == state._tractors_used[seat], where
        played = 8 - len(state._grounds[seat])
        assert state._tractors_locked[seat] == 4 - 2 * (played >= 4) - 2 * (played == 8), where
        assert state._scores[seat] % 10 == 0, where
        assert all(card in state._hands[seat] for card in state._public[seat]), where
        assert all(card in state._hands[1 - seat] for card in state._private[seat]), where
    for card, who in state._standins.items():
        victim = 1 - who
        assert card in state._hands[victim] or card in state._grounds[victim], where
    for well in state._wells[:2]:
        assert all(NUMBER[c] >= 13 for c in well), where
    assert all(5 <= NUMBER[c] <= 12 for c in state._wells[2]), where


def test_conformance():
    report = check_engine(ENGINE, 700, seed=1)
    assert report.games == 700 and report.hidden_changes > 0


def test_conformance_short_games():
    check_engine(ENGINE, 300, seed=2, options={"max_turns": 6})


def test_random_games_conserve_cards_and_score_consistently():
    rng = random.Random(7)
    ends = collections.Counter()
    for game in range(1500):
        state = ENGINE.new_game(2, game)
        step = 0
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            assert legal and len(set(legal)) == len(legal)
            state.step(seat, rng.choice(legal))
            step += 1
            if step % 3 == 0:
                check_invariants(state, f"game {game} step {step}")
            if step % 41 == 0:
                obs = state.observation(step % 2)
                sampled = ENGINE.sample_state(obs, random.Random(step))
                check_invariants(sampled, f"sample of game {game} step {step}")
                opp = 1 - obs["seat"]
                assert sampled.hand_size(opp) == obs["hand_sizes"][opp]
        check_invariants(state, f"game {game} end")
        ends[state._end] += 1
        outcome = state.outcome()
        assert list(outcome.scores) == state._scores
        if state._end == "out":
            assert not state._hands[state._to_move] and not state._grounds[state._to_move]
            assert not any(state._wells)
        if state._end == "blocked":
            blocked = state._to_move
            assert not state._tractors[blocked]
            assert not any(a.startswith("play") for a in state.plays(blocked))
    assert ends["blocked"] > 0 and ends["out"] > 0
