"""Run inside a sandbox by ``arena doctor``: reports, as one JSON line on
stdout, what the sandbox lets a bot see and do."""

import ctypes
import json
import os
import socket


def attempt(action) -> bool:
    """True if ``action`` succeeded."""
    try:
        return action() is not False
    except OSError:
        return False


def main() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    visible = [p for p in os.listdir("/proc") if p.isdigit()]
    print(json.dumps({
        "uid": os.getuid(),
        "processes_visible": len(visible),
        "home_private": os.environ.get("HOME") == os.getcwd(),
        "inet_socket": attempt(lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()),
        "ptrace": libc.ptrace(16, 1, 0, 0) == 0,            # PTRACE_ATTACH to pid 1
        "new_user_namespace": libc.unshare(0x10000000) == 0,  # CLONE_NEWUSER
        "root_listing": sorted(os.listdir("/")),
        "environment": sorted(os.environ),
    }))


if __name__ == "__main__":
    main()
