"""Loading plugins from entry points: every failure is one line naming the
plugin, and the other plugins still load."""

import pytest

from arena import plugins
from arena.plugins.botspec import BotSpec, BotSpecError

GOOD = """
    from arena.plugins import hookimpl
    from arena.plugins.botspec import BotSpec
    from engines.farm_and_furious import FarmAndFurious

    @hookimpl
    def register_games():
        return [FarmAndFurious()]

    @hookimpl
    def register_bots():
        return [BotSpec("good-bot", entry="good_bot_impl:Bot")]
"""


def test_builtins_are_registered_through_entry_points(registry):
    assert "farm-and-furious" in registry.games
    assert {"random", "farm-and-furious-racer"} <= set(registry.bots)
    assert registry.errors == []


def test_good_plugin_loads(plugin_dir):
    registry = plugins.load([plugin_dir("good", GOOD)])
    assert list(registry.games) == ["farm-and-furious"]
    assert registry.bot("good-bot").entry == "good_bot_impl:Bot"
    assert registry.origin["bot:good-bot"] == "good"


def test_plugin_that_fails_to_import_is_reported_and_others_load(plugin_dir):
    broken = plugin_dir("aaa_broken", "import does_not_exist_anywhere\n")
    registry = plugins.load([broken, plugin_dir("good", GOOD)])
    assert "good-bot" in registry.bots
    [error] = registry.errors
    assert error.startswith("plugin 'aaa_broken': ModuleNotFoundError")
    assert "\n" not in error


def test_hook_that_raises_or_returns_junk_is_reported(plugin_dir):
    raising = plugin_dir(
        "raising",
        """
        from arena.plugins import hookimpl
        @hookimpl
        def register_bots():
            raise RuntimeError("boom")
    """,
    )
    junk = plugin_dir(
        "junk",
        """
        from arena.plugins import hookimpl
        @hookimpl
        def register_games():
            return ["not an engine"]
    """,
    )
    registry = plugins.load([raising, junk, plugin_dir("good", GOOD)])
    assert "good-bot" in registry.bots
    assert sorted(registry.errors) == [
        "plugin 'junk': TypeError: hook returned str, expected GameUnit or Engine",
        "plugin 'raising': RuntimeError: boom",
    ]


def test_duplicate_ids_keep_the_first_and_name_both_plugins(plugin_dir):
    first = plugin_dir("good", GOOD)
    second = plugin_dir("twin", GOOD)
    registry = plugins.load([first, second])
    assert registry.origin["game:farm-and-furious"] == "good"
    assert registry.errors == [
        "plugin 'twin': game 'farm-and-furious' is already registered by plugin 'good'; ignored",
        "plugin 'twin': bot 'good-bot' is already registered by plugin 'good'; ignored",
    ]


def test_unknown_names_list_what_is_installed(registry):
    with pytest.raises(
        plugins.UnknownName, match=r"unknown game 'chess' \(installed: .*farm-and-furious"
    ):
        registry.engine("chess")
    with pytest.raises(plugins.UnknownName, match="unknown bot 'nobody'"):
        registry.bot("nobody")


def test_cmd_bots_resolve_existing_relative_paths(tmp_path, monkeypatch):
    (tmp_path / "mybot.py").write_text("")
    monkeypatch.chdir(tmp_path)
    spec = BotSpec.from_command("cmd:python mybot.py --depth 3")
    assert spec.command == ("python", str(tmp_path / "mybot.py"), "--depth", "3")
    assert spec.plays("anything")
    with pytest.raises(BotSpecError):
        BotSpec.from_command("cmd:   ")
    with pytest.raises(BotSpecError):
        BotSpec("x", entry="no_colon")
