"""The ladder's roster: every version of every bot, its state and its history.

The roster lives in the results folder (``ladder.sqlite``, beside the
store) so that ``arena ladder submit`` and ``withdraw`` change it while
``arena ladder run`` plays: the run reads it between steps.  Each write is
one SQLite transaction, so a submission killed half-way is either all there
or not there at all.

A version's ``entered`` and ``left`` are the ladder steps at which it
joined and left the field; the field of a step is decided from them alone,
so a run resumed after kill -9 plans a step it had planned before with the
same entrants, whatever was submitted since.  The state says why a version
plays or not: ``pending`` (submitted, waiting for its validation run),
``validating``, ``admitted`` (it plays), ``rejected``, ``suspended`` (it
kept faulting), ``withdrawn`` (by its author) and ``superseded`` (a newer
version of its bot was admitted).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the roster's file in the results folder
ROSTER_FILE = "ladder.sqlite"
#: the states a version can be in (see the module's docstring)
STATES = (
    "pending",
    "validating",
    "admitted",
    "rejected",
    "suspended",
    "withdrawn",
    "superseded",
)
#: states of a version that may still play (or will, once validated)
LIVE = ("pending", "validating", "admitted")
#: a bot's name: it becomes part of plan keys (``+`` and ``/`` separate them)
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")

SCHEMA = """
CREATE TABLE IF NOT EXISTS bots (bot TEXT PRIMARY KEY, token TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS versions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    bot TEXT NOT NULL,
    version INTEGER NOT NULL,
    entrant TEXT NOT NULL UNIQUE,
    launch TEXT NOT NULL,
    state TEXT NOT NULL,
    reason TEXT,
    submitted REAL NOT NULL,
    entered INTEGER,
    left_at INTEGER
);
"""


class LadderError(ValueError):
    """A ladder request that cannot be done, said in one line."""


@dataclass(frozen=True)
class Version:
    """One version of a bot: an entrant of its own (``entrant`` is the name
    its games and rating go by).  ``launch`` is ``{"file": name}`` for an
    entrant of the ladder file, ``{"argv": [...], "files": [...]}`` for a
    submitted command."""

    seq: int
    bot: str
    version: int
    entrant: str
    launch: dict[str, Any]
    state: str
    reason: str | None
    submitted: float
    entered: int | None
    left: int | None

    def plays_at(self, step: int) -> bool:
        """Whether it is in the field of ``step``."""
        return (
            self.entered is not None
            and self.entered <= step
            and (self.left is None or step < self.left)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "version": self.version,
            "entrant": self.entrant,
            "state": self.state,
            "reason": self.reason,
            "submitted": self.submitted,
            "entered": self.entered,
            "left": self.left,
        }


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Roster:
    """The roster of the ladder in results folder ``folder`` (made there
    unless ``create`` is false)."""

    def __init__(self, folder: str | Path, *, create: bool = True):
        self.path = Path(folder) / ROSTER_FILE
        if not create and not self.path.exists():
            raise LadderError(f"no ladder in {folder} (expected {self.path})")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as error:
            raise LadderError(f"{self.path}: not a ladder roster ({error})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Roster:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading ------------------------------------------------------------

    def versions(self) -> list[Version]:
        """Every version, in the order submitted."""
        rows = self.db.execute(
            "SELECT seq, bot, version, entrant, launch, state, reason, submitted, entered, "
            "left_at FROM versions ORDER BY seq"
        )
        return [Version(*row[:4], json.loads(row[4]), *row[5:]) for row in rows]  # type: ignore[call-arg]

    def version(self, entrant: str) -> Version:
        found = [v for v in self.versions() if v.entrant == entrant]
        if not found:
            raise LadderError(f"no entrant '{entrant}' in the ladder")
        return found[0]

    def check_token(self, bot: str, token: str | None) -> bool:
        """Whether ``token`` is ``bot``'s."""
        row = self.db.execute("SELECT token FROM bots WHERE bot = ?", (bot,)).fetchone()
        return (
            row is not None and token is not None and secrets.compare_digest(row[0], _digest(token))
        )

    # -- writing ------------------------------------------------------------

    def seed(self, names: Iterable[str]) -> None:
        """Enter the ladder file's bots (once): admitted from step 0,
        without a validation run (the organiser's own)."""
        with self._transaction():
            for name in names:
                self.db.execute(
                    "INSERT OR IGNORE INTO versions (bot, version, entrant, launch, state, "
                    "submitted, entered) VALUES (?, 0, ?, ?, 'admitted', ?, 0)",
                    (name, name, json.dumps({"file": name}), time.time()),
                )

    def submit(
        self, bot: str, launch: dict[str, Any], token: str | None = None
    ) -> tuple[Version, str | None]:
        """Add a pending version of ``bot``; returns it and, for a bot's
        first version, the token its author shows to see its logs (and to
        submit or withdraw later versions).  A later version needs it."""
        if not NAME.match(bot):
            raise LadderError(
                f"bot name {bot!r}: use letters, digits, '_', '.' and '-' "
                f"(up to 40, starting with a letter or digit)"
            )
        with self._transaction():
            known = self.db.execute("SELECT 1 FROM bots WHERE bot = ?", (bot,)).fetchone()
            fresh = None
            if known is None:
                if self.db.execute("SELECT 1 FROM versions WHERE bot = ?", (bot,)).fetchone():
                    raise LadderError(
                        f"'{bot}' is one of the ladder file's bots; submit under another name"
                    )
                fresh = secrets.token_urlsafe(16)
                self.db.execute("INSERT INTO bots VALUES (?, ?)", (bot, _digest(fresh)))
            elif not self.check_token(bot, token):
                raise LadderError(
                    f"'{bot}' is taken: a new version needs the token printed at its "
                    f"first submission (--token)"
                )
            (number,) = self.db.execute(
                "SELECT COALESCE(MAX(version), 0) + 1 FROM versions WHERE bot = ?", (bot,)
            ).fetchone()
            entrant = f"{bot}@v{number}"
            self.db.execute(
                "INSERT INTO versions (bot, version, entrant, launch, state, submitted) "
                "VALUES (?, ?, ?, ?, 'pending', ?)",
                (bot, number, entrant, json.dumps(launch), time.time()),
            )
        return self.version(entrant), fresh

    def withdraw(self, bot: str, token: str | None) -> list[str]:
        """Withdraw every live version of a submitted ``bot``; its entrants."""
        if self.db.execute("SELECT 1 FROM bots WHERE bot = ?", (bot,)).fetchone() is None:
            raise LadderError(f"no submitted bot '{bot}' in the ladder")
        if not self.check_token(bot, token):
            raise LadderError(f"withdrawing '{bot}' needs its token (--token)")
        with self._transaction():
            live = [
                entrant
                for (entrant,) in self.db.execute(
                    f"SELECT entrant FROM versions WHERE bot = ? AND state IN {LIVE}", (bot,)
                )
            ]
            self.db.execute(
                f"UPDATE versions SET state = 'withdrawn', reason = 'withdrawn by its author' "
                f"WHERE bot = ? AND state IN {LIVE}",
                (bot,),
            )
        return live

    def set_state(
        self,
        entrant: str,
        state: str,
        reason: str | None = None,
        *,
        entered: int | None = None,
        left: int | None = None,
    ) -> None:
        """Change a version's state (and record the step it entered or left)."""
        assert state in STATES, state
        with self._transaction():
            self.db.execute(
                "UPDATE versions SET state = ?, reason = ?, entered = COALESCE(?, entered), "
                "left_at = COALESCE(?, left_at) WHERE entrant = ?",
                (state, reason, entered, left, entrant),
            )

    def leave(self, entrant: str, step: int) -> None:
        """Record that a version no longer in play left the field at ``step``."""
        with self._transaction():
            self.db.execute(
                "UPDATE versions SET left_at = ? WHERE entrant = ? AND left_at IS NULL",
                (step, entrant),
            )

    def _transaction(self):
        return _Transaction(self.db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on an error)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, error, trace) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
