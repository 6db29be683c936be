"""The timing floor: at a table with a submitted bot no seat learns of a
move sooner than the floor after it was asked (a share of the longest the
mover has taken so far in the match), forced or not, so a rival's answer times do not tell
which hidden situation it was in.

Asserted as a lower bound on the referee's own send times (what a bot can
see no earlier), which holds however loaded the machine is; the control is
the same table of trusted bots, which is not held.  Then the attack itself,
with its control."""

import itertools
import math
import statistics
import sys
import time
from pathlib import Path

import pytest

from arena.match.deals import Deal
from arena.match.referee import Entrant, TimeControl, play_match
from arena.match.session import Session
from arena.plugins.botspec import BotSpec

BOTS = Path(__file__).parent / "bots"
#: the timing attack's clock and its target's thinking (a share of it, none kept back)
ATTACK_MOVE = 0.05
THINKING = {"time_fraction": 0.3, "margin": 0.0}

#: the one long step of the held table: its thinker's sleep, and the floor's share of it
THOUGHT, SHARE = 0.1, 1.0
SUBMITTED_RANDOM = f"cmd:{sys.executable} -m arena.botkit bots.random_bot:RandomBot"


def sends(monkeypatch, registry, submitted: bool):
    """Play one Farm Hand game for two, a bot that thinks ``THOUGHT`` on its
    first move alone against ``random``: for each step the thinker acts in,
    how long after its question the next step's questions (or the game_over
    messages) were sent."""
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
    thinker = BotSpec.from_command(f"cmd:{sys.executable} {BOTS / 'slow_start.py'} {THOUGHT}")
    entrants = [
        Entrant("thinker", thinker, submitted=submitted),
        Entrant("random", registry.bot("random"), submitted=False),
    ]
    (record,) = play_match(
        registry.engine("farm-hand"),
        entrants,
        [Deal(21, (0, 1), 22)],
        limit=TimeControl(move=1.0, floor=SHARE),
        sandbox="none",
    )
    assert not any(seat.fault for seat in record.seats)
    starts, at = [], 0
    for step in record.steps:  # a step's questions go out together
        starts.append(times[at][1])
        at += len(step)
    assert all(kind == "game_over" for kind, _ in times[at:]) and len(times) == at + 2
    assert any(seat == 0 for seat, _ in record.steps[0])  # the thinking is the first step's
    gaps = [later - earlier for earlier, later in zip(starts, starts[1:] + [times[at][1]])]
    return [gap for gap, step in zip(gaps, record.steps) if any(seat == 0 for seat, _ in step)]


def test_every_move_of_a_thinker_is_held_to_its_longest(monkeypatch, registry):
    gaps = sends(monkeypatch, registry, submitted=True)
    assert len(gaps) > 20 and min(gaps) >= THOUGHT * SHARE


def test_control_trusted_bots_alone_are_not_held(monkeypatch, registry):
    gaps = sends(monkeypatch, registry, submitted=False)
    assert gaps[0] >= THOUGHT and min(gaps[1:]) < THOUGHT / 2


def test_the_floor_is_a_share_of_the_move_and_not_negative():
    with pytest.raises(ValueError, match="floor"):
        TimeControl(floor=-1.0)
    assert TimeControl().floor == 0.0  # the referee's own default: off


def test_a_tournament_holds_by_default_and_may_turn_it_off(write_tournament, registry):
    from arena.tournament import load

    on = load(
        write_tournament(
            '[[games]]\nid = "vegetables"\n', name="t", bots=["random", "vegetables-planner"]
        ),
        registry,
    )
    off = load(
        write_tournament(
            '[time]\nfloor = 0\n[[games]]\nid = "vegetables"\n',
            name="t",
            bots=["random", "vegetables-planner"],
        ),
        registry,
    )
    assert on.time.floor == 1.0 and off.time.floor == 0.0
    assert on.conditions() == off.conditions()  # not a condition: a resume may change it
    assert registry.submitted(SUBMITTED_RANDOM) and not registry.submitted("random")


def attack(registry, tmp_path, share: float, games: int = 3) -> tuple[list[float], list[bool]]:
    """A stopwatch bot against ``ismcts`` (which answers a forced move at
    once and thinks otherwise) in Farm Hand for two.  Returns the gaps
    between the stopwatch's questions that span its own move and then the
    rival's alone (the same steps either way, so only the rival's thinking
    can differ), and whether that rival move was forced."""
    log = tmp_path / f"gaps-{share}.txt"
    log.unlink(missing_ok=True)
    spy = BotSpec.from_command(f"cmd:{sys.executable} {BOTS / 'stopwatch.py'} {log}")
    entrants = [
        Entrant("spy", spy),
        Entrant("ismcts", registry.bot("ismcts"), settings=THINKING, submitted=False),
    ]
    engine = registry.engine("farm-hand")
    records = play_match(
        engine,
        entrants,
        [Deal(100 + game, (0, 1), 200 + game, game) for game in range(games)],
        limit=TimeControl(move=ATTACK_MOVE, floor=share),
        sandbox="none",
    )
    arrivals: dict[int, list[float]] = {}
    for line in log.read_text().splitlines():
        game, at = line.split()
        arrivals.setdefault(int(game), []).append(float(at))
    gaps, forced = [], []
    for game, record in enumerate(records):
        assert not any(seat.fault for seat in record.seats)
        state, legal_counts = engine.new_game(2, record.seed, record.options), []
        for step in record.steps:
            legal_counts.append({seat: len(state.legal_actions(seat)) for seat, _ in step})
            state.apply(dict(step))
        mine = [i for i, step in enumerate(record.steps) if any(seat == 0 for seat, _ in step)]
        for k, (first, then) in enumerate(itertools.pairwise(mine)):
            if then == first + 2 and list(legal_counts[first + 1]) == [1]:
                gaps.append(arrivals[game][k + 1] - arrivals[game][k])
                forced.append(legal_counts[first + 1][1] == 1)
    assert len(gaps) >= 20 and 5 <= forced.count(True) <= len(gaps) - 5, forced
    return gaps, forced


def classified(gaps: list[float], forced: list[bool]) -> float:
    """The attacker's balanced accuracy (0.5 is chance): the gaps split into
    two clusters (1-D k-means of their logarithms: the scale of the
    thinking, not its size), the shorter called forced."""
    times = [math.log(gap) for gap in gaps]
    low, high = min(times), max(times)
    for _ in range(50):
        cut = (low + high) / 2
        short = [t for t in times if t <= cut] or [low]
        long = [t for t in times if t > cut] or [high]
        low, high = sum(short) / len(short), sum(long) / len(long)
    hits = [(t <= (low + high) / 2) == truth for t, truth in zip(times, forced)]
    rate = [
        sum(h for h, f in zip(hits, forced) if f == kind) / forced.count(kind)
        for kind in (True, False)
    ]
    return sum(rate) / 2


def told_apart(gaps: list[float], forced: list[bool]) -> float:
    """How much longer, in seconds, the median gap over a thought move is
    than over a forced one: the signal itself."""
    return statistics.median(g for g, f in zip(gaps, forced) if not f) - statistics.median(
        g for g, f in zip(gaps, forced) if f
    )


def test_a_timing_attacker_reads_forced_moves_without_the_floor_not_with_it(registry, tmp_path):
    """The control: with no floor the stopwatch tells forced moves from
    thought ones, by the rival's whole thinking time; with the default floor
    (the mover's longest answer so far) the thinking no longer shows: the medians
    differ by less than a third of what they did (0.1-0.5 ms on a quiet
    machine; 3 ms once under a CI run's load: a thought a little longer
    than any before it shows by that much, the floor's residue)."""
    thinking = THINKING["time_fraction"] * ATTACK_MOVE
    gaps, forced = attack(registry, tmp_path, share=0.0)
    signal = told_apart(gaps, forced)
    assert classified(gaps, forced) >= 0.75 and signal >= thinking / 2
    gaps, forced = attack(registry, tmp_path, share=1.0)
    assert abs(told_apart(gaps, forced)) <= signal / 3, (told_apart(gaps, forced), signal)
