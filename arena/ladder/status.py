"""What ``arena ladder status`` shows: each version, its state and its games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from arena.ladder.entrants import Roster
from arena.ratings.rating import Rater
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
    raters: dict[str, tuple[str, Rater]] = {}  # group -> (game id, its games' rater)
    if (folder / FILE_NAME).exists():
        with Store(folder, create=False) as store:
            group_of = {item.id: item.group for item in store.items()}
            for game in store.games():
                for seat in game.record.seats:
                    games[seat.bot] += 1
                    faults[seat.bot] += seat.fault is not None
                group = group_of.get(game.item, game.record.game)
                raters.setdefault(group, (game.record.game, Rater()))[1].add(game)
    ratings: dict[str, dict[str, Any]] = {}
    for group, (game_id, rater) in sorted(raters.items()):
        for entrant, (mu, sigma) in rater.ratings(game_id).items():
            ratings.setdefault(entrant, {})[group] = {
                "mu": round(mu, 3),
                "sigma": round(sigma, 3),
                "interval": [round(mu - 2 * sigma, 3), round(mu + 2 * sigma, 3)],
            }
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
