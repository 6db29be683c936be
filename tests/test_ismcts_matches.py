"""The ``ismcts`` bot as users meet it: a sandboxed process under the
referee, configured by its settings, in every game of the arena."""

import subprocess
import sys

import pytest

from arena.game import replay
from arena.match.referee import Deal, Entrant, TimeControl, play_match

#: (game, players, options, the heuristic bot to sit beside): short games
TABLES = [
    ("farm-and-furious", 2, None, "farm-and-furious-racer"),
    ("dou-dizhu", 3, None, "dou-dizhu-greedy"),
    ("farm-hand", 3, None, "farm-hand-counter"),
    ("vegetables", 2, None, "vegetables-planner"),
    ("hand-and-foot", 2, {"target": 100, "max_rounds": 1, "hand_size": 6}, "hand-and-foot-builder"),
]
FEW = {"iterations": 8}


def match(registry, game, players, options, other, settings, seed=7, limit=TimeControl(move=2.0)):
    engine = registry.engine(game)
    entrants = [Entrant("ismcts", registry.bot("ismcts"), settings=settings)]
    entrants += [Entrant(f"{other}-{i}", registry.bot(other)) for i in range(1, players)]
    [record] = play_match(
        engine, entrants, [Deal(seed, tuple(range(players)))], options, limit=limit
    )
    return record


@pytest.mark.parametrize("game, players, options, other", TABLES, ids=[t[0] for t in TABLES])
def test_plays_a_whole_game_without_fault(registry, game, players, options, other):
    record = match(registry, game, players, options, other, FEW)
    assert [seat.fault for seat in record.seats] == [None] * players
    assert record.seats[0].moves > 0
    final = replay(registry.engine(game), players, record.seed, record.options, record.step_maps())
    assert final.is_over()
    assert list(final.outcome().scores) == [seat.score for seat in record.seats]


def test_same_seed_and_iterations_replay_move_for_move(registry):
    game, players, options, other = TABLES[1]
    first = match(registry, game, players, options, other, {"iterations": 30})
    again = match(registry, game, players, options, other, {"iterations": 30})
    assert first.steps == again.steps
    # control: the search's choices really depend on its budget
    other_budget = match(registry, game, players, options, other, {"iterations": 31})
    assert other_budget.steps != first.steps


def test_bad_setting_stops_the_bot_with_a_one_line_reason(registry):
    record = match(registry, "farm-and-furious", 2, None, "random", {"iterationz": 3})
    assert record.seats[0].fault == "crash"
    assert "unknown setting 'iterationz'" in record.seats[0].fault_detail


@pytest.fixture
def load():
    """Two busy processes (one per core here) for the length of a test."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    yield
    for spinner in spinners:
        spinner.kill()
        spinner.wait()


@pytest.mark.parametrize("game, players", [("vegetables", 2), ("farm-hand", 1)])
def test_clock_mode_keeps_within_the_move_time_under_load(registry, load, game, players):
    # (Farm Hand solitaire: its deals search answers every decision, by the clock)
    move = 0.15
    record = match(
        registry, game, players, None, "random", {}, limit=TimeControl(move=move, grace=0.0)
    )
    seat = record.seats[0]
    assert seat.fault is None, seat.fault_detail
    assert seat.moves > 5
    # it thinks for half the move by default: well inside the limit on average
    assert seat.time_used / seat.moves < move


def test_tournament_settings_reach_the_bot_and_decide_the_plan(tmp_path, registry):
    from arena.tournament.config import ConfigError, load
    from arena.tournament.plan import plan
    from arena.tournament.runner import jobs_for, tournament_seats

    def write(bots):
        path = tmp_path / "t.toml"
        path.write_text(
            f'name = "s"\nseed = 1\ndeals = 1\nbots = [{bots}]\n'
            '[[games]]\nid = "farm-and-furious"\nplayers = [2]\n'
        )
        return load(path, registry)

    tournament = write('"random", { bot = "ismcts", settings = { iterations = 3 } }')
    jobs = jobs_for(tournament_seats(tournament, registry), plan(tournament), set())
    assert len(jobs) == 2  # one match per seating
    for job in jobs:
        assert {e.name: e.settings for e in job.entrants} == {
            "random": None,
            "ismcts": {"iterations": 3},
        }
    other = write('"random", { bot = "ismcts", settings = { iterations = 4 } }')
    assert other.fingerprint() != tournament.fingerprint()
    with pytest.raises(ConfigError, match=r"bots\[1\]\.settings: expected a table"):
        write('"random", { bot = "ismcts", settings = 3 }')
