"""Tournament files: what loads, and one clear line per mistake."""

import pytest
from typer.testing import CliRunner

from arena.tournament.config import ConfigError, load

GOOD = """
name = "small"
seed = 7
deals = 3
workers = 1
results = "out/small"
[time]
startup = 5
move = 0.5
bank = 2.0
bots = ["random", { name = "racer", bot = "farm-and-furious-racer" }]
"""


def test_a_good_file_loads_with_defaults_filled(write_tournament, registry):
    path = write_tournament("""
name = "small"
seed = 7
deals = 3
workers = 1
results = "out/small"
bots = ["random", { name = "racer", bot = "farm-and-furious-racer" }]
[time]
startup = 5
move = 0.5
bank = 2.0
[[games]]
id = "farm-and-furious"
players = [2, 3]
options = { track_length = 8 }
""")
    t = load(path, registry)
    assert t.name == "small" and t.seed == 7 and t.format == "round-robin"
    assert t.time.startup == 5.0 and t.time.move == 0.5 and t.time.bank == 2.0
    assert [b.name for b in t.bots] == ["random", "racer"]
    assert t.bot("racer").bot == "farm-and-furious-racer"
    [game] = t.games
    assert game.players == (2, 3) and game.deals == 3 and game.options == {"track_length": 8}
    assert game.seating == "rotate" and game.bots == ("random", "racer")
    assert t.results == "out/small" and t.workers == 1


def test_flags_override_the_file(write_tournament, registry):
    path = write_tournament(
        name="x", workers=3, bots=["random", "farm-and-furious-racer"], games=["farm-and-furious"]
    )
    t = load(path, registry, results="elsewhere", workers=0)
    assert t.results == "elsewhere" and t.workers == 0
    assert load(path, registry).results == "results/x"
    assert load(path, registry).games[0].players == (2, 3, 4, 5)


def test_every_mistake_is_one_line_naming_file_and_key(write_tournament, registry):
    path = write_tournament("""
seed = "seven"
format = "knockout"
colour = "blue"
bots = ["random", "no-such-bot", { name = "random", bot = "random" }, { name = "x" }]
[time]
move = -1
[[games]]
id = "farm-and-furious"
players = [2, 9]
options = { track_length = "far", wings = 2 }
[[games]]
id = "chess"
""")
    with pytest.raises(ConfigError) as caught:
        load(path, registry)
    errors = caught.value.errors
    text = "\n".join(errors)
    for line in errors:
        assert line.startswith(f"{path}: ") and "\n" not in line
    expected = [
        ("seed", "expected an integer"),
        ("format", "'knockout' is not one of"),
        ("colour", "unknown key"),
        ("name", "missing"),
        ("time.move", "at least"),
        ("bots[1].bot", "unknown bot 'no-such-bot'"),
        ("bots[2].name", "'random' is used by another bot"),
        ("bots[3].bot", "missing"),
        ("games[0].players", "not 9"),
        ("games[0].options", "track_length"),
        ("games[1].id", "unknown game 'chess'"),
    ]
    for key, what in expected:
        assert any(f": {key}: " in line and what in line for line in errors), (key, text)


def test_unknown_option_and_bot_not_playing_a_game(write_tournament, registry):
    path = write_tournament("""
name = "x"
bots = ["random", "farm-and-furious-racer"]
[[games]]
id = "farm-and-furious"
options = { wings = 2 }
bots = ["random", "nobody"]
""")
    with pytest.raises(ConfigError) as caught:
        load(path, registry)
    text = "\n".join(caught.value.errors)
    assert "games[0].options: game 'farm-and-furious' has no option 'wings'" in text
    assert "games[0].bots: 'nobody' is not one of the bots' names" in text


def test_format_sections_are_checked(write_tournament, registry):
    path = write_tournament("""
name = "x"
format = "gauntlet"
bots = ["random", "farm-and-furious-racer"]
games = ["farm-and-furious"]
[swiss]
rounds = 3
""")
    with pytest.raises(ConfigError) as caught:
        load(path, registry)
    text = "\n".join(caught.value.errors)
    assert "gauntlet.challenger: missing" in text
    assert "swiss: settings for format 'swiss' but format is 'gauntlet'" in text


def test_broken_toml_and_missing_file(write_tournament, tmp_path, registry):
    with pytest.raises(ConfigError) as caught:
        load(write_tournament("name = \n"), registry)
    assert "not valid TOML" in caught.value.errors[0]
    with pytest.raises(ConfigError) as caught:
        load(tmp_path / "nope.toml", registry)
    assert "no such file" in caught.value.errors[0]


def test_cli_reports_errors_and_exits_2_before_running(write_tournament, tmp_path):
    import arena.cli.tournament  # noqa: F401  (registers the commands)
    from arena.cli import app

    path = write_tournament('name = "x"\nbots = ["nobody"]\ngames = ["chess"]\n')
    result = CliRunner().invoke(app, ["tournament", str(path), "--results", str(tmp_path / "r")])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.startswith("arena: error:")]
    assert len(lines) >= 2
    assert any("bots[0].bot" in line for line in lines)
    assert any("games[0].id" in line for line in lines)
    assert not (tmp_path / "r").exists()


def test_shipped_tournament_files_validate_against_installed_games(registry):
    """Every shipped file loads, apart from games that are not installed yet."""
    from pathlib import Path

    files = sorted((Path(__file__).parent.parent / "tournaments").glob("*.toml"))
    assert files
    for path in files:
        try:
            load(path, registry)
        except ConfigError as error:
            for line in error.errors:
                assert (
                    "is not installed" in line
                    or "unknown game" in line
                    or "unknown bot" in line
                    or "no bot plays" in line
                ), line


def test_limits_default_and_per_bot(tmp_path, registry):
    from arena.sandbox import ResourceLimits
    from arena.tournament import load

    path = tmp_path / "t.toml"
    path.write_text("""
name = "limits"
limits = { memory_mb = 512, processes = 8 }
bots = ["random", { name = "big", bot = "random", limits = { memory_mb = 4096, output_kb = 1 } }]
[[games]]
id = "farm-and-furious"
players = [2]
""")
    tournament = load(str(path), registry)
    assert tournament.resources["random"] == ResourceLimits(memory=512 << 20, processes=8)
    assert tournament.resources["big"] == ResourceLimits(
        memory=4096 << 20, processes=8, output=1 << 10
    )


def test_bad_limits_are_one_line_each(tmp_path, registry):
    from arena.tournament import ConfigError, load

    path = tmp_path / "t.toml"
    path.write_text("""
name = "limits"
limits = { memory_gb = 1, processes = 0 }
bots = ["random", "farm-and-furious-racer"]
[[games]]
id = "farm-and-furious"
players = [2]
""")
    with pytest.raises(ConfigError) as error:
        load(str(path), registry)
    text = str(error.value)
    assert "limits.memory_gb: unknown key" in text
    assert "limits.processes" in text


FILES = """
name = "files"
results = "out/files"
bots = ["random", {{ name = "reader", bot = "cmd:python reader.py", files = {files} }}]
[[games]]
id = "farm-and-furious"
players = [2]
"""


def test_files_are_paths_a_bot_may_read_and_reach_its_launch_spec(
    write_tournament, tmp_path, monkeypatch, registry
):
    from arena.tournament.plan import plan
    from arena.tournament.runner import jobs_for, tournament_seats

    monkeypatch.chdir(tmp_path)
    (tmp_path / "reader.py").write_text("")
    (tmp_path / "model").mkdir()
    tournament = load(str(write_tournament(FILES.format(files='["model"]'))), registry)
    assert tournament.files == {"random": (), "reader": (str(tmp_path / "model"),)}
    seats = tournament_seats(tournament, registry)
    specs = {
        e.name: e.spec for job in jobs_for(seats, plan(tournament), set()) for e in job.entrants
    }
    assert specs["reader"].files == (str(tmp_path / "model"),) and specs["random"].files == ()


def test_bad_files_are_one_line_each(write_tournament, tmp_path, monkeypatch, registry):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reader.py").write_text("")
    (tmp_path / "out" / "files").mkdir(parents=True)
    with pytest.raises(ConfigError) as error:
        load(str(write_tournament(FILES.format(files='["nowhere", 3, "out"]'))), registry)
    assert str(error.value).splitlines() == [
        f"{tmp_path / 't.toml'}: bots[1].files[0]: 'nowhere': no such file or folder",
        f"{tmp_path / 't.toml'}: bots[1].files[1]: expected a file or folder path, got 3",
        f"{tmp_path / 't.toml'}: bots[1].files[2]: 'out' would show the bot the results folder "
        "'out/files' (and its secret key)",
    ]
    with pytest.raises(ConfigError, match=r"bots\[1\]\.files: expected a list"):
        load(str(write_tournament(FILES.format(files='"model"'))), registry)


def test_a_lone_bot_at_tables_of_several_seats_is_one_clear_error(write_tournament, registry):
    """One bot in a game of several seats would only play itself (rated
    against nobody): an error naming the game, unless repeats = true asks
    for self-play; a solitaire table size is not self-play."""
    path = write_tournament(name="x", bots=["dou-dizhu-greedy"], games=["dou-dizhu"])
    with pytest.raises(ConfigError) as caught:
        load(path, registry)
    [error] = caught.value.errors
    assert error.endswith(
        "games[0]: only one bot ('dou-dizhu-greedy') plays 'dou-dizhu': a table of 3 needs "
        "at least two (or repeats = true to play it against itself)"
    )
    alone = write_tournament(
        'name = "x"\nbots = ["dou-dizhu-greedy"]\n[[games]]\nid = "dou-dizhu"\nrepeats = true\n'
    )
    assert load(alone, registry).games[0].repeats is True
    solitaire = write_tournament(name="x", bots=["random"], games=["farm-hand"])
    assert 1 in load(solitaire, registry).games[0].players
