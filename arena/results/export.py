"""Every stored game as JSON lines: one self-describing object per game.

The schema (documented in docs/tournaments.md, "Export") is the game record
plus where it sits in the store.  ``game``, ``version``, ``players``,
``seed``, ``options`` and ``steps`` re-run the game exactly through its
engine (:func:`arena.game.replay`; :func:`rerun` here does it from a line).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from arena.records import GameRecord
from arena.results.store import Store

SCHEMA = 1


def lines(store: Store) -> Iterator[str]:
    """The export of ``store``, one JSON text per game, in plan order."""
    for game in store.records():
        document: dict[str, Any] = {
            "schema": SCHEMA,
            "id": game.id,
            "key": game.key,
            "tournament": game.tournament,
            "finished": game.finished,
        }
        document.update(game.record.to_dict())
        yield json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def record_of(line: str) -> GameRecord:
    """The game record of one exported line."""
    data = json.loads(line)
    fields = GameRecord.__dataclass_fields__
    return GameRecord.from_dict({k: v for k, v in data.items() if k in fields})


def rerun(line: str, registry):
    """Re-run an exported game through its installed engine; the final state."""
    from arena.game import replay

    record = record_of(line)
    engine = registry.engine(record.game)
    return replay(engine, record.players, record.seed, record.options, record.step_maps())
