"""Nothing of a run is left behind, however it is interrupted: no worker,
bubblewrap or bot process, no bot cgroup, no private folder.  What a run
killed outright cannot clean up (its cgroups), the next run removes."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from arena.results.store import Store
from arena.sandbox import cgroups
from arena.sandbox.process import _descendants
from arena.sandbox.uids import UidLease

ROOT = Path(__file__).parents[1]
ARENA = str(Path(sys.executable).parent / "arena")
TEMPLATE = """
name = "{name}"
seed = 2
workers = 2
deals = {deals}
match_deals = 1
sandbox = "{sandbox}"
least_sandbox = "basic"
bots = ["random", {{ name = "slow", bot = {bot} }}]
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 10 }}
"""


def tournament(tmp_path, broken_bot, name="left", deals=30, sandbox="auto"):
    path = tmp_path / f"{name}.toml"
    path.write_text(
        TEMPLATE.format(
            name=name, deals=deals, sandbox=sandbox, bot=json.dumps(broken_bot("slow", "0.02"))
        )
    )
    return path


def _start(pid: int):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return None if fields[0] == "Z" else fields[19]
    except OSError:
        return None


def _family(root: int) -> dict[int, str]:
    """Every live process below ``root`` (and root), with its start time."""
    found = [root, *_descendants(root)]
    return {pid: start for pid in found if (start := _start(pid)) is not None}


def _bot_groups(pids) -> set[str]:
    names = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cgroup") as f:
                names |= {line.rsplit("/", 1)[1].strip() for line in f if "/arena-bot-" in line}
        except OSError:
            pass
    return names


def _bot_folders(pids) -> set[str]:
    return {
        name
        for name in os.listdir(tempfile.gettempdir())
        for pid in pids
        if name.startswith(f"arena-bot-{pid}.")
    }


class Run:
    """A real ``arena tournament`` in its own process group, watched."""

    def __init__(self, path, results):
        self.results = results
        self.process = subprocess.Popen(
            [ARENA, "tournament", str(path), "--results", str(results), "--quiet"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.seen: dict[int, str] = {}
        self.groups: set[str] = set()
        self.folders: set[str] = set()

    def watch_until_playing(self, games=2, timeout=60, folders=False):
        """Until ``games`` are stored and the bots' cgroups (where the arena
        makes them: as root) or folders (``folders``: the basic level) seen."""
        groups = os.geteuid() == 0 and bool(cgroups.hierarchies()) and not folders
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.process.stdout.read().decode()
            self.look()
            try:
                with Store(self.results, create=False) as store:
                    if (
                        store.count() >= games
                        and (self.groups or not groups)
                        and (self.folders or not folders)
                    ):
                        return
            except Exception:
                pass
            time.sleep(0.05)
        raise AssertionError("the tournament did not get going")

    def look(self) -> tuple[set[str], set[str]]:
        """Note the run's processes; return its bot groups and folders now."""
        family = _family(self.process.pid)
        self.seen.update(family)
        now = _bot_groups(family), _bot_folders(family)
        self.groups |= now[0]
        self.folders |= now[1]
        return now

    def workers(self):
        return [
            pid
            for pid in _family(self.process.pid)
            if pid != self.process.pid
            and "arena tournament" in _cmdline(pid)
            and _parent(pid) == self.process.pid
        ]

    def alive(self):
        return [pid for pid, start in self.seen.items() if _start(pid) == start]

    def left_groups(self, names=None):
        """Bot groups of this run that still exist unused (no lease held)."""
        left = []
        for name in self.groups if names is None else names:
            paths = [os.path.join(base, name) for base in set(cgroups.hierarchies().values())]
            if not any(os.path.isdir(p) for p in paths):
                continue
            lease = UidLease.try_acquire(int(name.split("-")[2]))
            if lease is not None:  # nobody's: a leftover
                lease.release()
                left.append(name)
        return left

    def left_folders(self, names=None):
        return [
            name
            for name in (self.folders if names is None else names)
            if os.path.exists(os.path.join(tempfile.gettempdir(), name))
        ]


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _parent(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


def eventually(check, timeout=15):
    deadline = time.monotonic() + timeout
    while (value := check()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return value


def clean_run(tmp_path, broken_bot, sandbox="auto"):
    """Any later run: it removes what earlier dead runs left."""
    path = tournament(tmp_path, broken_bot, name="after", deals=1, sandbox=sandbox)
    result = subprocess.run(
        [ARENA, "tournament", str(path), "--results", str(tmp_path / "after"), "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "how", ["SIGINT", "SIGTERM", "kill -9 of a worker", "kill -9 of the group"]
)
def test_nothing_is_left_after_an_interruption(tmp_path, broken_bot, how):
    run = Run(tournament(tmp_path, broken_bot), tmp_path / "r")
    run.watch_until_playing()
    if how == "kill -9 of a worker":
        worker = run.workers()[0]
        os.kill(worker, signal.SIGKILL)
        # the driver notices, replaces it and removes what its bots held
        assert eventually(lambda: [p for p in run.alive() if p == worker]) == []
        run.look()
        assert eventually(run.left_groups) == []
        os.killpg(run.process.pid, signal.SIGINT)
    elif how == "kill -9 of the group":
        groups, _ = run.look()
        os.killpg(run.process.pid, signal.SIGKILL)
    else:
        os.killpg(run.process.pid, getattr(signal, how))
    run.process.communicate(timeout=60)
    assert eventually(run.alive) == [], [_cmdline(p) for p in run.alive()]
    if how == "kill -9 of the group":
        if os.geteuid() == 0 and cgroups.hierarchies():
            assert run.left_groups(groups)  # the control: killed outright, it left them
        clean_run(tmp_path, broken_bot)  # a run killed outright: the next one cleans up
    assert run.left_groups() == []
    assert run.left_folders() == []


def test_a_killed_run_at_the_basic_level_leaves_no_bot_or_folder(tmp_path, broken_bot):
    from arena.sandbox import namespaces

    # where the kernel gives the basic level its namespaces, a bot's folder
    # is a private /tmp that dies with it: none is left on the host at all
    private = namespaces.available()
    run = Run(tournament(tmp_path, broken_bot, sandbox="basic"), tmp_path / "r")
    run.watch_until_playing(folders=not private)
    _, folders = run.look()
    assert bool(folders) != private  # host folders only without the namespaces
    os.killpg(run.process.pid, signal.SIGKILL)
    run.process.communicate(timeout=60)
    # the bots are in sessions of their own: they die with their referee
    assert eventually(run.alive) == [], [_cmdline(p) for p in run.alive()]
    assert bool(run.left_folders(folders)) != private  # only a later run removes those
    clean_run(tmp_path, broken_bot, sandbox="basic")
    assert run.left_folders() == []
