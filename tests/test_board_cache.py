"""The leaderboard cache beside a store: the same document as a fresh build,
never a stale one, going on from the saved rater when the store grew."""

import json
import subprocess
import sys

import pytest
from test_layering import closure
from test_leaderboard import store  # noqa: F401  (the demo store fixture, shared)

from arena.presentation import board_cache
from arena.presentation.leaderboard import build, from_store
from arena.ratings.rating import Rater, compute
from arena.ratings.stats import Tally
from arena.records import GameRecord, SeatRecord
from arena.tournament.plan import MatchItem, PlannedDeal


def grow(store, count, order=5):
    """``count`` more games: a vegetables match of alpha, beta and gamma."""
    item = MatchItem(
        id=f"grow{order}",
        order=order,
        game="vegetables",
        label="vegetables",
        players=2,
        options={},
        lineup=("gamma", "beta"),
        deals=tuple(PlannedDeal(k, (0, 1)) for k in range(count)),
    )
    for k in range(count):
        gamma_wins = k % 3 != 0
        store.add_game(
            item,
            k,
            GameRecord(
                "vegetables",
                "1",
                {},
                k,
                2,
                [
                    SeatRecord("gamma", 30.0 if gamma_wins else 10.0, 1 if gamma_wins else 2, 0),
                    SeatRecord("beta", 10.0 if gamma_wins else 30.0, 2 if gamma_wins else 1, 1),
                ],
            ),
        )


def fresh(store, history=0):
    """The document built from scratch, as the cache hands documents back."""
    meta = store.meta()
    board = build(
        list(store.games()), history=history, name=meta.get("name", ""), stopped=meta.get("stopped")
    )
    return json.loads(json.dumps(board))


def cache_of(store):
    """What the cache holds (the body under its seal)."""
    return json.loads(json.loads(board_cache.path_of(store).read_text())["body"])


def edited(store, data, *, seal=True):
    """Write ``data`` as the cache: sealed under the folder's cache key, as
    the code writes it (``seal``), or under the seal it had (an edit)."""
    path = board_cache.path_of(store)
    sealed = json.loads(path.read_text())
    sealed["body"] = json.dumps(data)
    if seal:
        key = (store.folder / board_cache.KEY_NAME).read_bytes()
        sealed["seal"] = board_cache._seal(key, sealed["body"].encode())
    path.write_text(json.dumps(sealed))


def test_the_second_look_is_the_saved_document_and_a_new_game_voids_it(store, monkeypatch):
    first = from_store(store)
    assert first == fresh(store)
    assert cache_of(store)["content"]["games"] == 13
    # the second look really is the saved one: nothing is built
    import arena.presentation.leaderboard as leaderboard

    with monkeypatch.context() as patch:
        patch.setattr(leaderboard, "build", lambda *a, **k: pytest.fail("built again"))
        assert from_store(store) == first
    grow(store, 1)  # the store changed: never the old one
    again = from_store(store)
    assert again["tournament"]["name"] == "demo" and again["overall"]["games"] == 14
    assert again == fresh(store)


def test_meta_changes_void_it_too(store):
    from_store(store)
    store.set_meta("stopped", "interrupted")
    assert from_store(store)["tournament"]["stopped"] == "interrupted"


def test_each_chart_setting_has_its_own_document(store):
    plain, charted = from_store(store), from_store(store, history=5)
    assert "chart" not in plain["overall"] and "chart" in charted["overall"]
    assert charted == fresh(store, history=5)
    assert from_store(store) == plain and from_store(store, history=5) == charted


def test_a_grown_store_goes_on_from_the_saved_rater(store, monkeypatch):
    from_store(store)
    restored = []
    real = Rater.from_state.__func__
    monkeypatch.setattr(
        Rater, "from_state", classmethod(lambda cls, data: restored.append(data) or real(cls, data))
    )
    grow(store, 9)
    board = from_store(store)
    assert len(restored) == 1 and restored[0]["games"] == 13
    assert board == fresh(store)  # rounded figures: identical
    assert cache_of(store)["rater"]["state"]["games"] == 22


def test_a_saved_rater_whose_games_changed_is_not_used(store, monkeypatch):
    from_store(store)
    data = cache_of(store)
    data["rater"]["prefix"]["finished"] += 1.0  # as if an old game were replaced
    edited(store, data)
    grow(store, 2)
    monkeypatch.setattr(Rater, "from_state", classmethod(lambda cls, data: pytest.fail("used")))
    assert from_store(store) == fresh(store)


def test_a_cache_edited_under_its_keys_is_not_believed(store, caplog):
    """Issue 29 item 6: a cache edited to keep its keys (same store content,
    same code) was shown as it was edited; it fails its seal, is built again
    and the edit is said on one line."""
    from_store(store)
    data = cache_of(store)
    data["boards"]["0"]["tournament"]["name"] = "marked"
    edited(store, data, seal=False)
    with caplog.at_level("WARNING"):
        board = from_store(store)
    assert board["tournament"]["name"] == "demo" and board == fresh(store)
    warnings = [r.getMessage() for r in caplog.records if "fails its seal" in r.getMessage()]
    assert len(warnings) == 1 and "\n" not in warnings[0]
    # the control: the same edit sealed under the folder's key is believed,
    # so the seal (not some other key) is what refused the edit above
    data = cache_of(store)
    data["boards"]["0"]["tournament"]["name"] = "marked"
    edited(store, data)
    assert from_store(store)["tournament"]["name"] == "marked"
    # a cache without its key (copied from another folder) is not believed
    (store.folder / board_cache.KEY_NAME).unlink()
    assert from_store(store)["tournament"]["name"] == "demo"


def test_an_unreadable_cache_is_rebuilt(store):
    board_cache.path_of(store).write_text("{not json")
    assert from_store(store) == fresh(store)
    assert json.loads(board_cache.path_of(store).read_text())["version"] == board_cache.VERSION


@pytest.mark.parametrize("damage", ["rater", "tally", "prefix"])
def test_a_damaged_cache_is_read_from_scratch_not_a_traceback(store, damage):
    # valid JSON, current version and code, but cut or edited inside: the
    # cache is derived data, so the look rebuilds instead of failing
    from_store(store)
    data = cache_of(store)
    if damage == "prefix":
        del data["rater"]["state"]["last_id"]
    elif damage == "rater":
        data["rater"]["state"] = {"bogus": 1}
    else:
        data["tally"]["state"]["seats"] = [[1, 2]]
    edited(store, data)
    grow(store, 2)  # the saved states are asked for, not the document
    assert from_store(store) == fresh(store)
    assert cache_of(store)["rater"]["state"]["games"] == 15  # and saved afresh


def test_a_restored_rater_fits_what_a_fresh_one_fits(store):
    games = list(store.games())
    rater = Rater()
    rater.extend(games[:7])
    rater.board()
    again = Rater.from_state(json.loads(json.dumps(rater.state())))
    again.extend(games[7:])
    warm, cold = again.board(), compute(games, history=0)
    assert warm.games == cold.games == len(games)
    for name, pool in cold.pools.items():
        other = warm.pools[name]
        assert [s.name for s in other.table()] == [s.name for s in pool.table()]
        for bot, standing in pool.standings.items():
            mine = other.standings[bot]
            assert (mine.games, mine.wins, mine.faults) == (
                standing.games,
                standing.wins,
                standing.faults,
            )
            assert mine.mu == pytest.approx(standing.mu, abs=1e-8)
            assert mine.sigma == pytest.approx(standing.sigma, abs=1e-8)


def test_games_stored_out_of_plan_order_all_count(store):
    # parallel workers commit out of plan order: the first games read have
    # the largest ids, and none of the others may be taken as already held
    grow(store, 4, order=-1)
    ids = [game.id for game in store.games()]
    assert ids != sorted(ids)
    board = from_store(store)
    assert board == fresh(store) and board["overall"]["games"] == 17
    assert cache_of(store)["rater"]["state"]["games"] == 17


def test_a_grown_store_reads_only_its_new_games_and_goes_on_from_the_saved_tally(
    store, monkeypatch
):
    from arena.results.store import Store

    from_store(store)
    read, restored = [], []
    games, real = Store.games, Tally.from_state.__func__
    monkeypatch.setattr(
        Store,
        "games",
        lambda self, *a, **k: read.append(list(games(self, *a, **k))) or iter(read[-1]),
    )
    monkeypatch.setattr(
        Tally,
        "from_state",
        classmethod(lambda cls, data, sums: restored.append(data) or real(cls, data, sums)),
    )
    grow(store, 3)
    board = from_store(store)
    assert [len(r) for r in read] == [3] and restored[0]["games"] == 13
    monkeypatch.setattr(Store, "games", games)
    assert board == fresh(store) and board["overall"]["games"] == 16
    assert cache_of(store)["tally"]["state"]["games"] == 16


def test_resample_sums_that_are_not_the_saved_ones_are_not_used(store, monkeypatch):
    from_store(store)
    sums = store.folder / board_cache.SUMS_NAME
    blob = bytearray(sums.read_bytes())
    blob[8] ^= 1  # one bit of one sum
    sums.write_bytes(bytes(blob))
    assert from_store(store)["overall"]["games"] == 13  # the document needs no sums
    grow(store, 2)
    monkeypatch.setattr(Tally, "from_state", classmethod(lambda cls, *a: pytest.fail("used")))
    assert from_store(store) == fresh(store)
    sums.unlink()  # none at all: the same
    grow(store, 1, order=6)
    assert from_store(store) == fresh(store)


def test_a_charted_look_goes_on_from_the_saved_tally_and_keeps_the_rater(store, monkeypatch):
    from_store(store)
    rater = cache_of(store)["rater"]
    restored = []
    real = Tally.from_state.__func__
    monkeypatch.setattr(
        Tally,
        "from_state",
        classmethod(lambda cls, data, sums: restored.append(data) or real(cls, data, sums)),
    )
    grow(store, 4)
    board = from_store(store, history=5)
    assert restored[0]["games"] == 13 and board == fresh(store, history=5)
    assert cache_of(store)["tally"]["state"]["games"] == 17
    assert cache_of(store)["rater"] == rater  # its games are still the store's
    assert from_store(store) == fresh(store)  # and both go on from there
    assert cache_of(store)["rater"]["state"]["games"] == 17


def test_the_code_key_covers_every_arena_module_the_leaderboard_imports():
    found = set(board_cache.sources())
    # records and faults reach the leaderboard only through the store
    assert {
        board_cache.BUILDER,
        "arena.presentation.board_cache",
        "arena.results.store",
        "arena.records",
        "arena.records.faults",
        "arena.ratings.rating",
        "arena.ratings.thurstone",
        "arena.ratings.stats",
    } <= found
    # what a whole parse of every module finds, lazy imports in functions too
    assert closure(board_cache.BUILDER) <= found
    # the control: modules that build no leaderboard do not void its cache
    assert not {"arena.match.referee", "arena.tournament.runner", "arena.cli"} & found


def test_only_import_statements_are_read_for_the_code_key():
    source = (
        '''"""Import the games:\nfrom arena.match import is prose here."""\n'''
        "import os, arena.results.store as s\n"
        "from arena.ratings import (  # the rating code\n    rating,\n    stats,\n)\n"
        "def f():\n    from arena.records import GameRecord; g()\n"
    )
    assert board_cache._imports(source) == {
        "arena",
        "arena.results",
        "arena.results.store",
        "arena.ratings",
        "arena.ratings.rating",
        "arena.ratings.stats",
        "arena.records",
    }


def test_the_code_key_imports_nothing_it_hashes():
    # a cache hit needs neither numpy nor the rating code
    check = (
        "import sys; from arena.presentation import board_cache; board_cache.code_key(); "
        "print(sorted({'numpy', 'arena.ratings.rating', 'arena.ratings.stats'}"
        " & set(sys.modules)))"
    )
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
