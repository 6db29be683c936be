"""A bot that plays legal[0] and misbehaves once, where MODE (argv[1]) says;
AT (argv[2]) is the number of its act in the game it misbehaves on.  Its
illegal action names the observation it was sent, by a hash of its frame,
so a test can tell which act a report shows (tests/test_session.py)."""

import hashlib
import sys
import time

from arena.botkit import protocol

MODE, AT = sys.argv[1], int(sys.argv[2])
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
moves = 0


def say(message):
    protocol.write_message(wire_out, message)


def tag(observation):
    return hashlib.sha1(protocol.encode(observation)).hexdigest()[:12]


while (message := protocol.read_message(wire_in)) is not None:
    kind = message["type"]
    if kind == "hello":
        if MODE == "exit-at-hello":
            sys.exit(f"no ready today (seed={message['seed']})")
        if MODE == "slow-ready":
            time.sleep(0.8)
        say({"type": "start" if MODE == "start-not-ready" else "ready"})
    elif kind == "new_game":
        moves = 0
        if MODE == "answers-new-game-late":
            time.sleep(0.2)
        if MODE.startswith("answers-new-game"):
            say({"type": "ready"})
    elif kind == "act":
        moves += 1
        legal = message["legal"]
        if moves == AT and MODE == "illegal":
            say({"type": "action", "action": "not-" + tag(message["observation"])})
        elif moves == AT and MODE == "exit":
            sys.exit(3)
        elif moves == AT and MODE == "not-an-action":
            say({"type": "ready"})
        elif moves == AT and MODE == "slow":
            time.sleep(1.4)
            say({"type": "action", "action": legal[0]})
        else:
            say({"type": "action", "action": legal[0]})
    elif kind == "goodbye":
        break
