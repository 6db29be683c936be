"""The zygote (arena.sandbox.zygote): two children of one zygote try to meet
through memory, files, sockets, IPC, processes and descriptors, and a bot
tries to remember a duplicate deal across seatings.  Each attack first works
where its precondition holds (a control: the module loaded before the fork,
or a namespace or private folder taken away), then fails as the arena runs.
"""

from __future__ import annotations

import os
import sys

import pytest

from arena.botkit import protocol
from arena.match.referee import Deal, Entrant, TimeControl, _launch, play_match
from arena.plugins.botspec import BotSpec
from arena.sandbox import process as sandbox_process, zygote
from arena.sandbox.limits import ResourceLimits
from arena.sandbox.process import BotProcess
from arena.sandbox.zygote import ForkedBot

PROBE = """
import ctypes, mmap, os, socket, sys, time

from arena.botkit import Bot

SHARED = mmap.mmap(-1, 4096)  # anonymous and MAP_SHARED: shared with any fork
if os.environ.get("ZYGOTE_PROBE_BURN"):
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass
libc = ctypes.CDLL(None, use_errno=True)
NOTES = ("/tmp/zygote-note", "/dev/shm/zygote-note")
MEETING = "\\0farm-zygote-meeting"


class Probe(Bot):
    def new_match(self, hello):
        self.name = str(getattr(self, hello["settings"]["do"])())

    def mapping(self):
        before = SHARED[0]
        SHARED[0] = before + 1
        return before

    def notes(self):
        found = [note for note in NOTES if os.path.exists(note)]
        for note in NOTES:
            try:
                with open(note, "w") as f:
                    f.write("the hand I was dealt")
            except OSError:  # a sibling's, read-only to this uid
                pass
        return ",".join(found) or "none"

    def listen(self):
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(MEETING)
        self.server.listen()
        return "listening"

    def meet(self):
        try:
            socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).connect(MEETING)
            return "met"
        except OSError:
            return "alone"

    def share_memory(self):
        return "made" if libc.shmget(0x5A5A, 4096, 0o1000 | 0o666) >= 0 else "refused"

    def find_memory(self):
        return "found" if libc.shmget(0x5A5A, 0, 0) >= 0 else "absent"

    def processes(self):
        return ",".join(sorted(p for p in os.listdir("/proc") if p.isdigit()))

    def descriptors(self):
        shown = []
        for fd in sorted(os.listdir("/proc/self/fd"), key=int):
            try:
                shown.append(os.readlink(f"/proc/self/fd/{fd}").split(":")[0])
            except OSError:
                pass  # the listing's own descriptor, closed by now
        return ",".join(shown)

    def pth(self):
        return str(getattr(sys, "pth_ran_as", None))

    def act(self, observation, legal, clock):
        return legal[0]
"""


@pytest.fixture
def probe(install_distribution, monkeypatch):
    """The probe bot's kit command, its zygotes closed before and after, and
    forked from its first start."""
    monkeypatch.setattr(zygote, "STARTS_BEFORE", 0)
    source = install_distribution("zygote-probe", {"__init__.py": "", "bot.py": PROBE})
    zygote.close_all()
    yield [sys.executable, "-m", "arena.botkit", "zygote_probe.bot:Probe"], source
    zygote.close_all()


def start(argv: list[str], do: str, preload: bool = False) -> tuple[BotProcess, str]:
    """A strict bot forked by its zygote, after its hello: what it reports."""
    process = BotProcess(argv, ResourceLimits(), "strict", preload=preload)
    assert isinstance(process.popen, ForkedBot), "a strict kit bot is forked by its zygote"
    stdin, stdout, _ = process.pipes()
    limits = {"move": 5.0, "bank": 5.0, "start": 10.0}
    protocol.write_message(stdin, protocol.hello("farm-hand", {}, 3, 1, limits, {"do": do}))
    ready = protocol.read_message(stdout)
    assert ready is not None, process.pipes()[2].read().decode()
    return process, ready["name"]


def report(argv: list[str], do: str, preload: bool = False) -> str:
    process, said = start(argv, do, preload)
    process.kill()
    return said


def reports(argv: list[str], first: str, second: str, preload: bool = False) -> tuple[str, str]:
    """What two children of one zygote say, the first still running."""
    process, said = start(argv, first, preload)
    try:
        return said, report(argv, second, preload)
    finally:
        process.kill()


def test_a_shared_mapping_made_at_import_reaches_siblings_only_if_imported_before_the_fork(probe):
    argv, _ = probe
    # control: the module loaded by the zygote (a built-in bot's way) shares its mapping
    assert reports(argv, "mapping", "mapping", preload=True) == ("0", "1")
    # a submitted bot's module is imported by each child: nothing is shared
    assert reports(argv, "mapping", "mapping") == ("0", "0")
    assert not zygote_mappings(argv, preload=False), "the zygote holds no shared mapping"
    assert zygote_mappings(argv, preload=True), "control: the preloaded module's mapping"


def zygote_mappings(argv: list[str], preload: bool) -> list[str]:
    """The writable shared mappings of the bot's zygote process."""
    [found] = [
        z for key, z in zygote._zygotes.items() if key[0] == tuple(argv) and key[2] == preload
    ]
    pid = zygote_pid(found)
    with open(f"/proc/{pid}/maps") as f:
        return [line for line in f if line.split()[1] == "rw-s"]


def zygote_pid(found: zygote.Zygote) -> int:
    """The zygote's Python process, below bubblewrap's two."""
    frontier = [found.popen.pid]
    while frontier:
        pid = frontier.pop()
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if f.read().split(b"\0")[1:3] == [b"-S", zygote.SCRIPT.encode()]:
                return pid
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            frontier += [int(child) for child in f.read().split()]
    raise AssertionError("no zygote process")


def test_notes_in_tmp_and_dev_shm_never_reach_a_sibling(probe, monkeypatch):
    argv, _ = probe
    monkeypatch.setattr(zygote, "PRIVATE_FOLDERS", ())
    assert reports(argv, "notes", "notes") == ("none", "/tmp/zygote-note,/dev/shm/zygote-note")
    zygote.close_all()
    monkeypatch.undo()
    monkeypatch.setattr(zygote, "STARTS_BEFORE", 0)
    assert reports(argv, "notes", "notes") == ("none", "none")


@pytest.mark.parametrize(
    "namespace, first, second, met, apart",
    [
        ("CLONE_NEWNET", "listen", "meet", ("listening", "met"), ("listening", "alone")),
        ("CLONE_NEWIPC", "share_memory", "find_memory", ("made", "found"), ("made", "absent")),
    ],
)
def test_siblings_cannot_meet_through_an_abstract_socket_or_system_v_memory(
    probe, monkeypatch, namespace, first, second, met, apart
):
    argv, _ = probe
    monkeypatch.setattr(
        zygote, "CHILD_NAMESPACES", zygote.CHILD_NAMESPACES & ~getattr(zygote, namespace)
    )
    assert reports(argv, first, second) == met
    zygote.close_all()
    monkeypatch.undo()
    monkeypatch.setattr(zygote, "STARTS_BEFORE", 0)
    assert reports(argv, first, second) == apart


def test_a_child_sees_no_process_but_its_own(probe, monkeypatch):
    argv, _ = probe
    monkeypatch.setattr(zygote, "CHILD_NAMESPACES", zygote.CHILD_NAMESPACES & ~zygote.CLONE_NEWPID)
    _, second = reports(argv, "processes", "processes")
    assert len(second.split(",")) > 2, second  # control: its zygote, its monitor, its sibling
    zygote.close_all()
    monkeypatch.undo()
    monkeypatch.setattr(zygote, "STARTS_BEFORE", 0)
    assert reports(argv, "processes", "processes") == ("1", "1")


def test_a_child_inherits_no_descriptor_of_its_zygote(probe):
    argv, _ = probe
    said = report(argv, "descriptors")
    assert said.split(",") == ["pipe", "pipe", "pipe"], said
    # control: the zygote holds a socket (its control socket) that a child could have kept
    [found] = zygote._zygotes.values()
    pid = zygote_pid(found)
    held = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    assert any(link.startswith("socket:") for link in held), held


def test_a_child_is_charged_its_own_time_not_what_its_zygote_loaded(probe, monkeypatch):
    argv, _ = probe
    real = sandbox_process.bot_environment
    monkeypatch.setattr(
        sandbox_process, "bot_environment", lambda home: {**real(home), "ZYGOTE_PROBE_BURN": "1"}
    )
    # control: the import's 0.3 s of CPU in the child is the child's
    process, _ = start(argv, "mapping")
    assert process.usage().cpu >= 0.3
    process.kill()
    process, _ = start(argv, "mapping", preload=True)
    assert process.usage().cpu < 0.1  # loaded by the zygote before the fork: not charged
    process.kill()


def test_site_files_run_in_the_child_as_the_bot_never_in_the_zygote(
    install_distribution, tmp_path, monkeypatch
):
    monkeypatch.setattr(zygote, "STARTS_BEFORE", 0)
    source = tmp_path / "source"
    source.mkdir()
    install_distribution("pth-probe", {"__init__.py": "", "bot.py": PROBE}, editable=source)
    pth = next(site for site in sys.path if os.path.exists(os.path.join(site, "pth_probe.pth")))
    with open(os.path.join(pth, "pth_probe.pth"), "a") as f:
        f.write("import sys, os; sys.pth_ran_as = os.getuid()\n")
    zygote.close_all()
    argv = [sys.executable, "-m", "arena.botkit", "pth_probe.bot:Probe"]
    try:
        process, said = start(argv, "pth")
        # it ran (control), as the bot's own uid: not as the zygote's root before the fork
        assert said == str(process.uid) and process.uid not in (None, 0)
        process.kill()
    finally:
        zygote.close_all()


MEMORY = """
from arena.botkit import Bot

SEEN = {}  # bottom cards -> the hand this seat was dealt with them


class Memory(Bot):
    def new_game(self, game):
        self.dealt, self.checked = None, False

    def act(self, observation, legal, clock):
        if self.dealt is None:
            self.dealt = observation["hand"]
        if observation.get("bottom") and not self.checked:
            self.checked = True
            if SEEN.setdefault(tuple(observation["bottom"]), self.dealt) != self.dealt:
                return "PWNED:remembered"
        return self.rng.choice(legal)
"""


def test_a_bot_that_remembers_a_duplicate_deal_across_seatings_learns_nothing(
    install_distribution, monkeypatch
):
    monkeypatch.setattr(zygote, "STARTS_BEFORE", 0)
    install_distribution("memory-bot", {"__init__.py": "", "bot.py": MEMORY})
    from arena.plugins import installed

    engine = installed().engine("dou-dizhu")
    random = BotSpec("random", entry="bots.random_bot:RandomBot")
    # trusted as a built-in bot: its module is loaded by the zygote, before any deal
    entrants = [
        Entrant("memory", BotSpec("memory", entry="memory_bot.bot:Memory"), submitted=False),
        Entrant("r1", random, submitted=False),
        Entrant("r2", random, submitted=False),
    ]
    seatings = [
        [Deal(seed, tuple((seat + turn) % 3 for seat in range(3))) for seed in (11, 12, 13)]
        for turn in range(3)
    ]
    zygote.close_all()
    try:

        def faults(deals):
            records = play_match(
                engine, entrants, deals, limit=TimeControl(move=5.0), sandbox="strict"
            )
            return [s.fault_detail for r in records for s in r.seats if s.fault]

        # control: one process meets the same deal in three seatings and recognises it
        assert any("PWNED:remembered" in f for f in faults([d for s in seatings for d in s]))
        # each seating's block in a child of the same zygote: nothing is remembered
        for deals in seatings:
            assert faults(deals) == []
        assert any(key[0][-1] == "memory_bot.bot:Memory" for key in zygote._zygotes)
    finally:
        zygote.close_all()


def test_only_built_in_bots_are_loaded_before_the_fork(probe):
    argv, _ = probe
    spec = BotSpec("probe", entry="zygote_probe.bot:Probe")
    for submitted in (True, False):
        process = _launch(Entrant("probe", spec, submitted=submitted), "strict", ResourceLimits())
        process.kill()
    assert sorted(key[2] for key in zygote._zygotes if key[0] == tuple(argv)) == [False, True]
