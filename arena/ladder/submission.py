"""What a submission's SOURCE becomes: a launch the roster keeps.

A ``cmd:`` line is checked as a tournament's is (the program exists and can
start) and kept with its files, every path made absolute.  A built wheel is
installed with its requirements (wheels too) in a folder of its own and run
by the bot kit (:mod:`arena.ladder.wheels`): installing them runs none of
their code.  A project folder or a source distribution (``.tar.gz``) is
built into a wheel in the strict sandbox (:mod:`arena.ladder.projects`),
which is then installed as a submitted wheel is.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from arena.ladder.entrants import LadderError
from arena.ladder.projects import is_project, project_launch
from arena.ladder.wheels import wheel_launch
from arena.plugins.botspec import COMMAND_PREFIX, BotSpec, BotSpecError


def _shows(path: str, folder: Path) -> bool:
    """Whether ``path`` is the results folder, inside it or holds it."""
    real, store = os.path.realpath(path), os.path.realpath(folder)
    return real == store or store.startswith(real.rstrip("/") + "/") or real.startswith(store + "/")


def launch_of(
    source: str,
    files: list[str],
    results: Path,
    entry: str | None = None,
    requirements: str | None = None,
) -> dict[str, Any]:
    """The launch of a submitted ``source`` with the ``files`` it may read
    (neither may show the results folder, which holds the secret key);
    ``entry``: a wheel's or project's bot class (``module:Class``);
    ``requirements``: the folder of wheels its requirements are installed
    from (default: the wheel's own)."""
    project = not source.startswith(COMMAND_PREFIX) and is_project(source)
    wheel = source.endswith(".whl") and os.path.isfile(source)
    if not source.startswith(COMMAND_PREFIX) and not wheel and not project:
        raise LadderError(
            f"{source}: expected 'cmd:COMMAND LINE' starting the bot, a wheel, "
            f"a project folder or a source distribution (.tar.gz)"
        )
    if entry is not None and not (wheel or project):
        raise LadderError("--entry names the bot class of a wheel; a cmd: line has none")
    if requirements is not None and not (wheel or project):
        raise LadderError("--wheels holds a wheel's requirements; a cmd: line has none")
    for path in files:
        if not os.path.exists(path):
            raise LadderError(f"--file {path}: no such file or folder")
    try:
        if wheel or project:
            if project and _shows(source, results):
                raise LadderError(f"{source} would show its build the results folder {results}")
            launch = project_launch if project else wheel_launch
            argv = launch(source, entry, results, requirements)
            spec = BotSpec(
                name="wheel", command=tuple(argv), files=tuple(map(os.path.abspath, files))
            )
        else:
            spec = BotSpec.from_command(source, files=tuple(files))
    except BotSpecError as error:
        raise LadderError(str(error)) from None
    assert spec.command is not None, "a command spec"
    for path in (*spec.command, *spec.files):
        if os.path.isabs(path) and os.path.exists(path) and _shows(path, results):
            raise LadderError(
                f"{path} would show the bot the results folder {results} (and its secret key)"
            )
    return {"argv": list(spec.command), "files": list(spec.files)}
