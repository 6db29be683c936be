"""The leaderboard of a store, kept beside it: asking again costs a look-up.

Building the document of a 100,000-game store takes half a minute of CPU
(reading the games ~2 s, their rating evidence ~2 s, the statistics' bootstrap
intervals the rest), and the store changes only when games are added.  So
:func:`load` / :func:`save` keep, in ``leaderboard-cache.json`` in the
results folder:

* the store's **content key** (:func:`content_key`: how many games, the
  largest id, the sum of their finishing times, the meta table) and the
  **code key** (a hash of the modules that build the document), and under
  them the documents built so far, one per chart setting (``history``);
* the rater's state (:meth:`arena.rating.Rater.state`) and the statistics'
  (:meth:`arena.stats.Tally.state`) with the part of the store they hold
  (:func:`prefix_key`); the tally's resample sums (megabytes of float64) go
  to ``leaderboard-cache.sums`` beside it, named by their digest, so a
  cache hit does not read them and a mismatched pair is never used.

The caller (:func:`arena.leaderboard.from_store`) returns a document whose
keys match as it was built -- identical by construction.  When games were
added and the saved rater's part is still the store's (same count and
finishing times up to its last id), only the new games are read: their
evidence is added and each pool refitted from its saved means (Newton's
method from a warm start: the same optimum as a fresh fit, within the fit's
tolerance of 1e-10), and their figures added to the saved tally (exactly
what a pass over every game gives);
anything else (another store, other code, an unreadable cache) is built from
scratch.  JSON, not a pickle: a results folder may come from someone else,
and reading it must not run code.  An unwritable folder just keeps no cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
from pathlib import Path
from typing import Any

from arena.store import Store

CACHE_NAME = "leaderboard-cache.json"
SUMS_NAME = "leaderboard-cache.sums"
#: what the document is built by: a change to any of these voids the cache
SOURCES = ("arena.leaderboard", "arena.rating", "arena.thurstone", "arena.stats",
           "arena.store", "arena.board_cache")
VERSION = 2


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


def sums_of(store: Store, rater: dict[str, Any]) -> bytes | None:
    """The resample sums saved with ``rater`` (the cache's saved states), or
    None when the file is missing or holds other sums."""
    try:
        blob = (store.folder / SUMS_NAME).read_bytes()
    except OSError:
        return None
    return blob if rater.get("sums") == _digest(blob) else None


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
         rater: dict[str, Any] | None, sums: bytes | None = None) -> None:
    """Write the cache (``sums``: new resample sums for ``rater``, written
    first and named in it); a folder that cannot be written keeps none."""
    with contextlib.suppress(OSError):
        if sums is not None and rater is not None:
            _write(store.folder / SUMS_NAME, sums)
            rater = {**rater, "sums": _digest(sums)}
        data = {"version": VERSION, "code": code_key(), "content": content, "boards": boards,
                "rater": rater}
        _write(path_of(store), json.dumps(data).encode())
