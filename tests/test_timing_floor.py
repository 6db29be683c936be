"""The timing floor: at a table with a submitted bot no seat learns of a
move sooner than the floor after it was asked, forced or not, so a rival's
answer times do not tell which hidden situation it was in.

Asserted as a lower bound on the referee's own send times (what a bot can
see no earlier), which holds however loaded the machine is; the control is
the same table of trusted bots, which is not held."""

import sys
import time

import pytest

from arena.match.deals import Deal
from arena.match.referee import Entrant, TimeControl, play_match
from arena.match.session import Session
from arena.plugins.botspec import BotSpec

MOVE, SHARE = 0.02, 2.0
FLOOR = MOVE * SHARE
SUBMITTED_RANDOM = f"cmd:{sys.executable} -m arena.botkit bots.random_bot:RandomBot"


def sends(monkeypatch, registry, submitted: bool):
    """Play one Farm Hand game for two; the times each step's questions
    and the game_over messages were sent, and the record."""
    times: list[tuple[str, float]] = []
    act, game_over = Session.act, Session.game_over

    def timed_act(self, message):
        times.append(("act", time.monotonic()))
        return act(self, message)

    def timed_game_over(self, message):
        times.append(("game_over", time.monotonic()))
        return game_over(self, message)

    monkeypatch.setattr(Session, "act", timed_act)
    monkeypatch.setattr(Session, "game_over", timed_game_over)
    spec = BotSpec.from_command(SUBMITTED_RANDOM) if submitted else registry.bot("random")
    entrants = [
        Entrant("rival", spec, submitted=submitted),
        Entrant("random", registry.bot("random"), submitted=False),
    ]
    (record,) = play_match(
        registry.engine("farm-hand"),
        entrants,
        [Deal(21, (0, 1), 22)],
        limit=TimeControl(move=MOVE, floor=SHARE),
        sandbox="none",
    )
    assert not any(seat.fault for seat in record.seats)
    starts, at = [], 0
    for step in record.steps:  # a step's questions go out together
        starts.append(times[at][1])
        at += len(step)
    assert all(kind == "game_over" for kind, _ in times[at:]) and len(times) == at + 2
    return [later - earlier for earlier, later in zip(starts, starts[1:] + [times[at][1]])]


def test_every_move_of_every_seat_is_held_to_the_floor(monkeypatch, registry):
    gaps = sends(monkeypatch, registry, submitted=True)
    assert len(gaps) > 20 and min(gaps) >= FLOOR


def test_control_trusted_bots_alone_are_not_held(monkeypatch, registry):
    gaps = sends(monkeypatch, registry, submitted=False)
    assert min(gaps) < FLOOR


def test_the_floor_is_a_share_of_the_move_and_not_negative():
    with pytest.raises(ValueError, match="floor"):
        TimeControl(floor=-1.0)
    assert TimeControl().floor == 0.0  # the referee's own default: off


def test_a_tournament_holds_by_default_and_may_turn_it_off(write_tournament, registry):
    from arena.tournament import load

    on = load(
        write_tournament('[[games]]\nid = "vegetables"\n', name="t", bots=["random"]), registry
    )
    off = load(
        write_tournament(
            '[time]\nfloor = 0\n[[games]]\nid = "vegetables"\n', name="t", bots=["random"]
        ),
        registry,
    )
    assert on.time.floor == 1.0 and off.time.floor == 0.0
    assert on.conditions() == off.conditions()  # not a condition: a resume may change it
    assert registry.submitted(SUBMITTED_RANDOM) and not registry.submitted("random")
