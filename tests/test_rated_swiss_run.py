"""Rated and Swiss tournaments end to end through the runner and the CLI
(in-process matches, a short Farm & Furious)."""

from typer.testing import CliRunner

import arena.cli.tournament  # noqa: F401  (registers the commands)
from arena.cli import app
from arena.results.store import Store

GAMES = """
[[games]]
id = "farm-and-furious"
players = [2, 3]
options = { track_length = 6 }
"""


def test_rated_run_says_what_is_out_of_reach_and_rates_each_group(write_tournament, tmp_path):
    path = write_tournament(
        f"""
name = "rated"
seed = 3
format = "rated"
workers = 0
results = "{tmp_path / "out"}"
bots = ["random", "farm-and-furious-racer", {{ name = "random-2", bot = "random" }}]
[rated]
sigma = 0.2
budget = 12
batch = 1
"""
        + GAMES
    )
    result = CliRunner().invoke(app, ["tournament", str(path), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "farm-and-furious/2p: sigma 0.2 is out of reach" in result.output
    assert "farm-and-furious/3p: sigma 0.2 is out of reach" in result.output
    with Store(tmp_path / "out", create=False) as store:
        per_group = {}
        for game in store.games():
            players = game.record.players
            per_group[players] = per_group.get(players, 0) + 1
    assert per_group == {2: 12, 3: 12}  # each group played its own budget


def test_swiss_run_prints_the_standings_with_tie_breaks(write_tournament, tmp_path):
    path = write_tournament(
        f"""
name = "swiss"
seed = 5
format = "swiss"
workers = 0
results = "{tmp_path / "out"}"
bots = ["random", "farm-and-furious-racer", {{ name = "random-2", bot = "random" }},
        {{ name = "racer-2", bot = "farm-and-furious-racer" }}, {{ name = "random-3", bot = "random" }}]
[swiss]
rounds = 2
"""
        + GAMES
    )
    result = CliRunner().invoke(app, ["tournament", str(path), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "swiss farm-and-furious/2p" in result.output
    assert "swiss farm-and-furious/3p" in result.output
    assert "Buchholz" in result.output and "Sonneborn-Berger" in result.output
    table = result.output.split("swiss farm-and-furious/2p")[1].split("swiss")[0]
    byes = [
        int(line.split("│")[-2])
        for line in table.splitlines()
        if line.startswith("│") and line.split("│")[1].strip().isdigit()
    ]
    assert sorted(byes) == [0, 0, 0, 1, 1]  # 5 bots at 2 seats: two byes, to two bots
