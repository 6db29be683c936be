"""A bot in C (bots/c_bot), written from docs/protocol.md alone, built here
with the system compiler and run through `cmd:` in real matches of every
game: it plays without faults, and it passes `arena check-bot`."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "bots" / "c_bot" / "c_bot.c"
# the `arena` command of this environment
_SCRIPT = Path(sys.executable).parent / "arena"
ARENA = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "arena"]

pytestmark = pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler"
)


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory):
    folder = tmp_path_factory.mktemp("c-bot")
    folder.chmod(0o755)  # the strict sandbox runs bots under uids of their own
    binary = folder / "c_bot"
    compiler = shutil.which("cc") or shutil.which("gcc")
    subprocess.run(
        [
            compiler,
            "-O2",
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-o",
            str(binary),
            str(SOURCE),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return binary


def run_arena(*args, check=True):
    result = subprocess.run([*ARENA, *args], capture_output=True, text=True, timeout=300)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.mark.parametrize(
    "game, players",
    [
        ("farm-and-furious", 3),
        ("dou-dizhu", 3),
        ("farm-hand", 2),
        ("vegetables", 2),
        ("hand-and-foot", 2),
    ],
)
def test_plays_real_matches_without_faults(c_bot, game, players):
    bots = [f"cmd:{c_bot}"] + ["random"] * (players - 1)
    args = ["match", game, "--seed", "11", "--games", "2", "--json"]
    for bot in bots:
        args += ["--bot", bot]
    summary = json.loads(run_arena(*args).stdout)
    assert len(summary["games"]) == 2
    for played in summary["games"]:
        assert played["seats"][0]["bot"] == f"cmd:{c_bot}"
        assert [seat["fault"] for seat in played["seats"]] == [None] * players
    # seeded by hello: the same match replays exactly
    assert json.loads(run_arena(*args).stdout) == summary


def test_passes_check_bot(c_bot):
    from typer.testing import CliRunner

    import arena.cli.checkbot  # noqa: F401  (registers the command)
    from arena.cli import app

    result = CliRunner().invoke(
        app,
        [
            "check-bot",
            f"cmd:{c_bot}",
            "--game",
            "dou-dizhu",
            "--game",
            "farm-hand",
            "--games",
            "2",
            "-q",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == (
        f"cmd:{c_bot}: ok in dou-dizhu, farm-hand: 4 games against random, 10 edge cases"
    )
