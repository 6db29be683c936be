"""``arena serve``: a local, read-only web viewer of one results folder.

Built on Flask: the store is SQLite read synchronously, so a synchronous
WSGI framework fits, its test client needs nothing more, and the pages come
from the same jinja2 templates as the static files (:mod:`arena.presentation.pages`).
Only GET routes exist; nothing here writes to the store.

Routes: ``/`` the leaderboard (it reloads itself when the store holds more
games, so it follows a running tournament), ``/bot/NAME`` a bot's games,
faults and head-to-head, ``/game/ID?view=table|SEAT`` the replay viewer,
``/api/count`` and ``/api/leaderboard`` the same data as JSON.  A ladder's
folder gets its own pages besides (:mod:`arena.ladder.web` adds them).

It answers only its own ``Host`` (``localhost``, ``127.0.0.1``, ``[::1]``
and the host it was asked to bind, with its port): a web page elsewhere that
points its own name at this machine (DNS rebinding) gets a 400, never the
results.  A bad query value is a 400 or a 404, never a 500.  A game whose
deal still has seatings to play (duplicate deals: the same hands at another
table) is a 403 until they are stored, so nobody reads hands still in play.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path

from flask import Flask, abort, jsonify, request

from arena.presentation import leaderboard, pages
from arena.presentation.frames import TABLE, ReplayError
from arena.results.store import NoSuchGame, Store, StoreError


def _leaderboard(store: Store) -> dict:
    return leaderboard.from_store(store, history=20)


def _games(store: Store) -> Hashable:
    return store.count()


class LiveBoard:
    """A document of the store (the leaderboard, unless ``build`` says
    otherwise), built again when ``changed`` (the games stored, unless it
    says otherwise) is, but not more often than every few times its cost (a
    big store during a run would otherwise keep a core busy)."""

    PAUSE = 5.0  # times the last computation's cost

    def __init__(
        self,
        folder: Path,
        build: Callable[[Store], dict] = _leaderboard,
        changed: Callable[[Store], Hashable] = _games,
    ):
        self.folder = folder
        self.build, self.changed = build, changed
        self.lock = threading.Lock()
        self.seen: Hashable = None
        self.board: dict = {}
        self.ready_at = 0.0

    def store(self) -> Store:
        return Store(self.folder, create=False)

    def current(self) -> dict:
        """The document, built again when games were added; raises a
        StoreError when the store is damaged, even if its games did not
        change (``quick_check`` on every look: docs/performance.md)."""
        with self.lock, self.store() as store:
            store.check()
            seen = self.changed(store)
            if seen != self.seen and time.monotonic() >= self.ready_at:
                started = time.monotonic()
                self.board = self.build(store)
                self.seen = seen
                self.ready_at = time.monotonic() + self.PAUSE * (time.monotonic() - started)
            return self.board


#: the names of this machine's loopback, which every viewer answers to
LOOPBACK = frozenset({"localhost", "127.0.0.1", "[::1]"})


def own_host(header: str, names: Iterable[str], port: int | None) -> bool:
    """Whether a ``Host`` header names this viewer: one of ``names`` (any
    case), with ``port`` if it gives one and the port is known."""
    name, _, given = header.strip().lower().rpartition(":")
    if not name or name.endswith(":") or (given and not given.isdigit()):
        name, given = header.strip().lower(), ""  # no port (or a bare IPv6 address)
    if name not in {n.lower() for n in names}:
        return False
    return not given or port is None or int(given) == port


def create_app(
    results: str | Path,
    registry=None,
    refresh_ms: int = 3000,
    host: str | None = None,
    port: int | None = None,
) -> Flask:
    """The viewer of one results folder: Flask's routes are closures over
    the folder and its registry, one short view each, so the app is one
    function (Flask's application-factory pattern) a little over 60 lines.
    ``host`` and ``port``: where it listens (besides the loopback names, the
    ``Host`` headers it answers; ``port`` may be set later in
    ``app.config["PORT"]``, once the server has one).
    ``app.config["FAULT_DETAILS"]``: the pages show each fault's detail,
    which may quote the end of the bot's stderr (True; a ladder's viewer
    says False: a bot's logs are its author's alone)."""
    folder = Path(results)
    Store(folder, create=False).close()  # a missing store is the caller's error
    if registry is None:
        from arena.plugins import installed

        registry = installed()
    app = Flask(__name__)
    app.config["PORT"] = port
    app.config["FAULT_DETAILS"] = True
    names = LOOPBACK | ({f"[{host}]" if ":" in host else host} if host else set())
    board = LiveBoard(folder)

    @app.before_request
    def only_own_host():
        if not own_host(request.headers.get("Host", ""), names, app.config["PORT"]):
            abort(400, "this viewer answers only its own host name")

    def title(board_doc: dict) -> str:
        return f"{board_doc['tournament']['name'] or 'Tournament'} — leaderboard"

    @app.errorhandler(StoreError)
    def unusable(error: StoreError):
        """A damaged (or unreadable) store is said, with what can be done."""
        return f"arena: error: {error}\n", 503, {"Content-Type": "text/plain; charset=utf-8"}

    @app.get("/")
    def index():
        doc = board.current()
        return pages.leaderboard_page(doc, title=title(doc), live=True, refresh_ms=refresh_ms)

    @app.get("/api/count")
    def count():
        """The games the leaderboard shows (it follows the store when it may)."""
        return jsonify({"games": board.current()["overall"]["games"]})

    @app.get("/api/leaderboard")
    def board_json():
        return jsonify(board.current())

    @app.get("/bot/<path:name>")
    def bot(name: str):
        doc = board.current()
        with board.store() as store:
            played = [g for g in store.games() if any(s.bot == name for s in g.record.seats)]
            if not played:
                abort(404, f"no games of bot '{name}' in this store")
            faults = []
            for game in played:
                if any(s.fault for s in game.record.seats if s.bot == name):
                    whole = store.record(game.id)  # with the faults' details
                    faults += [
                        (whole, seat, s)
                        for seat, s in enumerate(whole.record.seats)
                        if s.bot == name and s.fault
                    ]
        return pages.render(
            "bot.html",
            title=f"{name} — {doc['tournament']['name']}",
            name=name,
            board=doc,
            played=played,
            faults=faults,
            live=True,
            details=app.config["FAULT_DETAILS"],
        )

    @app.get("/game/<ref>")
    def game(ref: str):
        with board.store() as store:
            try:
                stored = store.record(ref)
            except NoSuchGame:
                abort(404, f"no game '{ref}' in this store")
            left = store.seatings_left(stored)
        if left:  # its hands are still being played at another table
            abort(
                403,
                f"game {stored.id}'s deal has {left} more game(s) to play in other seatings; "
                "its replay opens once they are stored",
            )
        record = stored.record
        view = request.args.get("view", TABLE)
        if view != TABLE and not (view.isascii() and view.isdigit() and int(view) < record.players):
            abort(
                400,
                f"view: '{view}' is not a seat of this game (0-{record.players - 1}) or 'table'",
            )
        try:
            engine = registry.engine(record.game)
            return pages.replay_page(
                record,
                engine,
                title=f"game {stored.id} ({stored.key})",
                view=view,
                live=True,
                details=app.config["FAULT_DETAILS"],
            )
        except (KeyError, ReplayError) as error:
            abort(409, str(error))

    return app
