"""The PettingZoo environments through PettingZoo's own tests, for every game."""

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

import arena.rl as rl
from arena.plugins import installed

#: a small table per game, with options that keep a game short
TABLES = {
    "farm-and-furious": (3, {"rooster": True}),
    "farm-hand": (2, {}),
    "vegetables": (2, {"max_turns": 40}),
    "dou-dizhu": (3, {}),
    "hand-and-foot": (4, {"target": 200, "max_rounds": 1, "hand_size": 5}),
}
SIMULTANEOUS = ["farm-and-furious", "farm-hand"]
#: PettingZoo's tests whitelist dict observations by env name for its own
#: classic games only; every other warning fails the test
DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def _strict(check):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    others = [
        str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)
    ]
    assert others == []


@pytest.mark.parametrize("game", TABLES)
def test_api_test(game):
    players, options = TABLES[game]
    _strict(lambda: api_test(rl.aec_env(game, players, **options), num_cycles=200))


@pytest.mark.parametrize("game", TABLES)
def test_seed_test(game):
    players, options = TABLES[game]
    _strict(lambda: seed_test(lambda: rl.aec_env(game, players, **options), num_cycles=200))


@pytest.mark.parametrize("game", SIMULTANEOUS)
def test_parallel_api_test(game):
    players, options = TABLES[game]
    _strict(lambda: parallel_api_test(rl.parallel_env(game, players, **options), num_cycles=200))


def _parallel_run(game, seed):
    """Observations and rewards of a parallel game with seeded masked actions."""
    players, options = TABLES[game]
    env = rl.parallel_env(game, players, **options)
    observations, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    while env.agents:
        actions = {
            agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
            if obs["action_mask"].any()
            else 0
            for agent, obs in observations.items()
        }
        observations, rewards, *_ = env.step(actions)
        trace.append(([o["observation"].tolist() for o in observations.values()], rewards))
    return trace


@pytest.mark.parametrize("game", SIMULTANEOUS)
def test_parallel_seed_test(game):
    """PettingZoo's parallel_seed_test samples unmasked (illegal) actions, so
    the same check with masked ones: same seed, same game."""
    assert _parallel_run(game, 4) == _parallel_run(game, 4)
    assert _parallel_run(game, 4) != _parallel_run(game, 5)


@pytest.mark.parametrize("game", TABLES)
def test_a_whole_game_rewards_the_engines_scores(game):
    players, options = TABLES[game]
    env = rl.aec_env(game, players, **options)
    env.reset(seed=5)
    rewards = {agent: 0.0 for agent in env.possible_agents}
    played = []
    rng = random.Random(1)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        index = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        played.append((env.table.seat_of[agent], env.encoding.action(index)))
        env.step(index)
    assert env.agents == []
    # the same actions on a fresh engine game of the same seed: same scores
    state = installed().engine(game).new_game(players, 5, options)
    pending = {}
    for seat, action in played:
        pending[seat] = action
        if set(pending) == set(state.to_act()):
            state.apply(pending)
            pending = {}
    assert state.is_over()
    assert rewards == {
        f"player_{s}": float(score) for s, score in enumerate(state.outcome().scores)
    }


def test_team_games_reward_the_team_score():
    players, options = TABLES["hand-and-foot"]
    env = rl.parallel_env("hand-and-foot", players, **options)
    observations, _ = env.reset(seed=2)
    rng = np.random.default_rng(0)
    while env.agents:
        actions = {
            agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
            if obs["action_mask"].any()
            else 0
            for agent, obs in observations.items()
        }
        observations, rewards, *_ = env.step(actions)
    teams = installed().engine("hand-and-foot").info.teams
    assert teams == "fixed"
    assert rewards["player_0"] == rewards["player_2"] and rewards["player_1"] == rewards["player_3"]


def test_an_action_outside_the_mask_is_a_clear_error():
    env = rl.aec_env("farm-and-furious", 2)  # no rooster: index 5 is never legal
    env.reset(seed=0)
    assert env.observe("player_0")["action_mask"].tolist() == [1, 1, 1, 1, 1, 0]
    with pytest.raises(ValueError, match="not legal for player_0 now"):
        env.step(5)


def test_seed_is_the_game_seed_and_seeds_the_following_games():
    env = rl.aec_env("dou-dizhu")
    first = [env.reset(seed=9) or env.observe("player_0")["observation"] for _ in range(2)]
    assert np.array_equal(first[0], first[1])
    state = installed().engine("dou-dizhu").new_game(3, 9)
    assert np.array_equal(first[0], env.encoding.encode(state.observation(0)))
    env.reset(seed=9)
    env.reset()
    after = env.observe("player_0")["observation"]
    env.reset(seed=9)
    env.reset()
    assert np.array_equal(after, env.observe("player_0")["observation"])
    assert not np.array_equal(after, first[0])


def test_render_is_text():
    env = rl.aec_env("farm-hand", 2, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text.startswith("farm-hand seed 3: to act: player_0, player_1")
    assert "hand=['blue3']" in text


def test_a_game_without_an_encoding_is_a_clear_error():
    from arena.game import GameInfo
    from arena.rl import EncodingError, encoding_for

    class Nameless:
        info = GameInfo(id="nameless", version="1", players=(2,))

    with pytest.raises(EncodingError, match="game 'nameless' has no RL encoding"):
        encoding_for(Nameless(), 2)
