"""A game is one plugin unit: its engine and the parts the other layers plug
in (RL encoding, search knowledge, terminal view, rules page) registered
together, found by every layer through it, and checked at once."""

import pytest

from arena import plugins
from arena.cli.views import View, view_for
from arena.game import GameUnit
from arena.game.testing import check_unit
from bots.ismcts.knowledge import Knowledge, for_game
from engines import unit_for
from engines.farm_and_furious.game import FarmAndFurious
from engines.farm_hand.view import FarmHandView

BUILT_IN = ("dou-dizhu", "farm-and-furious", "farm-hand", "hand-and-foot", "vegetables")


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_every_built_in_game_is_a_whole_unit(registry, game_id):
    unit = registry.unit(game_id)
    assert {"encoding", "view", "rules"} <= set(
        check_unit(unit, require=("encoding", "view", "rules"))
    )
    assert registry.origin[f"game:{game_id}"] == game_id


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_a_bot_finds_the_registered_unit_without_the_plugin_host(registry, game_id):
    assert unit_for(game_id) is registry.unit(game_id)


def test_the_layers_find_their_part_through_the_unit():
    assert view_for("farm-hand", 3).__class__ is FarmHandView
    assert for_game("farm-hand") is unit_for("farm-hand").part("knowledge")
    assert for_game("farm-and-furious") == Knowledge()  # a unit without knowledge


def test_a_missing_or_broken_part_is_reported_at_once():
    unit = GameUnit(
        FarmAndFurious(),
        encoding="engines.farm_and_furious.encoding:Nothing",
        knowledge="no_such_module_anywhere:KNOWLEDGE",
        view="arena.cli.views:grid",
        rules="no-such-page.md",
    )
    with pytest.raises(AssertionError) as raised:
        check_unit(unit, require=("encoding", "view", "rules"))
    problems = str(raised.value).removeprefix("farm-and-furious: ").split("; ")
    assert [problem.split(":")[0] for problem in problems] == [
        "encoding",
        "knowledge",
        "view",
        "rules",
    ]
    assert "AttributeError" in problems[0] and "ModuleNotFoundError" in problems[1]
    assert "is not a subclass of arena.cli.views:View" in problems[2]
    assert problems[3].startswith("rules: no page at ") and problems[3].endswith("no-such-page.md")
    with pytest.raises(AssertionError, match=r"^farm-and-furious: view: missing$"):
        check_unit(GameUnit(FarmAndFurious()), require=("view",))
    with pytest.raises(
        AssertionError,
        match=r": views: not a part \(parts: encoding, knowledge, "
        r"view, drawing, rules\)$",
    ):
        check_unit(GameUnit(FarmAndFurious()), require=("views",))


def test_a_knowledge_part_must_be_an_instance():
    unit = GameUnit(FarmAndFurious(), knowledge="bots.ismcts.knowledge:Knowledge")
    with pytest.raises(AssertionError, match=r"is not an instance of bots.ismcts.knowledge"):
        check_unit(unit)


def test_a_unit_without_parts_has_the_layers_defaults():
    unit = GameUnit(FarmAndFurious())
    assert check_unit(unit) == [] and unit.part("view") is None and unit.rules_page() == ""


def test_a_plugin_registers_a_unit_or_a_bare_engine(plugin_dir):
    unit = plugin_dir(
        "farm_hand_unit",
        """
        from arena.game import GameUnit
        from arena.plugins import hookimpl
        from engines.farm_hand.game import FarmHand

        @hookimpl
        def register_games():
            return [GameUnit(FarmHand(), view="engines.farm_hand.view:FarmHandView")]
    """,
    )
    bare = plugin_dir(
        "bare_engine",
        """
        from arena.plugins import hookimpl
        from engines.vegetables.game import Vegetables

        @hookimpl
        def register_games():
            return [Vegetables()]
    """,
    )
    registry = plugins.load([unit, bare])
    assert registry.errors == []
    assert registry.unit("farm-hand").view == "engines.farm_hand.view:FarmHandView"
    assert registry.unit("vegetables") == GameUnit(registry.engine("vegetables"))
    assert sorted(registry.games) == ["farm-hand", "vegetables"]
    with pytest.raises(plugins.UnknownName, match=r"unknown game 'chess' .installed: farm-hand, "):
        registry.unit("chess")


def test_a_unit_without_an_engine_is_reported(plugin_dir):
    junk = plugin_dir(
        "engineless_unit",
        """
        from arena.game import GameUnit
        from arena.plugins import hookimpl

        @hookimpl
        def register_games():
            return [GameUnit("not an engine")]
    """,
    )
    registry = plugins.load([junk])
    assert registry.errors == [
        "plugin 'engineless_unit': TypeError: game unit's engine is str, expected Engine"
    ]
    assert registry.units == {}


def test_the_fallback_view_is_for_a_game_without_one(monkeypatch):
    monkeypatch.setattr("engines.farm_hand.game.UNIT", GameUnit(FarmAndFurious()))
    assert type(view_for("farm-hand", 2)) is View


def test_a_rules_page_may_be_a_url():
    unit = GameUnit(FarmAndFurious(), rules="https://example.org/farm-and-furious")
    assert check_unit(unit) == ["rules"] and unit.rules_page() == unit.rules


def test_check_unit_reports_an_engine_that_is_not_one():
    with pytest.raises(
        AssertionError,
        match=r"^GameUnit\(engine='junk'.*: engine: str is not an "
        r"Engine$",
    ):
        check_unit(GameUnit("junk"))
