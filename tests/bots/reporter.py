"""A bot that reports what the referee sent it, through the only channel a
test can read from a finished match: the stderr tail quoted in a crash's
fault detail.  It plays random legal actions; MODE (first argument) says
when it exits: ``at-new-game`` (its first ``new_game``: it crashes every
game, and is restarted for each) or ``after-game-over`` (it prints the
``game_over`` scores and ranks and exits; the next game finds it dead).
"""

import random
import sys

from arena.botkit import protocol

MODE = sys.argv[1]
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
rng = random.Random(0)

while (message := protocol.read_message(wire_in)) is not None:
    kind = message["type"]
    if kind == "hello":
        print(
            f"hello seed={message['seed']} players={message['players']}",
            file=sys.stderr,
            flush=True,
        )
        protocol.write_message(wire_out, {"type": "ready"})
    elif kind == "new_game" and MODE == "at-new-game":
        sys.exit(1)
    elif kind == "act":
        protocol.write_message(wire_out, {"type": "action", "action": rng.choice(message["legal"])})
    elif kind == "game_over":
        print(
            f"game_over scores={message['scores']} ranks={message['ranks']} "
            f"table={message['observation'].get('table')}",
            file=sys.stderr,
            flush=True,
        )
        if MODE == "after-game-over":
            sys.exit(0)
    elif kind == "goodbye":
        break
