"""What a bot's process imports before it answers ``hello``.

A tournament starts a fresh process for every entrant of every seating's
block of deals (124 for tournaments/quick.toml), so each module a bot's
start-up imports is paid for over and over: ``typing`` (with the ``re`` and
``enum`` it pulls in) costs about 10 ms of CPU a start here, ``dataclasses``
(with ``inspect``) 12 ms more (benchmarks/tournament.py prints what a start
costs).  The bot kit needs neither at run time."""

import subprocess
import sys

import pytest

#: the modules a start-up should not pay for
COSTLY = ("typing", "re", "enum", "dataclasses", "inspect")


def loaded(code: str) -> set[str]:
    """The COSTLY modules that running ``code`` in a fresh interpreter
    loads (beyond what the interpreter's own start-up had: the site
    folders' ``.pth`` files are the environment's, not the bot's)."""
    probe = (
        f"import sys\nbefore = set(sys.modules)\n{code}\n"
        f"print(' '.join(sorted((set(sys.modules) - before) & {set(COSTLY)!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", probe], capture_output=True, text=True, check=True
    )
    return set(done.stdout.split())


def test_the_probe_sees_a_costly_import():
    # control: the message schemas do import typing, and the probe says so
    assert "typing" in loaded("import arena.botkit.messages")


@pytest.mark.parametrize(
    "module", ["arena.botkit", "bots.random_bot", "bots.hand_and_foot", "bots.dou_dizhu"]
)
def test_a_bot_start_imports_neither_typing_nor_dataclasses(module):
    assert loaded(f"import arena.botkit, {module}") == set()


def test_a_bot_of_the_cards_alone_does_not_import_its_rules_engine():
    # bots/hand_and_foot.py needs the cards, bots/dou_dizhu.py the move tables
    code = (
        "import arena.botkit, bots.hand_and_foot, bots.dou_dizhu\nimport sys\n"
        "print(' '.join(m for m in ('arena.game', 'engines.hand_and_foot.game', "
        "'engines.dou_dizhu.game') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == []


def test_an_engine_package_still_gives_its_classes():
    from engines import dou_dizhu, hand_and_foot
    from engines.dou_dizhu.game import DouDizhu
    from engines.hand_and_foot.game import HandAndFootState

    assert dou_dizhu.DouDizhu is DouDizhu and hand_and_foot.HandAndFootState is HandAndFootState
    with pytest.raises(AttributeError, match="has no attribute 'Rules'"):
        hand_and_foot.Rules


def test_the_message_schemas_are_the_messages_module_s_alone():
    from arena.botkit import messages, protocol

    assert set(messages.TO_BOT) == {"hello", "new_game", "act", "game_over", "goodbye"}
    with pytest.raises(AttributeError, match="no attribute 'Hello'"):
        protocol.Hello
