"""A project folder or a source distribution as a ladder submission: its
wheel built in the strict sandbox, then installed as a wheel submission.

Building a project runs its code (``setup.py``, a build backend), so the
build is a sandboxed process like a bot: the strict level (no network, a
read-only view of the host, a uid or a user namespace of its own), which it
needs -- a machine without it is refused, never built on at a lower level.
The sandbox shows the build the project (read-only), the interpreter and
the arena's own ``pip``, ``setuptools`` and ``wheel`` (build isolation off:
nothing is fetched, the arena's build tools build it).  Inside, the project
is copied into the sandbox's private ``/tmp`` (the build writes its
``build/`` and ``*.egg-info`` there, never in the author's folder) and
``pip wheel --no-deps --no-build-isolation --no-index`` builds it there; the
wheel comes back on the process's stdout (its name on the first line, then
its bytes), and the build's own output goes to its stderr.  So nothing of
the build is left on the host but the wheel, in a temporary folder, which
:func:`arena.ladder.wheels.wheel_launch` installs as any wheel submission
before the folder is removed.
"""

from __future__ import annotations

import os
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from typing import IO

from arena.ladder.entrants import LadderError
from arena.ladder.wheels import WHEEL_NAME

#: seconds a build may take, and the largest wheel it may give back
BUILD_TIMEOUT = 300
MAX_WHEEL = 64 << 20
#: the end of the build's own output kept, for its last line
STDERR_TAIL = 64 << 10
#: the build tools the sandbox shows the build (the arena's own)
BUILD_TOOLS = ("pip", "setuptools", "wheel")
#: how pip ends the output of a build it quotes
END_OF_OUTPUT = "[end of output]"
#: the build, run by the sandbox's interpreter as ``python -I -c BUILD SOURCE``
BUILD = """
import glob, os, shutil, subprocess, sys
source, work = sys.argv[1], "/tmp/build"
project = os.path.join(work, "project")
if os.path.isdir(source):
    shutil.copytree(source, project, symlinks=True)
else:
    os.makedirs(work)
    project = shutil.copy(source, work)
pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index"]
pip += ["--no-cache-dir", "--disable-pip-version-check", "-w", os.path.join(work, "out"), project]
done = subprocess.run(pip, stdin=subprocess.DEVNULL, stdout=sys.stderr)
if done.returncode:
    sys.exit(done.returncode)
[wheel] = glob.glob(os.path.join(work, "out", "*.whl"))
with open(wheel, "rb") as built:
    sys.stdout.buffer.write(os.path.basename(wheel).encode() + b"\\n" + built.read())
"""


def is_project(source: str) -> bool:
    """Whether ``source`` is a project folder or a source distribution."""
    return os.path.isdir(source) or (source.endswith(".tar.gz") and os.path.isfile(source))


def build_wheel(source: str, folder: str) -> str:
    """Build the wheel of the project folder or source distribution
    ``source`` in the strict sandbox; the wheel, written into ``folder``."""
    from arena.sandbox import BotProcess, ResourceLimits, SandboxError
    from arena.sandbox.layers import strict_available
    from arena.sandbox.view import closure, distribution_paths

    if not strict_available():
        raise LadderError(
            f"{source}: a project is built only in the strict sandbox, which this machine "
            f"lacks (see `arena doctor`); build a wheel and submit it"
        )
    limits = ResourceLimits(cpu_seconds=BUILD_TIMEOUT, disk=4 * MAX_WHEEL)
    tools = tuple(distribution_paths(closure(list(BUILD_TOOLS))))
    argv = [sys.executable, "-I", "-c", BUILD, os.path.abspath(source)]
    try:
        process = BotProcess(argv, limits, "strict", files=tools)
    except SandboxError as error:
        raise LadderError(f"{source}: cannot start its build's sandbox: {error}") from None
    try:
        _, stdout, stderr = process.pipes()
        out, err = _bounded_output(stdout, stderr, source)
        status = process.popen.wait(timeout=5)
    except subprocess.TimeoutExpired:
        status = None
    finally:
        process.kill()
    name, _, wheel = out.partition(b"\n")
    if status != 0 or not WHEEL_NAME.match(name.decode(errors="replace")):
        last = last_said(err.decode(errors="replace")) or f"exit {status}"
        raise LadderError(f"{source}: its build failed in the sandbox: {last}")
    path = os.path.join(folder, os.path.basename(name.decode()))
    with open(path, "wb") as written:
        written.write(wheel)
    return path


def _bounded_output(stdout: IO[bytes], stderr: IO[bytes], source: str) -> tuple[bytes, bytes]:
    """The build's stdout and the end of its stderr, read until both end:
    the build is the submission's code, so its output is held to a wheel's
    size (and its time to ``BUILD_TIMEOUT``), never read whole into memory."""
    out, err = bytearray(), bytearray()
    deadline = time.monotonic() + BUILD_TIMEOUT
    with selectors.DefaultSelector() as pipes:
        pipes.register(stdout, selectors.EVENT_READ, out)
        pipes.register(stderr, selectors.EVENT_READ, err)
        while pipes.get_map():
            if time.monotonic() > deadline:
                raise LadderError(f"{source}: its build took more than {BUILD_TIMEOUT}s")
            for key, _ in pipes.select(timeout=1.0):
                data = os.read(key.fd, 1 << 16)
                if not data:
                    pipes.unregister(key.fileobj)
                    continue
                key.data.extend(data)
                if key.data is err:
                    del err[:-STDERR_TAIL]
                elif len(out) > MAX_WHEEL + 256:  # the name's line and the wheel
                    raise LadderError(
                        f"{source}: its build gave a wheel over {MAX_WHEEL >> 20} MiB"
                    )
    return bytes(out), bytes(err)


def last_said(output: str) -> str:
    """The last line the build itself wrote: pip frames a failed build's
    output (``[end of output]``) and ends with hints of its own."""
    said = [line.strip() for line in output.splitlines() if line.strip()]
    if END_OF_OUTPUT in said:
        said = said[: len(said) - said[::-1].index(END_OF_OUTPUT) - 1]
    return said[-1] if said else ""


def project_launch(source: str, entry: str | None, results, requirements: str | None) -> list[str]:
    """The command line of a version submitted as a project folder or a
    source distribution: its wheel built in the sandbox, then installed as
    a wheel submission (``entry``, ``requirements``: as a wheel's)."""
    from arena.ladder.wheels import check_entry, wheel_launch

    check_entry(source, entry)
    folder = tempfile.mkdtemp(prefix="arena-build-")
    try:
        wheel = build_wheel(source, folder)
        return wheel_launch(wheel, entry, results, requirements)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


__all__ = ["build_wheel", "is_project", "project_launch"]
