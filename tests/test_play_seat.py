"""The referee's per-entrant time control and sandbox level (what the human
seat of `arena play` needs), with a control run each."""

import sys
from pathlib import Path

import pytest

from arena.match.referee import Deal, Entrant, TimeControl, play_match
from arena.plugins.botspec import BotSpec
from arena.sandbox import SandboxError

REPORTER = Path(__file__).parent / "bots" / "limits_reporter.py"


def _race(registry, slow: Entrant):
    engine = registry.engine("farm-and-furious")
    others = Entrant("random", registry.bot("random"))
    [record] = play_match(
        engine,
        [slow, others],
        [Deal(3, (0, 1))],
        {"track_length": 3},
        limit=TimeControl(move=0.1),
        sandbox="basic",
    )
    return record


def test_an_entrant_with_its_own_time_control_is_not_held_to_the_matchs(registry, broken_bot):
    slow = registry.bot(broken_bot("slow", "0.3"))
    control = _race(registry, Entrant("slow", slow))
    assert control.seats[0].fault == "timeout"
    record = _race(registry, Entrant("slow", slow, limit=TimeControl(move=5.0)))
    assert [seat.fault for seat in record.seats] == [None, None]
    assert record.seats[0].moves >= 1


def _address_limit(registry, tmp_path, sandbox):
    out = tmp_path / "limit.txt"
    spec = BotSpec.from_command(f"{sys.executable} {REPORTER} {out}")
    _race(registry, Entrant("reporter", spec, sandbox=sandbox))
    return out.read_text()


def test_an_entrant_with_its_own_sandbox_level_runs_in_it(registry, tmp_path, shared_basic):
    assert _address_limit(registry, tmp_path, None) != "unlimited"  # the match's basic level
    assert _address_limit(registry, tmp_path, "none") == "unlimited"


def test_an_unknown_entrant_sandbox_level_is_refused(registry):
    with pytest.raises(SandboxError, match="unknown sandbox level 'open'"):
        _race(registry, Entrant("random", registry.bot("random"), sandbox="open"))
