"""A timing attacker: it notes when each of its ``act`` messages arrives
(appending ``GAME TIME`` lines to the file named by its first argument) and
answers at once, so the gaps between its questions are its rivals' moves."""

import sys
import time

from arena.botkit import protocol

wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
with open(sys.argv[1], "a") as log:
    game = -1
    while (message := protocol.read_message(wire_in)) is not None:
        if message["type"] == "act":
            log.write(f"{game} {time.monotonic()}\n")
            protocol.write_message(wire_out, {"type": "action", "action": message["legal"][0]})
        elif message["type"] == "new_game":
            game = message["index"]
        elif message["type"] == "hello":
            protocol.write_message(wire_out, {"type": "ready"})
        elif message["type"] == "goodbye":
            break
