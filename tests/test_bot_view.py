"""What a bot can see (strict sandbox): its own distribution and what that
declares it needs, never another installed bot's files; and nothing it
wrote survives to its next process.

The distributions are installed for real (files, RECORD and METADATA in the
test session's throw-away site folder) for the length of a test: ``rival-bot`` ships a
secret "weights" file; ``snoop-bot`` requires ``snoop-helper`` and its bot
tries to read the rival's weights.  The basic level is the control: there the
same bot reads them.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.match.referee import Deal, Entrant, TimeControl, play_match
from arena.plugins.botspec import BotSpec
from arena.sandbox import view

BOTS = Path(__file__).parent / "bots"
SECRET = "rival-weights-7d1e"

SNOOP = """
    import os
    import snoop_helper
    from arena.botkit import Bot

    HERE = os.path.dirname(os.path.abspath(__file__))
    RIVAL = os.path.join(os.path.dirname(HERE), "rival_bot", "weights.txt")


    class Snoop(Bot):
        def act(self, observation, legal, clock):
            try:
                with open(RIVAL) as f:
                    return "PWNED:" + f.read()
            except OSError:
                pass
            with open(os.path.join(HERE, "own.txt")) as f:   # its own files: readable
                assert f.read() == "mine"
            return legal[snoop_helper.FIRST]
"""


@pytest.fixture
def installed_bots(install_distribution):
    rival = install_distribution("rival-bot", {"__init__.py": "", "weights.txt": SECRET})
    install_distribution("snoop-helper", {"__init__.py": "FIRST = 0\n"})
    install_distribution(
        "snoop-bot",
        {"__init__.py": "", "bot.py": SNOOP, "own.txt": "mine"},
        requires=("snoop-helper>=1", "farm-arena"),
    )
    return rival


def play(registry, spec, level):
    entrants = [Entrant("snoop", spec), Entrant("honest", registry.bot("random"))]
    [record] = play_match(
        registry.engine("farm-and-furious"),
        entrants,
        [Deal(5, (0, 1))],
        limit=TimeControl(startup=10.0, move=2.0),
        sandbox=level,
    )
    return record.seats[0]


SNOOP_BOT = BotSpec("snoop", entry="snoop_bot.bot:Snoop")


def test_a_bot_reads_a_rival_distribution_in_the_basic_sandbox(registry, installed_bots):
    seat = play(registry, SNOOP_BOT, "basic")
    assert f"PWNED:{SECRET}" in (seat.fault_detail or "")


def test_a_bot_sees_its_own_distribution_and_requirements_only(registry, installed_bots):
    seat = play(registry, SNOOP_BOT, "strict")
    assert seat.fault is None, seat.fault_detail  # imported itself and its helper, read own.txt


def test_a_command_bot_sees_its_files_alone_unless_more_are_listed(registry, installed_bots):
    reader = f"cmd:{sys.executable} {BOTS / 'reader.py'} read:{installed_bots / 'weights.txt'}"
    assert play(registry, registry.bot(reader), "strict").fault is None
    shown = BotSpec.from_command(reader, files=(str(installed_bots),))
    assert f"PWNED:{SECRET}" in (play(registry, shown, "strict").fault_detail or "")


def test_arena_own_bots_see_no_other_installed_bot(installed_bots):
    seen = view.view_for(BotSpec("random", entry="bots.random_bot:RandomBot").argv())
    assert not [p for p in seen.binds if "rival_bot" in p or "snoop" in p]
    assert any(p.endswith(os.path.join("arena", "game")) for p in seen.binds)
    assert not any(p.endswith(os.path.join("arena", "referee.py")) for p in seen.binds)


def test_a_strict_bot_reads_its_modules_compiled(tmp_path):
    # the view is read-only, so a bot cannot cache what it compiles: the kit's
    # package and built-in bots the referee never imported are compiled when
    # their view is made, and bound with their bytecode
    import importlib.util

    import arena.botkit
    import bots.random_bot

    kit = Path(importlib.util.cache_from_source(arena.botkit.__file__))
    bot = Path(importlib.util.cache_from_source(bots.random_bot.__file__))
    kit.unlink(missing_ok=True)
    bot.unlink(missing_ok=True)
    view.forget_installed()
    try:
        seen = view.view_for(BotSpec("random", entry="bots.random_bot:RandomBot").argv())
    finally:
        view.forget_installed()
    for compiled, source in ((kit, arena.botkit.__file__), (bot, bots.random_bot.__file__)):
        assert compiled.is_file() and str(compiled.parent.parent) in seen.binds
        assert compiled.stat().st_mtime >= Path(source).stat().st_mtime


NESTED = """
    import os
    from arena.botkit import Bot

    HERE = os.path.dirname(os.path.abspath(__file__))


    class Nested(Bot):
        def act(self, observation, legal, clock):
            try:
                with open(os.path.join(HERE, "vendor", "inner_bot", "weights.txt")) as f:
                    return "PWNED:" + f.read()
            except OSError:
                return legal[0]
"""


def test_another_distribution_inside_a_bots_source_folder_is_masked(
    registry, install_distribution, tmp_path, shared_basic
):
    # outer-bot is an editable install; inner-bot's source lies inside
    # outer-bot's package folder, which outer-bot's view binds whole
    outer = install_distribution(
        "outer-bot",
        {"__init__.py": "", "bot.py": NESTED},
        requires=("farm-arena",),
        editable=tmp_path / "outer",
    )
    install_distribution(
        "inner-bot", {"__init__.py": "", "weights.txt": SECRET}, editable=outer / "vendor"
    )
    spec = BotSpec("nested", entry="outer_bot.bot:Nested")
    assert str(outer / "vendor" / "inner_bot") in view.view_for(spec.argv()).masks
    assert f"PWNED:{SECRET}" in (play(registry, spec, "basic").fault_detail or "")
    assert play(registry, spec, "strict").fault is None


@pytest.fixture
def token():
    token = os.urandom(4).hex()
    yield token
    subprocess.run([sys.executable, str(BOTS / "remember.py"), "clean", token], check=True)


def notes_found(registry, token, level):
    """Two matches, so two processes of the same bot: what the second found."""
    spec = registry.bot(f"cmd:{sys.executable} {BOTS / 'remember.py'} {token}")
    details = [play(registry, spec, level).fault_detail or "" for _ in range(2)]
    assert "PWNED" not in details[0]
    return (
        sorted(details[1].split("PWNED:", 1)[1].split("'")[0].split(","))
        if "PWNED" in details[1]
        else []
    )


def test_notes_survive_to_the_next_process_in_the_basic_sandbox(
    registry, token, monkeypatch, request
):
    from arena.sandbox import namespaces

    request.getfixturevalue("shared_basic")  # the control: the basic level as it was
    assert notes_found(registry, token, "basic") == ["dev-shm", "tmp"]
    monkeypatch.undo()
    # the basic level's private /tmp and /dev/shm, where the kernel gives them
    assert notes_found(registry, token, "basic") == (
        [] if namespaces.available() else ["dev-shm", "tmp"]
    )


def test_nothing_survives_to_the_next_process_in_the_strict_sandbox(registry, token):
    assert notes_found(registry, token, "strict") == []
