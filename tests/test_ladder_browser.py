"""The ladder's standings in a real browser (Debian's headless Chromium via
Playwright, as tests/test_browser.py): ``arena serve``'s live leaderboard of a
ladder's results folder follows the games and versions the ladder adds
with nobody reloading it (the viewer's live mode reloads the page itself
when the store holds more games)."""

import threading

from playwright.sync_api import expect, sync_playwright
from test_browser import ARGS, CHROMIUM
from test_ladder import LADDER, play, player, submit
from werkzeug.serving import make_server

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
