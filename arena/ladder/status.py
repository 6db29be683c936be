"""What ``arena ladder status`` shows: each version, its state and its games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from arena.ladder.entrants import Roster
from arena.ladder.standings import pools
from arena.results.store import FILE_NAME, Store


def status_of(folder: str | Path) -> list[dict[str, Any]]:
    """Every version (in submission order) with its games and faults so far
    and its rating per game and table size (each rated on its own games:
    ``mu``, ``sigma`` and the interval ``mu +- 2 sigma``)."""
    folder = Path(folder)
    with Roster(folder, create=False) as roster:
        versions = roster.versions()
    games: Counter = Counter()
    faults: Counter = Counter()
    ratings: dict[str, dict[str, Any]] = {}
    if (folder / FILE_NAME).exists():
        with Store(folder, create=False) as store:
            for group, pool in pools(store).items():
                for game in pool.games:
                    for seat in game.record.seats:
                        games[seat.bot] += 1
                        faults[seat.bot] += seat.fault is not None
                for entrant in pool.rated.mu:
                    rating = pool.rating(entrant)
                    if rating is not None:
                        ratings.setdefault(entrant, {})[group] = rating
    return [
        {
            **v.to_dict(),
            "games": games[v.entrant],
            "faults": faults[v.entrant],
            "ratings": ratings.get(v.entrant, {}),
        }
        for v in versions
    ]


def status_text(rows: list[dict[str, Any]]) -> str:
    """A line per version: entrant, state, games, faults, its ratings
    (``mu +- 2 sigma`` per game and table size), and why."""
    width = max([len(row["entrant"]) for row in rows] + [7])
    lines = [f"{'entrant'.ljust(width)}  {'state':10}  {'games':>6}  {'faults':>6}  rating  reason"]
    for row in rows:
        rated = ", ".join(
            f"{group} {r['mu']:.1f}±{2 * r['sigma']:.1f}" for group, r in row["ratings"].items()
        )
        lines.append(
            f"{row['entrant'].ljust(width)}  {row['state']:10}  {row['games']:6d}  "
            f"{row['faults']:6d}  {rated or '-'}  {row['reason'] or ''}".rstrip()
        )
    return "\n".join(lines)
