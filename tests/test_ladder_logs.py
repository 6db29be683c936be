"""A bot's own stderr per game, shown to its author alone, and the ladder's
own page in ``arena serve``.

The referee keeps the end of each seat's stderr per game (bounded, made
inert, apart from the record); a ladder's store keeps it; the viewer gives
it to the holder of the bot's token only, never while the game's deal has
seatings left to play, and never says the token anywhere."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys

import pytest
from test_ladder import LADDER, PLAYER, cli, play, player, submit
from test_ladder_wheels import write_wheel

from arena.cli import app
from arena.ladder.run import STDERR
from arena.ladder.status import status_of
from arena.ladder.web import add_ladder
from arena.match.referee import Deal, Entrant, TimeControl, play_match
from arena.plugins.botspec import BotSpec
from arena.presentation.web import create_app
from arena.results.store import FILE_NAME, Store

FAST = TimeControl(startup=10.0, move=1.0)


def chatty_match(registry, folder, on_stderr=None):
    """Two games of one match: the ladder player (its folder ``folder``)
    against random, the same processes throughout (unless one crashes)."""
    engine = registry.engine("farm-and-furious")
    entrants = [
        Entrant("talker", BotSpec.from_command(f"cmd:{sys.executable} {PLAYER} {folder}")),
        Entrant("random", registry.bot("random")),
    ]
    deals = [Deal(11, (0, 1)), Deal(12, (1, 0))]
    return play_match(
        engine,
        entrants,
        deals,
        {"track_length": 8},
        limit=FAST,
        sandbox="none",
        on_stderr=on_stderr,
        stderr=STDERR,
    )


@pytest.mark.parametrize("crash", [False, True])
def test_the_referee_keeps_each_games_stderr_end_bounded_inert_and_out_of_the_record(
    registry, tmp_path, crash
):
    folder = tmp_path / "talker"
    folder.mkdir()
    (folder / "chatty").write_text("yes\n")  # 100 KB before each game's line
    if crash:
        (folder / "crash").write_text("now\n")  # exits at its first move, every game
    kept: dict[int, tuple[str, ...]] = {}
    records = chatty_match(
        registry, folder, lambda position, texts: kept.__setitem__(position, texts)
    )
    assert sorted(kept) == [0, 1]
    for position, seat in ((0, 0), (1, 1)):  # the talker's seat in each game
        text = kept[position][seat]
        assert 0 < len(text.encode()) <= STDERR  # the end of 100 KB, no more
        assert f"talker game {position} seat {seat}" in text
        assert "\x1b" not in text and "\x07" not in text and "]0;owned" in text  # escape defused
        other = 1 - position
        assert f"game {other} seat" not in text  # that game's alone
        if crash:
            assert records[position].seats[seat].fault == "crash"
            assert text.rstrip().endswith("crashing as told")  # kept when its process ended
        else:
            assert records[position].seats[seat].fault is None
    assert all(kept[p][1 - s] == "" for p, s in ((0, 0), (1, 1)))  # random says nothing
    # the records are those of a match that keeps no stderr
    again = chatty_match(registry, folder)
    assert [(r.seed, r.steps, [(s.bot, s.rank, s.fault) for s in r.seats]) for r in records] == [
        (r.seed, r.steps, [(s.bot, s.rank, s.fault) for s in r.seats]) for r in again
    ]


@pytest.fixture(scope="module")
def ladder_results(tmp_path_factory):
    """A ladder played 2 steps with two submitted bots, alice and bob (and
    carol, rejected), then a second version of alice admitted and played 2
    more while bob crashed at every move; their tokens."""
    base = tmp_path_factory.mktemp("logs")
    results = base / "results"
    ladder = base / "ladder.toml"
    ladder.write_text(LADDER.format(results=results))
    tokens = {}
    for name in ("alice", "bob", "carol"):
        (base / name).mkdir()
        tokens[name] = submit(results, name, player(base / name), "--file", str(base / name))
        if name == "carol":  # crashes in its validation run, saying so on stderr
            (base / name / "crash").write_text("now\n")
    assert play(ladder, 2).played
    (base / "bob" / "crash").write_text("now\n")  # bob crashes from here on
    submit(
        results,
        "alice",
        player(base / "alice"),
        "--file",
        str(base / "alice"),
        "--token",
        tokens["alice"],
    )
    assert play(ladder, 4).played
    return results, tokens


def client_of(results):
    app = create_app(results)
    add_ladder(app, results)
    return app.test_client()


def logs(client, name, token):
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return client.get(f"/api/ladder/bot/{name}", headers=headers)


def test_a_bots_logs_go_to_its_token_alone(ladder_results, caplog):
    results, tokens = ladder_results
    client = client_of(results)
    shown = logs(client, "alice", tokens["alice"])
    assert shown.status_code == 200 and shown.headers["Cache-Control"] == "no-store"
    games = shown.get_json()["games"]
    entrants = {seat["entrant"] for game in games for seat in game["seats"]}
    assert entrants == {"alice@v1", "alice@v2"}  # every version, no other bot's seat
    texts = [seat["stderr"] for game in games for seat in game["seats"]]
    assert all(text and text.startswith("]0;ownedalice game 0 seat") for text in texts)
    assert not any(game["held"] for game in games)
    # what the store kept of bob is not in alice's answer
    with Store(results, create=False) as store:
        kept = store.stderr([g.id for g in store.games()])
    assert any("bob game" in text for seats in kept.values() for text in seats.values())
    assert "bob game" not in shown.get_data(as_text=True)
    # the wrong token (bob's), a made-up one, none, another scheme: 403, nothing said
    for token in (tokens["bob"], tokens["alice"][:-1] + "x", None, ""):
        refused = logs(client, "alice", token)
        assert refused.status_code == 403
        assert "alice game" not in refused.get_data(as_text=True)
    basic = client.get(
        "/api/ladder/bot/alice", headers={"Authorization": f"Basic {tokens['alice']}"}
    )
    assert basic.status_code == 403
    assert logs(client, "bob", tokens["alice"]).status_code == 403  # alice's sees nothing of bob's
    assert logs(client, "random", tokens["alice"]).status_code == 403  # nor of the file's bots
    assert logs(client, "bob", tokens["bob"]).status_code == 200
    # the author's page holds no log and no token; no token reached a log
    page = client.get("/ladder/bot/alice").get_data(as_text=True)
    assert "alice game" not in page and tokens["alice"] not in page
    assert tokens["alice"] not in shown.get_data(as_text=True)
    assert not any(tokens["alice"] in record.getMessage() for record in caplog.records)


def test_a_games_log_is_held_while_its_deal_has_seatings_left(ladder_results, tmp_path):
    results, tokens = ladder_results
    copy = tmp_path / "results"
    shutil.copytree(results, copy)
    with Store(copy, create=False) as store:
        game = next(g for g in store.games() if g.record.seats[0].bot == "alice@v1")
        text = store.stderr([game.id])[game.id][0]
    client = client_of(copy)
    before = {g["id"]: g for g in logs(client, "alice", tokens["alice"]).get_json()["games"]}
    assert before[game.id]["seats"][0]["stderr"] == text  # the control: shown
    # the other seating of its deal, not stored yet (as while it is played)
    key = game.key.replace("/s0/", "/s1/")
    with sqlite3.connect(copy / FILE_NAME) as db:
        assert db.execute("DELETE FROM games WHERE key = ?", (key,)).rowcount == 1
    client = client_of(copy)
    answer = logs(client, "alice", tokens["alice"])
    held = {g["id"]: g for g in answer.get_json()["games"]}[game.id]
    assert held["held"] and held["seats"][0]["stderr"] is None
    assert text not in answer.get_data(as_text=True)
    assert client.get(f"/game/{game.id}").status_code == 403  # as its replay is


def test_the_ladder_page_shows_latest_versions_first_older_behind_a_toggle(ladder_results):
    results, _tokens = ladder_results
    client = client_of(results)
    doc = client.get("/api/ladder").get_json()
    [pool] = doc["pools"]
    assert pool["pool"] == "farm-and-furious/2p" and pool["games"] == doc["games"] > 0
    shown = {row["entrant"]: row for row in pool["shown"]}
    assert "alice@v2" in shown and "alice@v1" not in shown and "bob@v1" in shown
    assert [row["entrant"] for row in pool["older"]] == ["alice@v1"]
    assert pool["older"][0]["state"] == "superseded"
    assert [row["rank"] for row in pool["shown"]] == list(range(1, len(shown) + 1))
    for row in pool["shown"]:
        low, high = row["interval"]
        assert low < row["mu"] < high
    names = {s["name"] for s in pool["chart"]["series"]}
    assert {"alice@v1", "alice@v2", "bob@v1"} <= names  # each version's rating over time
    assert len(doc["recent"]) == min(20, doc["games"])
    assert all(game["open"] for game in doc["recent"])  # every seating stored
    # the page: the same document, rendered; the older versions inside a toggle
    page = client.get("/ladder").get_data(as_text=True)
    assert "<svg" in page and "alice@v2" in page
    toggle = page[page.index("<details") : page.index("</details>")]
    assert "alice@v1" in toggle and "alice@v2" not in toggle
    assert f'href="/game/{doc["recent"][0]["id"]}"' in page
    # unchanged: only the stamp comes back; the stamp follows the roster
    assert client.get(f"/api/ladder?stamp={doc['stamp']}").get_json() == {"stamp": doc["stamp"]}
    assert "html" in client.get("/api/ladder?stamp=old").get_json()


BOT_CODE = """import sys

from arena.botkit import Bot

VERSION = "{version}"


class Samebot(Bot):
    def new_game(self, game):
        sys.stderr.write(f"samebot {{VERSION}} at seat {{game['seat']}}\\n")

    def act(self, observation, legal, clock):
        return legal[{pick}]
"""


def build_wheel(folder, version: str, pick: int):
    """A wheel of distribution ``samebot`` whose module ``samebot.bot`` says
    its version on stderr (and plays ``legal[pick]``), with code that
    would write ``ran-at-install`` if anything imported it."""
    files = {
        "samebot/__init__.py": "open('ran-at-install', 'w').write('imported')\n",
        "samebot/bot.py": BOT_CODE.format(version=version, pick=pick),
    }
    return write_wheel(folder, "samebot", version, files)


def test_two_wheels_of_one_module_play_side_by_side_each_its_own_code(tmp_path, monkeypatch):
    results = tmp_path / "results"
    ladder = tmp_path / "ladder.toml"
    ladder.write_text(LADDER.format(results=results))
    monkeypatch.chdir(tmp_path)  # where an import at install time would write
    one, two = build_wheel(tmp_path, "1.0", 0), build_wheel(tmp_path, "2.0", -1)
    entry = ["--entry", "samebot.bot:Samebot"]
    submit(results, "alpha", str(one), *entry)
    submit(results, "beta", str(two), *entry)
    assert not (tmp_path / "ran-at-install").exists()  # installing ran none of it
    folders = sorted((tmp_path / "results.wheels").iterdir())
    assert len(folders) == 2 and all((f / "samebot" / "bot.py").is_file() for f in folders)
    assert not any(f.name.startswith(".") for f in folders)  # no half-made folder left
    assert not (results / "samebot").exists()  # nothing installed in the results folder
    summary = play(ladder, 3)
    assert summary.played and not summary.errors
    with Store(results, create=False) as store:
        games = list(store.games())
        kept = store.stderr([g.id for g in games])
    said = {"alpha@v1": set(), "beta@v1": set()}
    for game in games:
        assert not any(seat.fault for seat in game.record.seats), game.record.seats
        for seat, s in enumerate(game.record.seats):
            if s.bot in said:
                said[s.bot].add(kept[game.id][seat].split(" at ")[0])
    assert said == {"alpha@v1": {"samebot 1.0"}, "beta@v1": {"samebot 2.0"}}
    assert any(
        {s.bot for s in g.record.seats} == {"alpha@v1", "beta@v1"} for g in games
    )  # at one table, each its own code
    # the same wheel again is installed once; a wheel without its class is refused
    submit(results, "gamma", str(one), *entry)
    assert len(list((tmp_path / "results.wheels").iterdir())) == 2
    done = cli.invoke(app, ["ladder", "submit", str(results), "delta", str(one)])
    assert done.exit_code != 0 and "needs --entry module:Class" in done.output
    # the control: importing what was installed does write the mark
    probe = f"import sys; sys.path.insert(0, {str(folders[0])!r}); import samebot"
    subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, check=True)
    assert (tmp_path / "ran-at-install").exists()


def test_a_rejections_reason_quoting_the_bots_stderr_is_its_authors_alone(ladder_results):
    results, tokens = ladder_results
    [carol] = [row for row in status_of(results) if row["bot"] == "carol"]
    assert carol["state"] == "rejected" and "crashing as told" in carol["reason"]  # the control
    client = client_of(results)
    for public in (client.get("/ladder"), client.get("/api/ladder")):
        text = public.get_data(as_text=True)
        assert "carol@v1" in text and "failed its validation run" in text
        assert "crashing as told" not in text
    mine = logs(client, "carol", tokens["carol"]).get_json()
    assert [v["reason"] for v in mine["versions"]] == [carol["reason"]] and mine["games"] == []
    assert "crashing as told" not in logs(client, "carol", tokens["alice"]).get_data(as_text=True)


def test_a_faults_detail_quoting_the_bots_stderr_is_its_authors_alone(ladder_results):
    results, tokens = ladder_results
    with Store(results, create=False) as store:
        game = next(g for g in store.games() if any(s.fault for s in g.record.seats))
        whole = store.record(game.id).record
    [seat] = [n for n, s in enumerate(whole.seats) if s.fault]
    assert whole.seats[seat].bot == "bob@v1"
    assert "crashing as told" in whole.seats[seat].fault_detail  # the record keeps it
    pages = ("/bot/bob@v1", f"/game/{game.id}?view=table")
    tournament_viewer = create_app(results).test_client()  # the control: shown there
    assert all("crashing as told" in tournament_viewer.get(p).get_data(as_text=True) for p in pages)
    client = client_of(results)
    for path in pages:
        page = client.get(path)
        assert page.status_code == 200 and "crash" in page.get_data(as_text=True)
        assert "crashing as told" not in page.get_data(as_text=True)
    mine = {g["id"]: g for g in logs(client, "bob", tokens["bob"]).get_json()["games"]}
    assert "crashing as told" in mine[game.id]["seats"][0]["detail"]
    assert "crashing as told" not in logs(client, "bob", tokens["alice"]).get_data(as_text=True)


def test_a_wheel_install_killed_half_way_leaves_nothing_used_and_is_cleaned(tmp_path):
    from arena.ladder.wheels import environment_name, install, wheels_folder

    results = tmp_path / "results"
    wheel = build_wheel(tmp_path, "1.0", 0)
    digest = environment_name(wheel, wheel.parent)
    stale = wheels_folder(results) / f".{digest}.killed"  # an install killed long ago
    stale.mkdir(parents=True)
    (stale / "samebot").mkdir()
    os.utime(stale, (0, 0))
    running = wheels_folder(results) / f".{digest}.running"  # one under way now
    running.mkdir()
    folder = install(str(wheel), results)
    assert folder == wheels_folder(results) / digest and (folder / "samebot" / "bot.py").is_file()
    assert not stale.exists() and running.exists()
