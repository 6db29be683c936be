"""The bubblewrap layer: what a strict-sandboxed bot can see.

A fresh mount namespace with a read-only view of the system (``/usr``,
``/etc``), the Python that runs the bot and the installed packages it may
import, and nothing else of the host: no home folders, no other bot's files,
no results store.  Its own folder is a private, size-capped ``/tmp`` (also its
``HOME``), and ``/dev/shm`` is private and capped too.  New pid, network, ipc,
uts and cgroup namespaces: the bot sees only its own processes, has only a
loopback interface that is down, and dies with the referee.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from importlib import metadata

BWRAP = shutil.which("bwrap")
SYSTEM = ("/usr", "/etc")
MERGED = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
HOME = "/tmp"


def available() -> bool:
    return BWRAP is not None


def _editable_sources() -> list[str]:
    """Package folders of editable installs: they live outside site-packages
    and must be visible for the bot kit to import them."""
    found = []
    for dist in metadata.distributions():
        try:
            direct = json.loads(dist.read_text("direct_url.json") or "{}")
        except (OSError, ValueError):
            continue
        if not direct.get("dir_info", {}).get("editable") or not direct["url"].startswith("file://"):
            continue
        root = direct["url"][len("file://"):]
        tops = (dist.read_text("top_level.txt") or "").split()
        candidates = [os.path.join(base, top + ext) for top in tops
                      for base in (root, os.path.join(root, "src")) for ext in ("", ".py")]
        present = [path for path in candidates if os.path.exists(path)]
        found.extend(present or [root])
    return found


def readonly_paths(argv: list[str]) -> list[str]:
    """Host paths the bot may read: its interpreter and packages, and the
    files its command line names."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix}
    paths.update(p for p in sys.path if p and os.path.exists(p))
    paths.update(_editable_sources())
    for arg in argv:
        if os.path.isabs(arg) and os.path.exists(arg):
            paths.add(arg if os.path.isdir(arg) else os.path.dirname(arg))
            paths.add(os.path.dirname(os.path.realpath(arg)))
    paths = {os.path.realpath(p) for p in paths} | {os.path.normpath(p) for p in paths}
    outside = [p for p in paths if not any(p == s or p.startswith(s + "/") for s in SYSTEM)]
    kept = []
    for path in sorted(outside):
        if not any(path.startswith(k + "/") for k in kept):
            kept.append(path)
    return kept


def _parents(paths: list[str]) -> list[str]:
    """Folders bubblewrap would otherwise create mode 0700 on the way to a
    bind (``/root`` here): made 0755 so a bot with its own uid can pass."""
    parents = set()
    for path in paths:
        parent = os.path.dirname(path)
        while parent not in ("/", ""):
            parents.add(parent)
            parent = os.path.dirname(parent)
    return sorted(parents - set(paths))


def bwrap_argv(argv: list[str], disk: int, environment: dict[str, str],
               seccomp_fd: int | None, user_namespace: bool) -> list[str]:
    """The bubblewrap command that runs ``argv``'s chain in the sandbox.

    ``user_namespace`` is for an arena not running as root (bubblewrap then
    needs one); as root the bot gets a uid of its own instead, outside any
    user namespace, so the host kernel's uid checks protect everyone.
    """
    command = [BWRAP, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
               "--unshare-cgroup-try", "--die-with-parent", "--new-session"]
    if user_namespace:
        command += ["--unshare-user", "--disable-userns"]
    for path in SYSTEM:
        command += ["--ro-bind", path, path]
    for path in MERGED:
        if os.path.islink(path):
            command += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            command += ["--ro-bind", path, path]
    command += ["--proc", "/proc", "--dev", "/dev",
                "--perms", "1777", "--size", str(disk), "--tmpfs", HOME,
                "--perms", "1777", "--size", str(disk), "--tmpfs", "/dev/shm"]
    readonly = readonly_paths(argv)
    for parent in _parents(readonly):
        if parent not in (HOME, "/dev"):
            command += ["--perms", "0755", "--dir", parent]
    for path in readonly:
        command += ["--ro-bind", path, path]
    command += ["--chdir", HOME, "--clearenv"]
    for key, value in sorted(environment.items()):
        command += ["--setenv", key, value]
    if seccomp_fd is not None:
        command += ["--seccomp", str(seccomp_fd)]
    return command + ["--"]
