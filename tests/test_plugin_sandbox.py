"""Third-party bot plugins register from a sandbox: their module never runs
in the arena process, and one that fails, hangs or lies is one warning line.

The plugins are real installed distributions (``install_distribution``).
The control is today's loading, ``EntryPoint.load()``, which runs the
plugin's module here, as the arena's user.
"""

import os
import sys
from importlib.metadata import entry_points

import pytest

from arena import plugins
from arena.match.referee import Deal, Entrant, TimeControl, play_match
from arena.plugins import sandboxed as plugin_sandbox

PLUGIN = """
    import os
    from arena.plugins.botspec import BotSpec
    from arena.plugins import hookimpl

    try:
        with open({marker!r}, "w") as f:
            f.write(str(os.getuid()))
    except OSError:
        pass

    @hookimpl
    def register_bots():
        return [BotSpec("marker-bot", entry="marker_bot.bot:Bot", version="1.0")]
"""
BOT = """
    from arena.botkit import Bot

    class Bot(Bot):
        def act(self, observation, legal, clock):
            return legal[0]
"""


def entry(name):
    return f"[arena]\n{name} = {name.replace('-', '_')}.plugin\n"


@pytest.fixture
def marker_bot(install_distribution, tmp_path):
    marker = tmp_path / "imported"
    install_distribution(
        "marker-bot",
        {"__init__.py": "", "plugin.py": PLUGIN.format(marker=str(marker)), "bot.py": BOT},
        requires=("farm-arena",),
        entry_points=entry("marker-bot"),
    )
    return marker


def test_a_bot_plugin_registers_without_running_here_and_its_bot_plays(marker_bot, registry):
    loaded = plugins.load()
    assert loaded.errors == []
    assert loaded.bot("marker-bot").entry == "marker_bot.bot:Bot"
    assert loaded.origin["bot:marker-bot"] == "marker-bot (marker-bot)"
    assert "marker_bot.plugin" not in sys.modules and not marker_bot.exists()
    assert {"random", "farm-and-furious"} <= set(loaded.bots) | set(
        loaded.games
    )  # trusted: as before
    [record] = play_match(
        loaded.engine("farm-and-furious"),
        [Entrant("m", loaded.bot("marker-bot")), Entrant("r", loaded.bot("random"))],
        [Deal(5, (0, 1))],
        limit=TimeControl(startup=10.0),
        sandbox="strict",
    )
    assert [seat.fault for seat in record.seats] == [None, None]


def test_control_loading_the_entry_point_here_runs_the_plugin_as_the_arena(marker_bot):
    [point] = [p for p in entry_points(group="arena") if p.name == "marker-bot"]
    point.load()
    assert marker_bot.read_text() == str(os.getuid())


BAD = {
    "failing-bot": "raise RuntimeError('no luck\\nsecond line')\n",
    "hanging-bot": "import time\ntime.sleep(3600)\n",
    "garbage-bot": "import os\nos.write(1, b'not json\\n')\n",
    "liar-bot": """
        from arena.plugins.botspec import BotSpec
        from arena.plugins import hookimpl

        @hookimpl
        def register_bots():
            return [BotSpec("random", entry="liar_bot.plugin:Impostor"),
                    BotSpec("liar", entry="marker_bot.bot:Bot"),
                    BotSpec("reader", entry="liar_bot.plugin:Reader", files=("/root",)),
                    BotSpec("shower", command=("/bin/cat", {foreign!r})),
                    BotSpec("own-binary", command=("/bin/sh", __file__))]
    """,
    "engine-bot": """
        from arena.plugins import hookimpl
        from engines.farm_and_furious import FarmAndFurious

        @hookimpl
        def register_games():
            return [FarmAndFurious()]
    """,
}


def test_a_plugin_that_fails_hangs_or_lies_is_one_warning_line(
    install_distribution, marker_bot, monkeypatch
):
    monkeypatch.setattr(plugin_sandbox, "TIMEOUT", 3.0)
    foreign = str(marker_bot.parent / "the-results-key")  # a host file no plugin owns
    open(foreign, "w").close()
    for name, body in BAD.items():
        body = body.replace("{foreign!r}", repr(foreign))
        install_distribution(
            name,
            {"__init__.py": "", "plugin.py": body},
            requires=("farm-arena",),
            entry_points=entry(name),
        )
    loaded = plugins.load()
    assert "marker-bot" in loaded.bots and loaded.bot("random").entry == "bots.random_bot:RandomBot"
    assert not {"liar", "reader", "shower"} & set(loaded.bots)
    assert loaded.bot("own-binary").command[1].endswith("liar_bot/plugin.py")
    errors = sorted(loaded.errors)
    assert all("\n" not in error for error in errors)
    assert errors == [
        "distribution 'engine-bot': a bot distribution may not add games (farm-and-furious): "
        "game engines load in the arena only through the 'arena.engines' entry-point group; ignored",
        "distribution 'failing-bot': plugin 'failing-bot': RuntimeError: no luck",
        "distribution 'garbage-bot': its plugins answered garbage; its bots are not registered",
        "distribution 'hanging-bot': its plugins gave no answer within 3s (or too long a one); "
        "its bots are not registered",
        "distribution 'liar-bot': plugin 'liar-bot': bot 'liar': entry 'marker_bot.bot:Bot' is not "
        "a module of 'liar-bot'; ignored",
        "distribution 'liar-bot': plugin 'liar-bot': bot 'reader': a plugin may not list files "
        "(the tournament file's 'files' does); ignored",
        f"distribution 'liar-bot': plugin 'liar-bot': bot 'shower': its command names {foreign!r}, "
        "not a file of 'liar-bot'; ignored",
        "plugin 'liar-bot (liar-bot)': bot 'random' is already registered by plugin 'builtin-bots'; ignored",
    ]


def test_a_plugins_bot_says_whether_it_is_asked_forced_moves_with_true_or_false_only():
    own = os.path.join(os.path.dirname(plugins.__file__), "__init__.py")
    item = {"plugin": "p", "name": "b", "command": [sys.executable, own]}
    assert plugin_sandbox._spec("farm-arena", dict(item))[1].ask_forced is True
    said = plugin_sandbox._spec("farm-arena", dict(item, ask_forced=False))[1]
    assert said.ask_forced is False
    with pytest.raises(TypeError, match="ask_forced must be true or false"):
        plugin_sandbox._spec("farm-arena", dict(item, ask_forced="no"))
