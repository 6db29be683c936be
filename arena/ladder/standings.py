"""The ladder's standings: per game and table size, each version's rating
with its interval and over time, the versions and the recent games.

A ladder rates each pool (a game at one table size, the plan's group
``game/Np``) on that pool's games alone, as ``arena ladder status`` does.
The document (:func:`document`) is what the viewer's ladder page shows and
its JSON endpoint gives, to anybody: nothing a bot wrote (a rejection's
reason quotes what the bot wrote on stderr in its validation run, so it is
left to the author's page: :func:`public_reason`) and nothing of a game
whose deal has seatings left to play but that it is in play.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.ladder.entrants import Roster, Version
from arena.presentation import leaderboard, pages
from arena.results.store import FILE_NAME, Store, StoredGame

#: chart points per pool (fits of the pool's games so far)
HISTORY = 20
#: the recent games the page lists
RECENT = 20


@dataclass(frozen=True)
class Pool:
    """One rating pool: its group (``game/Np``), game id and games, in plan
    order, and their ratings (``history``: with chart points)."""

    group: str
    game: str
    games: list[StoredGame]
    rated: leaderboard.Rated

    def rating(self, entrant: str) -> dict[str, Any] | None:
        """An entrant's ``mu``, ``sigma`` and interval ``mu +- 2 sigma`` here."""
        mu, sigma = self.rated.mu.get(entrant), self.rated.sigma.get(entrant)
        if mu is None or sigma is None:
            return None
        return {
            "mu": round(mu, 3),
            "sigma": round(sigma, 3),
            "interval": [round(mu - 2 * sigma, 3), round(mu + 2 * sigma, 3)],
        }


def pools(store: Store, history: int = 0) -> dict[str, Pool]:
    """Every pool of the store's games, rated on its own games, by group."""
    group_of = {item.id: item.group for item in store.items()}
    grouped: dict[str, list[StoredGame]] = {}
    for game in store.games():
        grouped.setdefault(group_of.get(game.item, game.record.game), []).append(game)
    found = {}
    for group, games in sorted(grouped.items()):
        game_id = games[0].record.game
        rated = leaderboard.ratings(games, history=history)[game_id]
        found[group] = Pool(group, game_id, games, rated)
    return found


def stamp(folder: str | Path) -> str:
    """What changes when the page would: the games stored and the roster."""
    folder = Path(folder)
    games = 0
    if (folder / FILE_NAME).exists():
        with Store(folder, create=False) as store:
            games = store.count()
    with Roster(folder, create=False) as roster:
        versions = [v.to_dict() for v in roster.versions()]
    digest = hashlib.sha256(json.dumps(versions, sort_keys=True).encode()).hexdigest()
    return f"{games}-{digest[:16]}"


def public_reason(version: Version) -> str | None:
    """What anybody may read of why ``version`` is in its state: the
    roster's reason, but a rejection's (which may quote the bot's stderr:
    its author's alone)."""
    if version.state == "rejected":
        return "it failed its validation run (the reason is on its author's page)"
    return version.reason


def _row(version: Version, pool: Pool, games: int) -> dict[str, Any]:
    return {
        "entrant": version.entrant,
        "bot": version.bot,
        "version": version.version,
        "state": version.state,
        "games": games,
        **(pool.rating(version.entrant) or {}),
    }


def _standings(pool: Pool, versions: list[Version]) -> dict[str, Any]:
    """A pool's table: the latest version of each bot that played here
    (``shown``, best first), its older ones apart (``older``), and the
    chart of every version's rating over its own games."""
    played: Counter = Counter(seat.bot for game in pool.games for seat in game.record.seats)
    here = [v for v in versions if played[v.entrant]]
    latest = {v.bot: v for v in sorted(here, key=lambda v: v.version)}
    place = {name: n for n, name in enumerate(pool.rated.order)}
    rows = sorted(
        (_row(v, pool, played[v.entrant]) for v in here),
        key=lambda row: (place.get(row["entrant"], len(place)), row["entrant"]),
    )
    shown = [row for row in rows if latest[row["bot"]].entrant == row["entrant"]]
    for rank, row in enumerate(shown, start=1):
        row["rank"] = rank
    order = [row["entrant"] for row in rows]
    lines = leaderboard.chart(pool.games, pool.rated, order)
    return {
        "pool": pool.group,
        "game": pool.game,
        "games": len(pool.games),
        "shown": shown,
        "older": [row for row in rows if latest[row["bot"]].entrant != row["entrant"]],
        "chart": pages.chart_geometry(lines, order),
    }


def _recent(store: Store, found: dict[str, Pool]) -> list[dict[str, Any]]:
    """The last games stored, newest first; ``open``: its replay may be
    shown (no seating of its deal is left to play)."""
    games = sorted(
        ((game, pool.group) for pool in found.values() for game in pool.games),
        key=lambda pair: pair[0].id,
        reverse=True,
    )[:RECENT]
    return [
        {
            "id": game.id,
            "pool": group,
            "seats": [
                {"bot": seat.bot, "rank": seat.rank, "fault": seat.fault}
                for seat in game.record.seats
            ],
            "open": store.seatings_left(game) == 0,
        }
        for game, group in games
    ]


def document(folder: str | Path) -> dict[str, Any]:
    """The ladder page's document: ``name``, ``games``, ``stamp``
    (:func:`stamp`), ``pools`` (each: ``pool``, ``game``, ``games``,
    ``shown`` and ``older`` rows -- ``entrant``, ``bot``, ``version``,
    ``state``, ``games``, ``mu``, ``sigma``, ``interval``; ``rank`` for the
    shown -- and ``chart``, the SVG geometry), ``versions`` (each version's
    state and reason) and ``recent`` games."""
    folder = Path(folder)
    mark = stamp(folder)
    with Roster(folder, create=False) as roster:
        versions = roster.versions()
    doc: dict[str, Any] = {
        "name": "",
        "games": 0,
        "stamp": mark,
        "pools": [],
        "versions": [{**v.to_dict(), "reason": public_reason(v)} for v in versions],
        "recent": [],
    }
    if not (folder / FILE_NAME).exists():
        return doc
    with Store(folder, create=False) as store:
        doc["name"] = store.meta().get("name", "")
        found = pools(store, HISTORY)
        doc["games"] = sum(len(pool.games) for pool in found.values())
        doc["pools"] = [_standings(pool, versions) for pool in found.values()]
        doc["recent"] = _recent(store, found)
    return doc


__all__ = ["HISTORY", "RECENT", "Pool", "document", "pools", "public_reason", "stamp"]
