"""What the referee tells a bot and writes down, read from a bot's own
transcript of the messages it received: the clock in ``act`` (move and bank,
the bank drawn down by an overrun), the game index in ``new_game``, and the
ranks of Farm Hand's dummies in the game record."""

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from arena.game import DummyResult, Outcome, competition_ranks
from arena.match.referee import (
    WALL_CEILING,
    Deal,
    Entrant,
    TimeControl,
    _ranks_with_faults,
    play_match,
)
from arena.plugins.botspec import BotSpec
from engines.dou_dizhu import DouDizhu
from engines.farm_and_furious import FarmAndFurious
from engines.farm_hand import FarmHand

TRANSCRIPT = Path(__file__).parent / "bots" / "transcript.py"


def transcribed(log: Path, first_sleep: float = 0.0) -> Entrant:
    command = f"cmd:{sys.executable} {TRANSCRIPT} {log} {first_sleep}"
    return Entrant("transcript", BotSpec.from_command(command))


def received(log: Path, kind: str) -> list[dict]:
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    return [message for message in messages if message["type"] == kind]


def test_act_sends_the_move_time_and_the_bank_each_under_its_own_name(
    tmp_path, registry, shared_basic
):
    log = tmp_path / "log.jsonl"
    play_match(
        FarmAndFurious(),
        [transcribed(log), Entrant("random", registry.bot("random"))],
        [Deal(5, (0, 1))],
        limit=TimeControl(move=0.5, bank=2.0),
        sandbox="basic",
    )
    clocks = [message["clock"] for message in received(log, "act")]
    assert clocks and clocks[0] == {"move": 0.5, "bank": 2.0}
    assert received(log, "hello")[0]["limits"] == {"startup": 10.0, "move": 0.5, "bank": 2.0}


def test_an_overrun_is_paid_from_the_bank_the_bot_is_told_about(tmp_path, registry, shared_basic):
    log = tmp_path / "log.jsonl"
    [record] = play_match(
        FarmAndFurious(),
        [transcribed(log, 0.4), Entrant("random", registry.bot("random"))],
        [Deal(5, (0, 1))],
        limit=TimeControl(move=0.1, bank=1.0),
        sandbox="basic",
    )
    assert record.seats[0].fault is None
    first, second = [message["clock"] for message in received(log, "act")][:2]
    assert first == {"move": 0.1, "bank": 1.0}
    # 1.0 less the ~0.3 s overrun: the clock forgives what it finds the
    # referee itself waited for a core, so under load a 0.4 s sleep is
    # charged a few hundredths less (0.703 left was seen)
    assert second["move"] == 0.1 and 0.2 < second["bank"] <= 0.75


def test_a_bot_not_asked_forced_moves_gets_no_act_with_one_legal_action_and_plays_the_same_games(
    tmp_path, registry, shared_basic
):
    def played(ask_forced: bool) -> tuple[list, list[dict]]:
        log = tmp_path / f"log-{ask_forced}.jsonl"
        bot = transcribed(log)
        bot = replace(bot, spec=replace(bot.spec, ask_forced=ask_forced))
        records = play_match(
            DouDizhu(),
            [bot, Entrant("a", registry.bot("random")), Entrant("b", registry.bot("random"))],
            [Deal(seed, (0, 1, 2)) for seed in (3, 4)],
            sandbox="basic",
        )
        return records, received(log, "act")

    asked, asked_acts = played(True)
    played_here, acts = played(False)
    # control: the transcript bot (it plays the first legal action) is asked forced moves
    assert any(len(act["legal"]) == 1 for act in asked_acts)
    assert acts and all(len(act["legal"]) > 1 for act in acts)
    assert len(acts) < len(asked_acts)
    # the same games: every move, score and rank, the forced moves counted as the seat's
    for before, after in zip(asked, played_here, strict=True):
        assert after.steps == before.steps
        assert [(s.score, s.rank, s.moves, s.fault) for s in after.seats] == [
            (s.score, s.rank, s.moves, s.fault) for s in before.seats
        ]
    assert sum(record.seats[0].moves for record in played_here) == len(asked_acts)


def test_new_game_carries_the_games_index_seat_and_seat_seed(tmp_path, registry, shared_basic):
    log = tmp_path / "log.jsonl"
    deals = [Deal(5, (0, 1)), Deal(6, (1, 0)), Deal(7, (0, 1), index=9)]
    play_match(
        FarmAndFurious(),
        [transcribed(log), Entrant("random", registry.bot("random"))],
        deals,
        sandbox="basic",
    )
    games = received(log, "new_game")
    assert [game["index"] for game in games] == [0, 1, 9]
    assert [game["seat"] for game in games] == [0, 1, 0]
    assert [game["players"] for game in games] == [2, 2, 2]
    assert [game["seed"] for game in games] == [
        deals[0].seat_seed(0),
        deals[1].seat_seed(1),
        deals[2].seat_seed(0),
    ]


def test_farm_hands_dummies_are_ranked_with_the_bots_in_the_record(registry):
    random_bot = registry.bot("random")
    records = play_match(
        FarmHand(),
        [Entrant("a", random_bot), Entrant("b", random_bot)],
        [Deal(seed, (0, 1)) for seed in (3, 4)],
        sandbox="basic",
    )
    for record in records:
        assert [dummy.name for dummy in record.dummies] == ["mac"]
        scores = [seat.score for seat in record.seats] + [d.score for d in record.dummies]
        ranks = [seat.rank for seat in record.seats] + [d.rank for d in record.dummies]
        assert ranks == competition_ranks(scores)


def test_a_faulted_seat_ranks_last_below_the_dummies():
    outcome = Outcome(
        scores=(10, 3),
        ranks=(1, 3),
        teams=(0, 1),
        dummies=(DummyResult("mac", 5, 2), DummyResult("donald", 1, 4)),
    )
    assert _ranks_with_faults(outcome, [False, False]) == [1, 3, 2, 4]
    assert _ranks_with_faults(outcome, [True, False]) == [4, 2, 1, 3]
    assert _ranks_with_faults(outcome, [True, True]) == [3, 3, 1, 2]


@pytest.mark.parametrize("field", ["move", "startup"])
def test_a_time_limit_of_zero_is_refused_where_it_must_be_positive(field):
    with pytest.raises(ValueError, match="must be positive"):
        TimeControl(**{field: 0})
    with pytest.raises(ValueError, match=f"'{field}' must not be negative"):
        TimeControl(**{field: -1})


def test_a_bank_and_a_grace_of_zero_are_allowed_but_not_below():
    assert TimeControl(bank=0, grace=0).as_dict() == {"startup": 10.0, "move": 1.0, "bank": 0}
    for field in ("bank", "grace"):
        with pytest.raises(ValueError, match=f"'{field}' must not be negative"):
            TimeControl(**{field: -0.01})


class StarvedBot:
    """A bot process as the move clock sees it: CPU time and time spent
    runnable but waiting for a CPU, set by the test."""

    def __init__(self, cpu=0.0, waited=0.0):
        self.cpu, self.waited = cpu, waited

    def usage(self):
        from types import SimpleNamespace

        return SimpleNamespace(cpu=self.cpu, waited=self.waited)


@pytest.fixture
def clock(monkeypatch):
    """A _MoveDeadline on a StarvedBot, the referee itself never starved."""
    from arena.match import referee

    monkeypatch.setattr(referee, "referee_waited", lambda: 0.0)

    def make(allowed, grace=0.05, **usage):
        bot = StarvedBot(**usage)
        return bot, referee._MoveDeadline(bot, allowed, grace)

    return make


def test_the_clock_charges_wall_time_less_starvation_or_cpu_time_if_more(clock):
    bot, deadline = clock(1.0, cpu=0.3, waited=2.0)
    bot.cpu, bot.waited = 0.5, 2.8  # 1 s of wall: 0.8 s starved, 0.2 s of CPU
    assert deadline.charged(deadline.started + 1.0) == pytest.approx(0.2)
    bot.cpu = 1.5  # 1.2 s of CPU on several threads: more
    assert deadline.charged(deadline.started + 1.0) == pytest.approx(1.2)
    assert deadline.spent == pytest.approx(1.2)


def test_a_starved_bot_is_not_out_of_time_until_charged_it(clock):
    bot, deadline = clock(1.0, waited=0.0)
    bot.waited = 1.5  # 2 s of wall, 1.5 s of it starved
    assert not deadline.expired(deadline.started + 2.0)
    assert deadline.spent == pytest.approx(0.5)
    bot.waited = 1.6  # 3 s of wall, 1.4 s charged: over 1.05
    assert deadline.expired(deadline.started + 3.0)


def test_the_wall_clock_ceiling_ends_a_wait_for_a_bot_starved_for_ever(clock):
    bot, deadline = clock(1.0)
    assert deadline.ceiling == pytest.approx(deadline.started + 1.0 * WALL_CEILING + 0.05)
    bot.waited = 1000.0  # never charged anything
    assert not deadline.expired(deadline.ceiling - 0.5)
    assert deadline.expired(deadline.ceiling + 0.5)
    assert deadline.overrun(1.0, 0.0).startswith(
        f"no action within the {WALL_CEILING + 0.05:g}s wall-clock ceiling (charged 0.000s"
    )
