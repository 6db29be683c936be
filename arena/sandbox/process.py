"""Starting a bot process in its sandbox, and ending its whole tree.

Three levels, each a chain of wrapper commands that ``exec`` one another
(never ``preexec_fn``, which forces a full ``fork`` of the referee and is
unsafe in multi-threaded workers such as Dask's):

* ``none`` -- only what cleanup needs: its own session and process group, a
  private working folder.  Used only when asked for explicitly.
* ``basic`` -- plus rlimits (``prlimit``: address space, CPU seconds, file
  size, open files) and a scrubbed environment; where the machine allows it
  without bubblewrap, a uid and cgroups of its own (as root) and new pid,
  network and mount namespaces with a private ``/tmp``
  (:mod:`arena.sandbox.namespaces`).
* ``strict`` -- plus, where the machine allows (see :mod:`arena.sandbox.layers`):
  a cgroup per bot (process count, memory of the whole tree, kill of
  escapees), bubblewrap (private mounts, pid/net/ipc/uts namespaces), a uid
  of its own when the arena runs as root (else a user namespace), seccomp,
  and RLIMIT_NPROC under that uid.

Chain for strict as root:
``sh (join cgroups) → bwrap → setpriv (uid) → prlimit → bot``; for basic as
root: ``sh (join cgroups) → setpriv (death signal) → unshare → sh (mount /tmp)
→ setpriv (uid) → prlimit → bot``.
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import logging
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import IO

from arena import SITES_VARIABLE
from arena.sandbox import bubblewrap, namespaces, seccomp, zygote
from arena.sandbox.cgroups import BotCgroups, hierarchies
from arena.sandbox.leftovers import folder_prefix
from arena.sandbox.limits import PRLIMIT, ResourceLimits
from arena.sandbox.namespaces import SETPRIV
from arena.sandbox.uids import UidLease
from arena.sandbox.usage import StatFile, Usage, children, schedstat_waited, stat_cpu
from arena.sandbox.view import results_folder, run_time_sites
from arena.sandbox.zygote import ForkedBot, ZygoteError

LEVELS = ("none", "basic", "strict")
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=1)
def harden_referee() -> None:
    """Once per referee process: not dumpable (no core dumps, and its
    ``/proc/<pid>/mem`` and ``environ`` closed to other uids), and a child
    subreaper, so a sandbox's init left behind when its parent is killed comes
    back to this process to be reaped instead of lingering as a zombie."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


@functools.lru_cache(maxsize=1)
def _death_signal_argv() -> tuple[str, ...]:
    """``setpriv --pdeathsig KILL --``: outside bubblewrap (which has its own
    ``--die-with-parent``) a bot is killed when its referee dies, even by
    ``kill -9``, instead of living on in its own session.  Empty where
    setpriv is missing or too old for the option."""
    argv = (SETPRIV, "--pdeathsig", "KILL", "--")
    try:
        ok = subprocess.run([*argv, "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return argv if ok else ()


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (they come back to this subreaper when
    their parents are killed, and must then be reaped here).  Walked down
    from ``pid`` through each process's ``children`` list: a bot's tree is a
    few processes, the host's ``/proc`` hundreds (a scan of every
    ``/proc/*/stat`` cost a millisecond or more per kill)."""
    found, frontier = [], [pid]
    while frontier:
        below = [child for parent in frontier for child in children(parent)]
        found += below
        frontier = below
    return found


def sandbox_orphans() -> list[int]:
    """Zombie children of this process that were the init of a bot's pid
    namespace (``NSpid`` has a second level): when a bot's outer bubblewrap
    exits before it is killed, the inner one comes back to this subreaper.
    Nothing else waits for them, so reaping them takes no exit status from a
    ``Popen``, even with several threads.  Only this process's own children
    are looked at (its threads' ``children`` lists), not every process of
    the host."""
    found = []
    for pid in children(os.getpid()):
        try:
            with open(f"/proc/{pid}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        if (
            fields.get("State", "").strip().startswith("Z")
            and len(fields.get("NSpid", "").split()) > 1
        ):
            found.append(pid)
    return found


def _reap(pids: list[int], patience: float = 1.0) -> None:
    """Wait for former grandchildren re-parented to this subreaper."""
    deadline = time.monotonic() + patience
    pending = list(pids)
    while pending and time.monotonic() < deadline:
        for pid in list(pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not ours: someone else reaps it
                done = pid
            if done:
                pending.remove(pid)
        if pending:
            time.sleep(0.002)


def _drop_argv(uid: int, death_signal: bool = False) -> list[str]:
    """setpriv to ``uid`` with no groups and no capabilities (a uid change
    clears the parent-death signal: ``death_signal`` sets it again)."""
    return [
        SETPRIV,
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        *(["--pdeathsig", "KILL"] if death_signal and _death_signal_argv() else []),
        "--",
    ]


class SandboxError(RuntimeError):
    """The sandbox cannot be set up as asked (nothing was started)."""


def _refuse_results(argv: list[str], files: tuple[str, ...]) -> None:
    """Checked at every launch (a results folder may have been made since the
    bot was found or its file read): no absolute path of the command, nor
    any of ``files``, is or lies in a results folder -- the strict view binds
    those, and the folder holds the store and the tournament's key."""
    for path in [arg for arg in argv if os.path.isabs(arg)] + [os.path.abspath(f) for f in files]:
        shown = results_folder(path)
        if shown is not None:
            raise SandboxError(
                f"the bot's command or files name {path}, in the results folder {shown}: "
                "never shown to a bot (it holds the store and the secret key)"
            )


def bot_path() -> str:
    """The bot's PATH.  The interpreter's folder comes first so ``cmd:python
    bot.py`` runs the arena's own Python."""
    return os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"])


def bot_environment(home: str) -> dict[str, str]:
    """The only variables a bot sees (and the site folders added at run
    time, where its distribution may be installed: see run_time_sites)."""
    environment = {
        "PATH": bot_path(),
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
    }
    sites = run_time_sites()
    if sites:
        environment[SITES_VARIABLE] = os.pathsep.join(sites)
    return environment


class BotProcess:
    """A running bot: its pipes, its process group and what isolates it.

    ``files`` are host paths the bot may read besides what its command needs
    (strict level; see :mod:`arena.sandbox.view`).  A strict bot run by the
    kit is forked by its zygote where the machine allows
    (:mod:`arena.sandbox.zygote`); ``preload`` (for trusted, built-in bots
    only) lets the zygote import the bot's module before it forks."""

    popen: subprocess.Popen[bytes] | ForkedBot

    def __init__(
        self,
        argv: list[str],
        limits: ResourceLimits = ResourceLimits(),
        level: str = "basic",
        files: tuple[str, ...] = (),
        preload: bool = False,
    ):
        if level not in LEVELS:
            raise SandboxError(f"unknown sandbox level '{level}' (levels: {', '.join(LEVELS)})")
        harden_referee()
        self.level = level
        self.workdir: str | None = None
        self.uid: int | None = None
        self._lease: UidLease | None = None
        self._cgroups: BotCgroups | None = None
        self._seccomp_fd: int | None = None
        #: how many wrapper processes stand above the bot's own (see _main_pid)
        self._depth = 0
        self._clock_files: tuple[StatFile, StatFile] | None = None  # schedstat, stat
        self._strays: list[int] = []
        try:
            forked = self._fork(argv, limits, files, preload) if level == "strict" else None
            if forked is not None:
                self.popen = forked
                return
            command, env, cwd = self._chain(argv, limits, files)
            self.popen = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                start_new_session=True,
                close_fds=True,
                pass_fds=() if self._seccomp_fd is None else (self._seccomp_fd,),
            )
        except OSError as error:
            self._release()
            raise SandboxError(f"cannot start {argv[0]!r}: {error.strerror or error}") from None
        except BaseException:
            self._release()
            raise
        if self._seccomp_fd is not None:
            os.close(self._seccomp_fd)
            self._seccomp_fd = None

    @property
    def pid(self) -> int | None:
        """The bot's process on this host (forked: once it is in its cgroups;
        None if it ended before)."""
        return self.popen.pid

    def _fork(
        self, argv: list[str], limits: ResourceLimits, files: tuple[str, ...], preload: bool
    ) -> ForkedBot | None:
        """The bot forked by its zygote, or None where it is to start afresh:
        not run by the kit, not root, no bubblewrap or seccomp, no pids or
        memory cgroups to charge it by, or no zygote here."""
        if (
            os.geteuid() != 0
            or zygote.kit_arguments(argv) is None
            or not bubblewrap.available()
            or not seccomp.available()
            or not {"pids", "memory"} <= set(hierarchies())
        ):
            return None
        _refuse_results(argv, files)
        found = zygote.zygote_for(argv, files, preload, bot_environment(bubblewrap.HOME))
        if found is None:
            return None
        cgroups = self._own_uid(limits)
        try:
            return found.fork(self._uid(), cgroups.procs(), limits)
        except ZygoteError as error:
            log.info("%s: its zygote failed, started afresh: %s", argv[-1], error)
            zygote.forget(found)
            self._release()
            self.uid = None
            return None

    def pipes(self) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
        """The bot's stdin, stdout and stderr: the pipes ``__init__`` opened."""
        stdin, stdout, stderr = self.popen.stdin, self.popen.stdout, self.popen.stderr
        assert stdin and stdout and stderr, "BotProcess opens the three streams as pipes"
        return stdin, stdout, stderr

    def _chain(self, argv: list[str], limits: ResourceLimits, files: tuple[str, ...]):
        if self.level != "none":
            _refuse_results(argv, files)
        if self.level == "none":
            self.workdir = tempfile.mkdtemp(prefix=folder_prefix())
            os.chmod(self.workdir, 0o700)
            return list(_death_signal_argv()) + argv, bot_environment(self.workdir), self.workdir
        if self.level == "basic":
            return self._basic_chain(argv, limits)
        if not bubblewrap.available():
            raise SandboxError("the strict sandbox needs bubblewrap: apt-get install bubblewrap")
        as_root = os.geteuid() == 0
        chain = []
        if as_root:
            chain += self._own_uid(limits).join_argv()
        if seccomp.available():
            self._seccomp_fd = seccomp.program_fd()
        env = bot_environment(bubblewrap.HOME)
        chain += bubblewrap.bwrap_argv(
            argv, limits.disk, env, self._seccomp_fd, user_namespace=not as_root, files=files
        )
        if as_root:
            chain += _drop_argv(self._uid())
        chain += limits.prlimit_argv(processes=True) + argv
        self._depth = 2  # bubblewrap's two processes
        return chain, env, "/"

    def _basic_chain(self, argv: list[str], limits: ResourceLimits):
        """The basic level: rlimits and a scrubbed environment; as root (with
        setpriv) a uid and cgroups of its own; where the kernel allows,
        :mod:`arena.sandbox.namespaces` (own pid, network and mount
        namespaces, a private ``/tmp``), else a private folder of the host's."""
        if not os.path.exists(PRLIMIT):
            raise SandboxError("prlimit not found: install util-linux")
        private = namespaces.available() and not namespaces.names_private(argv)
        own_uid = namespaces.uid_possible(private)
        chain = self._own_uid(limits).join_argv() if own_uid else []
        chain += _death_signal_argv()
        if private:
            chain += namespaces.unshare_argv(limits.disk, keep=namespaces.kept(argv))
            env, cwd = bot_environment(namespaces.HOME), "/"
            self._depth = 1  # unshare, then the namespace's first process
        else:
            self.workdir = tempfile.mkdtemp(prefix=folder_prefix())
            os.chmod(self.workdir, 0o700)
            if own_uid:
                os.chown(self.workdir, self._uid(), self._uid())
            env, cwd = bot_environment(self.workdir), self.workdir
        if own_uid:
            chain += _drop_argv(self._uid(), death_signal=True)
        return chain + limits.prlimit_argv(processes=own_uid) + argv, env, cwd

    def _own_uid(self, limits: ResourceLimits) -> BotCgroups:
        """Lease a uid for the bot and make its cgroups."""
        self._lease = UidLease.acquire()
        self.uid = self._lease.uid
        self._cgroups = BotCgroups(f"arena-bot-{self.uid}", limits.memory, limits.processes)
        return self._cgroups

    def _uid(self) -> int:
        assert self.uid is not None, "a uid is leased before the chain drops to it"
        return self.uid

    def _main_pid(self) -> int | None:
        """The bot's own first process: the started process itself, or in
        the strict sandbox the one below bubblewrap's two (the outer one and
        the init of the bot's pid namespace); None until it exists."""
        pid: int | None = self.popen.pid
        for _ in range(self._depth):
            if pid is None:
                return None
            below = children(pid)
            if len(below) != 1:
                return None
            pid = below[0]
        return pid

    def usage(self) -> Usage:
        """What the bot has had of the machine so far: its tree's CPU time
        (its cgroup's, else its main process's) and the time its main process
        waited for a CPU (see :mod:`arena.sandbox.usage`)."""
        if self._clock_files is None:
            main = self.popen.joined() if isinstance(self.popen, ForkedBot) else self._main_pid()
            if main is None:
                return Usage()  # still starting: nothing of its own yet
            self._clock_files = (
                StatFile(f"/proc/{main}/schedstat"),
                StatFile(f"/proc/{main}/stat"),
            )
        schedstat, stat = self._clock_files
        cpu = self._cgroups.cpu_time() if self._cgroups is not None else None
        if cpu is None:
            cpu = stat_cpu(stat.read())
        return Usage(cpu, schedstat_waited(schedstat.read()))

    def kill(self) -> None:
        """End the bot and everything it started, reap it and free what it
        held (folder, uid, cgroups).  Safe to call more than once."""
        self._stop()
        self._bury()

    def end(self, by: float | None = None) -> None:
        """End the bot off the caller's path (:data:`UNDERTAKER`): with
        ``by`` (a ``time.monotonic`` instant, after a goodbye) it may exit by
        itself until then; without, it is stopped here and now -- a faulted
        bot gets no more CPU -- and only the reaping waits.  Its uid and
        cgroups stay held until it is reaped, so no later bot can share them
        with a process of this one still dying."""
        if by is None:
            self._stop(rounds=1)  # the undertaker makes sure: kill() again
        UNDERTAKER.take(self, by)

    def _stop(self, rounds: int = 100) -> None:
        """Send the kill to the whole tree: its process group, its cgroups
        (``rounds``: see :meth:`BotCgroups.kill_all`), and the processes
        below it, noted first (once the main process is dead its children
        are no longer below it)."""
        # forked: its pid is known once it is in its cgroups, whose kill then
        # reaches it; what it leaves is reaped in its pid namespace
        pid = self.popen.pid
        if isinstance(self.popen, subprocess.Popen) and self.popen.returncode is None:
            self._strays += _descendants(self.popen.pid)  # not reaped yet: its pid is its own
        try:
            if pid is not None:
                os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self._cgroups is not None:
            self._cgroups.kill_all(rounds)

    def _bury(self) -> None:
        for stream in self.pipes():
            try:
                stream.close()
            except OSError:
                pass
        self.popen.wait()
        if isinstance(self.popen, ForkedBot):
            self.popen.close()
        _reap(self._strays + (sandbox_orphans() if self._depth else []))
        self._strays = []
        self._release()

    def _release(self) -> None:
        for file in self._clock_files or ():
            file.close()
        self._clock_files = None
        if self._cgroups is not None:
            self._cgroups.kill_all()
            self._cgroups.remove()
            self._cgroups = None
        if self._lease is not None:
            self._lease.release()
            self._lease = None
        if self._seccomp_fd is not None:
            os.close(self._seccomp_fd)
            self._seccomp_fd = None
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)


class Undertaker:
    """Ends bots on a thread of its own, so the referee does not wait while
    a bot's tree exits, its namespaces are torn down, its cgroups removed
    and its folder deleted (milliseconds for a strict bot) before it can
    start the next one.  ``drain`` waits until every bot handed over is
    gone: before the process exits (``atexit``; a forked worker calls it
    itself), and wherever a caller must know nothing is left.  A forked
    child starts with an empty one (the parent's thread does not exist
    there)."""

    _queue: queue.Queue[tuple[BotProcess, float | None]]
    _thread: threading.Thread | None
    _lock: threading.Lock

    def __init__(self) -> None:
        self._forget()

    def take(self, process: BotProcess, by: float | None) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._work, name="arena-undertaker", daemon=True
                )
                self._thread.start()
        self._queue.put((process, by))

    def drain(self) -> None:
        if self._thread is not None:
            self._queue.join()

    def _work(self) -> None:
        while True:
            process, by = self._queue.get()
            try:
                if by is not None:
                    try:
                        process.popen.wait(max(0.0, by - time.monotonic()))
                    except subprocess.TimeoutExpired:
                        pass
                process.kill()
            except Exception:  # pragma: no cover - never lose the thread
                log.exception("ending bot process %s", process.pid)
            finally:
                self._queue.task_done()

    def _forget(self) -> None:
        """Start empty (also a forked child's: the parent's thread is not there)."""
        self._queue = queue.Queue()
        self._thread = None
        self._lock = threading.Lock()


UNDERTAKER = Undertaker()
atexit.register(UNDERTAKER.drain)
os.register_at_fork(after_in_child=UNDERTAKER._forget)
