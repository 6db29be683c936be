"""The short form of ``make chaos`` (tools/chaos.py): one fault of each kind,
each resumed to the store of an uninterrupted run, game for game, with no
traceback and no temporary file left."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))

import chaos


def test_one_fault_of_each_kind_is_survived():
    said = []
    survived = chaos.campaign(len(chaos.KINDS), seed=7, say=said.append)
    assert survived == {kind: 1 for kind in chaos.KINDS}, said


def test_a_store_that_differs_is_caught(tmp_path, monkeypatch):
    """The control: a resumed store with a game missing fails the check."""
    reference = []
    real = chaos.rows

    def first_run_rows(results):
        found = real(results)
        if not reference:
            reference.extend(found)
            return found
        return found[:-1]  # as if a game were lost

    monkeypatch.setattr(chaos, "rows", first_run_rows)
    try:
        chaos.campaign(1, seed=7, say=lambda line: None)
    except chaos.Failed as error:
        assert "seed 7, fault 0" in str(error) and "1 lost" in str(error)
    else:
        raise AssertionError("a lost game went unnoticed")
