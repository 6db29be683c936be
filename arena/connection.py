"""Non-blocking framed I/O with bot processes, under deadlines.

The referee must never block on a bot: not on a bot that stops reading its
stdin (writes are buffered and flushed when the pipe has room), not on one
that floods stderr (stderr is drained all the time and kept up to a cap), and
not on one that never answers (every wait has a deadline).  Several bots can
be waited on at once, each against its own deadline, which is how a
simultaneous move lets every acting bot think at the same time.
"""

from __future__ import annotations

import os
import select
import time
from dataclasses import dataclass
from typing import Any, Hashable, Protocol

from arena import protocol
from arena.sandbox import BotProcess

_READ = 1 << 16


@dataclass(frozen=True)
class Fault:
    """Why a bot did not give a usable answer."""

    kind: str      # "timeout", "crash" or "protocol" (see arena.records.FAULTS)
    detail: str


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

    def __init__(self, process: BotProcess, frame_cap: int = protocol.MAX_BOT_FRAME,
                 stderr_cap: int = 64 << 10):
        self.process = process
        self._stderr_cap = stderr_cap
        self._in = process.popen.stdin.fileno()
        self._out = process.popen.stdout.fileno()
        self._err = process.popen.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._reader = protocol.FrameReader(frame_cap)
        self._outbox = bytearray()
        self.inbox: list[dict[str, Any]] = []
        self.stderr = bytearray()
        self.fault: Fault | None = None
        self._stderr_open = True

    def send(self, message: dict[str, Any]) -> None:
        self._outbox += protocol.encode(message)
        self._flush()

    def _flush(self) -> None:
        while self._outbox and self.fault is None:
            try:
                written = os.write(self._in, self._outbox)
            except BlockingIOError:
                return
            except (BrokenPipeError, OSError):
                self._fail("crash", "closed its input")
                return
            del self._outbox[:written]

    def _read_stdout(self) -> None:
        try:
            data = os.read(self._out, _READ)
        except BlockingIOError:
            return
        if not data:
            self._fail("crash", "closed its output")
            return
        try:
            self.inbox.extend(self._reader.feed(data))
        except protocol.ProtocolError as error:
            self._fail("protocol", str(error))

    def _read_stderr(self) -> None:
        try:
            data = os.read(self._err, _READ)
        except BlockingIOError:
            return
        if not data:
            self._stderr_open = False
            return
        room = self._stderr_cap - len(self.stderr)
        if room > 0:
            self.stderr += data[:room]

    def _fail(self, kind: str, detail: str) -> None:
        if self.fault is None:
            if kind == "crash":
                detail = self._crash_detail(detail)
            self.fault = Fault(kind, detail)

    def _crash_detail(self, what: str) -> str:
        try:
            status = self.process.popen.wait(timeout=0.2)
        except Exception:
            status = None
        text = what if status is None else f"{what}, exit status {status}"
        lines = self.stderr.decode(errors="replace").strip().splitlines()
        return f"{text}: {lines[-1][:200]}" if lines else text

    def stderr_text(self) -> str:
        return self.stderr.decode(errors="replace")


def exchange(
    waiting: dict[Hashable, tuple[Channel, float]],
    bystanders: list[Channel] = (),
) -> dict[Hashable, tuple[dict[str, Any] | Fault, float]]:
    """Wait until every channel in ``waiting`` has sent one message or failed.

    ``waiting`` maps a key to ``(channel, deadline)`` with deadlines on the
    ``time.monotonic`` clock, or :class:`Deadline` objects.  ``bystanders`` are other live channels whose
    stderr and pending input are serviced meanwhile.  A message that is
    already waiting when this is called was sent unasked: a protocol fault.
    """
    results: dict[Hashable, tuple[dict[str, Any] | Fault, float]] = {}
    for key, (channel, _) in waiting.items():
        if channel.fault is None and channel.inbox:
            channel.fault = Fault("protocol", "sent a message nobody asked for")
    while True:
        now = time.monotonic()
        pending = {}
        for key, (channel, deadline) in waiting.items():
            if key in results:
                continue
            if channel.inbox and channel.fault is None:
                message = channel.inbox.pop(0)
                if channel.inbox:
                    channel.fault = Fault("protocol", "sent more than one message")
                else:
                    results[key] = (message, now)
                    continue
            if channel.fault is None and _expired(deadline, now):
                channel.fault = Fault("timeout", "no answer before the deadline")
            if channel.fault is not None:
                results[key] = (channel.fault, now)
            else:
                pending[key] = (channel, deadline)
        if not pending:
            return results
        _poll(pending, bystanders, min(_wake(deadline, now) for _, deadline in pending.values())
              - now)


def _poll(pending, bystanders, timeout: float) -> None:
    poller = select.poll()
    handlers = {}
    channels = [channel for channel, _ in pending.values()]
    for channel in channels:
        poller.register(channel._out, select.POLLIN)
        handlers[channel._out] = channel._read_stdout
    for channel in channels + [c for c in bystanders if c.fault is None]:
        if channel._outbox:
            poller.register(channel._in, select.POLLOUT)
            handlers[channel._in] = channel._flush
        if channel._stderr_open:
            poller.register(channel._err, select.POLLIN)
            handlers[channel._err] = channel._read_stderr
    for fd, _ in poller.poll(max(0.0, timeout) * 1000):
        handlers[fd]()
