"""Run inside a sandbox by ``arena doctor``: reports, as one JSON line on
stdout, what the sandbox lets a bot see and do."""

import ctypes
import fcntl
import importlib.util
import json
import os
import socket


def attempt(action) -> bool:
    """True if ``action`` succeeded."""
    try:
        return action() is not False
    except OSError:
        return False


def importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def main() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    visible = [p for p in os.listdir("/proc") if p.isdigit()]
    print(
        json.dumps(
            {
                "uid": os.getuid(),
                "processes_visible": len(visible),
                "home_private": os.environ.get("HOME") == os.getcwd(),
                "inet_socket": attempt(
                    lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
                ),
                "ptrace": libc.ptrace(16, 1, 0, 0) == 0,  # PTRACE_ATTACH to pid 1
                "new_user_namespace": libc.unshare(0x10000000) == 0,  # CLONE_NEWUSER
                "root_listing": sorted(os.listdir("/")),
                # a lock on a file every bot can read would be a signal to the others
                "file_lock": attempt(
                    lambda: fcntl.flock(os.open(os.__file__, os.O_RDONLY), fcntl.LOCK_SH)
                ),
                # the referee's modules and its requirements are no bot's to read
                "referee_visible": importable("arena.match.referee") or importable("pluggy"),
                "counters": read("/proc/loadavg") + read("/proc/sys/fs/file-nr"),
                "environment": sorted(os.environ),
            }
        )
    )


if __name__ == "__main__":
    main()
