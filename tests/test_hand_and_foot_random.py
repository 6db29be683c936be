"""Hand and Foot: conformance and properties over many random games."""

import random
from collections import Counter

from arena.game.testing import check_engine
from engines.hand_and_foot import HandAndFoot
from engines.hand_and_foot.cards import DECK, sort_cards

ENGINE = HandAndFoot()
SHORT = {"max_rounds": 1}


def test_check_engine_small_tables():
    report = check_engine(ENGINE, 60, players=(2, 4), options=SHORT, sample_rate=0.01)
    assert report.games == 60 and report.hidden_changes > 0


def test_check_engine_many_short_rounds():
    # big Hands and Feet leave a short draw pile: the cheapest full rounds
    report = check_engine(
        ENGINE,
        400,
        players=(2,),
        seed=6,
        sample_rate=0.01,
        options={"max_rounds": 1, "hand_size": 20},
    )
    assert report.games == 400 and report.hidden_changes > 0


def test_check_engine_big_tables():
    check_engine(
        ENGINE,
        10,
        players=(6, 8, 9),
        options={"max_rounds": 1, "hand_size": 20},
        sample_rate=0.01,
        seed=1,
    )


def test_check_engine_multi_round_games():
    check_engine(
        ENGINE,
        20,
        players=(2, 4),
        seed=2,
        sample_rate=0.01,
        options={"target": 2000, "max_rounds": 3, "hand_size": 15},
    )


def test_check_engine_reshuffle_and_teams_option():
    check_engine(
        ENGINE,
        20,
        players=(2, 4),
        seed=3,
        sample_rate=0.01,
        options={"stock_exhausted": "reshuffle", "max_rounds": 1, "hand_size": 15},
    )
    check_engine(
        ENGINE,
        4,
        players=(6,),
        seed=4,
        sample_rate=0.01,
        options={"teams": 2, "max_rounds": 1, "hand_size": 20, "go_out_bonus": 100},
    )


def test_check_engine_small_hands():
    check_engine(
        ENGINE,
        20,
        players=(2, 4),
        seed=5,
        sample_rate=0.01,
        options={"hand_size": 2, "max_rounds": 1},
    )


def test_cards_conserved_and_scores_add_up_over_random_rounds():
    rounds = outs = 0
    for seed in range(700):
        players = (2, 2, 2, 4, 2, 2, 6)[seed % 7]
        options = {
            "max_rounds": 3,
            "target": 2000,
            "hand_size": (10, 20, 20)[seed % 3],
            "stock_exhausted": ("end", "reshuffle")[seed % 5 == 0],
        }
        state = ENGINE.new_game(players, seed, options)
        full = Counter(DECK * (players + 1))
        rng = random.Random(seed)
        step = 0
        while state.to_act():
            if step % 40 == 0:
                assert Counter(state.all_cards()) == full, (seed, step)
            seat = state.to_act()[0]
            state.step(seat, rng.choice(state.legal_actions(seat)))
            step += 1
        assert Counter(state.all_cards()) == full, seed
        history = state._history
        rounds += len(history)
        outs += sum(seat is not None for seat in state._outs)
        assert len(history) == len(state._outs) <= 3
        assert state._scores == [sum(r[t] for r in history) for t in range(len(state._scores))]
        assert len(history) == 3 or max(state._scores) > 2000
        outcome = state.outcome()
        assert list(outcome.scores) == [
            state._scores[seat % len(state._scores)] for seat in range(players)
        ]
    assert rounds >= 2000


def test_sample_state_keeps_what_the_seat_knows_and_repairs_a_pending_meld(monkeypatch):
    import engines.hand_and_foot.game as game

    state = ENGINE.new_game(4, 11)
    pool = Counter(state.all_cards())
    mine = ["kc", "kd", "kh", "qc", "qd", "qh", "9s"]
    pool.subtract(mine)
    rest = sorted(pool.elements())
    random.Random(3).shuffle(rest)
    state._hands = [sort_cards(mine)] + [sort_cards(rest[i * 10 : i * 10 + 10]) for i in range(3)]
    del rest[:30]
    state._feet = [rest[i * 10 : i * 10 + 10] for i in range(4)]
    del rest[:40]
    state._discard, state._stock, state._legal = [rest.pop()], rest, None
    state._phase, state._turn = "meld", 0
    state.step(0, "new:k")  # pending: 30 of 50, seat 0 must still lay the queens
    view = state.observation(1)
    monkeypatch.setattr(game, "SAMPLE_TRIES", 1)  # force the repair path
    hands = set()
    for index in range(30):
        sampled = ENGINE.sample_state(view, random.Random(index))
        assert sampled.observation(1) == view
        assert sampled.legal_actions(0)  # seat 0 can still finish its turn
        assert Counter(sampled.all_cards()) == Counter(state.all_cards())
        hands.add(tuple(sampled._hands[0]))
    assert len(hands) > 1  # hidden hands really are resampled
    # the acting seat's own view keeps its hand and its legal actions
    own = ENGINE.sample_state(state.observation(0), random.Random(5))
    assert own.legal_actions(0) == state.legal_actions(0) == ["new:q"]
