"""A tournament whose output is not a terminal prints plain progress lines on
stderr (a rich bar would print nothing useful into a log)."""

import re

import pytest
from typer.testing import CliRunner

import arena.cli.tournament  # noqa: F401  (registers the command)
from arena.cli import app
from arena.tournament import runner

SMALL = """
name = "small"
seed = 3
workers = 0
deals = 2
bots = ["random", "farm-and-furious-racer"]
[[games]]
id = "farm-and-furious"
players = [2]
options = { track_length = 5 }
"""
LINE = re.compile(r"tournament: (\d+)/(\d+) games, \d+\.\d\d/s, ETA (-|\d\d:\d\d:\d\d), faults 0$")


@pytest.fixture
def small(write_tournament):
    return write_tournament(SMALL, filename="small.toml")


def progress_lines(stderr):
    return [
        LINE.match(line).groups() for line in stderr.splitlines() if line.startswith("tournament:")
    ]


def test_redirected_output_gets_a_plain_line_every_few_seconds(small, tmp_path, monkeypatch):
    monkeypatch.setattr(runner._Progress, "PLAIN_EVERY", 0.0)  # a line per game
    result = CliRunner().invoke(app, ["tournament", str(small), "--results", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    lines = progress_lines(result.stderr)
    assert [done for done, _, _ in lines] == ["0", "1", "2", "3", "4", "4"]  # and at the end
    assert {total for _, total, _ in lines} == {"4"}
    assert "tournament:" not in result.stdout  # progress stays off the results


def test_lines_are_spaced_and_quiet_means_none(small, tmp_path, monkeypatch):
    monkeypatch.setattr(runner._Progress, "PLAIN_EVERY", 3600.0)
    spaced = CliRunner().invoke(app, ["tournament", str(small), "--results", str(tmp_path / "b")])
    assert [done for done, _, _ in progress_lines(spaced.stderr)] == ["4"]  # only the last
    quiet = CliRunner().invoke(
        app, ["tournament", str(small), "--results", str(tmp_path / "c"), "--quiet"]
    )
    assert quiet.exit_code == 0 and progress_lines(quiet.stderr) == []
