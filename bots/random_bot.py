"""``random``: plays a uniformly random legal action in any game.

Its chance is the bot kit's ``self.rng``, reseeded for every game, so a game
replays exactly.
"""

from arena.botkit import Bot


class RandomBot(Bot):
    def act(self, observation, legal, clock):
        return self.rng.choice(legal)
