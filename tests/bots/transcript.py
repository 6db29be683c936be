"""An honest bot that appends every message the referee sends it, as one
JSON line, to the file named by argument 1 -- so a test reads exactly what a
bot received (clocks, game indexes, seats, seeds).  It plays the first legal
action; an optional argument 2 is how long it sleeps before its first answer
of each game (to overrun its move time on purpose)."""

import json
import sys
import time

from arena.botkit import protocol

LOG = open(sys.argv[1], "a")
FIRST_SLEEP = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
first = True

while (message := protocol.read_message(wire_in)) is not None:
    print(json.dumps(message), file=LOG, flush=True)
    if message["type"] == "hello":
        protocol.write_message(wire_out, {"type": "ready"})
    elif message["type"] == "new_game":
        first = True
    elif message["type"] == "act":
        if first:
            time.sleep(FIRST_SLEEP)
            first = False
        protocol.write_message(wire_out, {"type": "action", "action": message["legal"][0]})
    elif message["type"] == "goodbye":
        break
