"""The move clock charges a bot its own time: a bot starved of CPU by a
loaded machine (more workers than cores, other load) is not faulted, one
that spins or sleeps past its time still is, and the wall clock has a
ceiling.  The default worker count is what the machine can serve."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from arena.match import referee
from arena.match.referee import WALL_CEILING, Deal, Entrant, TimeControl, _MoveDeadline, play_match
from arena.results.store import Store
from arena.sandbox.usage import Usage
from arena.tournament import load, run
from arena.tournament.config import default_workers

BOTS = Path(__file__).parent / "bots"
ROOT = Path(__file__).parents[1]


def thinker(seconds: float) -> str:
    return f"cmd:{sys.executable} {BOTS / 'thinker.py'} {seconds}"


def test_starved_honest_bots_are_not_faulted(tmp_path, registry, monkeypatch):
    # The wall ceiling is tested on its own below; here it is lifted (the
    # workers are forked, so they see it), because how far past ten moves of
    # wall time a thinker is starved depends on the machine: a fresh CI run
    # starting 3 x cores workers' bots at once beside the burners met it.
    monkeypatch.setattr(referee, "WALL_CEILING", 1000)
    cores = len(os.sched_getaffinity(0))
    move, grace, think = 0.06, TimeControl().grace, 0.04
    path = tmp_path / "starved.toml"
    path.write_text(f"""
name = "starved"
seed = 5
workers = {3 * cores}
deals = 4
match_deals = 1
bots = [{{ name = "a", bot = {json.dumps(thinker(think))} }},
        {{ name = "b", bot = {json.dumps(thinker(think))} }}]
[time]
move = {move}
[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 6 }}
""")
    load_procs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cores)
    ]
    try:
        summary = run(
            load(path, registry, results=str(tmp_path / "r")),
            registry,
            progress=False,
            write_leaderboard=False,
        )
    finally:
        for process in load_procs:
            process.kill()
            process.wait()
    assert summary.played == 8 and not summary.errors
    with Store(tmp_path / "r", create=False) as store:
        records = [store.record(number).record for number in range(1, store.count() + 1)]
    faults = [seat.fault_detail for record in records for seat in record.seats if seat.fault]
    assert summary.faults == {}, faults  # no false time losses
    # the control: the machine really was too slow for a wall clock -- on
    # average a turn took longer than a move may, so some move overran it
    slowest = max(r.duration / len(r.steps) for r in records)
    assert slowest > move + grace, slowest
    # and each bot was charged about its thinking, well within its time
    for record in records:
        for seat in record.seats:
            assert think * 0.9 <= seat.time_used / seat.moves < move + grace


def play(registry, bots, limit):
    engine = registry.engine("farm-and-furious")
    entrants = [Entrant(f"seat{i}", registry.bot(name)) for i, name in enumerate(bots)]
    [record] = play_match(engine, entrants, [Deal(7, (0, 1))], {"track_length": 6}, limit=limit)
    return record


def test_a_bot_that_spins_past_its_time_still_times_out(registry, broken_bot):
    started = time.monotonic()
    record = play(registry, ["random", broken_bot("spin")], TimeControl(move=0.2))
    spinner = record.seats[1]
    assert spinner.fault == "timeout", spinner.fault_detail
    assert "charged" in spinner.fault_detail and "0.2s" in spinner.fault_detail
    assert time.monotonic() - started < 0.2 * WALL_CEILING + 5


def test_a_bot_that_sleeps_is_charged_its_sleep(registry, broken_bot):
    record = play(registry, [broken_bot("slow", "0.5"), "random"], TimeControl(move=0.2))
    assert record.seats[0].fault == "timeout"
    assert "charged 0.2" in record.seats[0].fault_detail


class _Process:
    """A bot process whose usage follows the wall clock at set rates."""

    def __init__(self, cpu_rate: float, wait_rate: float):
        self.rates = (cpu_rate, wait_rate)
        self.t0 = time.monotonic()

    def usage(self) -> Usage:
        elapsed = time.monotonic() - self.t0
        return Usage(cpu=elapsed * self.rates[0], waited=elapsed * self.rates[1])


def _expiry(process, allowed) -> float:
    deadline = _MoveDeadline(process, allowed, 0.0)
    while True:
        now = time.monotonic()
        if deadline.expired(now):
            return now - deadline.started
        time.sleep(max(0.0, deadline.wake(now) - now))


def test_a_bot_that_never_gets_the_cpu_meets_the_wall_ceiling():
    # never charged (always waiting for a CPU), yet not waited for forever
    took = _expiry(_Process(cpu_rate=0.0, wait_rate=1.0), 0.02)
    assert 0.02 * WALL_CEILING <= took < 0.02 * WALL_CEILING + 0.5


def test_a_bot_on_two_threads_is_charged_its_cpu_time():
    # it answers after 0.15 s of wall clock, having worked 0.3 s on two threads
    deadline = _MoveDeadline(_Process(cpu_rate=2.0, wait_rate=0.0), 0.2, 0.0)
    time.sleep(0.15)
    assert deadline.charged(time.monotonic()) >= 0.3 > deadline.allowed


def test_the_default_worker_count_is_what_the_machine_serves():
    assert default_workers() <= len(os.sched_getaffinity(0))


def test_more_workers_than_the_machine_serves_is_a_one_line_warning(tmp_path):
    path = tmp_path / "w.toml"
    path.write_text(
        'name = "w"\nbots = ["random", "farm-and-furious-racer"]\n'
        '[[games]]\nid = "farm-and-furious"\nplayers = [2]\n'
        "options = { track_length = 6 }\n"
    )
    many = default_workers() + 3
    result = subprocess.run(
        [
            str(Path(sys.executable).parent / "arena"),
            "tournament",
            str(path),
            "--results",
            str(tmp_path / "r"),
            "--workers",
            str(many),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("arena: warning:")]
    assert len(warnings) == 1 and f"{many} workers" in warnings[0]
    assert "played 2 games" in result.stdout


def test_a_kit_bot_budgeting_by_its_charged_clock_thinks_as_long_when_starved(registry):
    # A bot that thinks until ``clock.used()`` reaches its budget is charged
    # that budget by the referee, on a CPU it shares with a burner.
    budget, cpu = 0.1, min(os.sched_getaffinity(0))
    burner = subprocess.Popen(
        [sys.executable, "-c", f"import os\nos.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"]
    )
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})  # the referee and its bots inherit it
    try:
        bot = f"cmd:{sys.executable} {BOTS / 'charged.py'} {budget}"
        record = play(registry, ["random", bot], TimeControl(move=1.0))
    finally:
        os.sched_setaffinity(0, allowed)
        burner.kill()
        burner.wait()
    seat = record.seats[1]
    assert seat.fault is None, seat.fault_detail
    assert budget <= seat.time_used / seat.moves < budget + 0.05
    # the control: it had half a CPU at most, so its moves took longer on the
    # wall clock than it was charged (a wall-clock budget would think half as long)
    assert record.duration / seat.moves > 1.6 * budget
