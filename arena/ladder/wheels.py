"""A built wheel as a ladder submission: installed without running its code.

Installing a wheel is unpacking it: unlike a source distribution or a
project folder, nothing of it is built or run.  Each wheel is installed by
the arena's own ``pip`` (``--no-deps --no-index --no-compile``: nothing
fetched, nothing compiled in the arena's process) into a folder of its own,
named by the wheel's digest, so two versions of one bot -- or two bots
whose modules have the same names -- live side by side, each with its own
code.  The folder is made under a temporary name and renamed when
complete, so a submission killed half-way leaves none half-made (and what
it left under the temporary name is removed by a later install of it).

The folders live beside the ladder's results folder (``DIR.wheels/``), not
in it: the sandbox never shows a bot anything inside a results folder,
which holds the secret key.  The version is launched by the arena's
interpreter as ``python -m arena.botkit --path FOLDER module:Class`` (its
``--entry``), in the sandbox, which shows the bot that folder and the bot
kit; its requirements are not installed (a wheel brings what it needs
beyond the kit and the standard library).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from arena.ladder.entrants import LadderError

#: a wheel's file name (PEP 427): distribution-version(-build)?-python-abi-platform.whl
WHEEL_NAME = re.compile(r"^[A-Za-z0-9_.]+-[A-Za-z0-9_.!+]+(-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl$")
#: ``module.path:Class``
ENTRY = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
#: seconds pip may take to install one wheel
INSTALL_TIMEOUT = 120


def wheels_folder(results: Path) -> Path:
    """Where the ladder in ``results`` installs its wheels (beside it)."""
    results = Path(os.path.abspath(results))
    return results.with_name(results.name + ".wheels")


def install(wheel: str, results: Path) -> Path:
    """Install ``wheel`` for the ladder in ``results`` (once per content);
    the folder its modules are in."""
    path = Path(wheel)
    if not WHEEL_NAME.match(path.name):
        raise LadderError(
            f"{wheel}: not a wheel's file name (name-version-python-abi-platform.whl)"
        )
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:24]
        if not zipfile.is_zipfile(path):
            raise LadderError(f"{wheel}: not a wheel (not a zip archive)")
    except OSError as error:
        raise LadderError(f"{wheel}: cannot be read ({error.strerror})") from None
    target = wheels_folder(results) / digest
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in target.parent.glob(f".{digest}.*"):  # left by an install killed half-way
        if time.time() - stale.stat().st_mtime > 2 * INSTALL_TIMEOUT:
            shutil.rmtree(stale, ignore_errors=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{digest}.", dir=target.parent))
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--no-index",
        "--no-compile",
        "--disable-pip-version-check",
        "--quiet",
        "--target",
        str(partial),
        str(path.resolve()),
    ]
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        shutil.rmtree(partial, ignore_errors=True)
        raise LadderError(f"{wheel}: pip could not install it ({error})") from None
    if done.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        said = [line for line in done.stderr.splitlines() if line.strip()]
        raise LadderError(
            f"{wheel}: pip could not install it: {said[-1] if said else done.returncode}"
        )
    partial.chmod(0o755)  # a temporary folder is its maker's alone; a bot runs as another user
    try:
        os.rename(partial, target)
    except OSError:  # installed meanwhile by another submission of the same wheel
        shutil.rmtree(partial, ignore_errors=True)
    return target


def wheel_launch(wheel: str, entry: str | None, results: Path) -> list[str]:
    """The command line of a version submitted as ``wheel``, its bot class
    ``entry`` (``module:Class``), once the wheel is installed."""
    if entry is None or not ENTRY.match(entry):
        raise LadderError(
            f"{wheel}: a wheel needs --entry module:Class, the bot class to run "
            f"(its plugin's BotSpec entry), got {entry!r}"
        )
    folder = install(wheel, results)
    return [sys.executable, "-m", "arena.botkit", "--path", str(folder), entry]


__all__ = ["install", "wheel_launch", "wheels_folder"]
