"""The leaderboard of a store, kept beside it: asking again costs a look-up.

Building the document of a 100,000-game store takes seconds of CPU (reading
the games ~2 s, their rating evidence and fit, the statistics' bootstrap
sums), and the store changes only when games are added.  So :func:`load` /
:func:`save` keep, in ``leaderboard-cache.json`` in the results folder:

* the store's **content key** (:func:`content_key`: how many games, the
  largest id, the sum of their finishing times, the meta table) and the
  **code key** (a hash of the modules that build the document), and under
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
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
from pathlib import Path
from typing import Any

from arena.results.store import Store

CACHE_NAME = "leaderboard-cache.json"
SUMS_NAME = "leaderboard-cache.sums"
#: what the document is built by: a change to any of these voids the cache
SOURCES = ("arena.presentation.leaderboard", "arena.ratings.rating", "arena.ratings.thurstone",
           "arena.ratings.stats", "arena.records", "arena.results.store",
           "arena.presentation.board_cache")
VERSION = 2
#: the saved states a grown store goes on from
STATES = ("rater", "tally")


def code_key() -> str:
    """A hash of the source files of :data:`SOURCES` (found, not imported:
    a cache hit needs neither numpy nor the rating code)."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update(Path(importlib.util.find_spec(name).origin).read_bytes())
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
    return {last_id: prefix_key(store, last_id)
            for last_id in {state["last_id"] for state in states}}


def entries(store: Store, states: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each saved state (``rater``, ``tally``) with the part of the store it holds."""
    keys = _prefixes(store, states.values())
    return {name: {"prefix": keys[state["last_id"]], "state": state}
            for name, state in states.items()}


def held(store: Store, cache: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The saved states of ``cache`` whose part of the store is still the store's."""
    saved = {name: cache[name] for name in STATES if cache.get(name)}
    keys = _prefixes(store, (entry["state"] for entry in saved.values()))
    return {name: entry for name, entry in saved.items()
            if keys[entry["state"]["last_id"]] == entry["prefix"]}


def path_of(store: Store) -> Path:
    return store.folder / CACHE_NAME


def load(store: Store) -> dict[str, Any]:
    """The cache of ``store``'s folder, or an empty one when it is missing,
    unreadable or from other code."""
    try:
        data = json.loads(path_of(store).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != VERSION \
            or data.get("code") != code_key():
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


def save(store: Store, content: dict[str, Any], boards: dict[str, Any],
         saved: dict[str, Any], sums: bytes) -> None:
    """Write the cache: ``saved`` holds the :data:`STATES` (from
    :func:`entries`), ``sums`` the tally's resample sums, written first and
    named in it.  A folder that cannot be written keeps none."""
    with contextlib.suppress(OSError):
        _write(store.folder / SUMS_NAME, sums)
        states = {name: saved[name] for name in STATES if saved.get(name)}
        states["tally"] = {**states["tally"], "sums": _digest(sums)}
        data = {"version": VERSION, "code": code_key(), "content": content, "boards": boards,
                **states}
        _write(path_of(store), json.dumps(data).encode())
