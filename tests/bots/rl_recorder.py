"""A policy bot that plays a seeded random legal index and appends every
vector and mask it computed from the wire to a JSON-lines file (argument 1),
so a test can compare them with the environment's."""

import json
import random
import sys

from arena.botkit import run
from arena.rl.policy_bot import PolicyBot


class Recorder(PolicyBot):
    def new_match(self, hello):
        super().new_match(hello)
        self.rng = random.Random(hello["seed"])
        self.out = open(sys.argv[1], "a")

    def choose(self, observation, action_mask):
        self.out.write(
            json.dumps({"observation": observation.tolist(), "action_mask": action_mask.tolist()})
            + "\n"
        )
        self.out.flush()
        return self.rng.choice([i for i, ok in enumerate(action_mask) if ok])


if __name__ == "__main__":
    wire = sys.stdout.buffer
    sys.stdout = sys.stderr
    run(Recorder(), stdout=wire)
