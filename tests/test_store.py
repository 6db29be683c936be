"""The results store: one committed row per game, never twice, in plan order."""

import contextlib
import json
import os
import re
import sqlite3
import subprocess
import sys
from dataclasses import replace

import pytest

from arena.game import DummyResult
from arena.records import GameRecord, SeatRecord
from arena.results.store import FILE_NAME, Store, StoreError, find_store
from arena.tournament.plan import MatchItem, PlannedDeal


def item(name="g/2p/a+b/d0", order=0, deals=3):
    return MatchItem(
        id=name,
        order=order,
        game="g",
        label="g",
        players=2,
        options={"x": 1},
        lineup=("a", "b"),
        deals=tuple(PlannedDeal(100 + k, (k % 2, 1 - k % 2)) for k in range(deals)),
    )


def record(seed=100, winner=0, steps=3):
    seats = [
        SeatRecord(
            "a",
            10.0 if winner == 0 else 5.0,
            1 if winner == 0 else 2,
            0,
            moves=steps,
            time_used=0.01,
        ),
        SeatRecord(
            "b",
            10.0 if winner == 1 else 5.0,
            1 if winner == 1 else 2,
            1,
            fault="timeout" if winner == 0 else None,
            fault_detail="slow",
        ),
    ]
    return GameRecord(
        game="g",
        version="1",
        options={"x": 1},
        seed=seed,
        players=2,
        seats=seats,
        dummies=[DummyResult("mac", 1.0, 3)],
        steps=[[[0, "hen"], [1, 7]] for _ in range(steps)],
        duration=0.5,
    )


def test_rows_are_committed_at_once_and_visible_to_another_connection(tmp_path):
    store = Store(tmp_path)
    it = item()
    store.add_items([it])
    assert store.add_game(it, 0, record(), "t").id == 1
    # another connection (e.g. `arena leaderboard` during a run) sees it right away
    other = sqlite3.connect(tmp_path / FILE_NAME)
    assert other.execute(
        "SELECT key, tournament, game, seed, bots, faults, moves FROM games"
    ).fetchall() == [("g/2p/a+b/d0/0", "t", "g", "100", '["a", "b"]', '[null, "timeout"]', 3)]
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()


def test_a_game_is_never_stored_twice(tmp_path):
    with Store(tmp_path) as store:
        it = item()
        assert store.add_game(it, 1, record()) is not None
        assert store.add_game(it, 1, record(winner=1)) is None
        assert store.count() == 1
        assert store.finished_keys() == {"g/2p/a+b/d0/1"}


def test_games_come_back_in_plan_order_whatever_the_arrival_order(tmp_path):
    with Store(tmp_path) as store:
        late, early = item("late", order=5), item("early", order=1)
        for it, index in [(late, 2), (early, 1), (late, 0), (early, 0), (early, 2)]:
            store.add_game(it, index, record(seed=index))
        assert [(g.item, g.index) for g in store.games()] == [
            ("early", 0),
            ("early", 1),
            ("early", 2),
            ("late", 0),
            ("late", 2),
        ]


def test_record_round_trip_with_the_move_record(tmp_path):
    with Store(tmp_path) as store:
        it = item()
        original = record(steps=40)
        number = store.add_game(it, 2, original).id
        back = store.record(number)
        assert (back.id, back.key) == (number, "g/2p/a+b/d0/2")
        assert back.record == original
        assert store.record(back.key).record == original
        with pytest.raises(StoreError):
            store.record(99)
        [summary] = store.games()
        assert summary.record.dummies == (DummyResult("mac", 1.0, 3),)
        assert summary.record.ranked == 3
        assert [seat.fault for seat in summary.record.seats] == [None, "timeout"]


def test_add_game_returns_the_game_as_every_read_gives_it_back(tmp_path):
    with Store(tmp_path) as store:
        it = item()
        written = store.add_game(it, 1, record(steps=7), "t")
        assert (
            written.id,
            written.key,
            written.item,
            written.order,
            written.index,
            written.tournament,
        ) == (1, "g/2p/a+b/d0/1", "g/2p/a+b/d0", 0, 1, "t")
        assert written.record == record(steps=7) and written.finished > 0
        assert store.record(written.id) == written == next(store.records())
        [summary] = store.games()  # the columns: all but the move record and details
        assert summary == replace(
            written,
            record=replace(
                written.record,
                steps=(),
                seats=tuple(
                    seat._replace(fault_detail=None, moves=0) for seat in written.record.seats
                ),
            ),
        )


def test_items_survive_and_keep_their_first_order(tmp_path):
    with Store(tmp_path) as store:
        store.add_items([item("x", order=3), item("y", order=4)])
        store.add_items([item("x", order=9)])
    with Store(tmp_path, create=False) as store:
        assert [(i.id, i.order) for i in store.items()] == [("x", 3), ("y", 4)]
        assert store.items()[0].deals == item("x").deals


def test_a_store_belongs_to_one_tournament(tmp_path):
    with Store(tmp_path) as store:
        store.claim("quick", "abc")
        store.claim("quick", "abc")  # resuming: fine
        with pytest.raises(StoreError, match="different plan"):
            store.claim("quick", "def")


def test_missing_store_and_finding_the_latest(tmp_path, monkeypatch):
    with pytest.raises(StoreError, match=r"no results store in .*nothing \(expected .*results"):
        Store(tmp_path / "nothing", create=False)
    (tmp_path / "notes").write_text("x")
    with pytest.raises(StoreError, match=r"no results store in .*notes: it is a file"):
        Store(tmp_path / "notes", create=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError):
        find_store(None)
    Store(tmp_path / "results" / "one").close()
    assert find_store(None).name == "one"
    Store(tmp_path / "results" / "two").close()
    os.utime(tmp_path / "results" / "one" / FILE_NAME, (2_000_000_000, 2_000_000_000))
    os.utime(tmp_path / "results" / "two" / FILE_NAME, (1_000_000_000, 1_000_000_000))
    assert find_store(None).name == "one"  # the most recently written, not the first made
    assert find_store("given").name == "given"


def test_games_gives_every_field_of_a_stored_game_in_its_place(tmp_path):
    from arena.results.store import StoredGame

    with Store(tmp_path) as store:
        it = item("g/2p/a+b/d0", order=4)
        store.add_game(it, 2, record(seed=102, winner=1, steps=5), "t")
        store.add_game(it, 0, record(seed=100), "t")
        first, second = store.games()
        assert second == StoredGame(
            GameRecord(
                game="g",
                version="1",
                options={"x": 1},
                seed=102,
                players=2,
                seats=(SeatRecord("a", 5.0, 2, 0, time_used=0.01), SeatRecord("b", 10.0, 1, 1)),
                dummies=(DummyResult("mac", 1.0, 3),),
                duration=0.5,
            ),
            id=1,
            key="g/2p/a+b/d0/2",
            item="g/2p/a+b/d0",
            order=4,
            index=2,
            tournament="t",
            finished=second.finished,
        )
        assert (first.id, first.key, first.index, first.record.seed) == (2, "g/2p/a+b/d0/0", 0, 100)
        assert [seat.fault for seat in first.record.seats] == [None, "timeout"]
        assert [g.key for g in store.games("g")] == ["g/2p/a+b/d0/0", "g/2p/a+b/d0/2"]
        assert list(store.games("other")) == []


def test_check_file_refuses_what_cannot_be_a_store_before_sqlite_sees_it(tmp_path):
    from arena.results.store import check_file

    with Store(tmp_path) as store:
        store.add_game(item(), 0, record())
    path = tmp_path / FILE_NAME
    check_file(path)  # a sound store passes
    whole = path.read_bytes()
    assert len(whole) >= 2 * 4096
    bad = tmp_path / "bad.sqlite"
    cases = [
        (b"", "an empty file"),
        (b"hello" * 40, "not an SQLite database"),
        (whole[:99], "not an SQLite database"),
        (b"x" + whole[1:], "not an SQLite database"),
        (whole[:-1], r"truncated \(\d+ bytes, its header says \d+\)"),
    ]
    for content, says in cases:
        bad.write_bytes(content)
        with pytest.raises(StoreError, match=says):
            check_file(bad)
    # a file exactly its header's length passes; with a WAL beside it that is not
    # empty the header's page count may be stale, so size is not judged
    bad.write_bytes(whole)
    check_file(bad)
    bad.write_bytes(whole + bytes(4096))  # longer than its header says: SQLite ignores the rest
    check_file(bad)
    bad.write_bytes(whole[:4096])
    (tmp_path / "bad.sqlite-wal").write_bytes(b"w")
    check_file(bad)
    (tmp_path / "bad.sqlite-wal").write_bytes(b"")
    with pytest.raises(StoreError, match="truncated"):
        check_file(bad)
    # a header whose page count is not current (bytes 24-28 differ from 92-96)
    stale = bytearray(whole[:4096])
    stale[95] ^= 1
    bad.write_bytes(bytes(stale))
    check_file(bad)


def test_check_file_reads_the_page_size_and_count_from_the_header(tmp_path):
    from arena.results.store import SQLITE_HEADER, check_file

    def header(page_size_field, pages):
        data = bytearray(100)
        data[:16] = SQLITE_HEADER
        data[16:18] = page_size_field.to_bytes(2, "big")
        data[24:28] = data[92:96] = (7).to_bytes(4, "big")
        data[28:32] = pages.to_bytes(4, "big")
        return bytes(data)

    path = tmp_path / "s.sqlite"
    path.write_bytes(header(512, 2).ljust(1024, b"\0"))
    check_file(path)  # 2 pages of 512 bytes: whole
    path.write_bytes(header(512, 3).ljust(1024, b"\0"))
    with pytest.raises(StoreError, match="its header says 1536"):
        check_file(path)
    path.write_bytes(header(1, 1).ljust(4096, b"\0"))  # 1 stands for 65536
    with pytest.raises(StoreError, match="its header says 65536"):
        check_file(path)
    path.write_bytes(header(512, 1 << 24).ljust(1024, b"\0"))  # the count's low byte matters
    with pytest.raises(StoreError, match="truncated"):
        check_file(path)


def test_changed_conditions_are_named_key_by_key(tmp_path):
    from arena.results.store import _changes

    assert (
        _changes(
            {"time": {"move": 1.0, "bank": 0}, "memory": 5},
            {"time": {"move": 0.5, "bank": 0}, "cpu": 2},
        )
        == "cpu None -> 2, memory 5 -> None, time.move 1.0 -> 0.5"
    )
    assert _changes({"time": {"move": 1.0}}, {"time": 3}) == "time {'move': 1.0} -> 3"
    assert _changes({"a": 1}, {"a": 1}) == ""
    text = '{"time": {"move": 1.5, "bank": 12345678}, "sandbox": "strict mode"}'
    assert _changes(json.loads(text), json.loads(text)) == ""  # equal, not the same objects
    with Store(tmp_path) as store:
        store.claim("t", "fp", conditions={"time": {"move": 1.0}})
        store.claim("t", "fp", conditions={"time": {"move": 1.0}})  # the same: fine
        with pytest.raises(StoreError, match=r"other conditions \(time.move 1.0 -> 0.5\)"):
            store.claim("t", "fp", conditions={"time": {"move": 0.5}})
        with pytest.raises(StoreError, match=r"other conditions \(time \{'move': 1.0\} -> None\)"):
            store.claim("t", "fp")


def test_sqlites_complaints_become_one_line_each(tmp_path):
    from arena.results.store import _problem

    path = tmp_path / FILE_NAME
    assert (
        _problem(path, sqlite3.OperationalError("attempt to write a readonly database"))
        == f"{path}: the results store is read-only (attempt to write a readonly database)"
    )
    for text in ("database disk image is malformed", "file is not a database"):
        assert (
            _problem(path, sqlite3.DatabaseError(text))
            == f"the results store {path} is damaged: {text}; restore it from a copy, "
            "or export the games that can still be read with 'arena export --salvage'"
        )
    assert (
        _problem(path, sqlite3.OperationalError("disk I/O error"))
        == f"{path}: cannot use the results store: disk I/O error"
    )


def test_time_used_is_kept_to_a_tenth_of_a_millisecond(tmp_path):
    with Store(tmp_path) as store:
        rec = record()
        rec = replace(rec, seats=(rec.seats[0]._replace(time_used=0.123456), rec.seats[1]))
        store.add_game(item(), 0, rec)
        stored = store.db.execute("SELECT time_used FROM games").fetchone()[0]
    assert stored == "[0.1235, 0.0]"


def test_a_store_that_may_be_written_is_not_opened_immutable(tmp_path):
    with Store(tmp_path) as store:
        store.add_game(item(), 0, record())
    reader = Store(tmp_path, create=False)
    with Store(tmp_path) as writer:
        writer.add_game(item(), 1, record())
        # still in the writer's WAL: a reader opened immutable would not see it
        assert reader.count() == 2
    reader.close()


def test_create_must_be_named(tmp_path):
    # a bare True/False after the folder tells a reader nothing: create= is named
    with pytest.raises(TypeError):
        Store(tmp_path, False)


def test_fingerprint_counts_the_games_up_to_an_id(tmp_path):
    with Store(tmp_path) as store:
        assert store.fingerprint() == (0, -1, 0.0)
        for index in range(3):
            store.add_game(item(), index, record(seed=100 + index))
        finished = [f for (f,) in store.db.execute("SELECT finished FROM games ORDER BY id")]
        count, last, total = store.fingerprint()
        assert (count, last) == (3, 3) and total == pytest.approx(sum(finished))
        count, last, total = store.fingerprint(up_to=2)
        assert (count, last) == (2, 2) and total == pytest.approx(sum(finished[:2]))
        store.db.execute("UPDATE games SET finished = finished + 1 WHERE id = 1")  # replaced
        assert store.fingerprint()[2] == pytest.approx(sum(finished) + 1)
        store.db.execute("UPDATE games SET id = 100000 WHERE id = 3")  # a long run's ids
        assert store.fingerprint()[:2] == (3, 100000)


def test_a_store_keeps_the_key_it_was_first_played_with(tmp_path):
    with Store(tmp_path) as store:
        store.bind_key("m")
        store.bind_key("m")  # resuming with the same key: fine
        for other in ("a", "z"):  # another key, whichever way it sorts
            with pytest.raises(
                StoreError, match=f"another key \\(fingerprint m, this one {other}\\)"
            ):
                store.bind_key(other)
        assert store.meta()["key"] == "m"


def test_conditions_are_the_same_whatever_the_order_of_their_keys(tmp_path):
    with Store(tmp_path) as store:
        store.claim("t", "fp", conditions={"time": {"move": 1.0, "bank": 5}, "memory": 2})
        store.claim("t", "fp", conditions={"memory": 2, "time": {"bank": 5, "move": 1.0}})
        assert store.meta()["conditions"] == '{"memory": 2, "time": {"bank": 5, "move": 1.0}}'


def test_another_programs_sqlite_file_is_refused_and_left_alone(tmp_path):
    other = sqlite3.connect(tmp_path / FILE_NAME)
    other.execute("CREATE TABLE notes (text TEXT)")
    other.commit()
    other.close()
    for create in (True, False):
        with pytest.raises(StoreError, match="an SQLite file but not a results store"):
            Store(tmp_path, create=create)
    tables = (
        sqlite3.connect(tmp_path / FILE_NAME).execute("SELECT name FROM sqlite_master").fetchall()
    )
    assert tables == [("notes",)]


def test_a_store_gone_read_only_under_the_driver_is_a_store_error_on_every_write(tmp_path):
    with Store(tmp_path) as store:
        store.db.execute("PRAGMA query_only = ON")  # as a disk remounted read-only
        writes = [
            lambda: store.add_items([item()]),
            lambda: store.add_game(item(), 0, record()),
            lambda: store.claim("t", "fp"),
            lambda: store.bind_key("k"),
            lambda: store.set_meta("stopped", "interrupted"),
        ]
        for write in writes:
            with pytest.raises(StoreError, match="the results store is read-only"):
                write()


def test_damaged_pages_found_while_reading_are_a_store_error(tmp_path):
    with Store(tmp_path) as store:
        it = item(deals=30)
        store.claim("t", "fp")
        store.add_items([item(f"i{k}", order=k) for k in range(200)])
        for index in range(30):
            store.add_game(it, index, record(seed=index, steps=300))
    path = tmp_path / FILE_NAME
    with contextlib.closing(sqlite3.connect(path)) as db:  # every page in the file, none
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # left in the WAL to read instead
    data = bytearray(path.read_bytes())
    for page in range(4096, len(data) - 4096, 4096):  # every page but the schema
        data[page + 8 : page + 200] = b"\xff" * 192
    path.write_bytes(bytes(data))
    with Store(tmp_path, create=False) as reader:
        reads = [
            reader.meta,
            lambda: list(reader.records()),
            lambda: list(reader.games()),
            reader.items,
            reader.game_ids,
            lambda: reader.record(5),
            reader.finished_keys,
            reader.fingerprint,
        ]
        for read in reads:
            with pytest.raises(StoreError, match="is damaged"):
                read()
    # the driver checks the pages before adding to them, and says so on one line
    with pytest.raises(StoreError) as refused:
        Store(tmp_path)
    assert "\n" not in str(refused.value)
    assert re.fullmatch(
        rf"the results store {re.escape(str(path))} is damaged: On tree page "
        rf"\d+ .*, and \d+ more; restore it from a copy, or export .*--salvage'",
        str(refused.value),
    )


def read_only_run(target, folder, code):
    """Run ``code`` (``folder`` set) with ``target`` on a read-only bind mount,
    in a mount namespace of its own: unwritable even for root; its output lines."""
    shown = subprocess.run(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            f"mount --bind -o ro '{target}' '{target}' && ! sh -c 'echo >> {target}' 2>/dev/null"
            f" && exec '{sys.executable}' -c \"$0\"",
            f"folder = {str(folder)!r}\n{code}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    return shown.stdout.splitlines()


def test_a_store_on_a_read_only_mount_is_refused_to_the_driver_and_read_by_readers(tmp_path):
    with Store(tmp_path) as store:
        store.add_game(item(), 0, record())
    probe = (
        "from arena.results.store import Store, StoreError\n"
        "try:\n    Store(folder)\nexcept StoreError as error:\n    print(error)\n"
        "with Store(folder, create=False) as reader:\n    print(reader.count())\n"
    )
    path = tmp_path / FILE_NAME
    expected = [f"{path}: the results store is read-only (Read-only file system)", "1"]
    assert read_only_run(tmp_path, tmp_path, probe) == expected
    # only the file read-only, its folder writable: the reader still leaves no file beside it
    assert read_only_run(path, tmp_path, probe) == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]


def test_a_store_that_cannot_be_read_says_why_in_words(tmp_path):
    (tmp_path / FILE_NAME).mkdir()
    with pytest.raises(
        StoreError,
        match=r"results.sqlite: cannot read the results store: "
        r"Is a directory$",
    ):
        Store(tmp_path, create=False)


def test_a_game_records_places_and_deal(tmp_path):
    rec = record(seed=123, winner=1, steps=4)
    rec = replace(rec, dummies=rec.dummies + (DummyResult("rob", 0.0, 4),))
    assert rec.ranked == 4 and rec.deal == ("g", 2, 123)


def test_the_store_methods_keep_their_names_and_docstrings():
    from arena.results.store import Store

    for name in ("games", "records", "meta", "add_game"):  # generators and plain methods
        method = getattr(Store, name)
        assert method.__name__ == name and method.__doc__ == method.__wrapped__.__doc__
    assert Store.games.__doc__.startswith("Finished games in plan order")


def test_set_meta_sets_replaces_and_removes_one_entry(tmp_path):
    with Store(tmp_path) as store:
        store.set_meta("stopped", "interrupted")
        store.set_meta("stopped", "the stopping rule")
        assert store.meta() == {"stopped": "the stopping rule"}
        store.set_meta("stopped", None)
        assert store.meta() == {}


def test_quick_checks_verdict_is_told_on_one_line():
    from arena.results.store import _first_problem

    assert _first_problem("*** in database main ***\nPage 5: never used") == "Page 5: never used"
    assert (
        _first_problem("*** in database main ***\nPage 5: never used\nPage 6: never used")
        == "Page 5: never used, and 1 more"
    )
    # a verdict of another shape is quoted as it is
    assert _first_problem("*** in database main ***") == "*** in database main ***"
