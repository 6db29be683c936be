"""The web viewer through Flask's test client, on a real tournament's results."""

import json
import re

import pytest

from arena.frames import frames
from arena.plugins import installed
from arena.store import Store
from arena.web import create_app


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
    for game in {g.game for g in stored}:
        assert f'id="pool-{game}"' in page
    assert client.get("/api/count").get_json() == {"games": len(stored)}
    board = client.get("/api/leaderboard").get_json()
    assert board["overall"]["games"] == len(stored)
    assert all(len(line["interval"]) == 2 for line in board["overall"]["bots"])
    assert "2" in board["farm-and-furious"]["head_to_head"]


def test_bot_page_lists_its_games_and_fault_details(client, stored):
    page = client.get("/bot/cheater").get_data(as_text=True)
    mine = [g for g in stored if "cheater" in g.bots]
    assert len(re.findall(r'<tr><td><a href="/game/\d+\?view=\d+">', page)) == \
        len(mine) + sum(1 for g in mine for b, f in zip(g.bots, g.faults) if b == "cheater" and f)
    assert "illegal" in page and "not one of the" in page       # the fault's detail
    assert "against" in page and "random" in page                # head-to-head
    assert client.get("/bot/nobody").status_code == 404


def test_replay_of_a_seat_holds_only_what_that_seat_was_shown(client, stored, viewer_results):
    game = next(g for g in stored if g.game == "hand-and-foot")
    with Store(viewer_results, create=False) as store:
        _, _, record = store.record(game.id)
    every = frames(installed().engine(record.game), record)
    kept_off = set()
    for seat in range(record.players):
        page = client.get(f"/game/{game.id}?view={seat}").get_data(as_text=True)
        sections = re.findall(r'<section class="frame" data-frame="(\d+)".*?</section>', page,
                              re.S)
        assert len(sections) == len(record.steps) + 1
        blocks = re.split(r'<section class="frame" data-frame="\d+"', page)[1:]
        others = [s for s in range(record.players) if s != seat]
        hidden_somewhere = 0
        for block, frame in zip(blocks, every):
            assert f'data-seat="{seat}"' in block
            assert not any(f'data-seat="{o}"' in block for o in others)
            shown = set(re.findall(r'data-card="([^"]+)"', block))
            visible = json.dumps(frame.views[seat])
            assert all(f'"{card}"' in visible for card in shown)
            # the other seats' hands (the table view has them) stay off this page
            hidden = {c for o in others for key, node in frame.views[o]["items"]
                      if key == "hand" for c in node.get("cards", []) if f'"{c}"' not in visible}
            hidden_somewhere += bool(hidden)
            kept_off |= hidden
            assert not hidden & shown
        assert hidden_somewhere, "the other hands should hold cards this seat does not see"
    table = client.get(f"/game/{game.id}?view=table").get_data(as_text=True)
    assert all(f'data-seat="{s}"' in table for s in range(record.players))
    # control: the whole table's view does show the cards kept off the seats' pages
    assert all(f'data-card="{c}"' in table for c in kept_off)
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
    process = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(viewer_results),
                                "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"on (http://127\.0\.0\.1:\d+/)", line)
        assert match, line
        with urllib.request.urlopen(match[1] + "api/count", timeout=10) as reply:
            assert json.load(reply)["games"] > 0
    finally:
        process.terminate()
        process.wait(10)
