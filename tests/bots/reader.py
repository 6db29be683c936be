"""A ``cmd:`` bot that tries to read the file named by its first argument,
``read:PATH`` (so the command line itself does not name the file):
what it read is reported as the illegal action ``PWNED:<text>``."""

import sys

from arena.botkit import protocol

wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
while (message := protocol.read_message(wire_in)) is not None:
    if message["type"] == "hello":
        protocol.write_message(wire_out, {"type": "ready"})
    elif message["type"] == "act":
        try:
            with open(sys.argv[1].removeprefix("read:")) as f:
                action = "PWNED:" + f.read()
        except OSError:
            action = message["legal"][0]
        protocol.write_message(wire_out, {"type": "action", "action": action})
    elif message["type"] == "goodbye":
        break
