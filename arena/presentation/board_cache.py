"""The leaderboard of a store, kept beside it: asking again costs a look-up.

Building the document of a large store takes seconds of CPU (reading the
games, their rating evidence and fit, the statistics' bootstrap sums;
docs/performance.md), and the store changes only when games are added.  So :func:`load` /
:func:`save` keep, in ``leaderboard-cache.json`` in the results folder:

* the store's **content key** (:func:`content_key`: how many games, the
  largest id, the sum of their finishing times, the meta table) and the
  **code key** (a hash of the modules that build the document: the
  leaderboard's and every arena module it imports, :func:`sources`), and under
  them the documents built so far, one per chart setting (``history``);
* the saved states (:data:`STATES`), each with the part of the store it
  holds (:func:`prefix_key`): ``rater`` (:meth:`arena.ratings.rating.Rater.state`)
  and ``tally`` (:meth:`arena.ratings.stats.Tally.state`), whose resample sums
  (megabytes of float64) go to ``leaderboard-cache.sums`` beside it, named
  by their digest: a cache hit does not read them, and sums that are not
  the saved ones are never used.

The caller (:func:`arena.presentation.leaderboard.from_store`) returns a document whose
keys match as it was built -- identical by construction.  When games were
added, a saved state whose part is still the store's (same count and
finishing times up to its last id) goes on and only the games after it are
read: the rater adds their evidence and refits each pool from its saved
means (Newton's method from a warm start: the same optimum as a fresh fit,
within the fit's tolerance of 1e-10); the tally adds their figures (exactly
what a pass over every game gives).  A charted document (``history``)
replays the ratings in plan order, so only its tally goes on.  Anything
else (another store, other code, an unreadable cache) is built from
scratch.  JSON and float64 bytes, not a pickle: a results folder may come
from someone else, and reading it must not run code.  An unwritable folder
just keeps no cache.

The cache **proves itself**: it is sealed with an HMAC-SHA256 under a key of
its own (``leaderboard-cache.key``, 256 random bits, readable by its owner
only, made with the first cache), so a cache edited under its keys -- a
table changed by hand or by a tool, a file from another folder -- fails its
seal and is built again (with one line on the log saying so), never shown.
The key is the cache's, not the tournament's (:mod:`arena.match.seeds`):
the presentation layer does not read the deals' secret, and a folder whose
games came from a public seed has none.  A board is only handed back from a
store that passes :meth:`~arena.results.store.Store.check` (``quick_check``),
so the cache never hides a damaged store.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
from pathlib import Path
from typing import Any

import arena
from arena.results.store import Store

CACHE_NAME = "leaderboard-cache.json"
SUMS_NAME = "leaderboard-cache.sums"
KEY_NAME = "leaderboard-cache.key"
#: bytes of the seal's key
KEY_BYTES = 32
#: what builds the document: a change to it or to any arena module it imports
#: (at once or inside a function, directly or through another) voids the cache
BUILDER = "arena.presentation.leaderboard"
#: the folder the ``arena`` package is in
_TOP = Path(arena.__file__).resolve().parents[1]
#: an import statement at the start of a line (a docstring's line that only
#: looks like one does not parse as one and is passed over); "\n" first, not
#: "^": a literal start is searched for, several times faster
_IMPORT = re.compile(r"\n[ \t]*((?:from|import)[ \t][^\n;(]*(?:\([^)]*\)|[^\n;]*))")
VERSION = 3
#: the saved states a grown store goes on from
STATES = ("rater", "tally")


@functools.cache
def _file(module: str) -> Path | None:
    """The source file of an arena module (or package), or None."""
    base = _TOP.joinpath(*module.split("."))
    return next(
        (path for path in (base.with_suffix(".py"), base / "__init__.py") if path.is_file()), None
    )


def _imports(source: str) -> set[str]:
    """The arena modules a module's source imports, with the packages
    Python runs on the way (``a.b.c`` runs ``a`` and ``a.b``).  Its import
    lines are picked out and only they are parsed: parsing whole modules
    would cost a cache hit tens of milliseconds."""
    names = []
    for statement in _IMPORT.findall("\n" + source):
        if "arena" not in statement:  # most are the standard library's
            continue
        try:
            node = ast.parse(statement).body[0]
        except SyntaxError:
            continue
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:  # the arena's are absolute
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    parts = [name.split(".") for name in names if name.split(".")[0] == "arena"]
    return {
        ".".join(part[:i])
        for part in parts
        for i in range(1, len(part) + 1)
        if _file(".".join(part[:i]))
    }


def sources() -> dict[str, Path]:
    """The source files of :data:`BUILDER` and of every arena module it
    imports, transitively, by module name (read, not imported: a cache hit
    needs neither numpy nor the rating code)."""
    found: dict[str, Path] = {}
    pending = [BUILDER]
    while pending:
        module = pending.pop()
        if module not in found:
            path = _file(module)
            assert path is not None, f"{module}: _imports keeps the modules it finds a file of"
            found[module] = path
            pending += _imports(path.read_text(encoding="utf-8"))
    return dict(sorted(found.items()))


def code_key() -> str:
    """A hash of the source files of :func:`sources`."""
    digest = hashlib.sha256()
    for path in sources().values():
        digest.update(path.read_bytes())
    return digest.hexdigest()


def content_key(store: Store) -> dict[str, Any]:
    """What the store holds: any game added or changed, or its meta, changes it."""
    count, last_id, finished = store.fingerprint()
    return {"games": count, "last_id": last_id, "finished": finished, "meta": store.meta()}


def prefix_key(store: Store, last_id: int) -> dict[str, Any]:
    """The games with ids up to ``last_id``: a saved rater still covers them
    exactly when their count and finishing times are the ones it saved."""
    count, _, finished = store.fingerprint(last_id)
    return {"games": count, "finished": finished}


def _prefixes(store: Store, states) -> dict[int, dict[str, Any]]:
    """The :func:`prefix_key` of each distinct ``last_id`` of ``states``
    (one scan each: the rater and the tally usually share theirs)."""
    return {
        last_id: prefix_key(store, last_id) for last_id in {state["last_id"] for state in states}
    }


def entries(store: Store, states: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each saved state (``rater``, ``tally``) with the part of the store it holds."""
    keys = _prefixes(store, states.values())
    return {
        name: {"prefix": keys[state["last_id"]], "state": state} for name, state in states.items()
    }


def held(store: Store, cache: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The saved states of ``cache`` whose part of the store is still the store's."""
    saved = {name: cache[name] for name in STATES if cache.get(name)}
    keys = _prefixes(store, (entry["state"] for entry in saved.values()))
    return {
        name: entry
        for name, entry in saved.items()
        if keys[entry["state"]["last_id"]] == entry["prefix"]
    }


def path_of(store: Store) -> Path:
    return store.folder / CACHE_NAME


def _key(store: Store, *, make: bool) -> bytes | None:
    """The seal's key of ``store``'s folder; with ``make``, a new one when
    there is none.  None when it cannot be read (or made)."""
    path = store.folder / KEY_NAME
    try:
        key = path.read_bytes()
        return key if len(key) == KEY_BYTES else None
    except FileNotFoundError:
        if not make:
            return None
    except OSError:
        return None
    key = secrets.token_bytes(KEY_BYTES)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:  # an unwritable folder, or another reader made it first
        return None
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(key)
    return key


def _seal(key: bytes, body: bytes) -> str:
    return hmac.new(key, body, hashlib.sha256).hexdigest()


def load(store: Store) -> dict[str, Any]:
    """The cache of ``store``'s folder, or an empty one when it is missing,
    unreadable, from other code or fails its seal (said on the log)."""
    try:
        sealed = json.loads(path_of(store).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(sealed, dict) or sealed.get("version") != VERSION:
        return {}
    key = _key(store, make=False)
    body = sealed.get("body")
    if (
        key is None
        or not isinstance(body, str)
        or not hmac.compare_digest(str(sealed.get("seal")), _seal(key, body.encode()))
    ):
        logging.getLogger(__name__).warning(
            "arena: warning: %s fails its seal (edited, or not this folder's); "
            "the leaderboard is built again from the store",
            path_of(store),
        )
        return {}
    try:
        data = json.loads(body)
    except ValueError:
        return {}
    if not isinstance(data, dict) or data.get("code") != code_key():
        return {}
    return data


def _digest(blob: bytes) -> str:
    return hashlib.blake2b(blob, digest_size=16).hexdigest()


def sums_of(store: Store, tally: dict[str, Any]) -> bytes | None:
    """The resample sums saved with ``tally`` (the cache's saved tally), or
    None when the file is missing or holds other sums."""
    try:
        blob = (store.folder / SUMS_NAME).read_bytes()
    except OSError:
        return None
    return blob if tally.get("sums") == _digest(blob) else None


def _write(path: Path, blob: bytes) -> None:
    """Replace ``path`` atomically (a reader never sees half of it)."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(blob)
        temporary.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise


def save(
    store: Store,
    content: dict[str, Any],
    boards: dict[str, Any],
    saved: dict[str, Any],
    sums: bytes,
) -> None:
    """Write the cache: ``saved`` holds the :data:`STATES` (from
    :func:`entries`), ``sums`` the tally's resample sums, written first and
    named in it.  A folder that cannot be written keeps none."""
    with contextlib.suppress(OSError):
        _write(store.folder / SUMS_NAME, sums)
        states = {name: saved[name] for name in STATES if saved.get(name)}
        states["tally"] = {**states["tally"], "sums": _digest(sums)}
        key = _key(store, make=True)
        if key is None:
            return
        body = json.dumps({"code": code_key(), "content": content, "boards": boards, **states})
        sealed = {"version": VERSION, "seal": _seal(key, body.encode()), "body": body}
        _write(path_of(store), json.dumps(sealed).encode())
