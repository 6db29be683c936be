"""The web viewer in a real browser: Debian's headless Chromium via Playwright.

Opens the served leaderboard (desktop and phone width), watches it follow a
game stored while it is open, steps through a replay through one seat's eyes
and the whole table's, draws one replay of every game as its table at both
widths, and saves screenshots under tests/screenshots/ (not committed) and
the test's tmp folder for a person to look at.
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


#: every element's right edge, at most: the page fits its viewport
WIDEST = "Math.max(...[...document.querySelectorAll('body *')].map(e => e.getBoundingClientRect().right))"

FIVE_GAMES = """
name = "five tables"
seed = 5
deals = 1
workers = 1
sandbox = "none"
bots = ["random", "farm-and-furious-racer", "dou-dizhu-greedy", "farm-hand-counter",
        "hand-and-foot-builder", "vegetables-planner"]

[[games]]
id = "farm-and-furious"
players = [3]
options = { track_length = 10 }

[[games]]
id = "dou-dizhu"
players = [3]

[[games]]
id = "farm-hand"
players = [3]

[[games]]
id = "hand-and-foot"
players = [4]
options = { target = 2000, max_rounds = 1 }

[[games]]
id = "vegetables"
players = [2]
"""


@pytest.fixture(scope="module")
def five_games(tmp_path_factory):
    """A results folder with games of all five built-in games."""
    from arena.tournament import load, run

    folder = tmp_path_factory.mktemp("five")
    (folder / "five.toml").write_text(FIVE_GAMES)
    tournament = load(folder / "five.toml", installed(), results=str(folder / "results"))
    summary = run(tournament, installed(), progress=False)
    assert summary.played and not summary.errors, summary.errors
    return folder / "results"


def fits(page, viewport) -> None:
    """Nothing on ``page`` reaches past the viewport's right edge."""
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert page.evaluate(WIDEST) <= viewport["width"] + 0.5


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


@pytest.mark.parametrize(
    "game", ["dou-dizhu", "hand-and-foot", "farm-hand", "vegetables", "farm-and-furious"]
)
def test_each_game_is_drawn_as_its_table_at_both_widths(five_games, browser, tmp_path, game):
    from arena.cli.viewer import write_replay

    with Store(five_games, create=False) as store:
        found = next(g for g in store.games() if g.record.game == game)
        whole = store.record(found.id)
    record = whole.record
    path = tmp_path / f"{game}.html"
    write_replay(record, whole.key, path)  # the page of arena replay --html
    middle = len(record.steps) // 2
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = browser.new_page(viewport=viewport)
        page.goto(f"{path.as_uri()}#move={middle}")
        drawn = page.locator(f"{SHOWN} .table-drawn")
        expect(drawn).to_be_visible()
        places = page.locator(f"{SHOWN} .table-drawn .place")
        assert places.count() >= record.players  # Farm Hand's dummies have places too
        for seat in range(record.players):
            expect(places.nth(seat)).to_be_visible()
        names = " ".join(places.all_inner_texts())
        assert all(s.bot in names for s in record.seats)
        expect(page.locator(f"{SHOWN} .place.turn").first).to_be_visible()
        fits(page, viewport)
        for folder in (tmp_path, SHOTS):
            page.screenshot(path=str(folder / f"table-{game}-{name}.png"), full_page=True)
        # one seat's eyes: its own hand face up, the others' face down
        page.click("nav.views button[data-view='0']")
        mine = page.locator(f"{SHOWN} .table-drawn .places.near .place")
        assert mine.count() == 1 and mine.get_attribute("data-seat") == "0"
        fits(page, viewport)
        for folder in (tmp_path, SHOTS):
            page.screenshot(path=str(folder / f"table-{game}-{name}-seat0.png"), full_page=True)
        page.close()


def test_leaderboard_and_bot_pages_fit_both_widths_with_legible_charts(served, browser, tmp_path):
    _, url = served
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = browser.new_page(viewport=viewport)
        for where in ("/", "/bot/random"):
            page.goto(url + where)
            expect(page.locator("h1")).to_be_visible()
            fits(page, viewport)
        page.goto(url + "/")
        labels = page.eval_on_selector_all(
            ".chart svg text", "texts => texts.map(t => t.getBoundingClientRect().height)"
        )
        assert labels and min(labels) >= 10, labels  # axis labels of 10 px or more
        # the standings: every cell of the first row on screen, named on a phone
        first = page.locator("#pool-overall table tr").nth(1)
        assert first.locator("td").count() > 5
        for cell in first.locator("td").all():
            box = cell.bounding_box()
            assert box is None or box["x"] + box["width"] <= viewport["width"] + 0.5
        page.screenshot(path=str(tmp_path / f"leaderboard-{name}.png"), full_page=False)
        page.close()
