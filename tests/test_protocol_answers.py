"""The answers docs/protocol.md gives a bot author, checked against the referee."""

import json
import re
import sys
from pathlib import Path

import msgpack
import pytest

from arena.botkit import protocol
from arena.match.referee import Deal, Entrant, TimeControl, _SeatClock, play_match
from arena.plugins.botspec import BotSpec
from engines.farm_and_furious import FarmAndFurious
from engines.farm_hand import FarmHand

REPORTER = Path(__file__).parent / "bots" / "reporter.py"
DOC = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text()


def reporter(mode):
    return Entrant(
        f"reporter-{mode}", BotSpec.from_command(f"cmd:{sys.executable} {REPORTER} {mode}")
    )


def test_a_restarted_bot_gets_a_new_hello_seed(registry):
    random_bot = Entrant("random", registry.bot("random"))
    records = play_match(
        FarmAndFurious(),
        [reporter("at-new-game"), random_bot],
        [Deal(11, (0, 1)), Deal(12, (1, 0))],
        sandbox="basic",
    )
    details = [
        next(s.fault_detail for s in r.seats if s.bot == "reporter-at-new-game") for r in records
    ]
    seeds = [re.search(r"hello seed=(\d+)", detail).group(1) for detail in details]
    assert len(seeds) == 2 and seeds[0] != seeds[1]
    assert "**A restarted bot gets a new `hello` seed**" in DOC


def test_farm_hand_game_over_scores_lists_bots_and_ranks_adds_the_dummies(registry):
    random_bot = Entrant("random", registry.bot("random"))
    first, second = play_match(
        FarmHand(),
        [reporter("after-game-over"), random_bot],
        [Deal(3, (0, 1)), Deal(4, (0, 1))],
        sandbox="basic",
    )
    line = re.search(
        r"game_over scores=(\[.*?\]) ranks=(\[.*?\]) table=(\d)", second.seats[0].fault_detail
    )
    scores, ranks, table = json.loads(line.group(1)), json.loads(line.group(2)), int(line.group(3))
    assert (
        "hello seed=" in second.seats[0].fault_detail
        and "players=2" in second.seats[0].fault_detail
    )
    assert len(scores) == 2 and len(ranks) == 3 and table == 3  # bots; bots then mac
    assert scores == [s.score for s in first.seats]
    assert ranks == [s.rank for s in first.seats] + [d.rank for d in first.dummies]
    assert [d.name for d in first.dummies] == ["mac"]


def test_bin_strings_are_not_strings():
    as_bin = msgpack.packb({"type": "action", "action": b"dog"}, use_bin_type=True)
    with pytest.raises(protocol.ProtocolError, match="got bytes"):
        protocol.expect_action(protocol.decode(as_bin))
    with pytest.raises(protocol.ProtocolError, match="not a map with a 'type'"):
        protocol.decode(msgpack.packb({b"type": b"ready"}, use_bin_type=True))
    # the old "raw" spelling is the str family: accepted
    raw = msgpack.packb({"type": "action", "action": b"dog"}, use_bin_type=False)
    assert protocol.expect_action(protocol.decode(raw)) == "dog"


def test_floats_sent_are_float64():
    hello = protocol.encode(protocol.hello("g", {}, 2, 1, TimeControl().as_dict()))
    act = protocol.encode(protocol.act({"seat": 0}, ["x"], 1.0, 0.25))
    for frame in (hello, act):
        assert b"\xcb" in frame and b"\xca" not in frame
    assert msgpack.unpackb(act[4:])["clock"] == {"move": 1.0, "bank": 0.25}


def test_the_bank_pays_the_overrun_only_and_the_grace_is_50_ms():
    clock = _SeatClock(bank=2.0)
    clock.charge(1.25, move=1.0)
    assert clock.bank == pytest.approx(1.75)
    clock.charge(0.5, move=1.0)
    assert clock.bank == pytest.approx(1.75)
    clock.charge(9.0, move=1.0)
    assert clock.bank == 0.0
    assert TimeControl().grace == 0.05 and "**grace of 50 ms**" in DOC


def test_a_cmd_line_is_split_like_a_shell_without_a_shell(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my bot.py").write_text("")
    spec = BotSpec.from_command("cmd:python 'my bot.py' --name \"a b\" $HOME *.py")
    assert spec.command == ("python", str(tmp_path / "my bot.py"), "--name", "a b", "$HOME", "*.py")
