"""The referee against bots that break in every way the issue lists: each
gives the right fault, the game still finishes for the others, and nothing
of the bot is left running."""

import re
import sys
from pathlib import Path

import pytest

from arena.game import replay
from arena.match.referee import Deal, Entrant, TimeControl, play_match
from arena.plugins.botspec import BotSpec
from arena.sandbox.process import UNDERTAKER

FAST = TimeControl(startup=10.0, move=0.5)


def play(registry, bots, deals=1, limit=FAST, game="farm-and-furious", options=None):
    engine = registry.engine(game)
    entrants = [Entrant(f"seat{i}", registry.bot(name)) for i, name in enumerate(bots)]
    seatings = [Deal(100 + d, tuple(range(len(bots)))) for d in range(deals)]
    return play_match(engine, entrants, seatings, options, limit=limit)


@pytest.mark.parametrize(
    "mode, fault",
    [
        ("sleep", "timeout"),
        ("exit", "crash"),
        ("garbage", "protocol"),
        ("bad-msgpack", "protocol"),
        ("huge", "protocol"),
        ("illegal", "illegal"),
        ("wrong-type", "protocol"),
        ("fork", "timeout"),
    ],
)
def test_broken_bot_is_faulted_and_cleaned_up(registry, broken_bot, processes_running, mode, fault):
    bot = broken_bot(mode)
    [record] = play(registry, ["random", bot])
    bad, good = record.seats[1], record.seats[0]
    assert bad.fault == fault, bad.fault_detail
    assert bad.rank == 2 and good.rank == 1
    assert good.fault is None
    # the game was played to its end by the fallback, and replays exactly
    final = replay(
        registry.engine(record.game),
        record.players,
        record.seed,
        record.options,
        record.step_maps(),
    )
    assert final.is_over()
    assert list(final.outcome().scores) == [s.score for s in record.seats]
    assert processes_running(bot.split(" ", 1)[1]) == []


def test_bot_that_exits_at_once_is_a_crash(registry, broken_bot):
    [record] = play(registry, [broken_bot("exit-at-once"), "random"])
    assert record.seats[0].fault == "crash"
    assert record.seats[0].moves == 0


def test_faulted_bot_is_restarted_for_the_next_game(registry, broken_bot):
    records = play(registry, ["random", broken_bot("illegal")], deals=3)
    assert [r.seats[1].fault for r in records] == ["illegal"] * 3
    assert all(r.seats[0].fault is None for r in records)


def test_clean_match_records_every_move(registry):
    records = play(registry, ["random", "random", "farm-and-furious-racer"], deals=2)
    for record in records:
        assert all(seat.fault is None for seat in record.seats)
        assert all(seat.moves == len(record.steps) for seat in record.seats)
        assert sorted(s.rank for s in record.seats)[0] == 1


def test_simultaneous_movers_think_at_the_same_time(registry, broken_bot):
    # each bot takes 0.6 s of a 1 s move: waited on one after the other the
    # second would run out of time
    slow = broken_bot("slow", "0.6")
    [record] = play(
        registry, [slow, slow], limit=TimeControl(move=1.0), options={"track_length": 4}
    )
    assert [s.fault for s in record.seats] == [None, None]
    assert record.seats[0].moves >= 1


def test_time_bank_absorbs_overruns_until_spent(registry, broken_bot):
    slow = broken_bot("slow", "0.4")
    # control: without a bank the first 0.4 s answer to a 0.1 s move is a timeout
    [control] = play(registry, [slow, "random"], limit=TimeControl(move=0.1, bank=0.0))
    assert control.seats[0].fault == "timeout" and control.seats[0].moves == 0
    assert "ceiling" not in control.seats[0].fault_detail  # charged past its time, not walled
    # a 0.75 s bank pays two ~0.3 s overruns (0.2 s to spare for latency), and
    # the third move runs out of time
    [record] = play(registry, [slow, "random"], limit=TimeControl(move=0.1, bank=0.75))
    seat = record.seats[0]
    assert seat.fault == "timeout"
    assert seat.moves == 2
    # two 0.4 s sleeps charged (the clock forgives what it finds the referee
    # itself waited for a core, so under load a move is charged up to a few
    # hundredths less than its sleep: 0.79 s was seen)
    assert seat.time_used >= 0.7
    # the bank the third move was given is what the two overruns (each
    # move's charge beyond its 0.1 s) left of it, to the detail's 3 decimals
    bank_left = float(re.search(r"\+ ([0-9.]+)s bank", seat.fault_detail).group(1))
    assert bank_left == pytest.approx(0.75 - (seat.time_used - 2 * 0.1), abs=0.0015)


def test_same_seed_same_match(registry):
    first = play(registry, ["random", "random", "random"], deals=2)
    second = play(registry, ["random", "random", "random"], deals=2)
    assert [r.steps for r in first] == [r.steps for r in second]


def test_bad_seating_is_rejected(registry):
    engine = registry.engine("farm-and-furious")
    entrants = [Entrant("a", registry.bot("random")), Entrant("b", registry.bot("random"))]
    with pytest.raises(ValueError):
        play_match(engine, entrants, [Deal(1, (0, 0))])


def test_each_entrant_can_have_its_own_limits(registry):
    from arena.sandbox import ResourceLimits

    # a 1 MiB address space cannot even start Python: that entrant alone fails
    tiny = ResourceLimits(memory=1 << 20)
    engine = registry.engine("farm-and-furious")
    entrants = [
        Entrant("tiny", registry.bot("random"), resources=tiny),
        Entrant("normal", registry.bot("random")),
    ]
    [record] = play_match(engine, entrants, [Deal(1, (0, 1))], limit=FAST)
    assert record.seats[0].fault == "crash"
    assert record.seats[1].fault is None


def test_entrants_are_values_and_times_are_kept_to_the_microsecond(registry):
    import dataclasses

    entrant = Entrant("a", registry.bot("random"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        entrant.name = "b"  # one entrant object is shared by every match it plays
    records = play(registry, ["random", "random"], deals=3)
    used = [seat.time_used for record in records for seat in record.seats]
    assert all(value == round(value, 6) for value in used)
    assert any(value != round(value, 5) for value in used)  # not cut to 10 µs


AFTER_GAME = Path(__file__).parent / "bots" / "after_game.py"


def after_game(name: str, mode: str, mark: Path, **fields) -> Entrant:
    return Entrant(
        name, BotSpec.from_command(f"cmd:{sys.executable} {AFTER_GAME} {mode} {mark}"), **fields
    )


def test_a_bot_that_breaks_while_sitting_out_is_restarted_for_its_next_game(
    tmp_path, registry, shared_basic
):
    # entrant 2 plays game 0, sits out game 1 and plays game 2.  After game 0
    # it sends a frame nobody asked for, read while game 1 is played (entrant
    # 0 waits for it before its first answer there): it is ended then, so
    # game 2 starts a fresh one.  Kept instead, it would bring its fault into
    # game 2 -- found there only when asked, behind entrant 0 who behaves.
    mark = tmp_path / "strayed"
    entrants = [
        after_game("waiter", "wait", mark),
        Entrant("random", registry.bot("random")),
        after_game("stray", "stray", mark),
    ]
    faults = []
    records = play_match(
        registry.engine("farm-and-furious"),
        entrants,
        [Deal(1, (0, 2)), Deal(2, (0, 1)), Deal(3, (2, 0))],
        {"track_length": 4},
        limit=TimeControl(move=5.0),
        sandbox="basic",
        on_fault=lambda *fault: faults.append(fault),
    )
    assert mark.exists()  # the stray frame was sent, before game 1's answers
    assert [[seat.fault for seat in record.seats] for record in records] == [[None, None]] * 3
    assert records[2].seats[0].bot == "stray" and records[2].seats[0].moves > 0
    assert faults == []


def test_a_persons_seat_is_ended_before_the_match_returns(tmp_path, registry, processes_running):
    # a bot in sandbox level "none" (a person's seat) may share the user's
    # terminal: it is waited for and ended before play_match returns, even
    # while the others are left to the background (linger) -- here one that
    # ignores goodbye, so only the referee's kill ends it
    person = after_game("person", "linger", tmp_path, sandbox="none")
    try:
        [record] = play_match(
            registry.engine("farm-and-furious"),
            [person, Entrant("random", registry.bot("random"))],
            [Deal(4, (0, 1))],
            {"track_length": 4},
            limit=FAST,
            sandbox="basic",
            linger=True,
        )
        assert record.seats[0].fault is None and record.seats[0].moves > 0
        assert processes_running(str(tmp_path)) == []
    finally:
        UNDERTAKER.drain()
