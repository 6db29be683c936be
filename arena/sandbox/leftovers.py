"""Removing what dead referees left behind: bot cgroups and private folders.

A referee killed outright (``kill -9`` of a worker or of the whole run)
cannot clean up; whatever it held stays.  A later run removes it, but only
what is provably a dead referee's:

* a bot's cgroups ``arena-bot-<uid>[-...]`` exist only while its referee
  holds the lease on that uid (:mod:`arena.sandbox.uids`, an ``flock`` the
  kernel drops when the holder dies).  A group whose lease this process can
  take is nobody's: its stray members are killed and it is removed, the
  lease held throughout so no referee can start a bot under that uid
  meanwhile;
* a bot's private folder is named after its referee, ``arena-bot-<pid>.<start
  time>-*``; a folder whose referee is gone (no such pid, only its zombie,
  or a pid reused by a later process) is removed.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile

from arena.sandbox import cgroups
from arena.sandbox.uids import UidLease

__all__ = ["bot_groups", "folder_prefix", "remove_leftovers", "start_time"]

log = logging.getLogger(__name__)

GROUP = re.compile(r"^arena-bot-(\d+)(?:-.*)?$")
FOLDER = re.compile(r"^arena-bot-(\d+)\.(\d+)-")


def start_time(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot); None if there
    is no such process, or only its zombie (it has exited; whoever
    inherited it may be slow to reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return None if fields[0] == "Z" else int(fields[19])
    except (OSError, IndexError, ValueError):
        return None


def folder_prefix() -> str:
    """The prefix of this process's bot folders: ``arena-bot-<pid>.<start>-``."""
    pid = os.getpid()
    return f"arena-bot-{pid}.{start_time(pid)}-"


def bot_groups() -> dict[int, list[str]]:
    """Bot cgroups by uid, in every hierarchy this process can write."""
    found: dict[int, list[str]] = {}
    for base in sorted(set(cgroups.hierarchies().values())):
        try:
            names = os.listdir(base)
        except OSError:
            continue
        for name in names:
            match = GROUP.match(name)
            if match and os.path.isdir(os.path.join(base, name)):
                found.setdefault(int(match.group(1)), []).append(os.path.join(base, name))
    return found


def remove_leftovers() -> int:
    """Remove dead referees' bot cgroups and folders; return how many."""
    removed = 0
    for uid, paths in sorted(bot_groups().items()):
        lease = UidLease.try_acquire(uid)
        if lease is None:
            continue  # a live referee's bot
        try:
            group = cgroups.BotCgroups.existing(paths)
            group.kill_all()
            group.remove()
            removed += sum(not os.path.exists(path) for path in paths)
        finally:
            lease.release()
    base = tempfile.gettempdir()
    try:
        names = os.listdir(base)
    except OSError:
        names = []
    for name in names:
        match = FOLDER.match(name)
        if match and start_time(int(match.group(1))) != int(match.group(2)):
            shutil.rmtree(os.path.join(base, name), ignore_errors=True)
            removed += 1
    if removed:
        log.info("removed %d leftovers of dead referees", removed)
    return removed
