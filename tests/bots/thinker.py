"""An honest bot that thinks hard: it works for a fixed CPU time (first
argument, seconds) on every move, then plays the first legal action.  On a
loaded machine its answers take longer on the wall clock, not in CPU time."""

import sys
import time

from arena.botkit import protocol

THINK = float(sys.argv[1])
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer

while (message := protocol.read_message(wire_in)) is not None:
    if message["type"] == "hello":
        protocol.write_message(wire_out, {"type": "ready"})
    elif message["type"] == "act":
        until = time.process_time() + THINK
        while time.process_time() < until:
            pass
        protocol.write_message(wire_out, {"type": "action", "action": message["legal"][0]})
    elif message["type"] == "goodbye":
        break
