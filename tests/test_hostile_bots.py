"""Bots that attack the arena get nowhere (strict sandbox).

Each attack runs in a real match against an honest ``random`` bot.  It must
be contained: the attacker gets the right fault (or none, where the attack
only hurt itself), the honest bot's game is unaffected, no attack reports
success (``PWNED`` in the detail), nothing of the attacker is left running
and nothing is written outside its folder.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from arena.game import replay
from arena.match.referee import Deal, Entrant, TimeControl, play_match
from arena.sandbox import ResourceLimits
from arena.sandbox.layers import strict_available

HOSTILE = Path(__file__).parent / "bots" / "hostile.py"
SECRET = "referee-secret-4f1c9a"  # held in the referee's memory (os.environ)
LIMITS = ResourceLimits(memory=512 << 20, disk=16 << 20, processes=32, output=16 << 10)
OUTSIDE = [
    "/work/PWNED",
    "/root/PWNED",
    "/etc/PWNED",
    "/usr/PWNED",
    str(Path(__file__).parents[1] / "arena" / "PWNED"),
]


def test_strict_sandbox_is_available_here():
    # the suite below is only meaningful in the strict sandbox; make install
    # sets bubblewrap up, so its absence is a failure, not a skip
    assert strict_available()


@pytest.fixture(scope="module")
def listener():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)
    yield server
    server.close()


def hostile(mode, port):
    return f"cmd:{sys.executable} {HOSTILE} {mode} {os.getpid()} {SECRET} {port}"


def play_hostile(registry, monkeypatch, mode, port, seats=("hostile", "random"), move=1.0):
    monkeypatch.setenv("ARENA_TEST_SECRET", SECRET)
    engine = registry.engine("farm-and-furious")
    names = [hostile(mode, port) if seat == "hostile" else seat for seat in seats]
    entrants = [Entrant(f"seat{i}", registry.bot(n)) for i, n in enumerate(names)]
    [record] = play_match(
        engine,
        entrants,
        [Deal(5, tuple(range(len(seats))))],
        limit=TimeControl(startup=10.0, move=move),
        sandbox="strict",
        resources=LIMITS,
    )
    return record


@pytest.mark.parametrize(
    "mode, fault",
    [
        ("fork-bomb", "timeout"),
        ("memory-hog", "crash"),
        ("disk-filler", None),
        ("shm-filler", None),
        ("stdout-flood", "protocol"),
        ("stderr-flood", None),
        ("infinite-loop", "timeout"),
        ("setsid-escapee", None),
        ("network", None),
        ("referee-proc", None),
        ("other-seat", None),
        ("ptrace", None),
        ("kill", None),
        ("write-outside", None),
        ("inherited-fds", None),
        ("header-2g", "protocol"),
    ],
)
def test_attack_is_contained(registry, monkeypatch, processes_running, listener, mode, fault):
    port = listener.getsockname()[1]
    # filling memory up to the cgroup's ceiling is slow: give it time to fail
    record = play_hostile(
        registry, monkeypatch, mode, port, move=8.0 if mode == "memory-hog" else 1.0
    )
    attacker, honest = record.seats
    assert "PWNED" not in (attacker.fault_detail or ""), attacker.fault_detail
    assert attacker.fault == fault, attacker.fault_detail
    assert honest.fault is None
    if fault:
        assert (attacker.rank, honest.rank) == (2, 1)
    final = replay(registry.engine(record.game), 2, record.seed, record.options, record.step_maps())
    assert final.is_over() and [s.score for s in record.seats] == list(final.outcome().scores)
    assert processes_running(str(HOSTILE)) == []
    assert [path for path in OUTSIDE if os.path.exists(path)] == []
    with pytest.raises(BlockingIOError):
        listener.accept()


def test_two_attackers_cannot_reach_each_other(registry, monkeypatch, processes_running, listener):
    port = listener.getsockname()[1]
    record = play_hostile(registry, monkeypatch, "other-seat", port, seats=("hostile", "hostile"))
    assert [s.fault for s in record.seats] == [None, None], [s.fault_detail for s in record.seats]
    assert processes_running(str(HOSTILE)) == []


@pytest.mark.parametrize(
    "mode, succeeds",
    [
        ("network", True),
        # bots run as root at the basic level when the arena does; as an ordinary
        # user, the referee being non-dumpable is what keeps them out
        ("referee-proc", os.geteuid() == 0),
    ],
)
@pytest.mark.parametrize("old", [True, False], ids=["old-basic", "basic"])
def test_the_same_attacks_succeed_in_the_basic_sandbox(
    registry, monkeypatch, listener, mode, succeeds, old, request
):
    # proof that the suite can see a successful attack: the basic level as it
    # was had no namespaces, so these get through there; the basic level's
    # namespaces and uid (where the kernel allows them) contain them
    from arena.sandbox import namespaces

    if old:
        request.getfixturevalue("shared_basic")
    succeeds = succeeds and (old or not namespaces.available())
    monkeypatch.setenv("ARENA_TEST_SECRET", SECRET)
    port = listener.getsockname()[1]
    engine = registry.engine("farm-and-furious")
    entrants = [
        Entrant("attacker", registry.bot(hostile(mode, port))),
        Entrant("honest", registry.bot("random")),
    ]
    [record] = play_match(engine, entrants, [Deal(5, (0, 1))], sandbox="basic")
    assert ("PWNED" in (record.seats[0].fault_detail or "")) is succeeds
    if mode == "network" and succeeds:
        listener.setblocking(True)
        listener.settimeout(5)
        listener.accept()[0].close()
        listener.setblocking(False)


def _expose(path: str) -> str:
    """Shell lines that make ``path`` reachable for any uid inside a private
    mount namespace: a closed ancestor (mode 0700, like /root here) is covered
    by an open tmpfs with just the one child bound back in."""
    lines = []
    parts = Path(path).parts
    for depth in range(2, len(parts)):
        ancestor, child = Path(*parts[:depth]), parts[depth]
        if os.stat(ancestor).st_mode & 0o001:
            continue
        stash = f"/run/arena-expose-{depth}"
        lines += [
            f"mkdir -p {stash} && mount --bind {ancestor / child} {stash}",
            f"mount -t tmpfs -o mode=0755 none {ancestor}",
            f"mkdir -p {ancestor / child} && mount --bind {stash} {ancestor / child}",
        ]
        break
    return " && ".join(lines) or "true"


def test_hostile_suite_passes_as_an_ordinary_user_too():
    # the non-root layers (a user namespace per bot, no uid lease, no
    # cgroups): the whole suite and the collusion tests again, run by uid 65534
    if os.geteuid() != 0:
        return  # this run already is the ordinary user's
    script = " && ".join(
        [
            _expose(sys.base_prefix),
            _expose(str(Path(__file__).parents[1])),
            "exec setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all -- "
            f"env HOME=/tmp {sys.executable} -m pytest -o addopts= -q -p no:cacheprovider {__file__} "
            f"{Path(__file__).parent / 'test_collusion.py'} -k 'not ordinary_user'",
        ]
    )
    result = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=str(Path(__file__).parents[1]),
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "failed" not in result.stdout
