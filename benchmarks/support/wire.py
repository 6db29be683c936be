"""What the benchmarks that talk to a bot over bare pipes share: the pipes of
a child started with its stdin and stdout as pipes (``subprocess.Popen``
types both as optional), and a hello's time control."""

from __future__ import annotations

import subprocess
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from arena.botkit.messages import Limits

#: the time control of a benchmark's hello (the bots timed never read it)
LIMITS: Limits = {"startup": 10.0, "move": 1.0, "bank": 0.0}


def pipes(popen: subprocess.Popen[bytes]) -> tuple[IO[bytes], IO[bytes]]:
    """``popen``'s stdin and stdout."""
    assert popen.stdin is not None and popen.stdout is not None, "started without pipes"
    return popen.stdin, popen.stdout
