import os
import sys
from pathlib import Path

import pytest

BOTS = Path(__file__).parent / "bots"


def _broken_bot(mode: str, *args: str) -> str:
    """A ``cmd:`` bot name for tests/bots/broken.py in the given mode."""
    return " ".join([f"cmd:{sys.executable}", str(BOTS / "broken.py"), mode, *args])


def _processes_running(marker: str) -> list[int]:
    """Live (non-zombie) processes whose command line contains ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().decode(errors="replace")
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry))
    return found


@pytest.fixture
def registry():
    from arena.plugins import installed
    return installed()


@pytest.fixture
def broken_bot():
    return _broken_bot


@pytest.fixture
def processes_running():
    return _processes_running
