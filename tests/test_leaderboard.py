"""The leaderboard in every format, from a small hand-made store."""

import csv
import io
import json
import re

import pytest
from typer.testing import CliRunner

import arena.cli.tournament  # noqa: F401  (registers the commands)
from arena.cli import app
from arena.game import DummyResult
from arena.presentation.leaderboard import (
    COLUMNS,
    PAIR_COLUMNS,
    chart,
    from_store,
    ratings,
    render,
    write_html,
)
from arena.records import GameRecord, SeatRecord
from arena.results.store import Store
from arena.tournament.plan import MatchItem, PlannedDeal


def fill(folder):
    store = Store(folder)
    store.claim("demo", "f")
    item = MatchItem(
        id="x",
        order=0,
        game="farm-hand",
        label="farm-hand",
        players=2,
        options={},
        lineup=("alpha", "beta"),
        deals=tuple(PlannedDeal(k, (0, 1)) for k in range(12)),
    )
    for k in range(12):
        alpha_wins = k % 4 != 0
        seats = [
            SeatRecord("alpha", 9.0 if alpha_wins else 2.0, 1 if alpha_wins else 2, 0),
            SeatRecord(
                "beta",
                2.0 if alpha_wins else 9.0,
                2 if alpha_wins else 1,
                1,
                fault="timeout" if k == 5 else None,
            ),
        ]
        store.add_game(
            item,
            k,
            GameRecord("farm-hand", "1", {}, k, 2, seats, dummies=[DummyResult("mac", 5.0, 2)]),
        )
    other = MatchItem(
        id="y",
        order=1,
        game="dou-dizhu",
        label="dou-dizhu",
        players=2,
        options={},
        lineup=("alpha", "beta"),
        deals=(PlannedDeal(1, (0, 1)),),
    )
    store.add_game(
        other,
        0,
        GameRecord(
            "dou-dizhu",
            "1",
            {},
            1,
            2,
            [SeatRecord("alpha", 1.0, 2, 0), SeatRecord("beta", 3.0, 1, 1)],
        ),
    )
    return store


@pytest.fixture
def store(tmp_path):
    s = fill(tmp_path)
    yield s
    s.close()


def test_table(store):
    text = render(from_store(store), "table")
    assert text.index("overall (13 games)") < text.index("dou-dizhu") < text.index("farm-hand (12")
    row = next(line for line in text.splitlines() if "alpha" in line)
    assert row.split()[1] == "1"  # rank 1 on the first (overall) board
    assert "dummy:mac (dummy)" in text and "timeout 1" in text
    only = render(from_store(store), "table", game="farm-hand")
    assert "overall" not in only and "farm-hand, 2 players: head-to-head" in only


def test_json_keys(store):
    data = json.loads(render(from_store(store), "json"))
    assert list(data) == ["tournament", "overall", "dou-dizhu", "farm-hand"]
    alpha = data["farm-hand"]["bots"][0]
    assert alpha["bot"] == "alpha" and alpha["games"] == 12 and alpha["wins"] == 9
    low, high = alpha["interval"]
    assert low == pytest.approx(alpha["mu"] - 2 * alpha["sigma"], abs=1e-2)
    assert high == pytest.approx(alpha["mu"] + 2 * alpha["sigma"], abs=1e-2)
    beta = next(r for r in data["farm-hand"]["bots"] if r["bot"] == "beta")
    assert beta["faults_timeout"] == 1
    assert beta["mean_score"] == pytest.approx((9 * 2 + 3 * 9) / 12, abs=1e-3)
    assert beta["score_interval"][0] < beta["mean_score"] < beta["score_interval"][1]
    mac = next(r for r in data["farm-hand"]["bots"] if r["bot"] == "dummy:mac")
    assert mac["dummy"] is True
    # the overall ranking: no dummies, no mean score mixed across games
    assert [r["bot"] for r in data["overall"]["bots"]] == ["alpha", "beta"]
    assert "mean_score" not in data["overall"]["bots"][0]
    meeting = data["farm-hand"]["head_to_head"]["2"]["alpha"]["beta"]
    assert (meeting["games"], meeting["above"], meeting["below"]) == (12, 9, 3)
    assert meeting["score_diff"] == pytest.approx((9 * 7 - 3 * 7) / 12, abs=1e-3)
    assert len(meeting["interval"]) == 2
    assert data["farm-hand"]["players"]["2"]["games"] == 12


def test_csv(store):
    rows = list(csv.DictReader(io.StringIO(render(from_store(store), "csv"))))
    assert {r["pool"] for r in rows} == {"overall", "dou-dizhu", "farm-hand"}
    assert list(rows[0]) == ["pool", "players", *COLUMNS, *PAIR_COLUMNS]
    bots = [r for r in rows if not r["against"]]
    assert [r["rank"] for r in bots if r["pool"] == "farm-hand" and not r["players"]] == [
        "1",
        "2",
        "3",
    ]
    assert {r["players"] for r in bots if r["pool"] == "farm-hand"} == {"", "2"}
    pair = next(
        r
        for r in rows
        if r["bot"] == "alpha" and r["against"] == "beta" and r["pool"] == "farm-hand"
    )
    assert (pair["pool"], pair["players"], pair["met"], pair["above"]) == (
        "farm-hand",
        "2",
        "12",
        "9",
    )
    assert float(pair["diff_low"]) <= float(pair["score_diff"]) <= float(pair["diff_high"])


def test_html_is_self_contained_with_a_chart(store, tmp_path):
    page = render(from_store(store, history=300), "html", title="demo")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    # a chart per game (the overall ranking is no rating pool: no chart)
    assert page.count("<svg") == 2 and "<polyline" in page
    assert "<script" not in page and not re.search(r"(src|href)=", page)
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert 'name="viewport"' in page and "overflow-x:auto" in page
    assert "alpha" in page and "dummy:mac" in page
    path = write_html(store, tmp_path / "board.html")
    assert path.read_text().count("<svg") == 2


def test_charts_follow_each_bot_over_its_own_games(tmp_path):
    store = Store(tmp_path)
    item = MatchItem(
        id="z",
        order=0,
        game="vegetables",
        label="vegetables",
        players=2,
        options={},
        lineup=("a", "b"),
        deals=tuple(PlannedDeal(k, (0, 1)) for k in range(10)),
    )
    for k in range(10):  # c plays only the first and the last game
        other = "c" if k in (0, 9) else "b"
        store.add_game(
            item,
            k,
            GameRecord(
                "vegetables",
                "1",
                {},
                k,
                2,
                [SeatRecord("a", 1.0, 1, 0), SeatRecord(other, 0.0, 2, 1)],
            ),
        )
    games = list(store.games())
    rated = ratings(games, history=300)["vegetables"]
    lines = chart(games, rated, ["a", "b", "c"])
    assert [n for n, _ in lines["a"]] == list(range(1, 11))
    assert [n for n, _ in lines["b"]] == list(range(1, 9))
    assert [n for n, _ in lines["c"]] == [1, 2]  # no line across games 2-9
    assert lines["c"][1][1] < lines["c"][0][1]
    store.close()


def test_cli_formats_and_errors(tmp_path, store):
    runner = CliRunner()
    for fmt in ("table", "json", "csv", "html"):
        result = runner.invoke(app, ["leaderboard", str(tmp_path), "--format", fmt])
        assert result.exit_code == 0, result.output
        assert "alpha" in result.output
    result = runner.invoke(
        app, ["leaderboard", str(tmp_path), "--game", "farm-hand", "--format", "csv"]
    )
    assert {line.split(",")[0] for line in result.output.splitlines()[1:]} == {"farm-hand"}
    result = runner.invoke(app, ["leaderboard", str(tmp_path), "--format", "xml"])
    assert result.exit_code == 2 and "xml" in result.output
    result = runner.invoke(app, ["leaderboard", str(tmp_path), "--game", "chess"])
    assert result.exit_code == 2 and "no games of 'chess'" in result.output
    result = runner.invoke(app, ["leaderboard", str(tmp_path / "none")])
    assert result.exit_code == 2 and "no results store" in result.output


def test_a_payoff_game_is_ranked_by_its_payoff_and_says_so(tmp_path):
    """Issue 31: in a game whose result is its payoff (Dou Dizhu's stakes),
    a bot that wins seldom but big ranks above one that wins often but small;
    the rating stays beside it, and ``ranked_by`` names the order."""
    from arena.presentation.leaderboard import PAYOFF_META, build
    from arena.results.store import StoredGame

    games = []
    for k in range(40):
        big = k % 4 == 0  # "rare" wins one game in four, by 9
        scores = [9.0, -9.0] if big else [-1.0, 1.0]
        ranks = [1, 2] if big else [2, 1]
        seats = [
            SeatRecord("rare", scores[0], ranks[0], 0),
            SeatRecord("often", scores[1], ranks[1], 1),
        ]
        record = GameRecord("stakes", "1", {}, k, 2, seats)
        games.append(StoredGame(record, k, f"{k}/0", "i", k, 0, "t", 0.0))
    by_payoff = build(games, payoff={"stakes"})["stakes"]
    by_rating = build(games)["stakes"]
    assert by_payoff["ranked_by"] == "payoff" and by_rating["ranked_by"] == "rating"
    assert [line["bot"] for line in by_payoff["bots"]] == ["rare", "often"]
    assert [line["bot"] for line in by_rating["bots"]] == ["often", "rare"]
    rare = by_payoff["bots"][0]
    assert rare["mean_score"] == rare["payoff"] == 1.5  # two bots: the payoff is the mean
    assert rare["payoff_interval"][0] < 1.5 < rare["payoff_interval"][1]
    assert rare["mu"] == by_rating["bots"][1]["mu"]  # the rating beside it
    assert "payoff" not in by_rating["bots"][0]
    assert "ranked by payoff" in render({"tournament": {}, "stakes": by_payoff}, game="stakes")
    # the runner names the payoff games in the store's meta; from_store reads it
    with fill(tmp_path) as store:
        store.set_meta(PAYOFF_META, "dou-dizhu")
        board = from_store(store)
    assert board["dou-dizhu"]["ranked_by"] == "payoff"
    assert [line["bot"] for line in board["dou-dizhu"]["bots"]] == ["beta", "alpha"]
    assert board["farm-hand"]["ranked_by"] == "rating"
