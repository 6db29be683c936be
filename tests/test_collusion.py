"""Two bots at one table cannot signal each other (strict sandbox).

A sender and a receiver (``tests/bots/colluder.py``) play a real match and
try to pass a byte through every shared-kernel channel they can name: file
locks on the shared read-only files (``flock``, POSIX and OFD record locks),
inotify on those files, ``/dev/shm``, SysV semaphores, POSIX message queues
and abstract unix sockets.  The basic level, which has none of the strict
layers, is the control: there every channel carries the byte.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.match.referee import Deal, Entrant, TimeControl, play_match

COLLUDER = Path(__file__).parent / "bots" / "colluder.py"
CHANNELS = {"flock", "posix", "ofd", "inotify", "dev-shm", "sysv-sem", "mqueue", "abstract-socket"}


@pytest.fixture
def token():
    token = os.urandom(4).hex()
    yield token
    subprocess.run([sys.executable, str(COLLUDER), "clean", token], check=True)


def collude(registry, token, value, level):
    """Play sender (seat 0) against receiver (seat 1); the channels that got
    ``value`` through, as the receiver decoded them."""
    entrants = [
        Entrant("sender", registry.bot(f"cmd:{sys.executable} {COLLUDER} send {token} {value}")),
        Entrant("receiver", registry.bot(f"cmd:{sys.executable} {COLLUDER} receive {token}")),
    ]
    [record] = play_match(
        registry.engine("farm-and-furious"),
        entrants,
        [Deal(5, (0, 1))],
        limit=TimeControl(startup=10.0, move=2.0),
        sandbox=level,
    )
    sender, receiver = record.seats
    assert sender.fault is None, sender.fault_detail
    detail = receiver.fault_detail or ""
    if "PWNED:" not in detail:
        return {}
    got = detail.split("PWNED:", 1)[1].split()[0].strip("'\",)")
    return dict((name, int(bits)) for name, bits in (item.split("=") for item in got.split(",")))


def test_every_channel_carries_the_byte_in_the_basic_sandbox(registry, token, shared_basic):
    # the control: the basic level as it was, sharing the host's /tmp and uids
    value = 0b10100101
    assert collude(registry, token, value, "basic") == {name: value for name in CHANNELS}


def test_no_channel_carries_anything_in_the_strict_sandbox(registry, token):
    assert collude(registry, token, 0b10100101, "strict") == {}
