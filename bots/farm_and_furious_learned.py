"""``farm-and-furious-learned``: a tabular policy trained on the RL environment.

The example of ``docs/rl.md``: Monte Carlo control on
``arena.rl.parallel_env("farm-and-furious", 2)`` against a uniformly random
opponent, over a small state key read off the environment's observation
vector -- both seats' face-up cards, who leads and by how much, and whether
this seat is near the finish.  The table (``farm_and_furious_learned.json``,
one greedy action per state) is committed; ``python -m
bots.farm_and_furious_learned`` retrains it deterministically.  Through the
referee the bot computes the same vector from the wire (:class:`PolicyBot`),
so it plays exactly the policy that was trained.  Trained for two players:
at other tables, or in a state training never saw, it plays the first legal
card.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from arena.rl.policy_bot import PolicyBot

TABLE = Path(__file__).with_name("farm_and_furious_learned.json")
PLAYERS = 2
SEAT_BLOCK = 13  # per seat: position, 6 face-up flags, 6 last-card flags
CARDS = 6


def state_key(observation: np.ndarray) -> str:
    """The part of the observation vector the table is indexed by."""
    face_up = "".join(
        str(int(flag))
        for seat in range(PLAYERS)
        for flag in observation[seat * SEAT_BLOCK + 1 : seat * SEAT_BLOCK + 1 + CARDS]
    )
    lead = float(observation[PLAYERS * SEAT_BLOCK])
    bucket = int(np.digitize(lead, [-0.2, -1e-6, 1e-6, 0.2]))
    near = int(observation[0] >= 0.75)
    return f"{face_up}{bucket}{near}"


class LearnedBot(PolicyBot):
    name = "farm-and-furious-learned"
    version = "1.0"

    def new_match(self, hello):
        super().new_match(hello)
        self.table = json.loads(TABLE.read_text())["policy"] if hello["players"] == PLAYERS else {}

    def choose(self, observation, action_mask):
        best = self.table.get(state_key(observation))
        return (
            best if best is not None and action_mask[best] else int(np.flatnonzero(action_mask)[0])
        )


def train(games: int, seed: int = 0, epsilon: float = 0.1) -> dict[str, int]:
    """Every-visit Monte Carlo control: the value of (state, card) is the
    mean result (win 1, tie 0.5, loss 0) of the games it was played in."""
    from arena.rl import parallel_env

    env = parallel_env("farm-and-furious", PLAYERS)
    rng = random.Random(seed)
    totals: dict[str, np.ndarray] = {}
    visits: dict[str, np.ndarray] = {}
    env.reset(seed=seed)
    for _ in range(games):
        observations, _ = env.reset()
        trail = []
        while env.agents:
            mine = observations["player_0"]
            key = state_key(mine["observation"])
            legal = np.flatnonzero(mine["action_mask"]).tolist()
            if key in totals and rng.random() > epsilon:
                values = totals[key] / np.maximum(visits[key], 1)
                action = max(legal, key=lambda a: (visits[key][a] > 0, values[a]))
            else:
                action = rng.choice(legal)
            trail.append((key, action))
            opponent = rng.choice(np.flatnonzero(observations["player_1"]["action_mask"]).tolist())
            observations, rewards, *_ = env.step({"player_0": action, "player_1": opponent})
        result = float(np.sign(rewards["player_0"] - rewards["player_1"]) + 1) / 2
        for key, action in trail:
            totals.setdefault(key, np.zeros(CARDS))[action] += result
            visits.setdefault(key, np.zeros(CARDS))[action] += 1
    return {
        key: int(
            np.argmax(np.where(visits[key] > 0, totals[key] / np.maximum(visits[key], 1), -1.0))
        )
        for key in sorted(totals)
    }


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 200_000
    started = time.monotonic()
    policy = train(games)
    TABLE.write_text(
        json.dumps(
            {
                "game": "farm-and-furious",
                "players": PLAYERS,
                "games": games,
                "seed": 0,
                "policy": policy,
            },
            separators=(",", ":"),
        )
        + "\n"
    )
    print(
        f"{len(policy)} states from {games} games in {time.monotonic() - started:.0f}s -> {TABLE}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
