"""The short form of ``make chaos`` (tools/chaos.py): one fault of each of
four kinds (the driver and a pool worker killed, the cache edited, the
store's pages damaged), each resumed to the store of an uninterrupted run,
game for game, with no traceback and nothing left behind; and the controls:
each thing the suite checks, when it is wrong, is caught."""

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))

import chaos

from arena.sandbox.uids import LOCK_DIR

SHORT = ("driver-sigkill", "worker-sigkill", "cache-edited", "store-damaged")


def test_one_fault_of_each_of_four_kinds_is_survived():
    said = []
    survived = chaos.campaign(len(SHORT), seed=7, say=said.append, kinds=SHORT)
    assert survived == {kind: 1 for kind in SHORT}, said


def test_a_store_that_differs_is_caught(monkeypatch):
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
    with pytest.raises(chaos.Failed) as caught:
        chaos.campaign(1, seed=7, say=lambda line: None, kinds=["cache-removed"])
    assert "seed 7, fault 0" in str(caught.value) and "1 lost" in str(caught.value)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    work = tmp_path_factory.mktemp("chaos")
    return work, chaos.reference_run(work)


def _leaves_a_process(trial):
    trial.stray = subprocess.Popen(["sleep", "60"])  # ended by the test, once caught
    trial.watch.add(trial.stray.pid)


#: bot cgroups the check is shown besides the real ones (a real group nobody
#: holds would be removed by any other run on the machine meanwhile)
SHOWN_GROUPS: dict[int, list[str]] = {}


def _leaves_a_cgroup(trial):
    trial.play()  # (the run removes dead referees' groups: made after it)
    trial.resumed = True
    # a uid outside the sandbox's range: no referee holds its lease
    trial.stray_uid = 2_000_000_000 + os.getpid()
    SHOWN_GROUPS[trial.stray_uid] = [f"/sys/fs/cgroup/pids/arena-bot-{trial.stray_uid}"]


def _leaves_a_temporary(trial):
    trial.play()
    trial.resumed = True  # (a run would write its own and rename it)
    (trial.results / "leaderboard.tmp").write_text("")


def _says_a_traceback(trial):
    trial.outputs.append('Traceback (most recent call last):\n  File "x.py"')


@pytest.mark.parametrize(
    ("fault", "caught"),
    [
        (_leaves_a_process, "left behind: processes ['"),
        (_leaves_a_cgroup, "cgroups ['"),
        (_leaves_a_temporary, "temporary files left: ['leaderboard.tmp']"),
        (_says_a_traceback, "a traceback in the output"),
    ],
)
def test_what_a_fault_leaves_behind_is_caught(reference, monkeypatch, fault, caught):
    """The controls of the suite's checks: a process of the run still
    running, a bot cgroup nobody holds, a temporary file, a traceback."""
    work, games = reference
    trials = []

    def inject(trial):
        trials.append(trial)
        fault(trial)

    monkeypatch.setitem(chaos.INJECT, "control", inject)
    monkeypatch.setattr(chaos, "GRACE", 0.5)
    real = chaos.bot_groups
    monkeypatch.setattr(chaos, "bot_groups", lambda: {**real(), **SHOWN_GROUPS})
    try:
        with pytest.raises(chaos.Failed) as failed:
            chaos.survive("control", 1, games, work)
    finally:
        for trial in trials:
            if hasattr(trial, "stray"):
                trial.stray.kill()
                trial.stray.wait()
            if hasattr(trial, "stray_uid"):
                SHOWN_GROUPS.clear()
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(os.path.join(LOCK_DIR, str(trial.stray_uid)))
    assert caught in str(failed.value)


def test_the_faults_are_real(reference, monkeypatch):
    """The damage the store-damaged kind makes is real: left in place (not
    restored from the copy), the resumed run refuses the store, and the
    suite says so."""
    work, games = reference

    def damage_kept(trial):
        trial.play()
        store = trial.results / "results.sqlite"
        chaos._damage(trial, store, store.read_bytes())

    monkeypatch.setitem(chaos.INJECT, "control", damage_kept)
    with pytest.raises(chaos.Failed) as failed:
        chaos.survive("control", 2, games, work)
    assert "the resumed run failed" in str(failed.value) and "is damaged" in str(failed.value)
