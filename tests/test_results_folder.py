"""The results folder and its store, as an operator meets them: one run per
folder (a second one says who holds it; a dead run's lock is taken over),
and a bad folder or store is one line naming it, exit 2, nothing touched."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.results.store import FILE_NAME, Store
from arena.tournament.lock import LOCK_FILE, RunLock

ROOT = Path(__file__).parents[1]
ARENA = str(Path(sys.executable).parent / "arena")

TINY = """
name = "tiny"
seed = 3
workers = 0
deals = 1
bots = ["random", "farm-and-furious-racer"]
[time]
move = 1.0
[[games]]
id = "farm-and-furious"
players = [2]
options = { track_length = 6 }
"""


def arena(*args, wrap: str | None = None) -> subprocess.CompletedProcess:
    """Run the real command; ``wrap`` is shell run first in a private mount
    namespace (to make a path really read-only, even for root)."""
    command = [ARENA, *map(str, args)]
    if wrap is not None:
        quoted = " ".join(f"'{part}'" for part in command)
        command = [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            f"{wrap} && exec {quoted}",
        ]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)


def one_line_error(result, *says):
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("arena: error: ") and "Traceback" not in result.stderr
    for text in says:
        assert text in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A real store of a finished tiny tournament (copied per test)."""
    base = tmp_path_factory.mktemp("played")
    (base / "tiny.toml").write_text(TINY.replace("deals = 1", "deals = 6"))
    result = arena("tournament", base / "tiny.toml", "--results", base / "r", "--quiet")
    assert result.returncode == 0, result.stderr
    return base / "r" / FILE_NAME


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    return path


# -- one run per folder -------------------------------------------------------


def test_a_second_run_on_a_folder_in_use_says_who_and_plays_nothing(tmp_path, broken_bot):
    path = tmp_path / "slow.toml"
    path.write_text(
        TINY.replace(
            '"farm-and-furious-racer"',
            f'{{ name = "slow", bot = {json.dumps(broken_bot("slow", "0.05"))} }}',
        )
        .replace("deals = 1", "deals = 40")
        .replace("workers = 0", "workers = 1")
    )
    results = tmp_path / "r"
    first = subprocess.Popen(
        [ARENA, "tournament", str(path), "--results", str(results), "--quiet"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert first.poll() is None, first.communicate()
            if (results / FILE_NAME).exists():
                with Store(results, create=False) as store:
                    if store.count() >= 1:
                        break
            time.sleep(0.1)
        with Store(results, create=False) as store:
            before = store.count()
        second = arena("tournament", path, "--results", results)
        one_line_error(second, str(results), "in use", f"pid {first.pid}", "since")
        assert second.stdout == ""
        with Store(results, create=False) as store:
            keys = store.finished_keys()
        assert len(keys) >= before  # the first run goes on
    finally:
        os.killpg(first.pid, signal.SIGINT)
        first.communicate(timeout=60)
    assert first.returncode == 130
    # the first run's lock is gone with it: the folder is free again
    RunLock(results).acquire().release()


def test_a_lock_left_by_a_dead_run_is_taken_over(tmp_path, tiny):
    results = tmp_path / "r"
    results.mkdir()
    # a run that died by kill -9: its pid is gone, its lock with it
    dead = subprocess.Popen(["sleep", "60"])
    dead.kill()
    dead.wait()
    (results / LOCK_FILE).write_text(f"{dead.pid} 2026-01-01T00:00:00Z\n")
    result = arena("tournament", tiny, "--results", results, "--quiet")
    assert result.returncode == 0, result.stderr
    assert "played 2 games" in result.stdout
    holder = (results / LOCK_FILE).read_text().split()
    assert holder[0] != str(dead.pid)  # the new run wrote its own


# -- bad folders --------------------------------------------------------------


def test_a_results_path_that_is_a_file(tmp_path, tiny):
    target = tmp_path / "r"
    target.write_text("notes\n")
    one_line_error(arena("tournament", tiny, "--results", target), str(target), "is a file")
    for reader in (("leaderboard", target), ("replay", target, "1")):
        one_line_error(arena(*reader), str(target), "no results store", "is a file")
    assert target.read_text() == "notes\n"


def test_a_results_path_under_a_file(tmp_path, tiny):
    blocker = tmp_path / "notes"
    blocker.write_text("x")
    one_line_error(arena("tournament", tiny, "--results", blocker / "r"), f"{blocker} is a file")
    one_line_error(arena("leaderboard", blocker / "r"), "no results store")
    assert blocker.read_text() == "x"


def test_an_unwritable_results_folder(tmp_path, tiny):
    results = tmp_path / "r"
    results.mkdir()
    # a read-only bind mount: unwritable even for root (the probe proves it)
    wrap = f"mount --bind -o ro {results} {results} && ! touch {results}/probe 2>/dev/null"
    one_line_error(
        arena("tournament", tiny, "--results", results, wrap=wrap),
        str(results),
        "Read-only file system",
    )
    assert list(results.iterdir()) == []


# -- bad stores ---------------------------------------------------------------


def _damage(kind: str, store: Path, played: Path) -> None:
    data = played.read_bytes()
    if kind == "truncated":
        store.write_bytes(data[: len(data) // 2])
    elif kind == "garbage":
        store.write_bytes(bytes(range(256)) * 40)
    elif kind == "empty":
        store.write_bytes(b"")
    elif kind == "damaged":  # header and size intact, pages garbled
        garbled = bytearray(data)
        for offset in range(4096, len(garbled), 4096):
            garbled[offset : offset + 200] = bytes(range(200))
        store.write_bytes(bytes(garbled))


@pytest.mark.parametrize(
    "kind, says",
    [
        ("truncated", "truncated"),
        ("garbage", "not a results store"),
        ("empty", "empty file"),
        ("damaged", "damaged"),
    ],
)
def test_a_bad_store_is_refused_by_every_command_and_left_untouched(
    tmp_path, tiny, played, kind, says
):
    results = tmp_path / "r"
    results.mkdir()
    store = results / FILE_NAME
    _damage(kind, store, played)
    before = store.read_bytes()
    for args in (
        ("tournament", tiny, "--results", results),
        ("leaderboard", results),
        ("replay", results, "1"),
    ):
        one_line_error(arena(*args), str(store), says)
        assert store.read_bytes() == before, args
    assert not (results / "leaderboard.html").exists()


def test_a_read_only_store(tmp_path, tiny, played):
    results = tmp_path / "r"
    results.mkdir()
    store = results / FILE_NAME
    shutil.copyfile(played, store)
    shutil.copyfile(played.parent.parent / "tiny.toml", tiny)  # the tournament it holds
    before = store.read_bytes()
    wrap = f"mount --bind -o ro {store} {store} && ! sh -c 'echo >> {store}' 2>/dev/null"
    one_line_error(
        arena("tournament", tiny, "--results", results, wrap=wrap), str(store), "read-only"
    )
    assert store.read_bytes() == before
    # reading it is fine: the leaderboard and replay open it read-only
    board = arena("leaderboard", results, "--format", "json", wrap=wrap)
    assert board.returncode == 0, board.stderr
    assert {row["bot"] for row in json.loads(board.stdout)["overall"]["bots"]} == {
        "random",
        "farm-and-furious-racer",
    }
    assert arena("replay", results, "1", wrap=wrap).returncode == 0
    assert store.read_bytes() == before


@pytest.mark.parametrize(
    "change, says",
    [
        (("move = 1.0", "move = 0.2"), "time.move 1.0 -> 0.2"),
        (("[time]", "[limits]\nmemory_mb = 512\n[time]"), "limits.random.memory"),
    ],
)
def test_a_changed_time_control_or_limit_is_refused(tmp_path, tiny, change, says):
    results = tmp_path / "r"
    assert arena("tournament", tiny, "--results", results, "--quiet").returncode == 0
    before = (results / FILE_NAME).read_bytes()
    tiny.write_text(tiny.read_text().replace(*change))
    one_line_error(arena("tournament", tiny, "--results", results), "other conditions", says)
    assert (results / FILE_NAME).read_bytes() == before


def test_a_forked_child_does_not_keep_the_folder_locked(tmp_path):
    # a worker still dying after its driver was killed must not hold the lock
    from arena.tournament.lock import FolderInUse, RunLock

    lock = RunLock(tmp_path).acquire()
    ready, tell = os.pipe()
    child = os.fork()
    if child == 0:  # the worker: outlives the driver's hold
        os.write(tell, b"x")  # (the fork handlers have run by now)
        time.sleep(2)
        os._exit(0)
    os.read(ready, 1)
    try:
        with pytest.raises(FolderInUse):
            RunLock(tmp_path).acquire()  # held by this process, not released by the fork
        lock.release()  # the driver is gone ...
        RunLock(tmp_path).acquire().release()  # ... and the folder is free at once
    finally:
        os.kill(child, 9)
        os.waitpid(child, 0)
