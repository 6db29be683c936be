"""A full disk (issue 30, finding 2), on a real full file system: a small
tmpfs in a mount namespace of the test's own.  The run ends in one line
``arena: error: ...``, leaves no temporary file (no 0-byte
``leaderboard.tmp``) and no "--- Logging error ---" block, keeps every game
stored, plays no game it could not store, and a rerun with room carries on."""

import sqlite3
import subprocess
import sys
from pathlib import Path

from test_results_folder import TINY

from arena.results.store import FILE_NAME

ROOT = Path(__file__).parents[1]
ARENA = str(Path(sys.executable).parent / "arena")
COUNT = (
    f"'{sys.executable}' -c \"import sqlite3,sys; "
    f"print('count', sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM games')"
    f'.fetchone()[0])"'
)


def in_full_tmpfs(folder: Path, mount: Path, tournament: Path, then: str = "") -> str:
    """Copy ``folder`` into a 4 MB tmpfs at ``mount``, fill it, run the
    tournament on it; then ``then``.  The script's output."""
    script = f"""
set -u
mount -t tmpfs -o size=4m tmpfs '{mount}'
cp -a '{folder}/.' '{mount}/'
dd if=/dev/zero of='{mount}/filler' bs=4k 2>/dev/null
'{ARENA}' tournament '{tournament}' --results '{mount}' --quiet
echo "status $?"
{COUNT} '{mount}/{FILE_NAME}'
ls -a '{mount}' | sed 's/^/file /'
{then}
"""
    return in_own_mounts(script)


def in_own_mounts(script: str) -> str:
    """Run the shell ``script`` in a mount namespace of its own (its tmpfs
    seen by nobody else, gone with it); its output."""
    done = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    return done.stdout + done.stderr


def test_a_full_disk_is_one_line_loses_nothing_plays_nothing_and_resumes(tmp_path):
    tournament = tmp_path / "tiny.toml"
    tournament.write_text(TINY.replace("deals = 1", "deals = 3"))
    folder = tmp_path / "results"
    first = subprocess.run(
        [ARENA, "tournament", str(tournament), "--results", str(folder), "--quiet"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert first.returncode == 0, first.stderr
    with sqlite3.connect(folder / FILE_NAME) as db:
        total = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        db.execute("DELETE FROM games WHERE id > ?", (total // 2,))  # as if interrupted
    kept = total // 2
    assert kept > 0
    mount = tmp_path / "mnt"
    mount.mkdir()
    shown = in_full_tmpfs(
        folder,
        mount,
        tournament,
        then=f"rm '{mount}/filler'\n'{ARENA}' tournament '{tournament}' --results '{mount}' "
        f"--quiet >/dev/null\necho \"again $?\"\n{COUNT} '{mount}/{FILE_NAME}'",
    )
    lines = shown.splitlines()
    errors = [line for line in lines if line.startswith("arena: error: ")]
    assert len(errors) == 1 and "No space left on device" in errors[0], shown
    assert "status 1" in lines or "status 2" in lines, shown
    assert "Traceback" not in shown and "Logging error" not in shown, shown
    counts = [line for line in lines if line.startswith("count ")]
    assert counts == [f"count {kept}", f"count {total}"], shown  # kept, then carried on
    files = {line[5:] for line in lines if line.startswith("file ")}
    assert not any(name.endswith(".tmp") or name.endswith(".room") for name in files), files
    assert "again 0" in lines, shown
    # nothing was played that could not be stored: the run stopped at the
    # check for room, before any match (the store's error would come later)
    assert "no room to store games" in errors[0], errors


def test_a_full_disk_at_the_first_run_is_one_line_and_leaves_no_empty_lock(tmp_path):
    """Found by make chaos: the disk full before a new folder's first run
    left an empty ``tournament.lock`` and said only "No space left on
    device", not where."""
    tournament = tmp_path / "tiny.toml"
    tournament.write_text(TINY)
    mount = tmp_path / "mnt"
    mount.mkdir()
    script = f"""
set -u
mount -t tmpfs -o size=4m tmpfs '{mount}'
dd if=/dev/zero of='{mount}/filler' bs=4k 2>/dev/null
'{ARENA}' tournament '{tournament}' --results '{mount}/results' --quiet
echo "status $?"
ls -A '{mount}/results' | sed 's/^/file /'
"""
    shown = in_own_mounts(script)
    errors = [line for line in shown.splitlines() if line.startswith("arena: error: ")]
    assert errors == [
        f"arena: error: results folder {mount}/results: cannot write tournament.lock: "
        "No space left on device; free some space and run the same command again"
    ], shown
    assert "status 2" in shown.splitlines() and "Traceback" not in shown, shown
    assert not [line for line in shown.splitlines() if line.startswith("file ")], shown
