"""Damage is never hidden (issue 30, finding 3): a store whose pages were
damaged after its leaderboard was cached is reported as damaged by
``arena leaderboard``, the viewer and ``arena export`` -- the cache still
matches the store's keys, which is what used to hide it -- and export writes
all or nothing unless asked to salvage."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from test_store import item, record

from arena.presentation.leaderboard import from_store
from arena.results.store import FILE_NAME, Store

ROOT = Path(__file__).parents[1]
ARENA = [str(Path(sys.executable).parent / "arena")]
GAMES = 40


def arena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(ARENA + list(args), capture_output=True, text=True, cwd=ROOT, timeout=120)


def damage(path: Path) -> None:
    """Flip the header bytes of a few of the store's b-tree pages (20 bytes
    in all), past the schema page: what a bad sector or a stray write does."""
    data = bytearray(path.read_bytes())
    pages = range(4096 * 4, len(data) - 4096, 4096 * 2)
    flipped = 0
    for page in pages:
        for offset in (3, 4, 5, 6):
            data[page + offset] ^= 0xFF
            flipped += 1
            if flipped == 20:
                break
        if flipped == 20:
            break
    path.write_bytes(bytes(data))


@pytest.fixture
def damaged(tmp_path):
    """A store of GAMES games whose leaderboard is cached, then damaged."""
    with Store(tmp_path) as store:
        store.claim("t", "fp")
        it = item(deals=GAMES)
        for index in range(GAMES):
            store.add_game(it, index, record(seed=index, winner=index % 2, steps=300))
        from_store(store)  # the cache now matches the store's keys
    path = tmp_path / FILE_NAME
    damage(path)
    with sqlite3.connect(path) as db:  # the damage is real
        try:
            verdict = db.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as error:
            verdict = str(error)
    assert verdict != "ok"
    return tmp_path


def one_damage_line(result: subprocess.CompletedProcess, folder: Path) -> None:
    assert result.returncode != 0, result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"arena: error: the results store {folder / FILE_NAME} is damaged")
    assert "--salvage" in lines[0]


def test_the_leaderboard_says_a_damaged_store_is_damaged_despite_its_cache(damaged):
    result = arena("leaderboard", str(damaged))
    one_damage_line(result, damaged)
    assert result.stdout == ""


def test_the_viewer_says_a_damaged_store_is_damaged(damaged):
    from arena.presentation.web import create_app

    client = create_app(damaged).test_client()
    for page in ("/", "/api/leaderboard", "/api/count"):
        reply = client.get(page)
        assert reply.status_code == 503
        assert "is damaged" in reply.get_data(as_text=True)


def test_export_is_all_or_nothing_and_salvage_says_what_it_lost(damaged, tmp_path_factory):
    out = tmp_path_factory.mktemp("export") / "games.jsonl"
    result = arena("export", str(damaged), "--output", str(out))
    one_damage_line(result, damaged)
    assert not out.exists() and list(out.parent.iterdir()) == []  # nothing, no temporary
    plain = arena("export", str(damaged))
    one_damage_line(plain, damaged)
    assert plain.stdout == ""  # not a part of the games, then a failure
    salvaged = arena("export", str(damaged), "--salvage", "--output", str(out))
    assert salvaged.returncode == 0, salvaged.stderr
    games = [json.loads(line) for line in out.read_text().splitlines()]
    lost = GAMES - len(games)
    assert salvaged.stderr.strip() == f"salvaged {len(games)} games; {lost} could not be read"
    assert len(games) > 0 and all(game["game"] == "g" for game in games)
