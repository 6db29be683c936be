"""Fault injection for the tournament runner (``make chaos``; a short form
runs in the test suite, tests/test_chaos.py): from a seed, play a tiny
tournament, hit it with a fault at a point chosen from the seed (a number
of games stored), resume it, and check that

* the store equals an uninterrupted run's, game for game (none lost, none
  repeated, none different);
* no output has a traceback, and a run that failed said so in one line;
* no temporary file is left, no process of the run (driver, workers, bots,
  the Dask cluster's) outlives it and no bot cgroup it made stays behind.

Kinds of fault: the driver killed (SIGKILL) or stopped (SIGTERM), a local
pool worker killed, the leaderboard cache edited under its keys or removed,
the disk filled (a small tmpfs, then made larger for the rerun), the store's
pages damaged between runs (leaderboard, export and resume must say so; the
store is then restored from a copy), the Dask scheduler or a Dask worker
killed.  A fault takes about 5 s on a loaded 2-core machine (docs/tournaments.md).

    python tools/chaos.py [--faults N] [--seed S]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.sandbox.leftovers import bot_groups, start_time
from arena.sandbox.uids import UidLease
from arena.sandbox.usage import children

ROOT = Path(__file__).resolve().parents[1]
ARENA = [sys.executable, "-m", "arena"]
DASK = str(Path(sys.executable).parent / "dask")
#: a tournament of the fast built-in bots, a few games, one match per game
#: (more points at which a fault can land)
TOURNAMENT = """
name = "chaos"
seed = {seed}
workers = 1
deals = 4
match_deals = 1
bots = ["random", "farm-and-furious-racer"]
[time]
move = 1.0
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 8 }}
"""
#: what must agree between two runs (not ids or finishing times)
COLUMNS = "key, item, ord, idx, game, options, seed, bots, scores, ranks, teams, faults, moves"
KINDS = (
    "driver-sigkill",
    "driver-sigterm",
    "worker-sigkill",
    "cache-edited",
    "cache-removed",
    "disk-full",
    "store-damaged",
    "dask-scheduler-kill",
    "dask-worker-kill",
)
LEFTOVER_SUFFIXES = (".tmp", ".room", ".new")
#: how long what a run started may take to end after it
GRACE = 15.0
#: how long a run of the tiny tournament may take (~2 s; minutes is a hang)
RUN_TIMEOUT = 180.0


class Failed(AssertionError):
    pass


class Skipped(Exception):
    """This kind cannot be injected here (said in one line)."""


# -- the run's processes and cgroups ------------------------------------------


class Watch:
    """Every process descended from the roots added (the drivers, the Dask
    cluster), noted while it runs, by pid and start time: after the fault
    none may remain."""

    def __init__(self) -> None:
        self.roots: set[int] = set()
        self.seen: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.scan()

    def add(self, pid: int) -> None:
        self.roots.add(pid)
        self._note(pid)

    def _note(self, pid: int) -> bool:
        started = start_time(pid)
        # False: gone, or the pid now another process's
        return started is not None and self.seen.setdefault(pid, started) == started

    def scan(self) -> None:
        stack = [pid for pid in list(self.roots) if self._note(pid)]  # (added to meanwhile)
        while stack:
            for child in children(stack.pop()):
                if self._note(child):
                    stack.append(child)

    def _loop(self) -> None:
        while not self._stop.wait(0.02):
            self.scan()

    def end(self) -> None:
        """Kill what is left of the run (after a failed check)."""
        for pid, started in list(self.seen.items()):
            if start_time(pid) == started:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

    def alive(self) -> list[str]:
        """The processes seen that still run: their pid and command line."""
        found = []
        for pid, started in sorted(list(self.seen.items())):
            if start_time(pid) == started:
                found.append(f"{pid} {_cmdline(pid)}")
        return found


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _naming(folder: Path) -> list[str]:
    """Processes whose command line names ``folder`` (not this one)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            line = _cmdline(int(entry))
            if str(folder) in line and start_time(int(entry)) is not None:
                found.append(f"{entry} {line}")
    return found


def _groups() -> set[str]:
    return {path for paths in bot_groups().values() for path in paths}


def _orphan_groups(before: set[str]) -> list[str]:
    """Bot cgroups made since ``before`` that no live referee holds (one
    that does is another run's, on this shared machine)."""
    found = []
    for uid, paths in bot_groups().items():
        new = [path for path in paths if path not in before]
        if not new:
            continue
        lease = UidLease.try_acquire(uid)
        if lease is not None:
            lease.release()
            found += new
    return found


def _check_left_behind(kind: str, watch: Watch, work: Path, before: set[str]) -> None:
    deadline = time.monotonic() + GRACE
    while True:
        processes = watch.alive() + _naming(work)
        groups = _orphan_groups(before)
        if not processes and not groups:
            return
        if time.monotonic() > deadline:
            raise Failed(f"{kind}: left behind: processes {processes}, cgroups {groups}")
        time.sleep(0.2)


# -- running the tournament ---------------------------------------------------


@dataclass
class Trial:
    """One fault's run: where, and what it has seen."""

    kind: str
    rng: random.Random
    tournament: Path
    results: Path
    total: int
    watch: Watch
    scheduler: str | None = None
    outputs: list[str] = field(default_factory=list)
    processes: list[subprocess.Popen] = field(default_factory=list)
    resumed: bool = False

    def command(self) -> list[str]:
        """The tournament under the reference run's key (``key`` beside the
        tournament file): the same deals every time."""
        key = self.tournament.with_name("key")
        given = ["--key", key.read_text().strip()] if key.exists() else []
        dask = ["--executor", "dask", "--scheduler", self.scheduler] if self.scheduler else []
        return ARENA + [
            "tournament",
            str(self.tournament),
            "--results",
            str(self.results),
            "--quiet",
            *given,
            *dask,
        ]

    def start(self) -> subprocess.Popen:
        process = subprocess.Popen(
            self.command(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        self.watch.add(process.pid)
        self.processes.append(process)
        return process

    def finish(self, process: subprocess.Popen) -> subprocess.CompletedProcess:
        try:
            out, err = process.communicate(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Failed(
                f"{self.kind}: the run (or a process holding its output) did not end in "
                f"{RUN_TIMEOUT:.0f} s: {self.watch.alive()}"
            ) from None
        self.outputs += [out, err]
        return subprocess.CompletedProcess(process.args, process.returncode, out, err)

    def play(self) -> subprocess.CompletedProcess:
        return self.finish(self.start())

    def arena(self, *args: str) -> subprocess.CompletedProcess:
        done = subprocess.run(
            ARENA + list(args), capture_output=True, text=True, cwd=ROOT, timeout=120
        )
        self.outputs += [done.stdout, done.stderr]
        return done

    def point(self) -> int:
        """Where the fault lands: after how many games stored (some left)."""
        return self.rng.randrange(self.total)

    def wait_for(self, games: int, process: subprocess.Popen) -> None:
        """Until ``games`` are stored; Failed if the run ends first."""
        deadline = time.monotonic() + 300
        while count(self.results) < games:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                _, err = process.communicate()
                raise Failed(f"{self.kind}: the run ended before {games} games: {err}")
            time.sleep(0.005)


def count(results: Path) -> int:
    """Games stored so far (0 while there is no store)."""
    path = results / "results.sqlite"
    if not path.exists():
        return 0
    with contextlib.suppress(sqlite3.Error):
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        finally:
            db.close()
    return 0


def rows(results: Path) -> list[tuple]:
    db = sqlite3.connect(f"{(results / 'results.sqlite').as_uri()}?mode=ro", uri=True)
    try:
        return db.execute(f"SELECT {COLUMNS} FROM games ORDER BY ord, idx").fetchall()
    finally:
        db.close()


@contextlib.contextmanager
def stopped(process: subprocess.Popen) -> Iterator[None]:
    """The driver held still (SIGSTOP) while the fault is set up: it lands
    at the point chosen however fast the games go."""
    process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        process.send_signal(signal.SIGCONT)


def one_line(kind: str, done: subprocess.CompletedProcess, *says: str) -> None:
    """A failed run: a non-zero status and one line ``arena: error:``
    (saying one of ``says``, if given)."""
    lines = done.stderr.strip().splitlines()
    if done.returncode == 0 or len(lines) != 1 or not lines[0].startswith("arena: error: "):
        raise Failed(f"{kind}: not one error line (status {done.returncode}): {done.stderr!r}")
    if says and not any(words in lines[0] for words in says):
        raise Failed(f"{kind}: the error does not say {' or '.join(says)!r}: {lines[0]}")


def carried_on_or_one_line(kind: str, done: subprocess.CompletedProcess) -> None:
    if done.returncode != 0:
        one_line(kind, done)


def no_temporaries(kind: str, results: Path) -> None:
    """No temporary file, no empty file but SQLite's own write-ahead log."""
    left = [
        p.name
        for p in results.iterdir()
        if p.name.endswith(LEFTOVER_SUFFIXES)
        or (p.is_file() and p.stat().st_size == 0 and not p.name.endswith("-wal"))
    ]
    if left:
        raise Failed(f"{kind}: temporary files left: {left}")


# -- the faults ---------------------------------------------------------------


def driver_signal(trial: Trial) -> None:
    """The driver killed (SIGKILL) or stopped as by ``kill`` (SIGTERM)."""
    process = trial.start()
    trial.wait_for(trial.point(), process)
    process.send_signal(signal.SIGKILL if trial.kind == "driver-sigkill" else signal.SIGTERM)
    trial.finish(process)


def worker_sigkill(trial: Trial) -> None:
    """A local pool worker (a forked child of the driver) killed mid-run:
    its match fails and is played again, or the run stops in one line."""
    process = trial.start()
    trial.wait_for(trial.point(), process)
    killed = None
    deadline = time.monotonic() + 60
    while killed is None:  # (at 0 games the driver may not have forked it yet)
        with stopped(process):
            driver = _cmdline(process.pid)
            workers = [pid for pid in children(process.pid) if _cmdline(pid) == driver]
            if workers:
                killed = trial.rng.choice(sorted(workers))
                os.kill(killed, signal.SIGKILL)
        if killed is None:
            if time.monotonic() > deadline or process.poll() is not None:
                raise Failed(f"{trial.kind}: no worker found under the driver {process.pid}")
            time.sleep(0.01)
    carried_on_or_one_line(trial.kind, trial.finish(process))
    if f"worker {killed} ended" not in (trial.results / "tournament.log").read_text():
        raise Failed(f"{trial.kind}: the worker's end is not in the log")


def cache_fault(trial: Trial) -> None:
    """The leaderboard's cache edited under its keys, or removed: the
    leaderboard is made from the store, not from the cache."""
    trial.play()
    cache = trial.results / "leaderboard-cache.json"
    if trial.kind == "cache-removed":
        cache.unlink()
    else:
        sealed = json.loads(cache.read_text())
        body = json.loads(sealed["body"])
        for board in body["boards"].values():
            board["tournament"]["name"] = "edited-by-chaos"
        sealed["body"] = json.dumps(body)
        cache.write_text(json.dumps(sealed))
    board = trial.arena("leaderboard", str(trial.results), "--format", "html")
    if board.returncode != 0 or "edited-by-chaos" in board.stdout or "chaos" not in board.stdout:
        raise Failed(f"{trial.kind}: the leaderboard believed the cache: {board.stdout[:200]}")


def disk_full(trial: Trial) -> None:
    """The results folder on a 4 MB tmpfs, filled at the point chosen: one
    line, nothing temporary left; then the tmpfs grown for the rerun."""
    mount = trial.results.parent / f"{trial.results.name}-disk"
    mount.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        mount.rmdir()
        raise Skipped(f"cannot mount a tmpfs: {mounted.stderr.strip()}")
    try:
        trial.results = mount / "results"
        process = trial.start()
        trial.wait_for(trial.point(), process)
        with stopped(process):
            _fill(mount)
        one_line(trial.kind, trial.finish(process))
        if trial.results.exists():
            no_temporaries(trial.kind, trial.results)
        subprocess.run(["mount", "-o", "remount,size=64m", str(mount)], check=True)
        resume(trial)
        trial.results = shutil.copytree(trial.results, mount.with_name(mount.name + "-copy"))
    finally:
        subprocess.run(["umount", "--lazy", str(mount)], check=True)
        mount.rmdir()


def _fill(mount: Path) -> None:
    """Write zeros to ``mount`` until it is full."""
    block = bytes(1 << 16)
    with open(mount / "filler", "wb", buffering=0) as filler:
        with contextlib.suppress(OSError):
            while True:
                filler.write(block)
        with contextlib.suppress(OSError):
            while True:
                filler.write(block[:512])


def store_damaged(trial: Trial) -> None:
    """Bytes of the store's b-tree pages flipped between runs (the run
    killed at the point chosen, or complete): leaderboard, export and the
    resumed run each say "damaged" in one line; then the store restored
    from the copy made before the damage."""
    games = trial.point() + 1
    if games == trial.total:
        trial.play()
    else:
        process = trial.start()
        trial.wait_for(games, process)
        process.kill()
        trial.finish(process)
    store = trial.results / "results.sqlite"
    db = sqlite3.connect(store)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file
    db.close()
    copy = store.read_bytes()
    _damage(trial, store, copy)
    exported = trial.arena("export", str(trial.results))
    if exported.stdout:
        raise Failed(f"{trial.kind}: export wrote part of a damaged store")
    for done in (trial.arena("leaderboard", str(trial.results)), exported, trial.play()):
        one_line(trial.kind, done, "is damaged")
    for journal in ("results.sqlite-wal", "results.sqlite-shm"):
        with contextlib.suppress(FileNotFoundError):
            if journal.endswith("-wal") and (trial.results / journal).stat().st_size:
                raise Failed(f"{trial.kind}: a damaged store was written to")
            (trial.results / journal).unlink()
    store.write_bytes(copy)


def _damage(trial: Trial, store: Path, sound: bytes) -> None:
    """Flip four header bytes of a random b-tree page past the first until
    SQLite's quick_check finds the damage (a freelist page's does not)."""
    size = int.from_bytes(sound[16:18], "big") or 65536
    pages = len(sound) // size
    for _ in range(50):
        data = bytearray(sound)
        page = trial.rng.randrange(1, pages) * size
        for offset in trial.rng.sample(range(8), 4):
            data[page + offset] ^= 0xFF
        store.write_bytes(bytes(data))
        try:
            with contextlib.closing(sqlite3.connect(store)) as db:
                damaged = db.execute("PRAGMA quick_check").fetchone()[0] != "ok"
        except sqlite3.DatabaseError:
            damaged = True
        if damaged:
            return
    raise Failed(f"{trial.kind}: no damage SQLite finds in a store of {pages} pages")


@dataclass
class Cluster:
    """A Dask scheduler and its workers, each a process of this tool."""

    address: str
    scheduler: subprocess.Popen
    workers: list[subprocess.Popen]

    @classmethod
    def start(cls, watch: Watch, workers: int) -> Cluster:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        address = f"tcp://127.0.0.1:{port}"
        scheduler = _quietly(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
        )
        started = [
            _quietly([DASK, "worker", address, "--nthreads", "1", "--no-dashboard", "--no-nanny"])
            for _ in range(workers)
        ]
        cluster = cls(address, scheduler, started)
        for process in (scheduler, *started):
            watch.add(process.pid)
        deadline = time.monotonic() + 60
        while True:
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    return cluster
            if time.monotonic() > deadline or scheduler.poll() is not None:
                cluster.stop()
                raise Failed(f"the Dask scheduler did not start at {address}")
            time.sleep(0.1)

    def stop(self) -> None:
        for process in (self.scheduler, *self.workers):
            process.kill()
            process.wait(30)


def _quietly(command: list[str]) -> subprocess.Popen:
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)


def dask_fault(trial: Trial) -> None:
    """The Dask scheduler killed (one line; the rerun on a fresh cluster
    completes), or one of two workers (its matches played on the other)."""
    cluster = Cluster.start(trial.watch, workers=2)
    playing: list[subprocess.Popen] = cluster.workers
    try:
        trial.scheduler = cluster.address
        process = trial.start()
        trial.wait_for(trial.point(), process)
        with stopped(process):
            if trial.kind == "dask-scheduler-kill":
                cluster.scheduler.kill()
            else:  # one playing (known to the driver) if there is one
                playing = [w for w in cluster.workers if children(w.pid)] or cluster.workers
                trial.rng.choice(playing).kill()
        done = trial.finish(process)
        if (
            playing is not cluster.workers
            and "lost; its matches are played again" not in done.stderr
        ):
            raise Failed(f"{trial.kind}: the worker lost was not said: {done.stderr!r}")
        if trial.kind == "dask-scheduler-kill":
            # (killed before the driver connected: it cannot reach it)
            one_line(trial.kind, done, "went away mid-run", "cannot reach the Dask scheduler")
            no_temporaries(trial.kind, trial.results)
            cluster.stop()
            cluster = Cluster.start(trial.watch, workers=1)
            trial.scheduler = cluster.address
        else:
            carried_on_or_one_line(trial.kind, done)
        resume(trial)
    finally:
        cluster.stop()


INJECT: dict[str, Callable[[Trial], None]] = {
    "driver-sigkill": driver_signal,
    "driver-sigterm": driver_signal,
    "worker-sigkill": worker_sigkill,
    "cache-edited": cache_fault,
    "cache-removed": cache_fault,
    "disk-full": disk_full,
    "store-damaged": store_damaged,
    "dask-scheduler-kill": dask_fault,
    "dask-worker-kill": dask_fault,
}


def resume(trial: Trial) -> None:
    """Run again: it completes, to the reference's games (checked by the
    caller, as the kinds that resume on their own are)."""
    done = trial.play()
    if done.returncode != 0:
        raise Failed(f"{trial.kind}: the resumed run failed: {done.stderr}")
    trial.resumed = True


def compare(kind: str, got: list[tuple], reference: list[tuple]) -> None:
    if got == reference:
        return
    want = {row[0]: row for row in reference}
    keys = [row[0] for row in got]
    lost = len(set(want) - set(keys))
    repeated = len(keys) - len(set(keys))
    different = sum(1 for row in got if row[0] in want and row != want[row[0]])
    raise Failed(
        f"{kind}: the store differs from an uninterrupted run's "
        f"({lost} lost, {repeated} repeated, {different} different)"
    )


def survive(kind: str, seed: int, reference: list[tuple], work: Path) -> None:
    """One fault of ``kind``: inject, resume, compare, look for what was
    left behind; raises Failed (or Skipped)."""
    before = _groups()
    with Watch() as watch:
        trial = Trial(
            kind,
            random.Random(seed),
            work / "chaos.toml",
            work / f"r{seed}",
            len(reference),
            watch,
        )
        try:
            INJECT[kind](trial)
            if not trial.resumed:
                resume(trial)
        except BaseException:
            watch.end()  # nothing of a failed fault stays to hold this one up
            raise
        finally:
            for process in trial.processes:
                if process.poll() is None:
                    process.kill()
                process.communicate()
        for text in trial.outputs:
            if "Traceback" in text or "Logging error" in text:
                raise Failed(f"{kind}: a traceback in the output:\n{text}")
        compare(kind, rows(trial.results), reference)
        no_temporaries(kind, trial.results)
    _check_left_behind(kind, watch, work, before)
    shutil.rmtree(trial.results, ignore_errors=True)


def reference_run(work: Path) -> list[tuple]:
    """The uninterrupted run in ``work`` (its tournament file and key are
    the faults' too): its games."""
    tournament = work / "chaos.toml"
    tournament.write_text(TOURNAMENT.format(seed=0))
    plain = subprocess.run(
        ARENA + ["tournament", str(tournament), "--results", str(work / "reference"), "--quiet"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    if plain.returncode != 0:
        raise Failed(f"the uninterrupted run failed: {plain.stderr}")
    (work / "key").write_text((work / "reference" / "key").read_text())
    return rows(work / "reference")


def campaign(faults: int, seed: int, say=print, kinds: Sequence[str] = KINDS) -> Counter:
    """``faults`` faults, ``kinds`` in turn, points from
    ``seed``: how many of each kind were survived (a kind that cannot be
    injected here is said once and counted as ``skipped <kind>``).  Raises
    Failed (with the seed) on the first that was not."""
    survived: Counter = Counter()
    with tempfile.TemporaryDirectory(prefix="arena-chaos-") as folder:
        work = Path(folder)
        reference = reference_run(work)
        for number in range(faults):
            kind = kinds[number % len(kinds)]
            if survived[f"skipped {kind}"]:
                survived[f"skipped {kind}"] += 1
                continue
            try:
                survive(kind, seed * 100_003 + number, reference, work)
            except Skipped as why:
                say(f"chaos: {kind} skipped: {why}")
                survived[f"skipped {kind}"] += 1
                continue
            except Failed as error:
                raise Failed(f"seed {seed}, fault {number}: {error}") from None
            survived[kind] += 1
            say(f"{number + 1}/{faults} {kind}: survived")
    return survived


def table(survived: Counter) -> str:
    """Faults survived per kind, a line each."""
    lines = [f"{'kind':<22}{'survived':>9}"]
    for kind in KINDS:
        if survived[kind] or survived[f"skipped {kind}"]:
            skipped = survived[f"skipped {kind}"]
            lines.append(
                f"{kind:<22}{survived[kind]:>9}" + (f"  ({skipped} skipped)" if skipped else "")
            )
    lines.append(f"{'all':<22}{sum(survived[kind] for kind in KINDS):>9}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--faults", type=int, default=100)
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    args = parser.parse_args()
    began = time.monotonic()
    try:
        survived = campaign(args.faults, args.seed)
    except Failed as error:
        print(f"chaos: FAILED: {error}", file=sys.stderr)
        return 1
    print(table(survived))
    print(
        f"chaos (seed {args.seed}): survived {sum(survived[kind] for kind in KINDS)} faults "
        f"in {time.monotonic() - began:.0f} s: 0 games lost, 0 repeated, 0 different, "
        "0 tracebacks, 0 processes, cgroups or temporary files left"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
