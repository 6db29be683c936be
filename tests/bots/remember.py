"""A bot that tries to leave itself a note for its next process.

``remember.py TOKEN``: on hello it looks for the notes an earlier process of
the same bot left in ``/tmp``, ``/dev/shm`` and its home folder, then writes
them.  A note found is reported on the first ``act`` as the illegal action
``PWNED:<where>,...``.  ``remember.py clean TOKEN`` removes the notes (the
basic level leaves them in the host's ``/tmp`` and ``/dev/shm``).
"""

import os
import sys

from arena.botkit import protocol

if sys.argv[1] == "clean":
    for folder in ("/tmp", "/dev/shm"):
        try:
            os.unlink(os.path.join(folder, f"farm-remember-{sys.argv[2]}"))
        except OSError:
            pass
    sys.exit()
TOKEN = sys.argv[1]
NOTES = {"tmp": "/tmp", "dev-shm": "/dev/shm", "home": os.environ["HOME"]}
found: list[str] = []
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
while (message := protocol.read_message(wire_in)) is not None:
    if message["type"] == "hello":
        notes = [os.path.join(folder, f"farm-remember-{TOKEN}") for folder in NOTES.values()]
        found = [where for where, note in zip(NOTES, notes) if os.path.exists(note)]
        for note in notes:
            try:
                with open(note, "w") as f:
                    f.write("the hand I was dealt")
            except OSError:
                pass
        protocol.write_message(wire_out, {"type": "ready"})
    elif message["type"] == "act":
        action = f"PWNED:{','.join(found)}" if found else message["legal"][0]
        found = []
        protocol.write_message(wire_out, {"type": "action", "action": action})
    elif message["type"] == "goodbye":
        break
