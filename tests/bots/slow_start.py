"""A bot that thinks once: it sleeps the seconds given as its first argument
on the first ``act`` of its match and answers every other at once (the
first legal action), so a table's longest step is known in advance."""

import sys
import time

from arena.botkit import protocol

wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
thought = False
while (message := protocol.read_message(wire_in)) is not None:
    if message["type"] == "act":
        if not thought:
            time.sleep(float(sys.argv[1]))
            thought = True
        protocol.write_message(wire_out, {"type": "action", "action": message["legal"][0]})
    elif message["type"] == "hello":
        protocol.write_message(wire_out, {"type": "ready"})
    elif message["type"] == "goodbye":
        break
