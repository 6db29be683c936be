"""``random``: plays a uniformly random legal action in any game.

Seeded from the match's hello message, so a match replays exactly.
"""

import random

from arena.botkit import Bot


class RandomBot(Bot):
    def new_match(self, hello):
        self.rng = random.Random(hello["seed"])

    def act(self, observation, legal, clock):
        return self.rng.choice(legal)
