"""A ladder entrant that plays the first legal action, and crashes at every
act once the file ``crash`` exists in FOLDER (argv[1]): it passes its
validation run, then starts faulting when a test says so."""

import os
import sys

from arena.botkit import protocol

FOLDER = sys.argv[1]
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer

while (message := protocol.read_message(wire_in)) is not None:
    if message["type"] == "hello":
        protocol.write_message(wire_out, {"type": "ready"})
    elif message["type"] == "act":
        if os.path.exists(os.path.join(FOLDER, "crash")):
            sys.exit("crashing as told")
        protocol.write_message(wire_out, {"type": "action", "action": message["legal"][0]})
    elif message["type"] == "goodbye":
        break
