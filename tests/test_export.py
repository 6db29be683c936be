"""``arena export`` (JSON lines that re-run every game) and ``arena replay --html``."""

import json
import re

from typer.testing import CliRunner

from arena.cli import app
from arena.plugins import installed
from arena.results.export import rerun
from arena.results.store import Store


def test_export_lines_rerun_every_game(viewer_results, tmp_path):
    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(app, ["export", str(viewer_results), "--output", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    with Store(viewer_results, create=False) as store:
        stored = list(store.games())
    assert len(lines) == len(stored)
    registry = installed()
    for line, game in zip(lines, stored):
        data = json.loads(line)
        assert data["schema"] == 1 and data["id"] == game.id and data["key"] == game.key
        assert {
            "game",
            "version",
            "options",
            "seed",
            "players",
            "seats",
            "dummies",
            "steps",
        } <= set(data)
        state = rerun(line, registry)
        assert state.is_over()
        assert [float(x) for x in state.outcome().scores] == [
            float(s.score) for s in game.record.seats
        ]
    printed = CliRunner().invoke(app, ["export", str(viewer_results)])
    assert printed.output.splitlines() == lines
    missing = CliRunner().invoke(app, ["export", str(tmp_path / "nothing")])
    assert missing.exit_code == 2 and "no results store" in missing.output


def test_offline_replay_page_is_self_contained(viewer_results, tmp_path):
    with Store(viewer_results, create=False) as store:
        game = next(g for g in store.records() if g.record.game == "dou-dizhu")
    page_file = tmp_path / "replay.html"
    result = CliRunner().invoke(
        app, ["replay", str(viewer_results), str(game.id), "--html", str(page_file)]
    )
    assert result.exit_code == 0, result.output
    page = page_file.read_text()
    assert not re.search(r"(src|href)=", page) and "http" not in page
    views = set(re.findall(r'<button type="button" data-view="([^"]+)"', page))
    assert views == {"0", "1", "2", "table"}
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.S)[1])
    assert len(data["frames"]) == len(game.record.steps) + 1
    assert all(set(frame["views"]) == {"0", "1", "2"} for frame in data["frames"])
    assert data["cards"]
    bad = CliRunner().invoke(
        app, ["replay", str(viewer_results), "999999", "--html", str(page_file)]
    )
    assert bad.exit_code == 2 and "no game '999999'" in bad.output
