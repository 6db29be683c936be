"""A bot's encoding from the wire equals the environment's, on real referee games."""

import json
import sys
from pathlib import Path

import pytest

import arena.rl as rl
from arena.match.referee import Deal, Entrant, play_match
from arena.plugins import installed
from arena.plugins.botspec import BotSpec

RECORDER = Path(__file__).parent / "bots" / "rl_recorder.py"
TABLES = {
    "farm-and-furious": (3, {"rooster": True}),
    "farm-hand": (2, {}),
    "vegetables": (2, {"max_turns": 30}),
    "dou-dizhu": (3, {}),
    "hand-and-foot": (2, {"target": 200, "max_rounds": 1, "hand_size": 6}),
}


@pytest.mark.parametrize("game", TABLES)
def test_the_bot_sees_what_the_environment_sees(game, tmp_path):
    players, options = TABLES[game]
    out = tmp_path / "seen.jsonl"
    registry = installed()
    recorder = Entrant("recorder", BotSpec.from_command(f"{sys.executable} {RECORDER} {out}"))
    others = [Entrant(f"random#{i}", registry.bot("random")) for i in range(1, players)]
    [record] = play_match(
        registry.engine(game),
        [recorder] + others,
        [Deal(11, tuple(range(players)))],
        options,
        sandbox="none",
    )
    assert [seat.fault for seat in record.seats] == [None] * players
    seen = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(seen) == record.seats[0].moves > 0

    env = rl.aec_env(game, players, **options)
    env.reset(seed=record.seed)
    compared = 0
    for step in record.steps:
        for seat, action in step:
            agent = f"player_{seat}"
            assert env.agent_selection == agent
            if seat == 0:
                mine = env.observe(agent)
                assert mine["observation"].tolist() == seen[compared]["observation"]
                assert mine["action_mask"].tolist() == seen[compared]["action_mask"]
                compared += 1
            env.step(env.encoding.index(action))
    assert compared == len(seen)
    _, reward, terminated, _, _ = env.last()
    assert env.agent_selection == "player_0" and terminated
    assert reward == record.seats[0].score
