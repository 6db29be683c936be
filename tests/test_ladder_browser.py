"""The ladder's standings in a real browser (Debian's headless Chromium via
Playwright, as tests/test_browser.py): ``arena serve``'s live leaderboard of a
ladder's results folder follows the games and versions the ladder adds
with nobody reloading it (the viewer's live mode reloads the page itself
when the store holds more games); the ladder's own page fits a phone and a
desktop and redraws itself without a reload; a bot's logs are shown to its
token alone, and the token reaches no URL, page or log."""

import logging
import threading

from playwright.sync_api import expect, sync_playwright
from test_browser import ARGS, CHROMIUM, DESKTOP, PHONE, fits
from test_ladder import LADDER, play, player, submit
from werkzeug.serving import make_server

from arena.ladder.web import add_ladder
from arena.presentation.web import create_app
from arena.results.store import Store


def test_the_ladder_standings_follow_the_games_as_they_land(tmp_path):
    results = tmp_path / "results"
    ladder = tmp_path / "ladder.toml"
    ladder.write_text(LADDER.format(results=results))
    play(ladder, 1)
    server = make_server("127.0.0.1", 0, create_app(results, refresh_ms=300), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.server_port}/")
            overall = page.locator("#pool-overall")
            expect(overall).to_contain_text("4 games")
            expect(overall).not_to_contain_text("newbie@v1")
            (tmp_path / "player").mkdir()
            submit(results, "newbie", player(tmp_path / "player"))
            play(ladder, 3)  # the new version is validated, admitted and plays
            with Store(results, create=False) as store:
                stored = store.count()
            assert stored == 12
            expect(overall).to_contain_text(f"{stored} games", timeout=15_000)
            expect(overall).to_contain_text("newbie@v1")
            browser.close()
    finally:
        server.shutdown()
        thread.join(10)


def test_the_ladder_page_fits_a_phone_and_a_desktop_follows_the_ladder_and_logs_stay_private(
    tmp_path, caplog
):
    caplog.set_level(logging.INFO, logger="werkzeug")  # the server's request log
    results = tmp_path / "results"
    ladder = tmp_path / "ladder.toml"
    ladder.write_text(LADDER.format(results=results))
    (tmp_path / "alice").mkdir()
    files = ["--file", str(tmp_path / "alice")]
    token = submit(results, "alice", player(tmp_path / "alice"), *files)
    play(ladder, 2)
    app = create_app(results, refresh_ms=300)
    add_ladder(app, results, refresh_ms=300)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for viewport in (PHONE, DESKTOP):
                page = browser.new_page(viewport=viewport)
                page.goto(f"{url}/ladder")
                pool = page.locator("#pool-farm-and-furious-2p")
                expect(pool).to_contain_text("alice@v1")
                chart = pool.locator(".chart svg")
                expect(chart).to_be_visible()
                assert chart.bounding_box()["width"] <= viewport["width"]
                fits(page, viewport)
                page.goto(f"{url}/ladder/bot/alice#token={token}")
                expect(page.locator("#logs pre.stderr").first).to_be_visible()
                fits(page, viewport)
                page.close()
            # the page follows the ladder without a reload
            page = browser.new_page(viewport=DESKTOP)
            page.goto(f"{url}/ladder")
            page.evaluate("window.notReloaded = true")
            pool = page.locator("#pool-farm-and-furious-2p")
            expect(pool).not_to_contain_text("alice@v2")
            submit(results, "alice", player(tmp_path / "alice"), *files, "--token", token)
            play(ladder, 4)
            expect(pool).to_contain_text("alice@v2", timeout=15_000)
            expect(pool.locator("details.older summary")).to_have_text("older versions (1)")
            assert page.evaluate("window.notReloaded") is True
            fits(page, DESKTOP)
            # the logs: a wrong token shows none; the right one, given after '#', shows them
            page.goto(f"{url}/ladder/bot/alice")
            page.fill("#token", token[:-2] + "xy")
            page.click("#token-form button")
            expect(page.locator("#answer")).to_have_text("That is not this bot's token.")
            expect(page.locator("#logs")).to_be_empty()
            page.goto(f"{url}/ladder/bot/alice#token={token}")
            expect(page.locator("#logs pre.stderr").first).to_contain_text("alice game 0 seat")
            assert "#" not in page.url and token not in page.url  # cleared from the address
            assert token not in page.content()  # the field holds it, the page's source not
            browser.close()
    finally:
        server.shutdown()
        thread.join(10)
    asked = [record.getMessage() for record in caplog.records if record.name == "werkzeug"]
    assert any("/api/ladder/bot/alice" in line for line in asked)  # the control: logged
    assert not any(token in line for line in asked)
