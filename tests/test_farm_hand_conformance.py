"""Farm Hand against the arena's engine conformance check, every table size."""

import pytest

from arena.game.testing import check_engine
from engines.farm_hand import FarmHand


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_check_engine(players):
    # in solitaire no other bot seat has a view; the resample shows in the
    # dummies' numbers, which secrets() lists
    report = check_engine(FarmHand(), 240, seed=players, players=(players,))
    assert report.games == 240
    assert report.samples > 100


def test_unknown_option_and_player_count_rejected():
    from arena.game import OptionError, PlayerCountError

    with pytest.raises(PlayerCountError):
        FarmHand().new_game(6, 0)
    with pytest.raises(PlayerCountError):
        FarmHand().new_game(0, 0)
    with pytest.raises(OptionError):
        FarmHand().new_game(3, 0, {"trumps": True})


def test_solitaire_sampling_changes_the_dummy_hands():
    import random

    engine = FarmHand()
    changed = 0
    for seed in range(30):
        state = engine.new_game(1, seed)
        observation = state.observation(0)
        sampled = engine.sample_state(observation, random.Random(seed))
        assert sampled.observation(0) == observation
        changed += sampled._hands[1:] != state._hands[1:]
        # the dummies then play from the sampled hands, keeping the known suits
        sampled.apply({0: 0})
        assert sampled.observation(0)["hand_suits"][0] == observation["hand_suits"][0]
    assert changed > 20
