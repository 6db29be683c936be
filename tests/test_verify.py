"""arena.records.verify: a stored game replays through its engine, and a record
that was changed anywhere that matters does not."""

import dataclasses
import random

from arena.records import GameRecord, SeatRecord
from arena.records.verify import problems
from engines import unit_for


def _played(game="farm-and-furious", players=2, seed=7):
    """A record as the referee would store it: random legal moves to the end."""
    engine = unit_for(game).engine
    state = engine.new_game(players, seed, None)
    rng = random.Random(seed)
    steps = []
    while not state.is_over():
        actions = {seat: rng.choice(state.legal_actions(seat)) for seat in state.to_act()}
        steps.append([[seat, action] for seat, action in actions.items()])
        state.apply(actions)
    outcome = state.outcome()
    seats = [
        SeatRecord(bot="random", score=float(score), rank=rank, team=seat)
        for seat, (score, rank) in enumerate(zip(outcome.scores, outcome.ranks))
    ]
    record = GameRecord(
        game=game,
        version=engine.info.version,
        options={},
        seed=seed,
        players=players,
        seats=seats,
        steps=steps,
    )
    return engine, record


def test_a_faithful_record_replays():
    engine, record = _played()
    assert problems(engine, record) == []


def test_a_changed_score_is_reported():
    engine, record = _played()
    changed = record.seats[0]._replace(score=record.seats[0].score + 1)
    [problem] = problems(engine, dataclasses.replace(record, seats=(changed, *record.seats[1:])))
    assert problem.startswith("scores ")


def test_a_changed_rank_is_reported_unless_a_fault_explains_it():
    engine, record = _played()
    swapped = [seat._replace(rank=seat.rank + 5) for seat in record.seats]
    changed = dataclasses.replace(record, seats=swapped)
    assert any(p.startswith("ranks ") for p in problems(engine, changed))
    swapped[1] = swapped[1]._replace(fault="timeout")
    assert problems(engine, dataclasses.replace(record, seats=swapped)) == []


def test_a_truncated_or_foreign_move_record_is_reported():
    engine, record = _played()
    cut = dataclasses.replace(record, steps=record.steps[:-1])
    assert problems(engine, cut) == ["the game is not over after the recorded moves"]
    engine, record = _played("dou-dizhu", players=3)  # the moves play the dealt cards
    [problem] = problems(engine, dataclasses.replace(record, seed=record.seed + 1))
    assert problem.startswith("the move record does not replay: ")
