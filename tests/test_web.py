"""The web viewer through Flask's test client, on a real tournament's results."""

import json
import re

import pytest

from arena.plugins import installed
from arena.presentation.frames import replay
from arena.presentation.web import create_app
from arena.results.store import Store


@pytest.fixture(scope="module")
def client(viewer_results):
    return create_app(viewer_results).test_client()


@pytest.fixture(scope="module")
def stored(viewer_results):
    with Store(viewer_results, create=False) as store:
        return list(store.games())


def test_leaderboard_page_and_its_data(client, stored):
    page = client.get("/").get_data(as_text=True)
    assert page.startswith("<!DOCTYPE html>")
    assert 'href="/bot/random"' in page and "/api/count" in page
    for game in {g.record.game for g in stored}:
        assert f'id="pool-{game}"' in page
    assert client.get("/api/count").get_json() == {"games": len(stored)}
    board = client.get("/api/leaderboard").get_json()
    assert board["overall"]["games"] == len(stored)
    assert all(len(line["interval"]) == 2 for line in board["overall"]["bots"])
    assert "2" in board["farm-and-furious"]["head_to_head"]


def test_bot_page_lists_its_games_and_fault_details(client, stored):
    page = client.get("/bot/cheater").get_data(as_text=True)
    mine = [g.record for g in stored if "cheater" in [s.bot for s in g.record.seats]]
    assert len(
        re.findall(r'<tr><td data-label="game"><a href="/game/\d+\?view=\d+">', page)
    ) == len(mine) + sum(1 for r in mine for s in r.seats if s.bot == "cheater" and s.fault)
    assert "illegal" in page and "not one of the" in page  # the fault's detail
    assert "against" in page and "random" in page  # head-to-head
    assert client.get("/bot/nobody").status_code == 404


def embedded(page: str) -> dict:
    return json.loads(
        re.search(
            r'<script type="application/json" id="replay-data">(.*?)'
            r"</script>",
            page,
            re.S,
        )[1]
    )


def rebuilt(data: dict) -> list[dict]:
    """The observations the page's script rebuilds, frame by frame."""
    current: dict = {}
    frames = []
    for frame in data["frames"]:
        for seat, change in frame["views"].items():
            view = {**current.get(seat, {}), **change["set"]}
            for key in change.get("-", []):
                view.pop(key, None)
            current[seat] = view
        frames.append({seat: current[seat] for seat in frame["views"]})
    return frames


def test_replay_of_a_seat_holds_exactly_what_that_seat_was_shown(client, stored, viewer_results):
    game = next(g for g in stored if g.record.game == "hand-and-foot")
    with Store(viewer_results, create=False) as store:
        record = store.record(game.id).record
    truth = replay(installed().engine(record.game), record)
    for seat in range(record.players):
        data = embedded(client.get(f"/game/{game.id}?view={seat}").get_data(as_text=True))
        assert len(data["frames"]) == len(record.steps) + 1
        views = rebuilt(data)
        for frame, shown, packed in zip(truth.frames, views, data["frames"]):
            assert shown == {str(seat): frame.views[seat]}  # that seat's, exactly
            assert all(s == seat for s, _ in packed["acted"])
            assert set(packed["legal"]) <= {str(seat)}
        # the other hands were in the game but are not on this page
        other = 1 - seat
        hidden = [
            c
            for frame in truth.frames
            for c in frame.views[other]["hand"]
            if c not in json.dumps(frame.views[seat])
        ]
        assert hidden
    table = embedded(client.get(f"/game/{game.id}?view=table").get_data(as_text=True))
    assert rebuilt(table)[5] == {str(s): v for s, v in truth.frames[5].views.items()}
    assert client.get(f"/game/{game.id}?view=7").status_code == 400
    assert client.get("/game/99999").status_code == 404


def test_only_reads(client):
    assert client.post("/").status_code == 405
    assert client.delete("/game/1").status_code == 405


def test_arena_serve_listens_on_loopback_and_serves(viewer_results, tmp_path):
    import subprocess
    import sys
    import urllib.request

    from typer.testing import CliRunner

    from arena.cli import app

    missing = CliRunner().invoke(app, ["serve", str(tmp_path / "none")])
    assert missing.exit_code == 2 and "no results store" in missing.output
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", str(viewer_results), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"on (http://127\.0\.0\.1:\d+/)", line)
        assert match, line
        with urllib.request.urlopen(match[1] + "api/count", timeout=10) as reply:
            assert json.load(reply)["games"] > 0
    finally:
        process.terminate()
        process.wait(10)


def test_arena_serve_on_a_port_in_use_is_one_line(viewer_results):
    """Issue 30, finding 5: a busy port was two lines of the web server's
    text; it is the arena's one line, with the address."""
    import socket
    import subprocess
    import sys

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "arena", "serve", str(viewer_results), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        f"arena: error: cannot listen on 127.0.0.1:{port}: Address already in use"
    ], done.stderr


def test_a_replay_stays_closed_while_its_deal_has_seatings_left(viewer_results, tmp_path):
    """The control: a game whose deal's every seating is stored opens; with
    one of its sibling seatings not stored yet (as in a running tournament)
    the same game's page is refused in every view, and the deal's last game
    stored opens it again."""
    import shutil
    import sqlite3

    folder = tmp_path / "results"
    shutil.copytree(viewer_results, folder)
    with Store(folder, create=False) as store:
        games = list(store.games())
    by_deal: dict = {}
    for game in games:
        by_deal.setdefault(game.record.deal, []).append(game)
    seen, sibling = next(pair for pair in by_deal.values() if len(pair) >= 2)[:2]
    client = create_app(folder).test_client()
    assert client.get(f"/game/{seen.id}?view=table").status_code == 200
    database = sqlite3.connect(folder / "results.sqlite")
    with database:
        row = database.execute("SELECT * FROM games WHERE id = ?", (sibling.id,)).fetchone()
        database.execute("DELETE FROM games WHERE id = ?", (sibling.id,))
    for view in ("table", "0", "1"):
        page = client.get(f"/game/{seen.id}?view={view}")
        assert page.status_code == 403 and b"1 more game(s) to play" in page.data, view
    with database:
        database.execute(f"INSERT INTO games VALUES ({', '.join('?' * len(row))})", row)
    database.close()
    assert client.get(f"/game/{seen.id}?view=0").status_code == 200
