"""The example policy of docs/rl.md: trained on the environment, it beats
random through the referee."""

import json
import math

from arena.cli.match import match_summary
from arena.match.referee import Deal, Entrant, play_match
from arena.rl import aec_env
from bots import farm_and_furious_learned as learned


def test_the_state_key_reads_both_seats_face_up_cards_from_the_vector():
    env = aec_env("farm-and-furious", 2)
    env.reset(seed=0)
    state = env.table.state
    state.apply({0: "dog", 1: "hen"})
    state.apply({0: "rabbit", 1: "duckling"})
    key = learned.state_key(env.encoding.encode(state.observation(1)))
    # seat 1 first: hen + duckling, then seat 0: dog + rabbit; seat 1 has 1,
    # seat 0 has 5: a lead of -4/20, the lowest bucket; far from the finish
    assert key == "011000" + "100100" + "0" + "0"


def test_training_is_deterministic_and_covers_the_opening():
    first = learned.train(100, seed=3)
    assert first == learned.train(100, seed=3)
    assert "000000" + "000000" + "2" + "0" in first  # the first turn of every game


def test_the_committed_table_beats_random_in_a_match(registry):
    table = json.loads(learned.TABLE.read_text())
    assert table["game"] == "farm-and-furious" and len(table["policy"]) > 1000
    entrants = [
        Entrant("learned", registry.bot("farm-and-furious-learned")),
        Entrant("random", registry.bot("random")),
    ]
    games = 200
    records = play_match(
        registry.engine("farm-and-furious"),
        entrants,
        [Deal(seed, (0, 1) if seed % 2 else (1, 0)) for seed in range(games)],
        sandbox="basic",
    )
    summary = match_summary("farm-and-furious", 0, records)
    wins = sum(
        1
        for game in summary["games"]
        if min(game["seats"], key=lambda s: s["rank"])["bot"] == "learned"
        and game["seats"][0]["rank"] != game["seats"][1]["rank"]
    )
    assert all(s["fault"] is None for game in summary["games"] for s in game["seats"])
    # the lower end of a 95% Wilson interval for the win rate is above one half
    p, z = wins / games, 1.96
    low = (
        p + z * z / (2 * games) - z * math.sqrt(p * (1 - p) / games + z * z / (4 * games**2))
    ) / (1 + z * z / games)
    assert low > 0.5, f"{wins}/{games} wins"
