"""The ladder in ``arena serve``: its own page, live, and each bot's logs for
its author alone.

Routes added to the viewer (:func:`arena.presentation.web.create_app`) of a
ladder's results folder:

* ``/ladder``: the standings per game and table size with intervals (the
  latest version of each bot, its older ones behind a toggle), each
  version's rating over its own games, the versions and their states, the
  recent games linking to their replays.  The page asks ``/api/ladder``
  every few seconds and redraws its body when the ladder changed, without
  a reload.
* ``/api/ladder?stamp=S``: the document (:func:`arena.ladder.standings.document`)
  and the body's HTML, or only ``{"stamp": S}`` while nothing changed.
* The viewer's own pages (a bot's page, a replay) show a fault's kind but
  not its detail, which often quotes the end of the bot's stderr.
* ``/ladder/bot/NAME``: the author's page.  It holds no logs; its script
  asks ``/api/ladder/bot/NAME`` with the bot's token in an
  ``Authorization: Bearer`` header (typed in, or given after ``#`` in the
  address, which no browser sends), so the token is never in a URL the
  server sees or logs, nor in a page.
* ``/api/ladder/bot/NAME``: the bot's versions, each with its state and
  whole reason (a rejection's, which the ladder's page leaves out, may quote
  the bot's stderr), and their games, newest first, each
  with the end of what the bot wrote on stderr in it and its faults' details -- except a game whose
  deal has seatings left to play (``held``): that stderr may speak of hands
  still in play at another table.  A missing or wrong token is a 403,
  whichever bot is asked for; the roster compares the token's digest in
  constant time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, abort, jsonify, request

from arena.ladder.entrants import ROSTER_FILE, Roster
from arena.ladder.standings import document, stamp
from arena.presentation import pages
from arena.presentation.web import LiveBoard
from arena.results.store import Store

#: the games of a bot its author's page lists, newest first
AUTHOR_GAMES = 100


def is_ladder(folder: str | Path) -> bool:
    """Whether ``folder`` is a ladder's results folder (it has a roster)."""
    return (Path(folder) / ROSTER_FILE).exists()


def bearer() -> str | None:
    """The token of the request's ``Authorization: Bearer`` header."""
    kind, _, token = request.headers.get("Authorization", "").partition(" ")
    return (token.strip() or None) if kind.lower() == "bearer" else None


def author_games(store: Store, entrants: set[str]) -> list[dict[str, Any]]:
    """The games of ``entrants`` (a bot's versions), newest first, with
    their seats' stderr, none of a game whose deal is still in play."""
    games = sorted(
        (g for g in store.games() if any(s.bot in entrants for s in g.record.seats)),
        key=lambda game: game.id,
        reverse=True,
    )[:AUTHOR_GAMES]
    held = {game.id for game in games if store.seatings_left(game)}
    logs = store.stderr([game.id for game in games if game.id not in held])
    details = {  # a fault's detail (the end of its stderr, often) is in the whole record
        game.id: [s.fault_detail for s in store.record(game.id).record.seats]
        for game in games
        if game.id not in held and any(s.fault and s.bot in entrants for s in game.record.seats)
    }
    return [
        {
            "id": game.id,
            "game": game.record.game,
            "players": game.record.players,
            "held": game.id in held,
            "seats": [
                {
                    "seat": seat,
                    "entrant": s.bot,
                    "rank": s.rank,
                    "fault": s.fault,
                    "detail": details[game.id][seat] if game.id in details else None,
                    "stderr": None if game.id in held else logs.get(game.id, {}).get(seat, ""),
                }
                for seat, s in enumerate(game.record.seats)
                if s.bot in entrants
            ],
        }
        for game in games
    ]


def add_ladder(app: Flask, folder: str | Path, refresh_ms: int = 3000) -> None:
    """Add the ladder's routes (see the module's docstring) to ``app``, the
    viewer of the ladder's results folder ``folder``."""
    folder = Path(folder)
    app.config["FAULT_DETAILS"] = False  # they may quote a bot's stderr: its author's alone
    standings = LiveBoard(
        folder, build=lambda store: document(folder), changed=lambda _: stamp(folder)
    )

    def body(doc: dict) -> str:
        return pages.render("_ladder.html", doc=doc)

    @app.get("/ladder")
    def ladder_page():
        doc = standings.current()
        return pages.render(
            "ladder.html",
            title=f"{doc['name'] or 'Ladder'} — ladder",
            doc=doc,
            refresh_ms=refresh_ms,
        )

    @app.get("/api/ladder")
    def ladder_json():
        doc = standings.current()
        if request.args.get("stamp") == doc["stamp"]:
            return jsonify({"stamp": doc["stamp"]})
        return jsonify({**doc, "html": body(doc)})

    @app.get("/ladder/bot/<name>")
    def author_page(name: str):
        return pages.render("ladder_bot.html", title=f"{name} — its logs", name=name)

    @app.get("/api/ladder/bot/<name>")
    def author_logs(name: str):
        with Roster(folder, create=False) as roster:
            if not roster.check_token(name, bearer()):
                abort(403, f"the logs of '{name}' need its token")
            versions = [v for v in roster.versions() if v.bot == name]
        with Store(folder, create=False) as store:
            games = author_games(store, {v.entrant for v in versions})
        answer = jsonify({"bot": name, "versions": [v.to_dict() for v in versions], "games": games})
        answer.headers["Cache-Control"] = "no-store"
        return answer


__all__ = ["AUTHOR_GAMES", "add_ladder", "author_games", "is_ladder"]
