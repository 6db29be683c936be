"""A built wheel as a ladder submission: installed, with its requirements,
without running any of their code.

Installing a wheel is unpacking it: unlike a source distribution or a
project folder, nothing of it is built or run.  So a wheel is installed by
the arena's own ``pip`` with its requirements from wheels alone
(``--only-binary :all: --no-index --find-links FOLDER``: nothing fetched,
nothing built -- a requirement found only as a source distribution is
refused -- and ``--no-compile``: nothing compiled in the arena's process),
into a folder of its own: the version's environment, named by the wheel's
digest and the folder its requirements came from.  So two versions of one
bot, or two bots whose modules have the same names or whose requirements
conflict, live side by side, each with its own code and requirements.  The
folder is made under a temporary name and renamed when complete, so a
submission killed half-way leaves none half-made (and what it left under
the temporary name is removed by a later install of it).

The folders live beside the ladder's results folder (``DIR.wheels/``), not
in it: the sandbox never shows a bot anything inside a results folder,
which holds the secret key.  The version is launched by the arena's
interpreter as ``python -m arena.botkit --path FOLDER module:Class`` (its
``--entry``), in the sandbox, which shows the bot that folder (not
another version's) and the bot kit; ``--path`` puts the folder first on
the import path, before the arena's own site-packages, so its requirements
are the ones it imports.  A ``.pth`` file in the folder is not run: the
folder is put on the path, not made a site folder.
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


def environment_name(wheel: Path, requirements: Path) -> str:
    """The name of the environment of ``wheel`` with its requirements from
    the folder ``requirements``: one per content and folder."""
    digest = hashlib.sha256(wheel.read_bytes())
    digest.update(b"\0" + os.fsencode(os.path.abspath(requirements)))
    return digest.hexdigest()[:24]


def install(wheel: str, results: Path, requirements: str | None = None) -> Path:
    """Install ``wheel`` and its requirements, wheels found in the folder
    ``requirements`` (default: the wheel's own), for the ladder in
    ``results`` (once per content and folder); the folder they are in."""
    path = Path(wheel)
    links = Path(requirements) if requirements is not None else path.parent
    if not links.is_dir():
        raise LadderError(f"--wheels {links}: no such folder")
    if not WHEEL_NAME.match(path.name):
        raise LadderError(
            f"{wheel}: not a wheel's file name (name-version-python-abi-platform.whl)"
        )
    try:
        digest = environment_name(path, links)
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
        "--only-binary",
        ":all:",
        "--no-index",
        "--find-links",
        str(links.resolve()),
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
            f"{wheel}: pip could not install it: {said[-1] if said else done.returncode} "
            f"(requirements are installed from the wheels in {links} alone, "
            f"never from source)"
        )
    partial.chmod(0o755)  # a temporary folder is its maker's alone; a bot runs as another user
    try:
        os.rename(partial, target)
    except OSError:  # installed meanwhile by another submission of the same wheel
        shutil.rmtree(partial, ignore_errors=True)
    return target


def check_entry(source: str, entry: str | None) -> str:
    """``entry``, the bot class of a wheel (or a project): refused when it
    is missing or not a ``module:Class``."""
    if entry is None or not ENTRY.match(entry):
        raise LadderError(
            f"{source}: a wheel needs --entry module:Class, the bot class to run "
            f"(its plugin's BotSpec entry), got {entry!r}"
        )
    return entry


def wheel_launch(
    wheel: str, entry: str | None, results: Path, requirements: str | None = None
) -> list[str]:
    """The command line of a version submitted as ``wheel``, its bot class
    ``entry`` (``module:Class``), once the wheel and its requirements (from
    the folder ``requirements``) are installed."""
    bot = check_entry(wheel, entry)
    folder = install(wheel, results, requirements)
    return [sys.executable, "-m", "arena.botkit", "--path", str(folder), bot]


__all__ = ["check_entry", "environment_name", "install", "wheel_launch", "wheels_folder"]
