"""What the referee tells a bot and writes down, read from a bot's own
transcript of the messages it received: the clock in ``act`` (move and bank,
the bank drawn down by an overrun), the game index in ``new_game``, and the
ranks of Farm Hand's dummies in the game record."""

import json
import sys
from pathlib import Path

import pytest

from arena.bots import BotSpec
from arena.game import DummyResult, Outcome, competition_ranks
from arena.referee import Deal, Entrant, Limit, _ranks_with_faults, play_match
from engines.farm_and_furious import FarmAndFurious
from engines.farm_hand import FarmHand

TRANSCRIPT = Path(__file__).parent / "bots" / "transcript.py"


def transcribed(log: Path, first_sleep: float = 0.0) -> Entrant:
    command = f"cmd:{sys.executable} {TRANSCRIPT} {log} {first_sleep}"
    return Entrant("transcript", BotSpec.from_command(command))


def received(log: Path, kind: str) -> list[dict]:
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    return [message for message in messages if message["type"] == kind]


def test_act_sends_the_move_time_and_the_bank_each_under_its_own_name(tmp_path, registry):
    log = tmp_path / "log.jsonl"
    play_match(FarmAndFurious(), [transcribed(log), Entrant("random", registry.bot("random"))],
               [Deal(5, (0, 1))], limit=Limit(move=0.5, bank=2.0), sandbox="basic")
    clocks = [message["clock"] for message in received(log, "act")]
    assert clocks and clocks[0] == {"move": 0.5, "bank": 2.0}
    assert received(log, "hello")[0]["limits"] == {"startup": 10.0, "move": 0.5, "bank": 2.0}


def test_an_overrun_is_paid_from_the_bank_the_bot_is_told_about(tmp_path, registry):
    log = tmp_path / "log.jsonl"
    [record] = play_match(FarmAndFurious(), [transcribed(log, 0.4),
                                             Entrant("random", registry.bot("random"))],
                          [Deal(5, (0, 1))], limit=Limit(move=0.1, bank=1.0), sandbox="basic")
    assert record.seats[0].fault is None
    first, second = [message["clock"] for message in received(log, "act")][:2]
    assert first == {"move": 0.1, "bank": 1.0}
    assert second["move"] == 0.1 and 0.2 < second["bank"] <= 0.7   # 1.0 less the ~0.3 s overrun


def test_new_game_carries_the_games_index_seat_and_seat_seed(tmp_path, registry):
    log = tmp_path / "log.jsonl"
    deals = [Deal(5, (0, 1)), Deal(6, (1, 0)), Deal(7, (0, 1), index=9)]
    play_match(FarmAndFurious(), [transcribed(log), Entrant("random", registry.bot("random"))],
               deals, sandbox="basic")
    games = received(log, "new_game")
    assert [game["index"] for game in games] == [0, 1, 9]
    assert [game["seat"] for game in games] == [0, 1, 0]
    assert [game["players"] for game in games] == [2, 2, 2]
    assert [game["seed"] for game in games] == [deals[0].seat_seed(0), deals[1].seat_seed(1),
                                                deals[2].seat_seed(0)]


def test_farm_hands_dummies_are_ranked_with_the_bots_in_the_record(registry):
    random_bot = registry.bot("random")
    records = play_match(FarmHand(), [Entrant("a", random_bot), Entrant("b", random_bot)],
                         [Deal(seed, (0, 1)) for seed in (3, 4)], sandbox="basic")
    for record in records:
        assert [dummy.name for dummy in record.dummies] == ["mac"]
        scores = [seat.score for seat in record.seats] + [d.score for d in record.dummies]
        ranks = [seat.rank for seat in record.seats] + [d.rank for d in record.dummies]
        assert ranks == competition_ranks(scores)


def test_a_faulted_seat_ranks_last_below_the_dummies():
    outcome = Outcome(scores=(10, 3), ranks=(1, 3), teams=(0, 1),
                      dummies=(DummyResult("mac", 5, 2), DummyResult("donald", 1, 4)))
    assert _ranks_with_faults(outcome, [False, False]) == [1, 3, 2, 4]
    assert _ranks_with_faults(outcome, [True, False]) == [4, 2, 1, 3]
    assert _ranks_with_faults(outcome, [True, True]) == [3, 3, 1, 2]


@pytest.mark.parametrize("field", ["move", "startup"])
def test_a_time_limit_of_zero_is_refused_where_it_must_be_positive(field):
    with pytest.raises(ValueError, match="must be positive"):
        Limit(**{field: 0})
    with pytest.raises(ValueError, match=f"'{field}' must not be negative"):
        Limit(**{field: -1})


def test_a_bank_and_a_grace_of_zero_are_allowed_but_not_below():
    assert Limit(bank=0, grace=0).as_dict() == {"startup": 10.0, "move": 1.0, "bank": 0}
    for field in ("bank", "grace"):
        with pytest.raises(ValueError, match=f"'{field}' must not be negative"):
            Limit(**{field: -0.01})
