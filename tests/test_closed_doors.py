"""Closed doors (issue 29, part A): each attack with its control -- the
attack working at the old behaviour -- then failing with the protection."""

import json
import os
import socket
import sys

import pytest

from arena.plugins.sandboxed import _spec
from arena.results.store import Store, StoreError
from arena.sandbox import BotProcess, ResourceLimits, SandboxError, layers
from arena.sandbox.view import ARENA
from arena.tournament import load, run

CMD_BOT = f"cmd:{sys.executable} -m arena.botkit bots.random_bot:RandomBot"

#: a bot's probe: what it can reach of the host at the basic level
PROBE = r"""
import json, os, socket, sys
key, outside, port = {names!r}
found = {}
try:
    found["key"] = open(key).read()
except OSError:
    found["key"] = None
try:
    socket.create_connection(("127.0.0.1", int(port)), timeout=2).close()
    found["network"] = True
except OSError:
    found["network"] = False
try:
    open(outside, "w").write("x")
    found["write_outside"] = True
except OSError:
    found["write_outside"] = False
found["processes"] = len([p for p in os.listdir("/proc") if p.isdigit()])
print(json.dumps(found), flush=True)
"""


@pytest.fixture
def no_bubblewrap(monkeypatch):
    """A machine without a usable bubblewrap."""
    monkeypatch.setattr(layers, "bubblewrap_works", lambda: False)


def tiny(write_tournament, bot, **keys):
    return write_tournament(
        '[[games]]\nid = "farm-and-furious"\nplayers = [2]\noptions = { track_length = 4 }\n',
        name="doors",
        deals=1,
        workers=0,
        bots=["random", {"name": "other", "bot": bot}],
        **keys,
    )


def test_a_submitted_bot_is_never_started_below_the_least_level(
    write_tournament, tmp_path, no_bubblewrap
):
    config = load(tiny(write_tournament, CMD_BOT), results=str(tmp_path / "r"))
    with pytest.raises(SandboxError, match=r'least_sandbox = "basic".*--least-sandbox basic'):
        run(config, progress=False)
    assert not (tmp_path / "r" / "results.sqlite").exists()  # stopped before playing
    # control: accepted explicitly, it plays -- and the games say at which level
    config = load(
        tiny(write_tournament, CMD_BOT, least_sandbox="basic"), results=str(tmp_path / "r")
    )
    assert run(config, progress=False).stored == 2
    with Store(tmp_path / "r", create=False) as store:
        assert {g.record.sandbox for g in store.games()} == {"basic"} == store.levels()


def test_built_in_bots_run_at_basic_without_bubblewrap(write_tournament, tmp_path, no_bubblewrap):
    config = load(tiny(write_tournament, "random"), results=str(tmp_path / "r"))
    assert run(config, progress=False).stored == 2
    assert oct(os.stat(tmp_path / "r").st_mode & 0o777) == "0o700"


def test_a_resume_at_another_level_is_refused(write_tournament, tmp_path):
    path = tiny(write_tournament, "random", sandbox="basic")
    assert run(load(path, results=str(tmp_path / "r")), progress=False).stored == 2
    strict = tiny(write_tournament, "random", sandbox="strict")
    with pytest.raises(StoreError, match=r"played at sandbox level 'basic'.*'strict'"):
        run(load(strict, results=str(tmp_path / "r")), progress=False)


def probe(tmp_path):
    """Start the probe at basic against a results folder with a 0600 key,
    a listener and a host file; what it reached."""
    results = tmp_path / "other-results"
    results.mkdir(mode=0o700)
    (results / "key").write_text("secret-key")
    os.chmod(results / "key", 0o600)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    outside = tmp_path / "written"
    os.chmod(tmp_path, 0o755)
    # the paths in its code, not on its command line (the operator's to grant)
    names = (str(results / "key"), str(outside), listener.getsockname()[1])
    code = PROBE.replace("{names!r}", repr(names))
    process = BotProcess([sys.executable, "-c", code], ResourceLimits(), "basic")
    try:
        found = json.loads(process.popen.stdout.readline())
    finally:
        process.kill()
        listener.close()
    found["write_outside"] = found["write_outside"] and outside.exists()
    return found


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid per bot needs root")
def test_attacks_at_the_basic_level(tmp_path, monkeypatch, request):
    # control: the basic level as it was -- every attack works
    request.getfixturevalue("shared_basic")
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    old = probe(tmp_path / "old")
    assert old["key"] == "secret-key" and old["network"] and old["write_outside"]
    assert old["processes"] > 3
    monkeypatch.undo()
    new = probe(tmp_path / "new")
    assert new == {"key": None, "network": False, "write_outside": False, "processes": 1}


@pytest.mark.skipif(os.geteuid() != 0, reason="a uid per bot needs root")
def test_a_bot_in_the_hosts_tmp_gets_the_namespaces_and_only_its_own_files(
    tmp_path, monkeypatch, request
):
    """A command naming a file in the host's ``/tmp`` (a checkout or a bot
    made there) once ran without the namespaces; now that file alone is
    bound into the private ``/tmp``: a note beside it stays out of reach."""
    (tmp_path / "note").write_text("the operator's")
    bot = tmp_path / "bot.py"
    bot.write_text(
        "import json, os\n"
        f"try:\n    note = open({str(tmp_path / 'note')!r}).read()\n"
        "except OSError:\n    note = None\n"
        "processes = len([p for p in os.listdir('/proc') if p.isdigit()])\n"
        "print(json.dumps([note, processes]), flush=True)\n"
    )

    def seen():
        process = BotProcess([sys.executable, str(bot)], ResourceLimits(), "basic")
        try:
            return json.loads(process.popen.stdout.readline())
        finally:
            process.kill()

    request.getfixturevalue("shared_basic")  # the control: the old basic level
    note, processes = seen()
    assert note == "the operator's" and processes > 3
    monkeypatch.undo()
    assert seen() == [None, 1]


def test_a_results_folder_is_refused_at_launch_not_only_at_discovery(tmp_path):
    folder = tmp_path / "results-later"
    folder.mkdir()
    argv = [sys.executable, "-c", "pass", str(folder)]
    # control: before it is a results folder the bot starts (its view binds the folder)
    BotProcess(argv, level="basic").kill()
    Store(folder).close()  # a run made its store there since
    with pytest.raises(SandboxError, match="results folder"):
        BotProcess(argv, level="basic")
    with pytest.raises(SandboxError, match="results folder"):
        BotProcess([sys.executable, "-c", "pass"], level="strict", files=(str(folder),))


def plugin_spec(command):
    return {"plugin": "p", "name": "b", "command": command}


def test_a_plugins_command_grants_nothing_outside_its_distribution(tmp_path):
    own = os.path.join(ARENA, "botkit", "__init__.py")
    # control: the distribution's own file may be named
    assert _spec("farm-arena", plugin_spec([sys.executable, own]))[1].command[1] == own
    rival = tmp_path / "rival.py"
    rival.write_text("weights")
    for named in (str(rival), str(tmp_path / "results" / "results.sqlite")):
        with pytest.raises(ValueError, match="not a file of"):
            _spec("farm-arena", plugin_spec([sys.executable, named]))


def test_a_store_from_before_levels_stays_readable_and_gains_the_column(tmp_path):
    import sqlite3

    Store(tmp_path).close()
    db = sqlite3.connect(tmp_path / "results.sqlite")
    db.execute("ALTER TABLE games DROP COLUMN sandbox")  # as a store made before levels
    db.commit()
    db.close()
    with Store(tmp_path, create=False) as old:
        assert list(old.games()) == [] and old.levels() == set()
    with Store(tmp_path) as migrated:
        assert migrated._has_sandbox()
