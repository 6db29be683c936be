"""Bots started ahead of their match (a tournament worker starts the next
match's bots while it plays the current one): they are the processes the
match uses, they receive nothing before it starts, the games are the same,
and their start-up limit still counts their start-up."""

import json
import sys
import textwrap
import time
from pathlib import Path

from arena.match.referee import Deal, Entrant, TimeControl, play_match, prestart
from arena.plugins.botspec import BotSpec

TRANSCRIPT = Path(__file__).parent / "bots" / "transcript.py"
OPTIONS = {"track_length": 6}


def transcript(log: Path) -> Entrant:
    return Entrant(
        f"transcript-{log.stem}", BotSpec.from_command(f"{sys.executable} {TRANSCRIPT} {log}")
    )


def test_a_prestarted_bot_hears_nothing_before_its_match_and_plays_the_same(
    tmp_path, registry, shared_basic
):
    engine = registry.engine("farm-and-furious")
    deals = [Deal(seed, (0, 1)) for seed in (3, 4)]
    limit = TimeControl(startup=1.0, move=2.0)
    logs = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    entrants = [transcript(log) for log in logs]
    started = prestart(entrants, deals, sandbox="basic")
    assert sorted(started.processes) == [0, 1]
    time.sleep(1.5)  # the current match playing: longer than the start-up limit
    assert all(log.read_text() == "" for log in logs)  # launched, told nothing yet
    early = play_match(
        engine, entrants, deals, OPTIONS, limit=limit, sandbox="basic", started=started
    )
    assert started.processes == {}  # the match took both
    # waiting idle for its match is not start-up time: no fault at the 1 s limit
    assert [seat.fault for record in early for seat in record.seats] == [None] * 4
    first = [json.loads(line)["type"] for line in logs[0].read_text().splitlines()]
    assert first[:2] == ["hello", "new_game"] and first.count("hello") == 1

    again = [tmp_path / "c.jsonl", tmp_path / "d.jsonl"]
    usual = play_match(
        engine, [transcript(log) for log in again], deals, OPTIONS, limit=limit, sandbox="basic"
    )
    assert [r.steps for r in early] == [r.steps for r in usual]
    assert logs[0].read_text() == again[0].read_text()  # every message the same


def test_a_prestarted_bot_is_charged_the_cpu_of_its_start_up(tmp_path, registry, shared_basic):
    slow = tmp_path / "slow_start.py"
    slow.write_text(
        textwrap.dedent(f"""
        import runpy, sys, time
        end = time.process_time() + 0.6          # a start-up of 0.6 s of work
        while time.process_time() < end:
            pass
        sys.argv = [{str(TRANSCRIPT)!r}, {str(tmp_path / "slow.jsonl")!r}]
        runpy.run_path(sys.argv[0], run_name="__main__")
    """)
    )
    engine = registry.engine("farm-and-furious")
    deals = [Deal(5, (0, 1))]
    entrants = [
        Entrant("slow", BotSpec.from_command(f"{sys.executable} {slow}")),
        transcript(tmp_path / "honest.jsonl"),
    ]

    def play(startup: float):
        started = prestart(entrants, deals, sandbox="basic")
        deadline = time.monotonic() + 30
        while started.processes[0].usage().cpu < 0.6 and time.monotonic() < deadline:
            time.sleep(0.05)  # its start-up done before its match starts
        [record] = play_match(
            engine,
            entrants,
            deals,
            OPTIONS,
            sandbox="basic",
            limit=TimeControl(startup=startup, move=2.0),
            started=started,
        )
        return record.seats[0]

    # control: with room for its start-up it plays
    assert play(startup=5.0).fault is None
    # its 0.6 s of start-up work done ahead still counts against a 0.3 s limit
    seat = play(startup=0.3)
    assert seat.fault == "timeout" and "start-up" in seat.fault_detail


def test_every_seat_of_the_first_deal_is_started_ahead(tmp_path, registry):
    entrants = [transcript(tmp_path / "a.jsonl"), transcript(tmp_path / "b.jsonl")]
    started = prestart(entrants, [Deal(5, (1, 0))], sandbox="basic")
    try:
        assert sorted(started.processes) == [0, 1]
    finally:
        started.close()
