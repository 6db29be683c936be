"""Every stored game as JSON lines: one self-describing object per game.

The schema (documented in docs/tournaments.md, "Export") is the game record
plus where it sits in the store.  ``game``, ``version``, ``players``,
``seed``, ``options`` and ``steps`` re-run the game exactly through its
engine (:func:`arena.game.replay`; :func:`rerun` here does it from a line).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from typing import Any

from arena.records import GameRecord
from arena.results.store import NoSuchGame, Store, StoredGame, StoreError

SCHEMA = 1


def line(game: StoredGame) -> str:
    """One game's line of the export."""
    document: dict[str, Any] = {
        "schema": SCHEMA,
        "id": game.id,
        "key": game.key,
        "tournament": game.tournament,
        "finished": game.finished,
    }
    document.update(game.record.to_dict())
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def lines(store: Store) -> Iterator[str]:
    """The export of ``store``, one JSON text per game, in plan order."""
    for game in store.records():
        yield line(game)


def salvage(store: Store) -> tuple[list[str], int]:
    """What can still be read of a damaged store: the lines of the games
    whose records read back, in id order (each read on its own, so one
    damaged page loses only the games on it), and how many could not."""
    read, lost = [], 0
    for game_id in range(1, store.largest_id() + 1):
        try:
            read.append(line(store.record(game_id)))
        except NoSuchGame:
            continue
        except (StoreError, zlib.error, ValueError, KeyError, TypeError):
            lost += 1
    return read, lost


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
