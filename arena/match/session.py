"""One bot's conversation with the arena, under one facade (after
python-chess's ``engine.Protocol``): hello and ready, a new game, a move
under its clock and checked for legality, game over, goodbye
(docs/protocol.md).

The referee (every seat of every match) and ``arena check-bot`` (one bot,
one message at a time) both speak to a bot through a :class:`Session`, so a
bot's answers are judged one way and its faults come out as one structured
:class:`~arena.records.faults.Fault`: the kind and detail the pipes or the judging
found, placed at the message the bot was handling and its move in the game.

A question (``hello``, ``act``) is sent by its own call and answered by
:func:`answers`, which waits for several bots at once: every acting seat of a
simultaneous move thinks at the same time, while the other bots' pipes are
serviced.  A bot is owed one answer at a time, so the question waiting is
the session's own state, not an object per move (this is the referee's
innermost loop, docs/performance.md).

The caller owns the process (it starts and kills it) and the move clock's
kind: the referee charges a bot only its own time (``referee._MoveDeadline``),
check-bot the wall clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar, cast

from arena.botkit import messages, protocol
from arena.match.connection import Channel, PollSet, exchange
from arena.records.faults import Fault, FaultKind, Stage
from arena.sandbox import BotProcess

Key = TypeVar("Key", bound=Hashable)
#: read in the innermost loop: a global is cheaper than an enum member read
#: from its class (docs/performance.md)
_ACT = Stage.ACT


class MoveClock(Protocol):
    """One move's clock: a deadline for :func:`arena.match.connection.exchange`
    that also says what the move is charged and, on a timeout, why.
    ``allowed`` includes the grace; ``spent`` is the last ``charged``."""

    allowed: float
    spent: float

    def expired(self, now: float) -> bool: ...

    def wake(self, now: float) -> float: ...

    def charged(self, now: float) -> float: ...

    def overrun(self, move: float, bank: float) -> str: ...


#: starts a move's clock: (the bot's process, seconds allowed, grace)
ClockStart = Callable[[BotProcess, float, float], MoveClock]


def bank_after(bank: float, spent: float, move: float) -> float:
    """A time bank after a move that was charged ``spent`` seconds: only
    the overrun of ``move`` is drawn from it, never below 0
    (docs/protocol.md, "Time")."""
    return max(0.0, bank - max(0.0, spent - move))


@dataclass(slots=True)
class Answer:
    """What a question got: the action (for an ``act``), the time charged
    when an answer came in time (even one then refused as illegal), or the
    fault; and when a legal action arrived (``time.monotonic``)."""

    action: Any = None
    spent: float | None = None
    fault: Fault | None = None
    at: float | None = None


class Session:
    """The arena's side of one bot process: what it was last sent, its moves
    in the current game, the question it owes an answer to (its deadline,
    legal actions -- None for a ``hello`` -- and the seconds and bank it was
    given), and the judging of that answer."""

    __slots__ = (
        "_bank",
        "_clock",
        "_deadline",
        "_grace",
        "_legal",
        "_seconds",
        "channel",
        "moves",
        "stage",
    )

    def __init__(self, channel: Channel, clock: ClockStart, grace: float):
        self.channel = channel
        self._clock = clock
        self._grace = grace
        self.stage = Stage.HELLO
        self.moves = 0
        self._deadline: float | MoveClock = 0.0
        self._legal: list | None = None
        self._seconds = self._bank = 0.0

    # -- the conversation ----------------------------------------------------
    def hello(self, message: messages.Hello, spent: float = 0.0) -> Session:
        """Ask for ``ready`` within the start-up limit the message carries
        (once: a session is one process), less the ``spent`` seconds of it
        the bot used already (a pre-started bot's CPU before its hello,
        :class:`arena.match.referee.Prestarted`); the session, to wait on.  A bot
        that spent more than its start-up and the grace is out of time at
        once, however soon it answers: started when needed, it could not
        have been ready in time."""
        self._seconds = startup = message["limits"]["startup"]
        self._legal, self._bank = None, 0.0
        self.channel.ask(message)
        self._deadline = time.monotonic() + (startup - spent) + self._grace
        return self

    def new_game(self, message: messages.NewGame) -> None:
        self.channel.send(message)
        self._sent(Stage.NEW_GAME, 0)

    def act(self, message: messages.Act) -> Session:
        """Ask for a legal action, the move's clock starting now; the
        session, to wait on."""
        clock = message["clock"]
        self._seconds, self._bank = move, bank = clock["move"], clock["bank"]
        self._legal = message["legal"]
        self._deadline = self._clock(self.channel.process, move + bank, self._grace)
        self.channel.ask(message)
        if self.channel.fault is None:  # as _sent, inline: the referee's hot path
            self.stage, self.moves = _ACT, self.moves + 1
        return self

    def game_over(self, message: messages.GameOver) -> None:
        self.channel.send(message)
        self._sent(Stage.GAME_OVER, self.moves)

    def goodbye(self) -> None:
        self.channel.send(protocol.goodbye())

    def answer(self) -> Answer:
        """Wait for the answer to the question just asked, this bot alone."""
        return answers({0: self})[0]

    def listen(self, seconds: float) -> Fault | None:
        """After a message that wants no answer: wait ``seconds`` for the
        bot to break.  Listening as if it was asked, so a reply is reported
        as answering that message rather than as a stray frame."""
        channel = self.channel
        channel.asked = True
        end = time.monotonic() + seconds
        polls = PollSet()
        while channel.fault is None and not channel.inbox:
            left = end - time.monotonic()
            if left <= 0:
                break
            polls.wait([channel], left)
        channel.asked = False
        if channel.fault is not None:
            return self.place(channel.fault)
        if channel.inbox:
            answer = channel.inbox.pop(0).get("type")
            return self.place(
                Fault(
                    FaultKind.PROTOCOL,
                    f"answered {str(self.stage)!r} (with a {answer!r}), which expects no answer",
                )
            )
        return None

    def _sent(self, stage: Stage, moves: int) -> None:
        """Make ``stage`` the message the bot is handling, if its pipes were
        whole when it was sent: a fault found while sending (a question
        first reads what came before it; a closed input refuses the write)
        is the previous message's."""
        if self.channel.fault is None:
            self.stage, self.moves = stage, moves

    # -- judging -------------------------------------------------------------
    def judge(self, reply: dict[str, Any] | Fault, at: float) -> Answer:
        """The answer ``reply`` (received at ``at``) gives to the question
        asked, checked as the referee checks every answer."""
        legal = self._legal
        if legal is None:
            return Answer(fault=self._hello_fault(reply))
        deadline = cast("MoveClock", self._deadline)  # act() started it: _legal is set
        if isinstance(reply, Fault):
            if reply.kind != FaultKind.TIMEOUT:
                return Answer(fault=self.place(reply))
            return Answer(fault=self._timeout(deadline))
        if deadline.charged(at) > deadline.allowed:  # answered, but after its time
            return Answer(fault=self._timeout(deadline))
        try:
            action = protocol.expect_action(reply)
        except protocol.ProtocolError as error:
            return Answer(
                spent=deadline.spent, fault=self.place(Fault(FaultKind.PROTOCOL, str(error)))
            )
        if action not in legal:
            return Answer(
                spent=deadline.spent,
                fault=self.place(
                    Fault(
                        FaultKind.ILLEGAL,
                        f"played {action!r}, not one of the {len(legal)} legal actions",
                    )
                ),
            )
        return Answer(action, deadline.spent, at=at)

    def _timeout(self, deadline: MoveClock) -> Fault:
        return self.place(Fault(FaultKind.TIMEOUT, deadline.overrun(self._seconds, self._bank)))

    def _hello_fault(self, reply: dict[str, Any] | Fault) -> Fault | None:
        if isinstance(reply, Fault):
            if reply.kind == FaultKind.TIMEOUT:
                reply = Fault(FaultKind.TIMEOUT, f"not ready within {self._seconds:g}s start-up")
            return self.place(reply)
        if reply.get("type") != protocol.READY:
            return self.place(
                Fault(FaultKind.PROTOCOL, f"expected 'ready', got {reply.get('type')!r}")
            )
        return None

    # -- its state -----------------------------------------------------------
    @property
    def fault(self) -> Fault | None:
        """What broke the bot's pipes while it was not asked (a frame sent
        unasked, a crash), placed; None while it behaves."""
        fault = self.channel.fault
        return None if fault is None else self.place(fault)

    def place(self, fault: Fault) -> Fault:
        """``fault``, at the message this bot was last sent."""
        return replace(fault, stage=self.stage, move=self.moves)

    def kill(self) -> None:
        self.channel.process.kill()


def answers(
    asked: Mapping[Key, Session], bystanders: Iterable[Session] = (), polls: PollSet | None = None
) -> dict[Key, Answer]:
    """Wait until every session in ``asked`` has answered its question or
    faulted, servicing the ``bystanders``' pipes meanwhile (what they break
    is left on their :attr:`Session.fault`); ``polls`` is the match's
    :class:`PollSet`."""
    replies = exchange(
        {key: (session.channel, session._deadline) for key, session in asked.items()},
        [session.channel for session in bystanders],
        polls,
    )
    return {key: session.judge(*replies[key]) for key, session in asked.items()}
