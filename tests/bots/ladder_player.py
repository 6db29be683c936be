"""A ladder entrant that plays the first legal action, and crashes at every
act once the file ``crash`` exists in FOLDER (argv[1]): it passes its
validation run, then starts faulting when a test says so.  It says on
stderr which game and seat it plays (behind a terminal escape that the
arena must remove) and how many moves it made in the game before; 100 KB
of chatter first once the file ``chatty`` exists in FOLDER."""

import os
import sys

from arena.botkit import protocol

FOLDER = sys.argv[1]
NAME = os.path.basename(FOLDER)
moves = 0
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer

while (message := protocol.read_message(wire_in)) is not None:
    if message["type"] == "hello":
        protocol.write_message(wire_out, {"type": "ready"})
    elif message["type"] == "new_game":
        if os.path.exists(os.path.join(FOLDER, "chatty")):
            sys.stderr.write("chatter " * 12_500 + "\n")
        sys.stderr.write(
            f"\x1b]0;owned\x07{NAME} game {message['index']} seat {message['seat']}; "
            f"moves before: {moves}\n"
        )
        sys.stderr.flush()
        moves = 0
    elif message["type"] == "act":
        moves += 1
        if os.path.exists(os.path.join(FOLDER, "crash")):
            sys.exit("crashing as told")
        protocol.write_message(wire_out, {"type": "action", "action": message["legal"][0]})
    elif message["type"] == "goodbye":
        break
