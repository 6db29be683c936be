"""``[stop]`` in a tournament file: a real tournament that ends early."""

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.results.store import Store
from arena.tournament import ConfigError, load, run
from arena.tournament.plan import plan

FILE = """
name = "stops"
seed = 5
deals = 60
match_deals = 2
workers = {workers}
sandbox = "none"
least_sandbox = "none"
bots = ["random", "farm-and-furious-racer"]
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 20 }}
[stop]
{stop}
"""


def tournament(write_tournament, stop, workers=0):
    return write_tournament(FILE.format(stop=stop, workers=workers), filename="stops.toml")


def test_confidence_ends_a_tournament_once_the_ranking_is_separated(
    write_tournament, tmp_path, registry
):
    path = tournament(write_tournament, "confidence = 0.95", workers=2)
    config = load(path, registry, results=str(tmp_path / "r"))
    planned = sum(len(item.deals) for item in plan(config))
    summary = run(config, registry, progress=False)
    assert summary.stopped and "confidence 0.95" in summary.stopped
    assert not summary.interrupted and not summary.errors
    assert 0 < summary.stored < planned
    with Store(tmp_path / "r", create=False) as store:
        assert store.meta()["stopped"] == summary.stopped
    page = (tmp_path / "r" / "leaderboard.html").read_text()
    assert 'id="stopped"' in page and "confidence 0.95" in page
    # running it again stops at once: the stored games already separate them
    again = run(load(path, registry, results=str(tmp_path / "r")), registry, progress=False)
    assert again.played == 0 and again.stopped


def test_a_game_budget_ends_it_and_the_cli_says_why(write_tournament, tmp_path):
    path = tournament(write_tournament, "budget = 7")
    result = CliRunner().invoke(
        app, ["tournament", str(path), "--results", str(tmp_path / "b"), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    assert "stopped: game budget spent (7 of 7 games)" in result.output
    with Store(tmp_path / "b", create=False) as store:
        assert store.count() == 7


def test_equal_bots_are_not_separated(write_tournament, tmp_path, registry):
    """The same 60 deals that separate random from the racer within a few
    dozen games do not separate random from itself."""
    text = FILE.format(stop="confidence = 0.95", workers=0)
    path = write_tournament(
        text.replace('"farm-and-furious-racer"', '{ name = "twin", bot = "random" }'),
        filename="equal.toml",
    )
    config = load(path, registry, results=str(tmp_path / "e"))
    summary = run(config, registry, progress=False)
    assert summary.stopped is None
    assert summary.stored == sum(len(item.deals) for item in plan(config))


@pytest.mark.parametrize(
    "stop, message",
    [
        ("confidence = 1.5", "stop.confidence: must be between 0 and 1"),
        ('confidence = "high"', "stop.confidence: expected a number"),
        ("budget = 0", "stop.budget: must be at least 1"),
        ("when = 3", "stop.when: unknown key"),
    ],
)
def test_bad_stop_tables(write_tournament, registry, stop, message):
    with pytest.raises(ConfigError) as error:
        load(tournament(write_tournament, stop), registry)
    assert any(message in line for line in error.value.errors), error.value.errors
