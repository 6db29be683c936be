"""A uid of its own for every running bot, when the arena runs as root.

One shared uid would let bots signal, trace or read each other; so each
bot process leases a uid from a range no account uses, held by an exclusive
``flock`` on a lock file.  The lock dies with the process that holds it, so a
crashed referee never leaks a uid, and concurrent referees (tournament
workers) never hand out the same one.
"""

from __future__ import annotations

import fcntl
import os

FIRST_UID = 61000
COUNT = 4000
LOCK_DIR = "/run/farm-arena/uids"


class UidLease:
    def __init__(self, uid: int, fd: int):
        self.uid = uid
        self._fd = fd

    @classmethod
    def acquire(cls) -> UidLease:
        start = os.getpid() % COUNT  # spread concurrent referees apart
        for step in range(COUNT):
            lease = cls.try_acquire(FIRST_UID + (start + step) % COUNT)
            if lease is not None:
                return lease
        raise RuntimeError(f"all {COUNT} sandbox uids from {FIRST_UID} are in use")

    @classmethod
    def try_acquire(cls, uid: int) -> UidLease | None:
        """The lease on ``uid``, or None while another process holds it."""
        os.makedirs(LOCK_DIR, mode=0o700, exist_ok=True)
        fd = os.open(os.path.join(LOCK_DIR, str(uid)), os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        return cls(uid, fd)

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
