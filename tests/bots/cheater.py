"""A Dou Dizhu bot that tries to learn the other hands, one way per MODE.

It plays like ``random`` (from the kit's ``self.rng``) until its cheat works;
then it plays the illegal action ``PWNED:<how>``, so a test only has to look
for ``PWNED`` in the fault detail.  Arguments: MODE, then for ``seeds`` the
public seed a tournament file or ``arena match --seed`` shows.

* ``seeds`` -- recompute the deal: enumerate the seeds a public seed yields
  (the tournament file's old deal derivation, ``arena match --seed``'s) and
  the deal seeds that would explain ``hello["seed"]``; a candidate whose deal
  gives this seat its own hand means every hand is known.
* ``memory`` -- remember each game's revealed bottom cards and this seat's
  hand: the same bottom cards again in a later game of this process is the
  same deal in another seating, and the remembered hand is now a rival's.
* ``double`` -- answer every ``act`` twice, the second a moment later (a
  stale frame that would count as the next answer).
* ``early`` -- send an answer a moment after ``new_game``, before being asked.

"A moment" is 0.1 s, while the other (slow) seats think: a frame written
after the referee has sent the question cannot be told from an answer.
"""

import hashlib
import random
import sys
import threading

from arena.botkit import Bot, protocol, run
from arena.match.seeds import SecretKey
from engines.dou_dizhu.game import DouDizhu

MODE = sys.argv[1]
PUBLIC_SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 0
LABELS = ("dou-dizhu",)
CANDIDATES = 64


def old_deal_seed(seed, *parts):
    """The deal seed a tournament derived from its file's seed before keys."""
    text = "/".join(map(str, (seed, *parts)))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF


def candidate_seeds(hello_seed):
    """Every deal seed a bot could guess from public information."""
    players = 3
    for deal in range(CANDIDATES):
        for label in LABELS:
            yield "file", old_deal_seed(PUBLIC_SEED, label, players, deal)
        yield "match-seed", SecretKey.from_public_seed(PUBLIC_SEED).derive("deal", deal)
    old_match = random.Random(PUBLIC_SEED)
    for _ in range(CANDIDATES):
        yield "old-match-seed", old_match.randrange(2**31)
    for deal in range(CANDIDATES):
        for label in LABELS:
            seed = old_deal_seed(PUBLIC_SEED, label, players, deal)
            if any(random.Random(f"{seed}:{i}").randrange(2**31) == hello_seed for i in range(3)):
                yield "hello", seed


class Cheater(Bot):
    def new_match(self, hello):
        self.hello_seed = hello["seed"]
        self.seen = {}  # bottom cards -> this seat's hand in that game
        self.found = None

    def new_game(self, game):
        self.seat = game["seat"]
        self.hand = None
        if MODE == "early":
            threading.Timer(
                0.1, protocol.write_message, (WIRE, {"type": "action", "action": "pass"})
            ).start()

    def act(self, observation, legal, clock):
        if self.hand is None:
            self.hand = observation["hand"]
            if MODE == "seeds":
                self.found = self.recompute(observation)
        if MODE == "memory" and observation.get("bottom"):
            bottom = observation["bottom"]
            earlier = self.seen.setdefault(bottom, self.hand)
            if earlier != self.hand:
                self.found = "remembered"
        if self.found:
            return f"PWNED:{self.found}"
        return self.rng.choice(legal)

    def recompute(self, observation):
        engine = DouDizhu()
        for how, seed in candidate_seeds(self.hello_seed):
            state = engine.new_game(3, seed, {})
            if state.observation(self.seat)["hand"] == observation["hand"]:
                return how
        return None


class Wire:
    """stdout for the kit, answering twice in ``double`` mode."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, data):
        self.stream.write(data)
        if MODE == "double" and b"action" in data:
            self.stream.flush()
            threading.Timer(0.1, self.late, (data,)).start()

    def late(self, data):
        self.stream.write(data)
        self.stream.flush()

    def flush(self):
        self.stream.flush()


WIRE = Wire(sys.stdout.buffer)

if __name__ == "__main__":
    sys.stdout = sys.stderr
    run(Cheater(), stdout=WIRE)
