"""``cmd:`` bots are checked before anything runs: a program that cannot start
is one line on stderr and exit 2 from every command that takes a bot, and a
bot that crashes keeps the meaningful end of its stderr in the fault."""

import os
import stat
import sys

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.match.connection import stderr_tail
from arena.match.referee import Deal, Entrant, play_match
from arena.plugins.botspec import BotSpec, BotSpecError
from arena.sandbox import ResourceLimits
from engines.farm_and_furious import FarmAndFurious

runner = CliRunner()


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bot.js").write_text("// a script that exists\n")
    (tmp_path / "plain").write_text("#!/bin/sh\n")  # not executable
    return tmp_path


@pytest.mark.parametrize(
    "line, complaint",
    [
        ("no-such-program --fast", "'no-such-program' is not found on the bot's PATH ("),
        ("./missing-bot", "missing-bot does not exist"),
        ("./plain", "plain is not an executable file (chmod +x it, or name its interpreter)"),
        ("node nowhere.js", "script nowhere.js does not exist (relative paths are from "),
        ("python -u lib/bot.py", "script lib/bot.py does not exist"),
    ],
)
def test_a_command_that_cannot_start_is_refused_with_the_reason(folder, line, complaint):
    with pytest.raises(BotSpecError, match=r"^bot 'cmd:" + line.replace(".", r"\.")) as error:
        BotSpec.from_command("cmd:" + line)
    assert complaint in str(error.value)


def test_commands_that_can_start_pass(folder):
    (folder / "plain").chmod(stat.S_IRWXU)
    for line in (
        "./plain",
        "node bot.js",
        "python -c pass",
        "python -m arena.botkit x:Y",
        "python -X dev bot.js",
        f"{sys.executable} bot.js",
        "sh -c true",
    ):
        assert BotSpec.from_command("cmd:" + line).command[0]


def test_a_bare_program_is_looked_up_on_the_bots_path_not_the_users(folder, monkeypatch):
    # on the user's PATH only: the bot, whose PATH is the system's, would not find it
    (folder / "mybot").write_text("#!/bin/sh\n")
    (folder / "mybot").chmod(stat.S_IRWXU)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    os.chdir(folder.parent)
    with pytest.raises(BotSpecError, match="'mybot' is not found on the bot's PATH"):
        BotSpec.from_command("cmd:mybot")


TOURNAMENT = """
name = "t"
seed = 1
bots = ["random", "cmd:node nowhere.js"]
[[games]]
id = "farm-and-furious"
players = [2]
"""


@pytest.mark.parametrize("command", ["match", "check-bot", "tournament"])
def test_every_command_refuses_it_in_one_line_with_exit_2(folder, command):
    bad = "cmd:node nowhere.js"
    args = {
        "match": ["match", "farm-and-furious", "--bot", "random", "--bot", bad],
        "check-bot": ["check-bot", bad, "--game", "farm-and-furious"],
        "tournament": ["tournament", "t.toml", "--results", "out"],
    }[command]
    (folder / "t.toml").write_text(TOURNAMENT)
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("arena: error: ") and "script nowhere.js does not exist" in line
    assert not (folder / "out").exists()  # nothing ran, nothing was stored


CRASHER = r"""
import sys
print("starting up", file=sys.stderr)
for i in range(300):
    print(f"noise line {i}", file=sys.stderr)
print("Traceback (most recent call last):", file=sys.stderr)
print('  File "bot.py", line 3, in <module>', file=sys.stderr)
print("ModuleNotFoundError: No module named 'numpyy'", file=sys.stderr)
print("}", file=sys.stderr)
sys.exit(3)
"""


def test_a_crash_keeps_the_last_meaningful_stderr_lines_capped(tmp_path):
    script = tmp_path / "crasher.py"
    script.write_text(CRASHER)
    spec = BotSpec.from_command(f"cmd:{sys.executable} {script}")
    [record] = play_match(
        FarmAndFurious(),
        [
            Entrant("crasher", spec),
            Entrant("random", BotSpec.from_command(f"cmd:{sys.executable} -c pass")),
        ],
        [Deal(1, (0, 1))],
        sandbox="basic",
        resources=ResourceLimits(output=256),
    )  # the error is past the cap
    seat = record.seats[0]
    assert seat.fault == "crash"
    detail = seat.fault_detail
    assert "exit status 3" in detail
    # the error, the frame before it, not just the lone brace; no early noise
    assert detail.endswith("ModuleNotFoundError: No module named 'numpyy'")
    assert 'File "bot.py", line 3' in detail and "noise line 0" not in detail
    assert len(detail) <= 600


NODE_MISSING_MODULE = """node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module '/home/me/bot.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2
"""


def test_nodes_error_survives_its_stack_and_version_trailer():
    assert stderr_tail(NODE_MISSING_MODULE) == (
        "throw err; | Error: Cannot find module '/home/me/bot.js' | "
        "code: 'MODULE_NOT_FOUND', | requireStack: [] | Node.js v20.20.2"
    )
    assert stderr_tail("x" * 2000) == "..." + "x" * 497
    assert stderr_tail("") == ""
