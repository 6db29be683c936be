"""An honest bot (it plays the first legal action) that acts up only around
its games, one way per MODE (argument 1), for the referee's tests of what it
does between and after games:

- ``linger``: ignores ``goodbye`` and stays running (a person's seat whose
  window is still open), so only the referee's kill ends it;
- ``stray MARK``: after its first ``game_over`` sends an ``action`` nobody
  asked for, then creates the file MARK (the frame is in the pipe by then);
- ``wait MARK``: before its first answer in the game with index 1 waits
  (up to 30 s) for the file MARK, so the referee is reading its other bots'
  pipes while the stray frame is surely there to read.
"""

import os
import sys
import time

from arena.botkit import protocol

MODE = sys.argv[1]
MARK = sys.argv[2] if len(sys.argv) > 2 else ""
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
game, first, strayed = -1, False, False

while (message := protocol.read_message(wire_in)) is not None:
    kind = message["type"]
    if kind == "hello":
        protocol.write_message(wire_out, {"type": "ready"})
    elif kind == "new_game":
        game, first = message["index"], True
    elif kind == "act":
        if MODE == "wait" and game == 1 and first:
            end = time.monotonic() + 30
            while not os.path.exists(MARK) and time.monotonic() < end:
                time.sleep(0.005)
        first = False
        protocol.write_message(wire_out, {"type": "action", "action": message["legal"][0]})
    elif kind == "game_over" and MODE == "stray" and not strayed:
        strayed = True
        protocol.write_message(wire_out, {"type": "action", "action": 0})
        open(MARK, "w").close()
    elif kind == "goodbye":
        if MODE == "linger":
            time.sleep(3600)
        break
