"""What ``arena ladder status`` shows: each version, its state and its games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from arena.ladder.entrants import ROSTER_FILE, LadderError, Roster
from arena.results.store import FILE_NAME, Store


def status_of(folder: str | Path) -> list[dict[str, Any]]:
    """Every version (in submission order) with its games and faults so far."""
    folder = Path(folder)
    if not (folder / ROSTER_FILE).exists():
        raise LadderError(f"no ladder in {folder} (expected {folder / ROSTER_FILE})")
    with Roster(folder) as roster:
        versions = roster.versions()
    games: Counter = Counter()
    faults: Counter = Counter()
    if (folder / FILE_NAME).exists():
        with Store(folder, create=False) as store:
            for game in store.games():
                for seat in game.record.seats:
                    games[seat.bot] += 1
                    faults[seat.bot] += seat.fault is not None
    return [
        {**v.to_dict(), "games": games[v.entrant], "faults": faults[v.entrant]} for v in versions
    ]


def status_text(rows: list[dict[str, Any]]) -> str:
    """A line per version: entrant, state, games, faults, and why."""
    width = max([len(row["entrant"]) for row in rows] + [7])
    lines = [f"{'entrant'.ljust(width)}  {'state':10}  {'games':>6}  {'faults':>6}  reason"]
    for row in rows:
        lines.append(
            f"{row['entrant'].ljust(width)}  {row['state']:10}  {row['games']:6d}  "
            f"{row['faults']:6d}  {row['reason'] or ''}".rstrip()
        )
    return "\n".join(lines)
