"""The results store: one SQLite file (WAL) in the tournament's results folder.

Tables:

* ``meta`` -- the tournament's name, its plan fingerprint, its file and its
  key's fingerprint (never the key itself, which lives in the folder's
  ``key`` file).
* ``items`` -- every planned match (id, plan order, game, lineup, deals), so a
  resumed tournament and the ratings see the plan without the TOML file.
* ``games`` -- one row per finished game, committed the moment it arrives:
  tournament, game, options, seed, bots by seat, scores, ranks, teams,
  faults, moves, time used, duration, the sandbox level its bots ran at
  (a column added later: an older store gets it, empty, when a run opens
  it; a reader of one reads it as empty), and the whole
  :class:`~arena.records.GameRecord` (with its move record, the replay) as
  zlib-compressed JSON.  ``key`` (``"{item id}/{index}"``) is unique, so no
  game is ever stored twice.
* ``stderr`` -- where a run keeps it (a ladder), the end of what each seat's
  bot wrote on stderr in a game, made inert, stored with the game in one
  transaction; apart from the record, which it does not change.  Only its
  bot's author is shown it (:mod:`arena.ladder.web`).

Only the tournament driver writes; readers (``arena leaderboard`` during a
run) are welcome.  Every game is its own transaction, in WAL mode with
``synchronous=NORMAL``: a commit has written the game to the WAL file (in the
operating system's cache) before it returns, so after ``kill -9`` of any
process every committed game is there and none is half-written.  What
``NORMAL`` gives up against ``FULL`` is an ``fsync`` per commit (only
checkpoints sync): a power cut or a kernel crash may lose the last games
committed before it -- never the store's consistency -- and a resumed run plays
them again.  That trade keeps a commit well under a millisecond
(``benchmarks/store.py``); a game is cheap to replay, a machine's power rarely
fails mid-tournament.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import sqlite3
import time
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import Any

from arena.game import DummyResult
from arena.records import GameRecord, SeatRecord
from arena.results.items import MatchItem

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
    record BLOB NOT NULL,
    sandbox TEXT NOT NULL DEFAULT ''  -- the level its bots ran at ('': not recorded)
);
CREATE INDEX IF NOT EXISTS games_order ON games (ord, idx);
CREATE TABLE IF NOT EXISTS stderr (
    game INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
"""


class StoreError(RuntimeError):
    pass


class NoSuchGame(StoreError):
    """:meth:`Store.record` of a game the store does not hold (a sound
    store's answer, unlike the other store errors)."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as the store holds it: the referee's record and what the store
    adds -- its id, its plan key (``"{item}/{index}"``), the item's plan
    order, the tournament, and when it was stored (``time.time()``).
    :meth:`Store.add_game` returns one, and every read gives them back."""

    record: GameRecord
    id: int
    key: str
    item: str
    order: int
    index: int
    tournament: str
    finished: float


def dummy_rows(record: GameRecord) -> list[list[Any]]:
    """The record's dummies as the store keeps them: ``[name, score, rank]``."""
    return [[d.name, d.score, d.rank] for d in record.dummies]


#: a :class:`SeatRecord` from its 8 values in a tuple, all in C (a named
#: tuple's own constructor and ``_make`` are Python functions, once per seat read)
_seat_of_row = functools.partial(tuple.__new__, SeatRecord)


def _seats(
    bots: list, scores: list, ranks: list, teams: list, faults: list, times: list
) -> tuple[SeatRecord, ...]:
    """The seats the ``games`` table's columns hold (not a fault's detail,
    not a seat's moves: only the record's blob has them)."""
    return tuple(
        map(_seat_of_row, zip(bots, scores, ranks, teams, faults, repeat(None), repeat(0), times))
    )


def encode_record(record: GameRecord) -> bytes:
    return zlib.compress(json.dumps(record.to_dict(), separators=(",", ":")).encode(), 6)


def decode_record(blob: bytes) -> GameRecord:
    return GameRecord.from_dict(json.loads(zlib.decompress(blob)))


def _sound(method):
    """SQLite's errors about the file (damaged pages found late, a disk
    gone read-only) become a :class:`StoreError` naming the store."""
    if inspect.isgeneratorfunction(method):

        @functools.wraps(method)
        def rows(self, *args, **kwargs):
            try:
                yield from method(self, *args, **kwargs)
            except sqlite3.DatabaseError as error:
                raise StoreError(_problem(self.path, error)) from None

        return rows

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as error:
            raise StoreError(_problem(self.path, error)) from None

    return call


class Store:
    """The SQLite results store of one results folder.

    ``create=True`` is the tournament driver (it writes); ``create=False`` a
    reader (``arena leaderboard``, ``arena replay``), which opens the file
    read-only and so never changes it.  A new store is built under a
    temporary name and renamed into place, so a ``results.sqlite`` is never
    left half-made: an empty (0-byte) or otherwise unsound file there is not
    one of ours and is refused (:class:`StoreError`), never overwritten.
    """

    def __init__(self, folder: str | Path, *, create: bool = True):
        self.folder = Path(folder)
        self.path = self.folder / FILE_NAME
        if not self.path.exists():
            if not create:
                if self.folder.is_file():
                    raise StoreError(
                        f"no results store in {self.folder}: it is a file, not a results folder"
                    )
                raise StoreError(f"no results store in {self.folder} (expected {self.path})")
            self.folder.mkdir(parents=True, exist_ok=True)
            self._build()
        check_file(self.path)
        if create:
            _check_writable(self.path)
        try:
            self.db = self._connect(writer=create)
            tables = {
                name
                for (name,) in self.db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                )
            }
            if not {"meta", "items", "games"} <= tables:
                raise StoreError(
                    f"{self.path}: an SQLite file but not a results store "
                    f"(no meta, items and games tables)"
                )
            if create:
                self.check()  # the driver adds to it: not to a store with damaged pages
                self.db.executescript(SCHEMA)  # indexes added by newer versions
                if not self._has_sandbox():
                    self.db.execute("ALTER TABLE games ADD COLUMN sandbox TEXT NOT NULL DEFAULT ''")
            #: what reads each game's level: its column, or '' in an older store
            self._sandbox = "sandbox" if self._has_sandbox() else "''"
            #: whether it has the stderr table (a reader of an older store: not)
            self._has_stderr = create or "stderr" in tables
        except sqlite3.Error as error:
            raise StoreError(_problem(self.path, error)) from None

    def _has_sandbox(self) -> bool:
        """Whether the ``games`` table has the ``sandbox`` column (a store
        made before levels were recorded has not)."""
        return any(row[1] == "sandbox" for row in self.db.execute("PRAGMA table_info(games)"))

    def check_room(self, size: int = 1 << 20) -> None:
        """Raise a :class:`StoreError` when the folder cannot take ``size``
        more bytes (a full disk, a quota): asked before a run plays, so that
        no game is played that could not be stored.  It reserves the room
        in a file beside the store, then removes it."""
        probe = self.folder / f".{FILE_NAME}.room"
        try:
            descriptor = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.posix_fallocate(descriptor, 0, size)
            finally:
                os.close(descriptor)
                probe.unlink(missing_ok=True)
        except OSError as error:
            raise StoreError(
                f"{self.folder}: no room to store games ({error.strerror}); "
                f"free some space and run the same command again"
            ) from None

    def check(self) -> None:
        """Raise a :class:`StoreError` saying the store is damaged when
        SQLite's ``quick_check`` finds damaged pages: what reads the store
        for people (the leaderboard, its cache, the viewer, export) never
        shows a damaged one as sound.  It reads every page once, without the
        cross-checks of ``integrity_check`` (cost: docs/performance.md)."""
        try:
            verdict = self.db.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as error:
            verdict = str(error)
        if verdict != "ok":
            raise StoreError(damaged(self.path, _first_problem(verdict)))

    def _connect(self, writer: bool) -> sqlite3.Connection:
        if writer:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # durable against kill -9, see above
            return db
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        if not os.access(self.path, os.W_OK) or not os.access(self.folder, os.W_OK):
            # a read-only store (a read-only mount, an immutable file): nobody
            # writes it, and SQLite cannot open WAL's shared memory beside it
            uri += "&immutable=1"
        return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30)

    def _build(self) -> None:
        """A new, empty store: made under a temporary name, then renamed."""
        partial = self.path.with_name(self.path.name + ".new")
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            leftover.unlink(missing_ok=True)
        db = sqlite3.connect(partial, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
        finally:
            db.close()
        os.replace(partial, self.path)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the tournament ------------------------------------------------------
    @_sound
    def meta(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT key, value FROM meta"))

    @_sound
    def claim(
        self,
        name: str,
        fingerprint: str,
        file: str = "",
        conditions: dict[str, Any] | None = None,
        sandbox: str | None = None,
    ) -> None:
        """Tie this store to a tournament; refuse another tournament's store,
        and the same tournament under other ``conditions`` (time control,
        resource limits) or at another ``sandbox`` level: games played under
        two time controls would be rated as one, and games played at two
        levels shown as one level's."""
        meta = self.meta()
        if meta.get("fingerprint") not in (None, fingerprint):
            raise StoreError(
                f"{self.path} holds tournament '{meta.get('name')}' with a different plan "
                f"(games, bots, format, seed or deals changed); use another results folder"
            )
        given = json.dumps(conditions or {}, sort_keys=True)
        if "conditions" in meta and meta["conditions"] != given:
            changed = _changes(json.loads(meta["conditions"]), conditions or {})
            raise StoreError(
                f"{self.path} holds tournament '{meta.get('name')}' played under other "
                f"conditions ({changed}); restore them or use another results folder"
            )
        if sandbox is not None and meta.get("sandbox", sandbox) != sandbox:
            raise StoreError(
                f"{self.path} holds tournament '{meta.get('name')}' played at sandbox level "
                f"'{meta['sandbox']}', this run would play at '{sandbox}'; give the level it "
                f"was played at (sandbox in the tournament file, --sandbox) or use another "
                f"results folder"
            )
        with self.db:
            self.db.execute("BEGIN")
            for key, value in (
                ("name", name),
                ("fingerprint", fingerprint),
                ("file", file),
                ("conditions", given),
                *((("sandbox", sandbox),) if sandbox is not None else ()),
            ):
                self.db.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (key, value))

    @_sound
    def bind_key(self, fingerprint: str) -> None:
        """Tie this store to the tournament's secret key (by its public
        fingerprint): its deals came from that key and no other."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('key', ?)", (fingerprint,))
        stored = self.meta()["key"]
        if stored != fingerprint:
            raise StoreError(
                f"{self.path} was played with another key (fingerprint {stored}, "
                f"this one {fingerprint}); give the tournament's own key"
            )

    @_sound
    def set_meta(self, key: str, value: str | None) -> None:
        """Set (or with None, remove) one ``meta`` entry, e.g. why a run stopped."""
        with self.db:
            if value is None:
                self.db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # -- the plan -------------------------------------------------------------
    @_sound
    def add_items(self, items: Iterable) -> None:
        """Record planned matches (items already stored keep their order)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany(
                "INSERT OR IGNORE INTO items (id, ord, grp, round, data) VALUES (?, ?, ?, ?, ?)",
                [
                    (item.id, item.order, item.group, item.round, json.dumps(item.to_dict()))
                    for item in items
                ],
            )

    @_sound
    def items(self) -> list[MatchItem]:
        rows = self.db.execute("SELECT data FROM items ORDER BY ord")
        return [MatchItem.from_dict(json.loads(data)) for (data,) in rows]

    # -- games ----------------------------------------------------------------
    @_sound
    def finished_keys(self) -> set[str]:
        return {key for (key,) in self.db.execute("SELECT key FROM games")}

    @_sound
    def add_game(
        self,
        item,
        index: int,
        record: GameRecord,
        tournament: str = "",
        stderr: Sequence[str] = (),
    ) -> StoredGame | None:
        """Commit one finished game at once, with ``stderr`` (per seat, the
        end of what its bot wrote; empty ones are not kept); returns the
        game as stored (None if its key was already stored: a game is never
        stored twice)."""
        seats = record.seats
        key, finished = item.key(index), time.time()
        row = (
            key,
            item.id,
            item.order,
            index,
            tournament,
            record.game,
            record.version,
            json.dumps(record.options, sort_keys=True),
            str(record.seed),
            record.players,
            json.dumps([s.bot for s in seats]),
            json.dumps([s.score for s in seats]),
            json.dumps([s.rank for s in seats]),
            json.dumps([s.team for s in seats]),
            json.dumps([s.fault for s in seats]),
            json.dumps(dummy_rows(record)),
            len(record.steps),
            json.dumps([round(s.time_used, 4) for s in seats]),
            record.duration,
            finished,
            encode_record(record),
            record.sandbox,
        )
        with self.db:
            cursor = self.db.execute(
                "INSERT OR IGNORE INTO games (key, item, ord, idx, tournament, game, version, "
                "options, seed, players, bots, scores, ranks, teams, faults, dummies, moves, "
                "time_used, duration, finished, record, sandbox) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            if cursor.rowcount and cursor.lastrowid is not None:
                self.db.executemany(
                    "INSERT INTO stderr (game, seat, text) VALUES (?, ?, ?)",
                    [(cursor.lastrowid, seat, text) for seat, text in enumerate(stderr) if text],
                )
        if not cursor.rowcount or cursor.lastrowid is None:
            return None
        return StoredGame(
            record, cursor.lastrowid, key, item.id, item.order, index, tournament, finished
        )

    @_sound
    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    @_sound
    def largest_id(self) -> int:
        """The largest game id (0 for none): read from the end of the
        table's tree alone, so a damaged store still answers it."""
        return self.db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]

    @_sound
    def fingerprint(self, up_to: int | None = None) -> tuple[int, int, float]:
        """(games, largest id, sum of finishing times) of the games with ids up
        to ``up_to`` (default: all), in one scan: any game added or replaced
        changes it (the leaderboard cache's key, :mod:`arena.presentation.board_cache`)."""
        return tuple(
            self.db.execute(
                "SELECT COUNT(*), COALESCE(MAX(id), -1), TOTAL(finished) FROM games WHERE id <= ?",
                (up_to if up_to is not None else 2**63 - 1,),
            ).fetchone()
        )

    @_sound
    def games(self, game: str | None = None, after: int = -1) -> Iterator[StoredGame]:
        """Finished games in plan order (item order, then index in the item);
        ``after``: only those stored after the game with that id.

        Read from the table's columns, not the blob -- what the ratings,
        the statistics and the leaderboard read, at a fraction of the cost:
        the records have no move record (``steps`` is empty) and their seats
        no fault detail and no move count.  :meth:`records` and
        :meth:`record` read whole records."""
        # one JSON text per row (the columns are JSON): one parse, not seven
        sql = (
            "SELECT id, key, item, ord, idx, tournament, finished, game, version, seed, "
            f"players, duration, {self._sandbox}, '[' || options || ',' || bots || ',' || scores || ',' || "
            "ranks || ',' || teams || ',' || faults || ',' || time_used || ',' || dummies "
            "|| ']' FROM games WHERE id > ?"
        )
        args: tuple = (after,)
        if game is not None:
            sql += " AND game = ?"
            args += (game,)
        sql += " ORDER BY ord, idx"
        loads = json.loads
        for (
            id_,
            key,
            item,
            order,
            index,
            tournament,
            finished,
            game_id,
            version,
            seed,
            players,
            duration,
            sandbox,
            columns,
        ) in self.db.execute(sql, args):
            options, bots, scores, ranks, teams, faults, times, dummies = loads(columns)
            record = GameRecord(
                game_id,
                version,
                options,
                int(seed),
                players,
                _seats(bots, scores, ranks, teams, faults, times),
                tuple([DummyResult(*row) for row in dummies]),
                (),
                duration,
                sandbox,
            )
            yield StoredGame(record, id_, key, item, order, index, tournament, finished)

    @_sound
    def records(self) -> Iterator[StoredGame]:
        """Every game, its whole record read, in plan order."""
        rows = self.db.execute(
            "SELECT id, key, item, ord, idx, tournament, finished, record "
            "FROM games ORDER BY ord, idx"
        )
        for row in rows:
            yield _whole(row)

    @_sound
    def levels(self) -> set[str]:
        """The sandbox levels its games were played at ('' for a game stored
        before levels were recorded), and the level a run claimed it at."""
        found = {
            level for (level,) in self.db.execute(f"SELECT DISTINCT {self._sandbox} FROM games")
        }
        claimed = self.meta().get("sandbox")
        return found | ({claimed} if claimed else set())

    @_sound
    def game_ids(self) -> list[str]:
        return [g for (g,) in self.db.execute("SELECT DISTINCT game FROM games ORDER BY game")]

    @_sound
    def record(self, ref: str | int) -> StoredGame:
        """A stored game, its whole record read, by its id (the number) or its key."""
        text = str(ref)
        column, value = ("id", int(text)) if text.isascii() and text.isdigit() else ("key", text)
        row = self.db.execute(
            "SELECT id, key, item, ord, idx, tournament, finished, record "
            f"FROM games WHERE {column} = ?",
            (value,),
        ).fetchone()
        if row is None:
            raise NoSuchGame(f"no game '{ref}' in {self.path}")
        return _whole(row)

    @_sound
    def stderr(self, game_ids: Iterable[int]) -> dict[int, dict[int, str]]:
        """The stderr kept of games ``game_ids``: ``{game id: {seat: text}}``
        (a game or seat without any is missing)."""
        found: dict[int, dict[int, str]] = {}
        if not self._has_stderr:
            return found
        query = "SELECT game, seat, text FROM stderr WHERE game IN ({marks})"
        for game, seat, text in self._rows_in(query, list(game_ids)):
            found.setdefault(game, {})[seat] = text
        return found

    def _rows_in(self, query: str, values: list) -> Iterator[tuple]:
        """The rows of ``query``, whose ``{marks}`` is an ``IN`` list, for
        ``values``: asked in chunks under SQLite's limit of variables."""
        for start in range(0, len(values), 500):
            chunk = values[start : start + 500]
            yield from self.db.execute(query.format(marks=", ".join("?" * len(chunk))), chunk)

    @_sound
    def seatings_left(self, game: StoredGame) -> int:
        """How many games planned on ``game``'s deal (its other seatings, and
        any other table given the same deal) are not stored yet.  While any
        is, the deal's hidden cards are still in play at another table:
        the viewer keeps the game's replay closed until it is 0."""
        seed = game.record.seed
        rows = self.db.execute(
            "SELECT data FROM items WHERE grp = (SELECT grp FROM items WHERE id = ?) "
            "AND instr(data, ?)",  # a cheap first sieve; the seeds are compared below
            (game.item, str(seed)),
        )
        planned = [
            item.key(index)
            for item in (MatchItem.from_dict(json.loads(data)) for (data,) in rows)
            for index, deal in enumerate(item.deals)
            if deal.seed == seed
        ]
        query = "SELECT COUNT(*) FROM games WHERE key IN ({marks})"
        return len(planned) - sum(count for (count,) in self._rows_in(query, planned))


def _whole(row: tuple) -> StoredGame:
    """A stored game from ``(id, key, item, ord, idx, tournament, finished,
    record)``: its record decoded from the blob."""
    *where, blob = row
    return StoredGame(decode_record(blob), *where)


def _changes(stored: dict[str, Any], given: dict[str, Any], prefix: str = "") -> str:
    """``time.move 1.0 -> 0.5, ...``: what differs between two nested dicts."""
    found = []
    for key in sorted(set(stored) | set(given)):
        old, new = stored.get(key), given.get(key)
        if isinstance(old, dict) and isinstance(new, dict):
            found.append(_changes(old, new, f"{prefix}{key}."))
        elif old != new:
            found.append(f"{prefix}{key} {old} -> {new}")
    return ", ".join(part for part in found if part)


SQLITE_HEADER = b"SQLite format 3\x00"


def check_file(path: Path) -> None:
    """Refuse a file that cannot be a sound store, before SQLite sees it:
    empty, not SQLite, or shorter than its header says (truncated)."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            header = f.read(100)
    except OSError as error:
        raise StoreError(
            f"{path}: cannot read the results store: {error.strerror or error}"
        ) from None
    if size == 0:
        raise StoreError(
            f"{path}: an empty file (0 bytes), not a results store; remove it to start afresh"
        )
    if not header.startswith(SQLITE_HEADER) or len(header) < 100:
        raise StoreError(f"{path}: not a results store (not an SQLite database)")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]  # the header's page count is current
    wal = Path(f"{path}-wal")
    checkpointed = not wal.exists() or wal.stat().st_size == 0
    if valid and checkpointed and size < pages * page_size:
        raise StoreError(
            f"{path}: truncated ({size} bytes, its header says "
            f"{pages * page_size}); restore it from a copy or use another "
            f"results folder"
        )


def _first_problem(verdict: str) -> str:
    """``quick_check``'s verdict on one line: its first problem, and how many
    more (a damaged store may list a hundred, one per line)."""
    problems = [line for line in verdict.splitlines() if not line.startswith("***")]
    more = f", and {len(problems) - 1} more" if len(problems) > 1 else ""
    return (problems[0] if problems else verdict) + more


def _check_writable(path: Path) -> None:
    """The driver writes the store: open it (and its WAL) for writing, which
    writes nothing -- permission bits alone say yes to root, even on a
    read-only mount or an immutable file."""
    for file in (path, Path(f"{path}-wal")):
        try:
            os.close(os.open(file, os.O_RDWR))
        except FileNotFoundError:
            continue
        except OSError as error:
            raise StoreError(
                f"{file}: the results store is read-only ({error.strerror or error})"
            ) from None


def _problem(path: Path, error: sqlite3.Error) -> str:
    """One line for what SQLite said about the store at ``path``."""
    text = str(error)
    if "readonly" in text:
        return f"{path}: the results store is read-only ({text})"
    if "malformed" in text or "not a database" in text or "decode" in text:
        return damaged(path, text)
    return f"{path}: cannot use the results store: {text}"


def damaged(path: Path, problem: str) -> str:
    """The one line for a damaged store, with what can be done."""
    return (
        f"the results store {path} is damaged: {problem}; restore it from a copy, "
        f"or export the games that can still be read with 'arena export --salvage'"
    )


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
