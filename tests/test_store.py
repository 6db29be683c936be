"""The results store: one committed row per game, never twice, in plan order."""

import sqlite3

import pytest

from arena.records import DummyRecord, GameRecord, SeatRecord
from arena.store import FILE_NAME, Store, StoreError, find_store
from arena.tournament.plan import MatchItem, PlannedDeal


def item(name="g/2p/a+b/d0", order=0, deals=3):
    return MatchItem(id=name, order=order, game="g", label="g", players=2, options={"x": 1},
                     lineup=("a", "b"),
                     deals=tuple(PlannedDeal(100 + k, (k % 2, 1 - k % 2)) for k in range(deals)))


def record(seed=100, winner=0, steps=3):
    seats = [SeatRecord("a", 10.0 if winner == 0 else 5.0, 1 if winner == 0 else 2, 0,
                        moves=steps, time_used=0.01),
             SeatRecord("b", 10.0 if winner == 1 else 5.0, 1 if winner == 1 else 2, 1,
                        fault="timeout" if winner == 0 else None, fault_detail="slow")]
    return GameRecord(game="g", version="1", options={"x": 1}, seed=seed, players=2, seats=seats,
                      dummies=[DummyRecord("mac", 1.0, 3)],
                      steps=[[[0, "hen"], [1, 7]] for _ in range(steps)], duration=0.5)


def test_rows_are_committed_at_once_and_visible_to_another_connection(tmp_path):
    store = Store(tmp_path)
    it = item()
    store.add_items([it])
    number = store.add_game(it, 0, record(), "t")
    assert number == 1
    # another connection (e.g. `arena leaderboard` during a run) sees it right away
    other = sqlite3.connect(tmp_path / FILE_NAME)
    assert other.execute("SELECT key, tournament, game, seed, bots, faults, moves FROM games") \
        .fetchall() == [("g/2p/a+b/d0/0", "t", "g", "100", '["a", "b"]', '[null, "timeout"]', 3)]
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
            ("early", 0), ("early", 1), ("early", 2), ("late", 0), ("late", 2)]


def test_record_round_trip_with_the_move_record(tmp_path):
    with Store(tmp_path) as store:
        it = item()
        original = record(steps=40)
        number = store.add_game(it, 2, original)
        got_number, key, back = store.record(number)
        assert (got_number, key) == (number, "g/2p/a+b/d0/2")
        assert back == original
        assert store.record(key)[2] == original
        with pytest.raises(StoreError):
            store.record(99)
        [summary] = store.games()
        assert summary.dummies == [["mac", 1.0, 3]] and summary.ranked == 3
        assert summary.faults == [None, "timeout"]


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
        store.claim("quick", "abc")     # resuming: fine
        with pytest.raises(StoreError, match="different plan"):
            store.claim("quick", "def")


def test_missing_store_and_finding_the_latest(tmp_path, monkeypatch):
    with pytest.raises(StoreError, match="no results store"):
        Store(tmp_path / "nothing", create=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError):
        find_store(None)
    Store(tmp_path / "results" / "one").close()
    assert find_store(None).name == "one"
    assert find_store("given").name == "given"


def test_games_gives_every_field_of_a_stored_game_in_its_place(tmp_path):
    from arena.store import StoredGame

    with Store(tmp_path) as store:
        it = item("g/2p/a+b/d0", order=4)
        store.add_game(it, 2, record(seed=102, winner=1, steps=5), "t")
        store.add_game(it, 0, record(seed=100), "t")
        first, second = store.games()
        assert second == StoredGame(
            id=1, key="g/2p/a+b/d0/2", item="g/2p/a+b/d0", order=4, index=2, game="g",
            players=2, bots=["a", "b"], scores=[5.0, 10.0], ranks=[2, 1], teams=[0, 1],
            faults=[None, None], dummies=[["mac", 1.0, 3]], moves=5, duration=0.5, seed=102)
        assert (first.id, first.key, first.index, first.seed) == (2, "g/2p/a+b/d0/0", 0, 100)
        assert first.faults == [None, "timeout"]
        assert [g.key for g in store.games("g")] == ["g/2p/a+b/d0/0", "g/2p/a+b/d0/2"]
        assert list(store.games("other")) == []
