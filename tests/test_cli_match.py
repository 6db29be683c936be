"""``arena match``, ``arena games`` and ``arena bots`` as a user runs them."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from arena.cli import app

runner = CliRunner()


def arena(*args):
    return runner.invoke(app, list(args))


def test_match_json_is_deterministic_for_a_seed():
    args = [
        "match",
        "farm-and-furious",
        "--bot",
        "random",
        "--bot",
        "farm-and-furious-racer",
        "--seed",
        "11",
        "--games",
        "3",
        "--json",
    ]
    first, second = arena(*args), arena(*args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    doc = json.loads(first.stdout)
    assert doc["game"] == "farm-and-furious" and doc["seed"] == 11
    assert len(doc["games"]) == 3
    for game in doc["games"]:
        assert [s["bot"] for s in game["seats"]] == ["random", "farm-and-furious-racer"]
        assert sorted(s["rank"] for s in game["seats"])[0] == 1
        assert all(s["fault"] is None for s in game["seats"])


def test_match_reports_a_fault_in_json(broken_bot):
    result = arena(
        "match",
        "farm-and-furious",
        "-b",
        "random",
        "-b",
        broken_bot("illegal"),
        "--seed",
        "1",
        "--json",
    )
    assert result.exit_code == 0
    seats = json.loads(result.stdout)["games"][0]["seats"]
    assert [s["fault"] for s in seats] == [None, "illegal"]
    assert [s["rank"] for s in seats] == [1, 2]


def test_match_options_reach_the_engine():
    result = arena(
        "match",
        "farm-and-furious",
        "-b",
        "random",
        "-b",
        "random",
        "--seed",
        "2",
        "--option",
        "track_length=3",
        "--json",
    )
    doc = json.loads(result.stdout)
    assert doc["options"]["track_length"] == 3
    assert max(s["score"] for s in doc["games"][0]["seats"]) >= 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["match", "chess", "-b", "random", "-b", "random"], "unknown game 'chess'"),
        (["match", "farm-and-furious", "-b", "random", "-b", "nobody"], "unknown bot 'nobody'"),
        (["match", "farm-and-furious", "-b", "random"], "for 2, 3, 4, 5 players, not 1"),
        (
            ["match", "farm-and-furious", "-b", "random", "-b", "random", "-o", "laps=3"],
            "has no option 'laps'",
        ),
        (
            ["match", "farm-and-furious", "-b", "random", "-b", "random", "-o", "rooster"],
            "expected KEY=VALUE",
        ),
        (
            ["match", "farm-and-furious", "-b", "random", "-b", "random", "--move", "0"],
            "must be positive",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena: error: ") and message in lines[0]


def test_games_and_bots_list_what_is_installed():
    games = arena("games")
    assert games.exit_code == 0
    assert "farm-and-furious" in games.output and "2,3,4,5" in games.output
    assert "track_length=20" in games.output
    bots = arena("bots")
    assert "random" in bots.output and "any" in bots.output
    assert "farm-and-furious-racer" in bots.output
    # rich tables: a rule under the header, one line per row when redirected
    assert games.output.splitlines()[1].startswith("─" * 20)
    [row] = [line for line in games.output.splitlines() if line.startswith("hand-and-foot")]
    assert row.split()[-1] == "hand-and-foot" and "teams=0" in row


def test_games_and_bots_as_json_for_scripts():
    games = json.loads(arena("games", "--json").output)
    fnf = next(g for g in games if g["id"] == "farm-and-furious")
    assert fnf["players"] == [2, 3, 4, 5] and fnf["simultaneous"] is True
    assert {
        "name": "track_length",
        "default": 20,
        "help": "position of the finish line",
        "choices": None,
        "minimum": 1,
        "maximum": None,
    } in fnf["options"]
    assert next(g for g in games if g["id"] == "farm-hand")["dummies"] == ["mac", "donald"]
    bots = {b["name"]: b for b in json.loads(arena("bots", "--json").output)}
    assert bots["random"]["games"] == ["*"] and bots["random"]["plugin"] == "builtin-bots"
    assert bots["farm-hand-counter"]["entry"] == "bots.farm_hand:CounterBot"
    assert [g["id"] for g in games] == sorted(g["id"] for g in games)


def test_text_output_names_the_key_that_replays_it():
    first = arena("match", "farm-and-furious", "-b", "random", "-b", "random")
    key = first.output.split("key ", 1)[1].split(" ", 1)[0]
    again = arena("match", "farm-and-furious", "-b", "random", "-b", "random", "--key", key)
    assert first.exit_code == again.exit_code == 0
    assert first.output == again.output
