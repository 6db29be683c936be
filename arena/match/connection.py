"""Non-blocking framed I/O with bot processes, under deadlines.

The referee must never block on a bot: not on a bot that stops reading its
stdin (writes are buffered and flushed when the pipe has room), not on one
that floods stderr (stderr is drained all the time and kept up to a cap), and
not on one that never answers (every wait has a deadline).  Several bots can
be waited on at once, each against its own deadline, which is how a
simultaneous move lets every acting bot think at the same time.
"""

from __future__ import annotations

import math
import os
import re
import select
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol

from arena.botkit import protocol
from arena.records.faults import Fault, FaultKind
from arena.sandbox import BotProcess, ResourceLimits
from arena.sandbox.text import inert

_READ = 1 << 16
#: the end of stderr kept apart from the capped head, for a crash's detail
_TAIL = 8 << 10
#: a crash detail holds at most this many stderr lines and characters
CRASH_LINES = 5
CRASH_CHARS = 500
#: stderr lines that say nothing on their own: a JavaScript stack frame
#: (``    at f (file.js:1:2)``), or punctuation only (``}``, ``^``)
_NOISE = re.compile(r"\s+at \S|[^\w]*$")


class Deadline(Protocol):
    """A deadline that is not a fixed instant (the referee's move clock,
    which charges a bot only its own time): whether it has passed at
    ``now``, and when to look again.  A plain float is a fixed instant."""

    def expired(self, now: float) -> bool: ...

    def wake(self, now: float) -> float: ...


def _expired(deadline: float | Deadline, now: float) -> bool:
    return deadline.expired(now) if hasattr(deadline, "expired") else now >= deadline


def _wake(deadline: float | Deadline, now: float) -> float:
    return deadline.wake(now) if hasattr(deadline, "wake") else deadline


class Channel:
    """The referee's end of one bot's pipes."""

    def __init__(
        self,
        process: BotProcess,
        frame_cap: int = protocol.MAX_BOT_FRAME,
        stderr_cap: int = ResourceLimits.output,
        game_log: int = 0,
    ):
        self.process = process
        self._stderr_cap = stderr_cap
        #: the end of stderr kept per game (:meth:`take_game_log`); 0: none
        self._game_log_cap = game_log
        self._game_log = bytearray()
        popen = process.popen
        assert popen.stdin and popen.stdout and popen.stderr, "a bot's three streams are pipes"
        self._in, self._out, self._err = (
            popen.stdin.fileno(),
            popen.stdout.fileno(),
            popen.stderr.fileno(),
        )
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._reader = protocol.FrameReader(frame_cap)
        self._outbox = bytearray()
        self.inbox: list[dict[str, Any]] = []
        self.stderr = bytearray()
        self._stderr_tail = bytearray()
        self.fault: Fault | None = None
        self._stderr_open = True
        #: the referee asked and is owed exactly one message
        self.asked = False
        #: what :class:`PollSet` watches each pipe for, made once: a wait
        #: compares them with what is registered, a move at a time
        self._polls = (
            (self._out, (select.POLLIN, self._read_stdout)),
            (self._in, (select.POLLOUT, self._flush)),
            (self._err, (select.POLLIN, self._read_stderr)),
        )

    def send(self, message: Mapping[str, Any]) -> None:
        """Send a message that wants no answer."""
        frame = protocol.encode(message)
        if self._outbox or self.fault is not None:
            self._outbox += frame
            self._flush()
            return
        try:  # nothing waiting before it: written at once, the rest kept for later
            written = os.write(self._in, frame)
        except BlockingIOError:
            written = 0
        except OSError:
            self._fail(FaultKind.CRASH, "closed its input")
            return
        if written < len(frame):
            self._outbox += frame[written:]

    def ask(self, message: Mapping[str, Any]) -> None:
        """Send a message that wants one answer (``hello``, ``act``).

        Whatever the bot wrote before this -- a late second answer, an answer
        sent ahead -- is read first and is a protocol fault: a frame counts
        as an answer only if it was written after the question."""
        self._read_stdout()
        if self.fault is None:
            self.asked = True
            self.send(message)

    def _flush(self) -> None:
        while self._outbox and self.fault is None:
            try:
                written = os.write(self._in, self._outbox)
            except BlockingIOError:
                return
            except (BrokenPipeError, OSError):
                self._fail(FaultKind.CRASH, "closed its input")
                return
            del self._outbox[:written]

    def _read_stdout(self) -> None:
        """Read what is in the pipe now; every frame beyond the one answer
        owed is a protocol fault, whenever it arrives."""
        while self.fault is None:
            try:
                data = os.read(self._out, _READ)
            except BlockingIOError:
                return
            if not data:
                self._fail(FaultKind.CRASH, "closed its output")
                return
            try:
                messages = self._reader.feed(data)
            except protocol.ProtocolError as error:
                self._fail(FaultKind.PROTOCOL, str(error))
                return
            for message in messages:
                if not self.asked:
                    self._fail(
                        FaultKind.PROTOCOL,
                        f"sent a {message.get('type')!r} message nobody asked for",
                    )
                elif self.inbox:
                    self._fail(FaultKind.PROTOCOL, "sent more than one message")
                else:
                    self.inbox.append(message)
            if len(data) < _READ:
                return

    def _read_stderr(self) -> int:
        """Read what stderr holds now; the number of bytes read."""
        try:
            data = os.read(self._err, _READ)
        except BlockingIOError:
            return 0
        if not data:
            self._stderr_open = False
            return 0
        room = self._stderr_cap - len(self.stderr)
        if room > 0:
            self.stderr += data[:room]
        self._stderr_tail += data
        del self._stderr_tail[:-_TAIL]
        if self._game_log_cap:
            self._game_log += data
            del self._game_log[: -self._game_log_cap]
        return len(data)

    def _drain_stderr(self) -> None:
        """Read what stderr holds now, in a bounded number of reads: a bot
        writing without pause cannot hold the referee here."""
        for _ in range(64):
            if not self._stderr_open or not self._read_stderr():
                break

    def _fail(self, kind: FaultKind, detail: str) -> None:
        if self.fault is None:
            if kind == FaultKind.CRASH:
                detail = self._crash_detail(detail)
            self.fault = Fault(kind, detail)

    def _crash_detail(self, what: str) -> str:
        try:
            status = self.process.popen.wait(timeout=0.2)
        except Exception:
            status = None
        text = what if status is None else f"{what}, exit status {status}"
        self._drain_stderr()  # what the bot wrote just before it died, if still in the pipe
        tail = stderr_tail(inert(self._stderr_tail.decode(errors="replace")))
        return f"{text}: {tail}" if tail else text

    def take_game_log(self) -> str:
        """The end of what the bot wrote on stderr since the last call (at
        most the ``game_log`` bytes given), what the pipe holds now
        included, made inert; the referee calls it as each game ends, so
        it is that game's stderr (a bot's start-up in its first game)."""
        self._drain_stderr()
        text = inert(self._game_log.decode(errors="replace"))
        self._game_log.clear()
        return text

    def stderr_text(self) -> str:
        """What the bot wrote on stderr (the capped head), made inert
        (:func:`arena.sandbox.text.inert`)."""
        return inert(self.stderr.decode(errors="replace"))


def stderr_tail(text: str, lines: int = CRASH_LINES, chars: int = CRASH_CHARS) -> str:
    """The end of a bot's stderr that says why it stopped, on one line: its
    last ``lines`` lines that carry words (stack frames of JavaScript and
    punctuation-only lines left out, so Node's ``Error: Cannot find module``
    survives its trailer), joined by `` | ``, cut from the front to ``chars``.
    A Python traceback keeps its last frame and the exception."""
    kept = [line.strip() for line in text.splitlines() if not _NOISE.match(line)]
    joined = " | ".join(kept[-lines:])
    return joined if len(joined) <= chars else "..." + joined[-(chars - 3) :]


def exchange(
    waiting: Mapping[Hashable, tuple[Channel, float | Deadline]],
    bystanders: Sequence[Channel] = (),
    polls: PollSet | None = None,
) -> dict[Hashable, tuple[dict[str, Any] | Fault, float]]:
    """Wait until every channel in ``waiting`` has sent one message or failed.

    ``waiting`` maps a key to ``(channel, deadline)`` with deadlines on the
    ``time.monotonic`` clock, or :class:`Deadline` objects; each of those
    channels was :meth:`Channel.ask`-ed.  ``bystanders`` are other live
    channels: their stderr and pending input are serviced meanwhile, and
    anything they send is a protocol fault (left on ``channel.fault`` for the
    caller to find).  ``polls`` is the match's :class:`PollSet` (None: a
    new one).
    """
    results: dict[Hashable, tuple[dict[str, Any] | Fault, float]] = {}
    polls = polls or PollSet()
    while True:
        now = time.monotonic()
        pending = []  # the channels still owing, and the soonest look at a deadline
        wake = math.inf
        for key, (channel, deadline) in waiting.items():
            if key in results:
                continue
            if channel.inbox and channel.fault is None:
                results[key] = (channel.inbox.pop(0), now)
                channel.asked = False
                continue
            if channel.fault is None and _expired(deadline, now):
                channel.fault = Fault(FaultKind.TIMEOUT, "no answer before the deadline")
            if channel.fault is not None:
                results[key] = (channel.fault, now)
            else:
                pending.append(channel)
                wake = min(wake, _wake(deadline, now))
        if not pending:
            return results
        polls.wait(pending + [c for c in bystanders if c.fault is None], wake - now)


class PollSet:
    """The pipes of one match's channels, kept registered from one exchange
    to the next: a move changes at most a pipe or two (output waiting to be
    flushed, a stderr at its end, a bot replaced), so only those changes are
    made, instead of a new ``select.poll()`` with every pipe registered again
    on every exchange.  A pipe no channel wants any more is unregistered
    before the next wait, so a number the system reuses for another bot's
    pipe is never polled for the old one."""

    def __init__(self):
        self._poller = select.poll()
        self._watched: dict[int, tuple[int, Any]] = {}  # fd -> (events, handler)

    def wait(self, channels: list[Channel], timeout: float) -> None:
        wanted: dict[int, tuple[int, Callable[[], object]]] = {}
        for channel in channels:
            (out, reading), (into, flushing), (err, draining) = channel._polls
            wanted[out] = reading
            if channel._outbox:
                wanted[into] = flushing
            if channel._stderr_open:
                wanted[err] = draining
        watched = self._watched
        if wanted != watched:
            for fd in watched.keys() - wanted.keys():
                self._poller.unregister(fd)
            for fd, entry in wanted.items():
                if watched.get(fd) != entry:
                    self._poller.register(fd, entry[0])
            self._watched = wanted
        for fd, _ in self._poller.poll(max(0.0, timeout) * 1000):
            wanted[fd][1]()
