"""`arena new-bot`: the package it writes, its errors, and the bot playing
through the real referee.  (Installing it with pip into an environment of its
own, and its own test, are in tests/test_example_bot.py.)"""

import ast
import importlib
import sys
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from typer.testing import CliRunner

import arena.cli.newbot  # noqa: F401  (registers the command)
from arena import plugins
from arena.authoring.newbot import Names, NewBotError, create
from arena.cli import app
from arena.match.referee import Deal, Entrant, TimeControl, play_match
from arena.plugins.botspec import BotSpec

runner = CliRunner()


def new_bot(*args):
    return runner.invoke(app, ["new-bot", *args])


@pytest.fixture
def folder(tmp_path):
    tmp_path.chmod(0o755)  # the strict sandbox runs bots under uids of their own
    return tmp_path


def test_names():
    assert Names.from_name("my-bot") == Names("my-bot", "my-bot", "my_bot", "MyBot")
    assert Names.from_name("clever").cls == "CleverBot"
    assert Names.from_name("greedy2-v3").module == "greedy2_v3"
    for bad in ("My-Bot", "2bot", "my--bot", "my bot", "-x", "x-", "", "class", "a.b"):
        with pytest.raises(NewBotError):
            Names.from_name(bad)


def test_writes_a_complete_package(folder):
    result = new_bot(
        "tidy-bot", "--game", "vegetables", "--game", "dou-dizhu", "--dir", str(folder)
    )
    assert result.exit_code == 0, result.output
    assert f"pip install -e {folder}/tidy-bot" in result.output
    root = folder / "tidy-bot"
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()) == [
        "README.md",
        "pyproject.toml",
        "tests/test_tidy_bot.py",
        "tidy_bot/__init__.py",
        "tidy_bot/bot.py",
        "tidy_bot/plugin.py",
    ]
    project = tomllib.loads((root / "pyproject.toml").read_text())
    assert project["project"]["name"] == "tidy-bot"
    assert project["project"]["entry-points"]["arena"] == {"tidy-bot": "tidy_bot.plugin"}
    assert "farm-arena" in project["project"]["dependencies"]
    for path in root.rglob("*.py"):
        ast.parse(path.read_text(), str(path))
    readme = (root / "README.md").read_text()
    # the arena is on no index: the README installs it from this checkout first
    arena_root = Path(__file__).resolve().parents[1]
    assert f"pip install -e {arena_root}  " in readme
    assert readme.index(f"pip install -e {arena_root}") < readme.index(
        "pip install -e './tidy-bot[test]'"
    )
    assert project["project"]["optional-dependencies"]["test"] == ["pytest>=8"]
    for command in (
        "pip install -e './tidy-bot[test]'",
        "arena bots",
        "arena match vegetables --bot tidy-bot",
        "arena check-bot tidy-bot --game vegetables --game dou-dizhu",
        "arena tournament",
    ):
        assert command in readme


def test_templates_are_jinja2_files_with_strict_variables(monkeypatch):
    from arena.authoring import newbot

    rendered = newbot.render(Names.from_name("x-bot"), ("vegetables",), arena_source="/src/arena")
    assert "pip install -e /src/arena" in rendered["README.md"]
    assert "GAMES = ('vegetables',)" in rendered["x_bot/plugin.py"]
    assert all("{{" not in text for text in rendered.values())
    # a variable the templates use but render() does not give fails loudly
    monkeypatch.setitem(newbot.FILES, "extra.txt", "README.md.j2")
    monkeypatch.setattr(newbot, "arena_checkout", lambda: newbot.ARENA_PLACEHOLDER)
    assert (
        "pip install -e /path/to/farm-arena"
        in newbot.render(Names.from_name("x-bot"), ("*",))["extra.txt"]
    )
    import jinja2

    with pytest.raises(jinja2.UndefinedError, match="games_text"):
        jinja2.Environment(
            loader=jinja2.PackageLoader("arena.authoring", "newbot-templates"),
            undefined=jinja2.StrictUndefined,
        ).get_template("README.md.j2").render(
            name="x", module="x", cls="X", game_example="g", check_games="", arena_source="/"
        )


def test_bot_class_documents_every_method(folder):
    create("doc-bot", [], folder)
    tree = ast.parse((folder / "doc-bot" / "doc_bot" / "bot.py").read_text())
    [cls] = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    assert cls.name == "DocBot" and ast.get_docstring(cls)
    methods = {
        node.name: ast.get_docstring(node) for node in cls.body if isinstance(node, ast.FunctionDef)
    }
    assert set(methods) == {"new_match", "new_game", "act", "game_over"}
    assert all(methods.values()), methods


def test_plugin_registers_a_spec_without_importing_the_bot(folder, monkeypatch):
    create("lean-bot", ["farm-hand"], folder)
    monkeypatch.syspath_prepend(str(folder / "lean-bot"))
    registry = plugins.load([EntryPoint("lean-bot", "lean_bot.plugin", "arena")])
    try:
        assert registry.errors == []
        spec = registry.bot("lean-bot")
        assert spec == BotSpec(
            "lean-bot",
            games=("farm-hand",),
            entry="lean_bot.bot:LeanBot",
            version="0",
            description=spec.description,
        )
        assert spec.plays("farm-hand") and not spec.plays("vegetables")
        assert "lean_bot.bot" not in sys.modules
    finally:
        for name in [m for m in sys.modules if m.startswith("lean_bot")]:
            del sys.modules[name]


def test_any_game_by_default(folder, monkeypatch):
    create("wide-bot", [], folder)
    monkeypatch.syspath_prepend(str(folder / "wide-bot"))
    plugin = importlib.import_module("wide_bot.plugin")
    try:
        assert plugin.GAMES == ("*",)
        [spec] = plugin.register_bots()
        assert spec.plays("hand-and-foot")
    finally:
        for name in [m for m in sys.modules if m.startswith("wide_bot")]:
            del sys.modules[name]


def test_the_written_bot_plays_through_the_real_referee(folder, registry):
    root = create("play-bot", [], folder)
    # what `python -m arena.botkit play_bot.bot:PlayBot` does once installed
    launcher = (
        "import sys; sys.path.insert(0, sys.argv[1]); from arena.botkit import main; "
        "main(sys.argv[2:])"
    )
    spec = BotSpec(
        "play-bot", command=(sys.executable, "-c", launcher, str(root), "play_bot.bot:PlayBot")
    )
    for game in ("farm-and-furious", "dou-dizhu"):
        engine = registry.engine(game)
        players = 3
        entrants = [Entrant("play-bot", spec)] + [
            Entrant(f"random#{i}", registry.bot("random")) for i in range(1, players)
        ]
        deals = [
            Deal(seed, tuple((s + seed) % players for s in range(players))) for seed in range(2)
        ]
        records = play_match(engine, entrants, deals, limit=TimeControl(move=2.0))
        for record in records:
            assert [s.fault for s in record.seats] == [None] * players, record.seats


@pytest.mark.parametrize(
    "args, message",
    [
        (["random"], "a bot named 'random' is already installed"),
        (["Bad_Name"], "bot name 'Bad_Name'"),
        (["ok-bot", "--game", "chess"], "unknown game 'chess'"),
        (["json"], "a Python module named 'json' already exists"),
        (["pytest"], "a distribution named 'pytest' is already installed"),
    ],
)
def test_refuses_bad_input_in_one_line(folder, args, message):
    result = new_bot(*args, "--dir", str(folder))
    assert result.exit_code == 2
    assert result.output.startswith("arena: error: ") and message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert list(folder.iterdir()) == []


def test_refuses_a_folder_that_is_not_empty(folder):
    (folder / "busy-bot").mkdir()
    (folder / "busy-bot" / "notes.txt").write_text("mine")
    result = new_bot("busy-bot", "--dir", str(folder))
    assert result.exit_code == 2 and "already exists and is not empty" in result.output
    assert [p.name for p in (folder / "busy-bot").iterdir()] == ["notes.txt"]
