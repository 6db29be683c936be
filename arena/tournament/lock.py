"""One run per results folder.

Two drivers writing one store would interleave their plans and both replay
the same missing games.  A run holds an exclusive ``flock`` on
``tournament.lock`` in its results folder for as long as it lives; the file
says who holds it (pid, since when) so a second run can say so.  The kernel
drops the lock when the holder dies, however it dies, so a lock file left by
a dead run is simply taken over -- no pid guessing, no stale-lock timeout.
The file itself is never removed: unlinking a lock file lets a third run
lock a fresh inode while a second still holds the old one.

Only the driver holds it: a forked worker closes its copy at once (an
``flock`` belongs to the open file, so a worker still dying after a
``kill -9`` of the run would otherwise keep the folder locked for the next
run; closing a copy does not unlock the driver's).
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

from arena.results.store import StoreError

LOCK_FILE = "tournament.lock"
#: the lock files this process holds (their descriptors)
_HELD: set[int] = set()


def _drop_in_child() -> None:
    for fd in _HELD:
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()


os.register_at_fork(after_in_child=_drop_in_child)


class FolderInUse(StoreError):
    """Another live run holds the results folder."""


def prepare_folder(folder: Path) -> None:
    """Create the results folder, or say in one line why it cannot be one."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StoreError(f"results folder {folder}: is a file, not a folder") from None
    except NotADirectoryError:
        blocker = next(
            (p for p in reversed(folder.parents) if p.exists() and not p.is_dir()), folder
        )
        raise StoreError(f"results folder {folder}: {blocker} is a file, not a folder") from None
    except OSError as error:
        raise StoreError(
            f"results folder {folder}: cannot create it: {error.strerror or error}"
        ) from None


class RunLock:
    """The exclusive hold of a run on its results folder."""

    def __init__(self, folder: str | Path):
        self.path = Path(folder) / LOCK_FILE
        self._fd = -1

    def acquire(self) -> RunLock:
        prepare_folder(self.path.parent)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise StoreError(
                f"results folder {self.path.parent}: cannot write in it: {error.strerror or error}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").split()
            os.close(fd)
            who = (
                f"pid {holder[0]}, since {holder[1]}"
                if len(holder) >= 2
                else "a process starting up"
            )
            raise FolderInUse(
                f"results folder {self.path.parent} is in use by another "
                f"arena tournament ({who}); wait for it to end or use another "
                f"results folder"
            ) from None
        since = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        mine = f"{os.getpid()} {since}\n".encode()
        try:
            # written over the last holder's, then cut: on a full disk an
            # earlier run's lock file still takes it (no new block needed)
            os.pwrite(fd, mine, 0)
            os.ftruncate(fd, len(mine))
        except OSError as error:
            # a new lock file the disk has no room for is not left empty (on
            # a full disk no other run could write its holder in it either)
            if os.fstat(fd).st_size == 0:
                self.path.unlink(missing_ok=True)
            os.close(fd)
            raise StoreError(
                f"results folder {self.path.parent}: cannot write {LOCK_FILE}: "
                f"{error.strerror or error}; free some space and run the same command again"
            ) from None
        self._fd = fd
        _HELD.add(fd)
        return self

    def release(self) -> None:
        if self._fd >= 0:
            _HELD.discard(self._fd)
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
