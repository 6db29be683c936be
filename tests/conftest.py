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


VIEWER_TOURNAMENT = """
name = "viewer"
seed = 11
deals = 2
workers = 2
sandbox = "none"
bots = ["random", "farm-and-furious-racer", "dou-dizhu-greedy", "farm-hand-counter",
        "hand-and-foot-builder",
        {{ name = "cheater", bot = "{cheater}", games = ["farm-and-furious"] }}]

[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 10 }}

[[games]]
id = "dou-dizhu"
players = [3]
deals = 1

[[games]]
id = "farm-hand"
players = [1, 2]
deals = 1

[[games]]
id = "hand-and-foot"
players = [2]
options = {{ target = 2000, max_rounds = 1 }}
deals = 1
"""


@pytest.fixture(scope="session")
def viewer_results(tmp_path_factory):
    """A small real results folder, played once per session: built-in bots in
    four games, and a bot that plays an illegal action (faults to look at)."""
    from arena.plugins import installed
    from arena.tournament import load, run

    folder = tmp_path_factory.mktemp("viewer")
    path = folder / "viewer.toml"
    path.write_text(VIEWER_TOURNAMENT.format(cheater=_broken_bot("illegal")))
    summary = run(load(path, installed(), results=str(folder / "results")), installed(),
                  progress=False)
    assert summary.played and not summary.errors, summary.errors
    return folder / "results"
