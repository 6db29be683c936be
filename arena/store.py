"""The results store: one SQLite file (WAL) in the tournament's results folder.

Tables:

* ``meta`` -- the tournament's name, its plan fingerprint, its file and its
  key's fingerprint (never the key itself, which lives in the folder's
  ``key`` file).
* ``items`` -- every planned match (id, plan order, game, lineup, deals), so a
  resumed tournament and the ratings see the plan without the TOML file.
* ``games`` -- one row per finished game, committed the moment it arrives:
  tournament, game, options, seed, bots by seat, scores, ranks, teams,
  faults, moves, time used, duration, and the whole
  :class:`~arena.records.GameRecord` (with its move record, the replay) as
  zlib-compressed JSON.  ``key`` (``"{item id}/{index}"``) is unique, so no
  game is ever stored twice.

Only the tournament driver writes; readers (``arena leaderboard`` during a
run) are welcome.  Every game is its own transaction with
``synchronous=FULL``: after ``kill -9`` (or a power cut) every committed game
is there and none is half-written.
"""

from __future__ import annotations

import json
import sqlite3
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.records import GameRecord

FILE_NAME = "results.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (
    id TEXT PRIMARY KEY,
    ord INTEGER NOT NULL,
    grp TEXT NOT NULL,
    round INTEGER NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    item TEXT NOT NULL,
    ord INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    tournament TEXT NOT NULL,
    game TEXT NOT NULL,
    version TEXT NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,          -- 64-bit, beyond SQLite's signed integers
    players INTEGER NOT NULL,
    bots TEXT NOT NULL,
    scores TEXT NOT NULL,
    ranks TEXT NOT NULL,
    teams TEXT NOT NULL,
    faults TEXT NOT NULL,
    dummies TEXT NOT NULL,
    moves INTEGER NOT NULL,
    time_used TEXT NOT NULL,
    duration REAL NOT NULL,
    finished REAL NOT NULL,
    record BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS games_order ON games (ord, idx);
"""


class StoreError(RuntimeError):
    pass


@dataclass
class StoredGame:
    """A finished game as the ratings and the leaderboard see it."""

    id: int
    key: str
    item: str
    order: int
    index: int
    game: str
    players: int
    bots: list[str]
    scores: list[float]
    ranks: list[int]
    teams: list[int]
    faults: list[str | None]
    dummies: list[list[Any]]      # [name, score, rank]
    moves: int = 0
    duration: float = 0.0
    seed: int = 0                 # the deal: the same seed at one game and table size

    @property
    def deal(self) -> tuple[str, int, int]:
        """Games of one deal (its seatings, and every table given the same
        seed) share this key; the statistics resample whole deals."""
        return (self.game, self.players, self.seed)

    @classmethod
    def from_record(cls, record: GameRecord, key: str = "", item: str = "") -> "StoredGame":
        """The store's view of a game record not read from the store."""
        seats = record.seats
        return cls(0, key, item, 0, 0, record.game, record.players, [s.bot for s in seats],
                   [s.score for s in seats], [s.rank for s in seats], [s.team for s in seats],
                   [s.fault for s in seats], [[d.name, d.score, d.rank] for d in record.dummies],
                   len(record.steps), record.duration, record.seed)

    @property
    def ranked(self) -> int:
        """How many places the game had (bot seats and dummies)."""
        return len(self.ranks) + len(self.dummies)


def encode_record(record: GameRecord) -> bytes:
    return zlib.compress(json.dumps(record.to_dict(), separators=(",", ":")).encode(), 6)


def decode_record(blob: bytes) -> GameRecord:
    return GameRecord.from_dict(json.loads(zlib.decompress(blob)))


class Store:
    """The SQLite results store of one results folder."""

    def __init__(self, folder: str | Path, *, create: bool = True):
        self.folder = Path(folder)
        self.path = self.folder / FILE_NAME
        if not create and not self.path.exists():
            raise StoreError(f"no results store in {self.folder} (expected {self.path})")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        if create:
            self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the tournament ------------------------------------------------------
    def meta(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT key, value FROM meta"))

    def claim(self, name: str, fingerprint: str, file: str = "") -> None:
        """Tie this store to a tournament; refuse another tournament's store."""
        meta = self.meta()
        if meta.get("fingerprint") not in (None, fingerprint):
            raise StoreError(
                f"{self.path} holds tournament '{meta.get('name')}' with a different plan "
                f"(games, bots, format, seed or deals changed); use another results folder"
            )
        with self.db:
            self.db.execute("BEGIN")
            for key, value in (("name", name), ("fingerprint", fingerprint), ("file", file)):
                self.db.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (key, value))

    def bind_key(self, fingerprint: str) -> None:
        """Tie this store to the tournament's secret key (by its public
        fingerprint): its deals came from that key and no other."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('key', ?)", (fingerprint,))
        stored = self.meta()["key"]
        if stored != fingerprint:
            raise StoreError(f"{self.path} was played with another key (fingerprint {stored}, "
                             f"this one {fingerprint}); give the tournament's own key")

    def set_meta(self, key: str, value: str | None) -> None:
        """Set (or with None, remove) one ``meta`` entry, e.g. why a run stopped."""
        with self.db:
            if value is None:
                self.db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # -- the plan -------------------------------------------------------------
    def add_items(self, items: Iterable) -> None:
        """Record planned matches (items already stored keep their order)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany(
                "INSERT OR IGNORE INTO items (id, ord, grp, round, data) VALUES (?, ?, ?, ?, ?)",
                [(item.id, item.order, item.group, item.round, json.dumps(item.to_dict()))
                 for item in items],
            )

    def items(self) -> list:
        from arena.tournament.plan import MatchItem
        rows = self.db.execute("SELECT data FROM items ORDER BY ord")
        return [MatchItem.from_dict(json.loads(data)) for (data,) in rows]

    # -- games ----------------------------------------------------------------
    def finished_keys(self) -> set[str]:
        return {key for (key,) in self.db.execute("SELECT key FROM games")}

    def add_game(self, item, index: int, record: GameRecord, tournament: str = "") -> int | None:
        """Commit one finished game at once; returns its id (None if the key
        was already stored: a game is never stored twice)."""
        seats = record.seats
        row = (
            item.key(index), item.id, item.order, index, tournament, record.game,
            record.version, json.dumps(record.options, sort_keys=True), str(record.seed),
            record.players, json.dumps([s.bot for s in seats]),
            json.dumps([s.score for s in seats]), json.dumps([s.rank for s in seats]),
            json.dumps([s.team for s in seats]), json.dumps([s.fault for s in seats]),
            json.dumps([[d.name, d.score, d.rank] for d in record.dummies]),
            len(record.steps), json.dumps([round(s.time_used, 4) for s in seats]),
            record.duration, time.time(), encode_record(record),
        )
        with self.db:
            cursor = self.db.execute(
                "INSERT OR IGNORE INTO games (key, item, ord, idx, tournament, game, version, "
                "options, seed, players, bots, scores, ranks, teams, faults, dummies, moves, "
                "time_used, duration, finished, record) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        return cursor.lastrowid if cursor.rowcount else None

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def games(self, game: str | None = None) -> Iterator[StoredGame]:
        """Finished games in plan order (item order, then index in the item)."""
        sql = ("SELECT id, key, item, ord, idx, game, players, bots, scores, ranks, teams, "
               "faults, dummies, moves, duration, seed FROM games")
        args: tuple = ()
        if game is not None:
            sql += " WHERE game = ?"
            args = (game,)
        sql += " ORDER BY ord, idx"
        loads = json.loads
        for (id_, key, item, order, index, game_id, players, bots, scores, ranks, teams,
             faults, dummies, moves, duration, seed) in self.db.execute(sql, args):
            yield StoredGame(id_, key, item, order, index, game_id, players, loads(bots),
                             loads(scores), loads(ranks), loads(teams), loads(faults),
                             loads(dummies), moves, duration, seed)

    def records(self) -> Iterator[tuple[int, str, str, float, GameRecord]]:
        """Every game's ``(id, key, tournament, finished, record)`` in plan order."""
        rows = self.db.execute("SELECT id, key, tournament, finished, record FROM games "
                               "ORDER BY ord, idx")
        for id_, key, tournament, finished, blob in rows:
            yield id_, key, tournament, finished, decode_record(blob)

    def game_ids(self) -> list[str]:
        return [g for (g,) in self.db.execute("SELECT DISTINCT game FROM games ORDER BY game")]

    def record(self, ref: str | int) -> tuple[int, str, GameRecord]:
        """A stored game by its id (the number) or its key."""
        text = str(ref)
        if text.isdigit():
            row = self.db.execute("SELECT id, key, record FROM games WHERE id = ?",
                                  (int(text),)).fetchone()
        else:
            row = self.db.execute("SELECT id, key, record FROM games WHERE key = ?",
                                  (text,)).fetchone()
        if row is None:
            raise StoreError(f"no game '{ref}' in {self.path}")
        return row[0], row[1], decode_record(row[2])


def find_store(results: str | Path | None) -> Path:
    """The results folder to read: the one given, or the most recently written
    store under ``results/`` (or ``results/`` itself)."""
    if results is not None:
        return Path(results)
    base = Path("results")
    if (base / FILE_NAME).exists():
        return base
    stores = sorted(base.glob(f"*/{FILE_NAME}"), key=lambda p: p.stat().st_mtime)
    if not stores:
        raise StoreError("no results store found under results/ (give the results folder)")
    return stores[-1].parent
