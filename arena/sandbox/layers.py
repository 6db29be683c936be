"""Which isolation layers this machine gives, and the level to use.

``arena doctor`` prints :func:`survey`; the referee asks :func:`choose_level`
for the level of a match: ``strict`` by default where it works, else
``basic`` with a warning -- never silently less than asked for.  Submitted
bots (``cmd:`` lines, third-party plugins) are held to a least level besides
(:func:`refuse_below`): a run that cannot give it stops before it plays.
"""

from __future__ import annotations

import functools
import logging
import os
import subprocess
from dataclasses import dataclass

from arena.sandbox import bubblewrap, cgroups, namespaces, seccomp
from arena.sandbox.limits import PRLIMIT
from arena.sandbox.namespaces import SETPRIV
from arena.sandbox.process import LEVELS, SandboxError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Layer:
    name: str
    active: bool
    detail: str
    remedy: str = ""


@functools.lru_cache(maxsize=1)
def bubblewrap_works() -> bool:
    """bubblewrap is installed *and* may create namespaces here."""
    if not bubblewrap.available():
        return False
    probe = [
        bubblewrap.program(),
        "--unshare-pid",
        "--unshare-net",
        "--die-with-parent",
        "--ro-bind",
        "/",
        "/",
        "--",
        "/bin/true",
    ]
    if os.geteuid() != 0:
        probe[1:1] = ["--unshare-user"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def survey(plugged: list[str]) -> list[Layer]:
    """Every layer and whether this machine has it; ``plugged``: the installed
    distributions whose plugins register in the plugin sandbox."""
    root = os.geteuid() == 0
    bwrap = bubblewrap_works()
    groups = cgroups.hierarchies()
    return [
        Layer("process group", True, "each bot in its own session; the group is killed as a whole"),
        Layer(
            "resource limits",
            os.path.exists(PRLIMIT),
            "address space, CPU seconds, file size, open files (prlimit)",
            "apt-get install util-linux",
        ),
        Layer(
            "bubblewrap",
            bwrap,
            "read-only system, private /tmp and /dev/shm, pid/net/ipc/uts namespaces",
            "apt-get install bubblewrap",
        ),
        Layer(
            "no network",
            bwrap or namespaces.available(),
            "a new network namespace with no interface up",
            "apt-get install bubblewrap",
        ),
        Layer(
            "uid per seat",
            root and bwrap and os.path.exists(SETPRIV),
            "each bot under a uid of its own (61000+)"
            if root
            else "not root: a user namespace per bot instead",
            "run the arena as root" if not root else "apt-get install util-linux bubblewrap",
        ),
        Layer(
            "basic: uid per seat",
            namespaces.uid_possible(),
            "without bubblewrap too, each bot under a uid of its own: the operator's closed "
            "files, results folders and keys, other bots' /proc are not its to read",
            "run the arena as root (with util-linux's setpriv)",
        ),
        Layer(
            "basic: namespaces",
            namespaces.available(),
            "without bubblewrap, unshare gives each bot its own pid, network, mount, ipc and "
            "uts namespaces (no network, its own /proc, its leftover processes killed with it) "
            "and a private, capped /tmp and /dev/shm",
            "run as root, or allow unprivileged user namespaces (kernel.unprivileged_userns_clone)",
        ),
        Layer(
            "seccomp",
            seccomp.available(),
            "denies ptrace, process_vm_*, mount, namespaces, bpf, perf, keyctl, io_uring, "
            "pidfd_*, non-AF_UNIX sockets",
            "pip install pyseccomp && apt-get install libseccomp2",
        ),
        Layer(
            "no file locks",
            seccomp.available(),
            "flock and fcntl record/OFD locks, inotify, mincore, sysinfo denied: no signals "
            "between bots through the files they share",
            "pip install pyseccomp && apt-get install libseccomp2",
        ),
        Layer(
            "bot view",
            bwrap,
            "a bot reads the stdlib, the bot kit and its own distribution with its declared "
            "requirements; other bots' packages and /proc counters hidden",
            "apt-get install bubblewrap",
        ),
        Layer(
            "plugin sandbox",
            True,
            "third-party bot plugins register in a sandboxed child"
            + (f" ({', '.join(plugged)})" if plugged else " (none installed here)")
            + ("" if bwrap else "; at the basic level, as no namespaces are available"),
        ),
        Layer(
            "cgroups",
            bool(groups),
            "per-bot " + " and ".join(sorted(groups)) + " limits, kill of escapees"
            if groups
            else "not writable here: RLIMIT_NPROC under the bot's own uid instead",
            "run as root on a host with a writable cgroup hierarchy",
        ),
    ]


def strict_available() -> bool:
    return bubblewrap_works()


def choose_level(requested: str | None) -> str:
    """The level to run bots at: ``requested`` if it can be had, ``strict``
    by default where bubblewrap works, else ``basic`` with a warning."""
    if requested is None or requested == "auto":
        if strict_available():
            return "strict"
        _warn_basic()
        return "basic"
    if requested not in LEVELS:
        raise SandboxError(
            f"unknown sandbox level '{requested}' (levels: auto, {', '.join(LEVELS)})"
        )
    if requested == "strict" and not strict_available():
        raise SandboxError(
            "sandbox level 'strict' needs bubblewrap with namespaces: "
            "apt-get install bubblewrap (see `arena doctor`)"
        )
    return requested


def rank(level: str) -> int:
    """Where ``level`` stands among :data:`LEVELS`, weakest first."""
    if level not in LEVELS:
        raise SandboxError(f"unknown sandbox level '{level}' (levels: {', '.join(LEVELS)})")
    return LEVELS.index(level)


def refuse_below(level: str, least: str, submitted: list[str]) -> None:
    """Raise a one-line :class:`SandboxError` when the ``submitted`` bots
    (``cmd:`` lines, third-party plugins) would run at ``level``, below the
    ``least`` level their tournament or match allows: what is missing and
    how to accept the lower level.  Built-in bots are not held to it."""
    if not submitted or rank(level) >= rank(least):
        return
    missing = (
        "bubblewrap with namespaces is not usable here"
        if least == "strict" and not strict_available()
        else f"the sandbox level is set to '{level}'"
    )
    raise SandboxError(
        f"{', '.join(sorted(set(submitted)))} would run at sandbox level '{level}', below "
        f"the least level '{least}' for submitted bots: {missing} (see `arena doctor`); "
        f"to accept '{level}', set least_sandbox = \"{level}\" in the tournament file or "
        f"pass --least-sandbox {level}"
    )


@functools.lru_cache(maxsize=1)
def _warn_basic() -> None:
    log.warning(
        "bubblewrap is not usable here: bots run in the basic sandbox "
        "(no namespaces, no network isolation); see `arena doctor`"
    )
