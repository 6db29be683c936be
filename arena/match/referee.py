"""The referee: plays one match (a series of games) between bot processes.

One sandboxed process per entrant lives for the whole match, so start-up is
paid once.  For every move the referee sends each acting seat its own
observation and legal actions -- nothing else about the game ever leaves this
process -- and waits for the answers under the time control, all acting bots
thinking at once on a simultaneous move.

A bot that times out, crashes, breaks the protocol (a frame it was not
asked for included, whenever it arrives) or plays an illegal action is
*faulted*: its process tree is killed, the fault is recorded, its seat is
played out by a seeded random fallback so the game ends normally for the
others, and it ranks last.  A faulted entrant is started afresh for the
match's next game.  Faults never raise: the match always completes.  Each
one is a structured :class:`~arena.records.faults.Fault` (kind, the message the bot
was handling, its move, a detail), passed to ``on_fault`` as it happens; the
game record keeps its kind and detail.  What is said to a bot and how its
answers are judged is the bot's :class:`~arena.match.session.Session`, shared with
``arena check-bot``; the match, its seats and their clocks are this module's.

Every game brings its own seeds (:class:`Deal`): the deal's, and a secret
*chance* seed from which each seat's own seed (sent in ``new_game``) and the
fallback's are derived (:mod:`arena.match.deals`), so a game does not depend on
which games the same processes played before, and no seed a bot sees
reveals the deal.

The referee never imports bot code; it only runs the command line a
:class:`~arena.plugins.botspec.BotSpec` gives.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.botkit import protocol
from arena.botkit.clock import WALL_CEILING
from arena.botkit.messages import Limits
from arena.game import DummyResult, Engine, Outcome, competition_ranks
from arena.match import audit as leak_audit
from arena.match.connection import Channel, PollSet
from arena.match.deals import Deal
from arena.match.session import Session, answers, bank_after
from arena.plugins.botspec import BotSpec
from arena.records import GameRecord, SeatRecord
from arena.records.faults import Fault, FaultKind, Stage
from arena.sandbox import BotProcess, ResourceLimits, SandboxError
from arena.sandbox.layers import choose_level, rank, refuse_below
from arena.sandbox.process import UNDERTAKER
from arena.sandbox.usage import waited as referee_waited

#: how long a bot may take to exit by itself after ``goodbye``, in seconds
GOODBYE_GRACE = 0.2
#: the shortest pause between two looks at a thinking bot's clock
_LOOK = 0.002

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TimeControl:
    """A time control, in seconds (after python-chess's ``TimeControl``).

    ``bank`` is extra time per game, drawn on when a move overruns ``move``;
    ``grace`` is slack the referee adds to every deadline for its own and
    the pipe's latency, so a loaded machine does not cause false time losses.
    ``floor`` is the timing floor (0: none): at a table with a submitted
    bot, no seat learns of a move (its next ``act`` or its ``game_over``)
    sooner after the move was asked than this share of the longest the
    mover has taken for a move so far in the match (at most ``move``),
    however soon it was answered, so a rival's answer times cannot tell
    which situation it was in (a forced move answered at once against a
    move thought over).  A quick bot's moves are held for milliseconds, a
    thinker's as long as its longest thought.  It is wall time, charged to
    nobody; not sent to the bots.
    """

    startup: float = 10.0
    move: float = 1.0
    bank: float = 0.0
    grace: float = 0.05
    floor: float = 0.0

    def __post_init__(self):
        for name in ("startup", "move", "bank", "grace", "floor"):
            if getattr(self, name) < 0:
                raise ValueError(f"time limit '{name}' must not be negative")
        if self.move <= 0 or self.startup <= 0:
            raise ValueError("time limits 'startup' and 'move' must be positive")

    def as_dict(self) -> Limits:
        return {"startup": self.startup, "move": self.move, "bank": self.bank}


@dataclass(frozen=True)
class Entrant:
    """A bot at the table: its display name, how to start it, its own
    resource limits, time control and sandbox level (None: the match's), and
    the settings its hello carries.  A person's seat (``arena play``) is an
    entrant with no time limit in sandbox level ``none``, so it can reach the
    person's terminal.  ``submitted``: untrusted code (a ``cmd:`` line, a
    third-party plugin's bot), held to the match's least sandbox level and
    guarded against by the timing floor; only the arena's own bots say
    False."""

    name: str
    spec: BotSpec
    resources: ResourceLimits | None = None
    limit: TimeControl | None = None
    sandbox: str | None = None
    settings: Mapping[str, Any] | None = None
    submitted: bool = True


def play_match(
    engine: Engine,
    entrants: Sequence[Entrant],
    deals: Sequence[Deal],
    options: Mapping[str, Any] | None = None,
    limit: TimeControl = TimeControl(),
    on_game: Callable[[GameRecord], None] | None = None,
    sandbox: str | None = None,
    resources: ResourceLimits = ResourceLimits(),
    audit: bool = False,
    started: Prestarted | None = None,
    linger: bool = False,
    on_fault: Callable[[int, int, Fault], None] | None = None,
    least: str = "none",
    on_stderr: Callable[[int, tuple[str, ...]], None] | None = None,
    stderr: int = 4 << 10,
) -> list[GameRecord]:
    """Play every deal in order; return (and pass to ``on_game`` as each one
    ends) a record per game.  ``started``: the match's bots launched ahead
    (:func:`prestart`, same entrants, sandbox and resources), used instead of
    launching them when they are first needed.  Bots are ended in the
    background (:meth:`BotProcess.end`); the call returns once they are
    gone, unless ``linger`` (a tournament worker, which starts its next match
    meanwhile and drains :data:`~arena.sandbox.process.UNDERTAKER` before it
    exits).  Every fault is passed to ``on_fault`` as it happens, with the
    game's index (as sent in ``new_game``) and the seat: where it was, which
    the record does not keep.  ``sandbox`` is a level of
    :mod:`arena.sandbox` (None: strict where available, else basic).
    Raises only for a malformed request (bad seating, options, player count
    or an unavailable sandbox level), never for anything a bot does.
    ``audit`` checks every message against the seat's observation rules
    before it is sent (:mod:`arena.match.audit`) and raises on a leak.
    ``least``: the least level a submitted entrant may run at; a match that
    would start one below it raises before anything is launched.
    ``on_stderr``: given each game's position and, per seat, the end of
    what its bot wrote on stderr during that game (at most ``stderr``
    bytes, made inert), before ``on_game``; not part of the record, which
    is the same for a key however chatty its bots."""
    try:
        level, resolved = _check_request(engine, entrants, deals, options, sandbox, least)
    except BaseException:
        if started is not None:
            started.close()  # launched for a match that will not be played
        raise
    match = _Match(
        engine,
        entrants,
        resolved,
        limit,
        resources,
        level,
        deals[0].audit_seed if deals else 0,
        audit,
        started,
        on_fault,
        stderr if on_stderr is not None else 0,
    )
    records = []
    try:
        for position, deal in enumerate(deals):
            record = match.play(deal, position if deal.index is None else deal.index)
            records.append(record)
            if on_stderr is not None:
                on_stderr(position, match.stderr)
            if on_game is not None:
                on_game(record)
    finally:
        match.close()
        if not linger:
            UNDERTAKER.drain()
    return records


def _check_request(engine, entrants, deals, options, sandbox, least) -> tuple[str, dict[str, Any]]:
    """The match's sandbox level and resolved options; raises for a
    malformed request (see :func:`play_match`)."""
    level = choose_level(sandbox)
    for entrant in entrants:
        if entrant.sandbox is not None:
            choose_level(entrant.sandbox)
        _check_least(entrant, level, least)
    resolved = engine.info.resolve_options(options)
    for deal in deals:
        engine.info.check_players(len(deal.seating))
        if sorted(set(deal.seating)) != sorted(deal.seating) or not all(
            0 <= index < len(entrants) for index in deal.seating
        ):
            raise ValueError(f"deal {deal.seed}: seating {deal.seating} is not a set of entrants")
    return level, resolved


class Prestarted:
    """Bot processes launched before their match, by entrant index: a worker
    starts the next match's bots while it plays the current one, so a bot's
    start-up (an interpreter, its imports, a sandbox: tens of milliseconds)
    is off the match's path.

    A pre-started bot learns nothing more than one started when needed: it
    is only launched -- the same command, sandbox and limits -- and gets its
    ``hello`` (game, options, seat count, its seed) when its match starts,
    its ``new_game`` (seat, game seed) when its game does; its opponents and
    deals are never sent to it at all.  Until then it can only wait, under
    its own limits (its CPU seconds count from its launch), isolated from
    the bots playing meanwhile as two bots of one match are.  Those its match
    does not use are ended with it (:meth:`close`).

    Its start-up limit is what it always was, start to ``ready``: the CPU
    time it has used since its launch (its start-up so far) is taken off the
    limit when its hello is sent, the time it spent waiting idle for its
    match is not (a bot started when needed never waits)."""

    def __init__(self, processes: dict[int, BotProcess]):
        self.processes = processes

    def take(self, index: int) -> BotProcess | None:
        return self.processes.pop(index, None)

    def close(self) -> None:
        for process in self.processes.values():
            process.end()
        self.processes.clear()


def prestart(
    entrants: Sequence[Entrant],
    deals: Sequence[Deal],
    sandbox: str | None = None,
    resources: ResourceLimits = ResourceLimits(),
    least: str = "none",
) -> Prestarted:
    """Launch the bots of the match's first deal ahead of it (see
    :class:`Prestarted`); one that cannot be launched (or not at ``least``)
    is left to the match, which records the fault or refuses."""
    level = choose_level(sandbox)
    processes = {}
    for index in deals[0].seating if deals else ():
        if not 0 <= index < len(entrants):
            continue  # a malformed seating: play_match says so
        try:
            _check_least(entrants[index], level, least)
            processes[index] = _launch(entrants[index], level, resources)
        except SandboxError:
            continue
    return Prestarted(processes)


def _check_least(entrant: Entrant, level: str, least: str) -> None:
    """Raise :class:`SandboxError` if ``entrant`` is a submitted bot that
    would run below ``least`` (:func:`arena.sandbox.layers.refuse_below`)."""
    if entrant.submitted:
        refuse_below(entrant.sandbox or level, least, [entrant.name])


def _launch(entrant: Entrant, level: str, resources: ResourceLimits) -> BotProcess:
    """Start ``entrant``'s process in its sandbox (the match's level and
    resources unless it has its own); a built-in bot's module may be loaded
    by its zygote before the fork, a submitted bot's never is."""
    return BotProcess(
        entrant.spec.argv(),
        entrant.resources or resources,
        entrant.sandbox or level,
        entrant.spec.files,
        preload=not entrant.submitted,
    )


class _Match:
    def __init__(
        self,
        engine,
        entrants,
        options,
        limit,
        resources,
        level,
        audit_seed,
        audit,
        started,
        on_fault=None,
        stderr=0,
    ):
        self.engine = engine
        self.started = started or Prestarted({})
        self.audit = random.Random(audit_seed) if audit else None
        self.level = level
        self.entrants = list(entrants)
        self.options = options
        self.limit = limit
        self.resources = resources
        self.on_fault = on_fault
        #: each entrant's session, for as long as it behaves
        self.live: dict[int, Session] = {}
        self.polls = PollSet()
        self.game_index = 0
        #: per entrant, whether it is sent an ``act`` with a single legal action
        self.ask_forced = [entrant.spec.ask_forced for entrant in self.entrants]
        #: the timing floor's share of the move time: only where a submitted
        #: bot could read the answer times (built-in bots are trusted code)
        self.floor = limit.floor if any(entrant.submitted for entrant in self.entrants) else 0.0
        #: per entrant, the longest it has taken to answer a move (wall time,
        #: at most the move time): the floor's measure
        self.longest: dict[int, float] = {}
        #: bytes of each bot's stderr kept per game (0: none); the current
        #: game's of bots ended during it, by entrant; the last game's by seat
        self.keep_stderr = stderr
        self.ended_logs: dict[int, str] = {}
        self.stderr: tuple[str, ...] = ()

    # -- processes ---------------------------------------------------------
    def _start(self, indices: list[int], players: int, deal: Deal) -> dict[int, Fault]:
        """Launch entrants ``indices`` and complete their hello handshakes,
        all at once: each bot's start-up (an interpreter, its imports, a
        sandbox) overlaps the others', against its own start-up deadline.
        Their ``hello`` seeds come from the game they start in, so a
        restarted bot gets a new one.  Returns the faults of those that did
        not get ready."""
        faults: dict[int, Fault] = {}
        waiting: dict[int, Session] = {}
        for index in indices:
            entrant = self.entrants[index]
            resources = entrant.resources or self.resources
            limit = self._limit(index)
            process, head = self.started.take(index), 0.0
            if process is not None:
                head = process.usage().cpu  # its start-up so far (see Prestarted)
            else:
                try:
                    process = _launch(entrant, self.level, self.resources)
                except SandboxError as error:
                    faults[index] = Fault(FaultKind.CRASH, str(error), Stage.HELLO, 0)
                    continue
            session = Session(
                Channel(process, stderr_cap=resources.output, game_log=self.keep_stderr),
                _MoveDeadline,
                limit.grace,
            )
            hello = protocol.hello(
                self.engine.info.id,
                self.options,
                players,
                deal.hello_seed(index),
                limit.as_dict(),
                dict(entrant.settings or {}),
            )
            waiting[index] = session.hello(hello, spent=head)
        try:
            replies = answers(waiting, self._sessions(), self.polls) if waiting else {}
        except BaseException:  # interrupted: none of them is the match's yet
            for session in waiting.values():
                session.channel.process.end()
            raise
        for index, answer in replies.items():
            if answer.fault is not None:
                self._end(index, waiting[index])
                faults[index] = answer.fault
            else:
                self.live[index] = waiting[index]
        return faults

    def _sessions(self) -> list[Session]:
        return list(self.live.values())

    def _drop(self, index: int) -> None:
        player = self.live.pop(index, None)
        if player is not None:
            self._end(index, player)

    def _end(self, index: int, player: Session) -> None:
        """End a bot's process (killed now, reaped in the background),
        its stderr of this game kept first."""
        if self.keep_stderr:
            self.ended_logs[index] = player.channel.take_game_log()
        player.channel.process.end()

    def close(self) -> None:
        """Say goodbye, give bots a moment to exit, then end every tree.
        The moment matters: a bot may still be handling the last
        ``game_over`` (a person's seat drawing the final table), and killing
        it at once would cut that short.  The moment and the ending pass in
        the background (:meth:`BotProcess.end`), off the path to the next
        match -- except for a bot in sandbox level ``none`` (a person's
        seat): it may share the user's terminal, so it is waited for here,
        and its last screen comes before whatever the caller prints next."""
        self.started.close()
        for player in self.live.values():
            player.goodbye()
        deadline = time.monotonic() + GOODBYE_GRACE
        for index in list(self.live):
            process = self.live.pop(index).channel.process
            if process.level == "none":
                try:
                    process.popen.wait(max(0.0, deadline - time.monotonic()))
                except Exception:
                    pass
                process.kill()
            else:
                process.end(by=deadline)

    # -- one game ----------------------------------------------------------
    def _sweep(self, seats: list[_SeatClock], index_at: dict[int, int]) -> None:
        """Fault every seat whose process broke while the referee was not
        asking it (a frame sent unasked, a crash): it is out of this game."""
        broken = [index for index, player in self.live.items() if player.channel.fault is not None]
        if not broken:  # every move: the usual case costs one look per bot
            return
        seat_of = {index: seat for seat, index in index_at.items()}
        for index in broken:
            fault = self.live[index].fault
            assert fault is not None, "broken pipes stay broken"
            seat = seat_of.get(index)
            if seat is None:
                self._drop(index)
            elif seats[seat].fault is None:
                seats[seat].fault = fault
                self._fault(index, seat, fault)

    def play(self, deal: Deal, game_index: int) -> GameRecord:
        """One game: its bots started (or kept), ``new_game`` to each seat,
        the moves asked and applied, ``game_over``, the record.  One
        function on purpose: it is the referee's loop, read top to bottom."""
        started = time.monotonic()
        players = len(deal.seating)
        self.game_index = game_index
        state = self.engine.new_game(players, deal.seed, self.options)
        self.ended_logs = {}
        fallback = random.Random(deal.fallback_seed)
        index_at = dict(enumerate(deal.seating))
        seats = [_SeatClock(self._limit(index_at[seat]).bank) for seat in range(players)]
        faults = self._start(
            [index for index in deal.seating if index not in self.live], players, deal
        )
        for seat, index in index_at.items():
            fault = faults.get(index)
            if fault is None:
                self.live[index].new_game(
                    protocol.new_game(game_index, seat, players, deal.seat_seed(seat))
                )
            else:
                seats[seat].fault = fault
                self._fault(index, seat, fault)
        self._sweep(seats, index_at)
        steps = []
        while acting := state.to_act():
            legal = {seat: state.legal_actions(seat) for seat in acting}
            chosen = self._ask(state, acting, legal, seats, index_at)
            for seat in acting:
                if seats[seat].fault is not None:
                    chosen[seat] = fallback.choice(legal[seat])
            state.apply(chosen)
            steps.append([[seat, chosen[seat]] for seat in acting])
        outcome = state.outcome()
        ranks = _ranks_with_faults(outcome, [clock.fault is not None for clock in seats])
        for seat, index in index_at.items():
            if index in self.live and seats[seat].fault is None:
                message = protocol.game_over(
                    seat, list(outcome.scores), ranks, state.observation(seat)
                )
                if self.audit:
                    leak_audit.audit_game_over(self.engine, state, seat, message)
                self.live[index].game_over(message)
        if self.keep_stderr:
            self.stderr = tuple(self._game_log(index) for index in deal.seating)
        return GameRecord(
            game=self.engine.info.id,
            version=self.engine.info.version,
            options=dict(self.options),
            seed=deal.seed,
            players=players,
            seats=[
                SeatRecord(
                    bot=self.entrants[index_at[seat]].name,
                    score=outcome.scores[seat],
                    rank=ranks[seat],
                    team=outcome.teams[seat],
                    fault=clock.fault.kind if clock.fault else None,
                    fault_detail=clock.fault.detail if clock.fault else None,
                    moves=clock.moves,
                    time_used=round(clock.used, 6),
                )
                for seat, clock in enumerate(seats)
            ],
            dummies=[
                DummyResult(d.name, d.score, rank)
                for d, rank in zip(outcome.dummies, ranks[players:])
            ],
            steps=steps,
            duration=round(time.monotonic() - started, 6),
            sandbox=min(
                (self.entrants[index].sandbox or self.level for index in index_at.values()),
                key=rank,
            ),
        )

    def _game_log(self, index: int) -> str:
        """Entrant ``index``'s stderr of the game that just ended."""
        if index in self.ended_logs:
            return self.ended_logs.pop(index)
        player = self.live.get(index)
        return player.channel.take_game_log() if player is not None else ""

    def _ask(self, state, acting, legal, seats, index_at) -> dict[int, Any]:
        """Send every live acting seat its observation and collect answers.
        A seat with a single legal action whose bot is not asked forced
        moves (:attr:`BotSpec.ask_forced`) is played here: a move of the
        seat's, charged nothing, with no round trip."""
        limits = {seat: self._limit(index_at[seat]) for seat in acting}
        chosen = {}
        messages = {}
        for seat in acting:
            clock = seats[seat]
            if clock.fault is not None:
                continue
            if len(legal[seat]) == 1 and not self.ask_forced[index_at[seat]]:
                chosen[seat] = legal[seat][0]
                clock.charge(0.0, limits[seat].move)
                continue
            messages[seat] = protocol.act(
                state.observation(seat), legal[seat], limits[seat].move, clock.bank
            )
        if self.audit:
            for seat, message in messages.items():
                leak_audit.audit_act(self.engine, state, seat, message, self.audit)
        # the clocks start now, for every acting seat
        asked_at = time.monotonic()
        live = self.live
        thinking = {seat: live[index_at[seat]].act(message) for seat, message in messages.items()}
        busy = {index_at[seat] for seat in messages}
        bystanders = [session for i, session in live.items() if i not in busy]
        took = {}  # each answer's wall time: the timing floor's measure
        for seat, answer in answers(thinking, bystanders, self.polls).items():
            clock = seats[seat]
            if answer.spent is not None:
                clock.charge(answer.spent, limits[seat].move)
            if answer.fault is None:
                chosen[seat] = answer.action
                if answer.at is not None:
                    took[seat] = min(limits[seat].move, answer.at - asked_at)
            else:
                clock.fault = answer.fault
                self._fault(index_at[seat], seat, answer.fault)
        if self.floor and any(
            clock.fault is None and self.entrants[index_at[seat]].submitted
            for seat, clock in enumerate(seats)
        ):  # a submitted bot still at the table could read the answer times
            for seat, seconds in took.items():
                index = index_at[seat]
                self.longest[index] = max(self.longest.get(index, 0.0), seconds)
            held = [self.longest.get(index_at[seat], 0.0) for seat in acting]
            self._hold(asked_at + self.floor * max(held))
        self._sweep(seats, index_at)
        return chosen

    def _hold(self, until: float) -> None:
        """Wait until ``until`` (the timing floor) on the wall clock, with
        every bot's pipes serviced: what one sends unasked meanwhile is its
        fault, as while others think.  No move clock runs."""
        while (left := until - time.monotonic()) > 0:
            channels = [s.channel for s in self._sessions() if s.channel.fault is None]
            self.polls.wait(channels, left)

    def _limit(self, index: int) -> TimeControl:
        return self.entrants[index].limit or self.limit

    def _fault(self, index: int, seat: int, fault: Fault) -> None:
        log.warning(
            "%s (seat %d) faulted: %s: %s",
            self.entrants[index].name,
            seat,
            fault.kind,
            fault.detail,
        )
        if self.on_fault is not None:
            self.on_fault(self.game_index, seat, fault)
        self._drop(index)


class _MoveDeadline:
    """One bot's clock on one move (docs/protocol.md, "Time").

    The bot is charged the time it had the machine: the wall clock since the
    question, less the time its main process and the referee spent runnable
    but waiting for a CPU -- or its tree's CPU time, if that is more (a bot
    thinking on several threads).  So a bot starved by a loaded machine is
    not faulted, while one that sleeps, blocks or spins still runs out of
    time.  The wall clock never exceeds ``WALL_CEILING`` times its time.
    """

    def __init__(self, process: BotProcess, allowed: float, grace: float):
        self.process = process
        self.allowed = allowed + grace
        self.started = time.monotonic()
        self.ceiling = self.started + allowed * WALL_CEILING + grace
        self._start = process.usage()
        self._referee = referee_waited()
        self.spent = 0.0
        # the charge grows at most as fast as the wall clock (on one thread):
        # no need to look before it could have reached the allowed time
        self._look_at = self.started + self.allowed

    def charged(self, now: float) -> float:
        """The time charged so far (also kept in ``spent``)."""
        usage = self.process.usage()
        starved = (usage.waited - self._start.waited) + (referee_waited() - self._referee)
        self.spent = max(0.0, usage.cpu - self._start.cpu, now - self.started - starved)
        return self.spent

    def expired(self, now: float) -> bool:
        if now >= self.ceiling:
            return True
        if now < self._look_at:
            return False
        over = self.charged(now) > self.allowed
        self._look_at = now + max(_LOOK, self.allowed - self.spent)
        return over

    def wake(self, now: float) -> float:
        return min(self.ceiling, self._look_at)

    def overrun(self, move: float, bank: float) -> str:
        """The fault detail of a timeout."""
        if self.spent <= self.allowed:
            return (
                f"no action within the {self.ceiling - self.started:g}s wall-clock ceiling "
                f"(charged {self.spent:.3f}s of {move:g}s + {bank:.3f}s bank)"
            )
        return f"no action within {move:g}s + {bank:.3f}s bank (charged {self.spent:.3f}s)"


class _SeatClock:
    """A seat's time, moves and fault during one game."""

    def __init__(self, bank: float):
        self.bank = bank
        self.moves = 0
        self.used = 0.0
        self.fault: Fault | None = None

    def charge(self, spent: float, move: float) -> None:
        self.moves += 1
        self.used += spent
        self.bank = bank_after(self.bank, spent, move)


def _ranks_with_faults(outcome: Outcome, faulted: list[bool]) -> list[int]:
    """Ranks of seats then dummies: clean seats and dummies ranked by score
    among themselves; every faulted seat shares the last place."""
    scores = list(outcome.scores) + [d.score for d in outcome.dummies]
    flags = faulted + [False] * len(outcome.dummies)
    clean = [score for score, bad in zip(scores, flags) if not bad]
    clean_ranks = iter(competition_ranks(clean))
    last = len(clean) + 1
    return [last if bad else next(clean_ranks) for bad in flags]
