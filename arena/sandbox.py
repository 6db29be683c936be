"""Starting a bot process under limits, and ending its whole tree.

The baseline sandbox every bot gets:

* its own session and process group (``setsid``), so one ``killpg`` ends the
  bot and every child it forked;
* resource limits -- address space, CPU seconds, file size, open files --
  applied by the ``prlimit`` wrapper command that execs the bot.  A wrapper
  rather than ``preexec_fn``: ``preexec_fn`` forces a full ``fork`` of the
  referee (slow when it holds a lot of memory) and is unsafe in multi-threaded
  workers, while the wrapper keeps subprocess's fast ``vfork`` path;
* a scrubbed environment (no variable of the referee's leaks in);
* a private, empty working folder, also its ``HOME`` and ``TMPDIR``, removed
  when the bot ends.

Stronger layers (a uid per seat, namespaces, seccomp, cgroups) build on this
in a later step; this module never claims more than it does.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass

PRLIMIT = shutil.which("prlimit") or "/usr/bin/prlimit"


class SandboxError(RuntimeError):
    """The sandbox cannot be set up on this machine (nothing was started)."""


@dataclass(frozen=True)
class ResourceLimits:
    """Per-bot ceilings enforced by the kernel (rlimits)."""

    memory: int = 2 << 30        # address space, bytes
    cpu_seconds: int = 600       # CPU time over the whole match
    file_size: int = 64 << 20    # largest file the bot may write, bytes
    open_files: int = 256

    def prlimit_argv(self) -> list[str]:
        return [
            PRLIMIT,
            f"--as={self.memory}",
            f"--cpu={self.cpu_seconds}",
            f"--fsize={self.file_size}",
            f"--nofile={self.open_files}",
            "--",
        ]


def bot_environment(workdir: str) -> dict[str, str]:
    """The only variables a bot sees.  The interpreter's folder comes first on
    PATH so ``cmd:python bot.py`` runs the arena's own Python."""
    return {
        "PATH": os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": workdir,
        "TMPDIR": workdir,
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
    }


class BotProcess:
    """A running bot: its pipes, its process group and its working folder."""

    def __init__(self, argv: list[str], limits: ResourceLimits = ResourceLimits()):
        if not os.path.exists(PRLIMIT):
            raise SandboxError("prlimit not found: install util-linux (apt-get install util-linux)")
        self.workdir = tempfile.mkdtemp(prefix="arena-bot-")
        os.chmod(self.workdir, 0o700)
        try:
            self.popen = subprocess.Popen(
                limits.prlimit_argv() + argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.workdir,
                env=bot_environment(self.workdir),
                start_new_session=True,
                close_fds=True,
            )
        except OSError as error:
            shutil.rmtree(self.workdir, ignore_errors=True)
            raise SandboxError(f"cannot start {argv[0]!r}: {error.strerror}") from None
        self.pid = self.popen.pid

    def exit_status(self) -> int | None:
        return self.popen.poll()

    def kill(self) -> None:
        """End the bot and everything it started, reap it and remove its
        folder.  Safe to call more than once."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            try:
                stream.close()
            except OSError:
                pass
        self.popen.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)
