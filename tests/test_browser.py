"""The web viewer in a real browser: Debian's headless Chromium via Playwright.

Opens the served leaderboard (desktop and phone width), watches it follow a
game stored while it is open, steps through a replay through one seat's eyes
and the whole table's, and saves screenshots under tests/screenshots/ (not
committed) for a person to look at.
"""

import json
import shutil
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright
from werkzeug.serving import make_server

from arena.plugins import installed
from arena.presentation.frames import replay
from arena.presentation.web import create_app
from arena.results.store import Store
from arena.tournament.plan import MatchItem, PlannedDeal

SHOTS = Path(__file__).parent / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SHOWN = "#frame"  # the frame on screen


@pytest.fixture(scope="module")
def served(viewer_results, tmp_path_factory):
    """A copy of the results served on a free loopback port."""
    folder = tmp_path_factory.mktemp("served") / "results"
    shutil.copytree(viewer_results, folder)
    server = make_server("127.0.0.1", 0, create_app(folder, refresh_ms=300), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield folder, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def visible_cards(page) -> list[str]:
    return page.eval_on_selector_all(
        ".card", "cards => cards.filter(c => c.offsetParent !== null).map(c => c.dataset.card)"
    )


def test_leaderboard_at_desktop_and_phone_width_follows_new_games(served, browser):
    folder, url = served
    with Store(folder, create=False) as store:
        count = store.count()
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = browser.new_page(viewport=viewport)
        page.goto(url + "/")
        expect(page.locator("h1")).to_contain_text("viewer — leaderboard")
        overall = page.locator("#pool-overall table").first
        expect(overall).to_be_visible()
        assert overall.locator("tr").count() == 1 + 6  # heading and the six bots
        expect(page.locator("#pool-overall")).to_contain_text(f"{count} games")
        expect(page.locator("#pool-farm-hand")).to_contain_text("(dummy)")
        # nothing wider than the screen: wide tables scroll inside their box
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        chart = page.locator("#pool-farm-and-furious svg").first  # a game's rating chart
        assert chart.bounding_box()["width"] <= viewport["width"]
        page.screenshot(path=str(SHOTS / f"leaderboard-{name}.png"), full_page=True)
        page.close()
    page = browser.new_page(viewport=DESKTOP)
    page.goto(url + "/")
    with Store(folder) as store:  # a game arrives while the page is open
        record = store.record(1).record
        item = MatchItem(
            id="late",
            order=10**6,
            game=record.game,
            label=record.game,
            players=record.players,
            options=record.options,
            lineup=tuple(s.bot for s in record.seats),
            deals=(PlannedDeal(record.seed, tuple(range(record.players))),),
        )
        store.add_game(item, 0, record, "viewer")
    expect(page.locator("#pool-overall h2")).to_contain_text(f"{count + 1} games", timeout=10_000)
    page.close()


def test_static_leaderboard_file_fits_a_phone(viewer_results, browser):
    page = browser.new_page(viewport=PHONE)
    page.goto((viewer_results / "leaderboard.html").as_uri())
    expect(page.locator("#pool-overall table").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("document.scripts.length") == 0
    page.screenshot(path=str(SHOTS / "leaderboard-static-phone.png"), full_page=False)
    page.close()


def test_replay_steps_and_shows_one_seat_only_what_it_was_shown(served, browser):
    folder, url = served
    with Store(folder, create=False) as store:
        game = next(g for g in store.games() if g.record.game == "hand-and-foot")
        record = store.record(game.id).record
    every = replay(installed().engine(record.game), record).frames
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{url}/game/{game.id}?view=0")
    expect(page.locator("#position")).to_have_text(f"move 0 / {len(record.steps)}")
    for _ in range(4):
        page.click("#forward")
    page.click("#back")
    expect(page.locator("#position")).to_have_text(f"move 3 / {len(record.steps)}")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#position")).to_have_text(f"move 4 / {len(record.steps)}")
    assert page.locator(SHOWN).get_attribute("data-frame") == "4"
    seat_views = page.locator(f"{SHOWN} .seatview")
    assert seat_views.count() == 1 and seat_views.get_attribute("data-seat") == "0"
    cards = visible_cards(page)
    mine = json.dumps(every[4].views[0])
    assert cards and all(f'"{c}"' in mine for c in cards)
    secret = {c for c in every[4].views[1]["hand"] if f'"{c}"' not in mine}
    assert secret and not secret & set(cards)
    expect(page.locator(f"{SHOWN} .card").first).to_be_visible()
    page.screenshot(path=str(SHOTS / "replay-seat-desktop.png"), full_page=False)
    # the whole table, at the same move: both hands, the other seat's secret cards too
    page.click("nav.views a[data-view='table']")
    expect(page.locator("#position")).to_have_text(f"move 4 / {len(record.steps)}")
    assert page.locator(f"{SHOWN} .seatview").count() == record.players
    assert secret <= set(visible_cards(page))
    page.screenshot(path=str(SHOTS / "replay-table-desktop.png"), full_page=False)
    page.click("#end")
    expect(page.locator("#position")).to_have_text(
        f"move {len(record.steps)} / {len(record.steps)}"
    )
    page.close()
    phone = browser.new_page(viewport=PHONE)
    phone.goto(f"{url}/game/{game.id}?view=1#move=6")
    expect(phone.locator("#position")).to_have_text(f"move 6 / {len(record.steps)}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(SHOTS / "replay-seat-phone.png"), full_page=False)
    phone.close()


def test_offline_replay_file_switches_views_in_place(served, browser, tmp_path):
    folder, _ = served
    with Store(folder, create=False) as store:
        game = next(g for g in store.games() if g.record.game == "dou-dizhu")
        whole = store.record(game.id)
        key, record = whole.key, whole.record
    from arena.presentation.pages import replay_page

    path = tmp_path / "replay.html"
    path.write_text(replay_page(record, installed().engine(record.game), title=key))
    page = browser.new_page(viewport=DESKTOP)
    page.goto(path.as_uri())
    assert page.locator(f"{SHOWN} .seatview").count() == 3
    page.click("nav.views button[data-view='2']")
    page.click("#forward")
    views = page.locator(f"{SHOWN} .seatview")
    assert views.count() == 1 and views.get_attribute("data-seat") == "2"
    expect(page.locator("#position")).to_have_text(f"move 1 / {len(record.steps)}")
    page.close()
