"""A bot that misbehaves on purpose, one way per MODE (first argument).

It answers the hello and plays legally until its first ``act``, then does the
thing named by MODE, so each referee test sees exactly one kind of fault.
"""

import os
import sys
import time

from arena.botkit import protocol

MODE = sys.argv[1]
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer


def misbehave(message):
    if MODE == "sleep":
        time.sleep(3600)
    elif MODE == "exit":
        sys.exit(3)
    elif MODE == "garbage":
        wire_out.write(b"hello, this is not msgpack\n")
        wire_out.flush()
        time.sleep(3600)
    elif MODE == "bad-msgpack":
        wire_out.write(protocol.HEADER.pack(3) + b"\xc1\xc1\xc1")
        wire_out.flush()
        time.sleep(3600)
    elif MODE == "huge":
        size = 100 << 20
        wire_out.write(protocol.HEADER.pack(size))
        wire_out.write(b"\0" * size)
        wire_out.flush()
    elif MODE == "illegal":
        protocol.write_message(wire_out, {"type": "action", "action": "banana"})
        return
    elif MODE == "wrong-type":
        protocol.write_message(wire_out, {"type": "action", "action": [1, 2]})
        return
    elif MODE == "fork":
        if os.fork() == 0:
            time.sleep(3600)
            os._exit(0)
        time.sleep(3600)
    elif MODE == "escapes":  # a retitled window, a clipboard write, a C1 CSI, a bell
        sys.stderr.write("title\x1b]0;pwned\x07 clip\x1b]52;c;cHduZWQ=\x07 csi\u009b2J\r end\n")
        sys.stderr.flush()
        sys.exit(3)
    elif MODE == "spin":
        while True:
            pass
    elif MODE == "slow":
        time.sleep(float(sys.argv[2]))
        protocol.write_message(wire_out, {"type": "action", "action": message["legal"][0]})
        return
    time.sleep(3600)


if MODE == "exit-at-once":
    sys.exit(1)
while (message := protocol.read_message(wire_in)) is not None:
    if message["type"] == "hello":
        protocol.write_message(wire_out, {"type": "ready"})
    elif message["type"] == "act":
        misbehave(message)
    elif message["type"] == "goodbye":
        break
