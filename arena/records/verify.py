"""Does a stored game replay?  Re-run its recorded moves through its engine
and compare the outcome with what was stored.

The store keeps every game's deal seed, options and moves, so a record is
checkable by anyone with the engine: ``arena replay RESULTS N --verify``.  A
record that does not replay means a changed engine (its version says so), a
corrupted store, or an engine that is not a function of its seed and moves,
which the engine contract forbids.  Ranks are compared only for games without
faults: a fault changes the ranks the referee stores (a faulting seat is
placed last), not the engine's outcome.
"""

from __future__ import annotations

from arena.game import Engine, GameError, replay as rerun
from arena.records import GameRecord


def problems(engine: Engine, record: GameRecord) -> list[str]:
    """What differs between ``record`` and a re-run of its moves (empty: it
    replays).  A record whose moves the engine refuses is one problem."""
    try:
        state = rerun(engine, record.players, record.seed, record.options, record.step_maps())
        over = state.is_over()
        outcome = state.outcome() if over else None
    except (GameError, ValueError, KeyError, IndexError) as error:
        return [f"the move record does not replay: {error}"]
    if outcome is None:
        return ["the game is not over after the recorded moves"]
    found = []
    recorded_scores = [float(seat.score) for seat in record.seats]
    if [float(x) for x in outcome.scores] != recorded_scores:
        found.append(
            f"scores {list(outcome.scores)} != recorded {[seat.score for seat in record.seats]}"
        )
    recorded_ranks = [seat.rank for seat in record.seats]
    if not record.faults() and list(outcome.ranks) != recorded_ranks:
        found.append(f"ranks {list(outcome.ranks)} != recorded {recorded_ranks}")
    return found
