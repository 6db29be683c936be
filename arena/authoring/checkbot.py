"""``arena check-bot``: a conformance run for one bot.

For every game the bot claims, :func:`check` first plays a few games against
``random`` through the real referee (:func:`arena.match.referee.play_match`), then
drives the bot's process itself, message by message, through the edge cases:

* the first move of a match's first game, and a whole game from there;
* a position where the bot has a single legal action;
* the largest legal-action list found by random play of the engine;
* the end of a game: its last move, then ``game_over``;
* a new match: a fresh process, another table size and seat.

Edge-case positions are real engine states found by seeded random play; the
bot is dropped into them with ``new_game`` and an ``act`` built exactly as
the referee builds it (its observation is everything its seat knows), and
then plays that game to its end.  Every message goes through the referee's
own :class:`~arena.match.session.Session`, so a problem is reported as the referee
would fault it (``timeout``, ``crash``, ``protocol``, ``illegal``), together
with the case, the message the bot was sent and the end of its stderr.  The
games against random say where a fault was from its structured value (the
message the bot was handling, its move), never from its text.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.botkit import messages, protocol
from arena.game import Action, Engine, State
from arena.match import seeds
from arena.match.connection import Channel
from arena.match.deals import Deal
from arena.match.referee import Entrant, TimeControl, play_match
from arena.match.session import Session, bank_after
from arena.plugins.botspec import ANY_GAME, BotSpec
from arena.records import GameRecord
from arena.records.faults import Fault, FaultKind, Stage
from arena.sandbox import BotProcess, ResourceLimits, SandboxError

#: how long a bot must stay silent after a message that expects no answer
QUIET = 0.1
#: how long a bot may take to exit after goodbye before a note is made
EXIT_WAIT = 1.0


@dataclass
class Problem:
    """One message the bot mishandled."""

    case: str  # which check, e.g. "single legal action"
    kind: FaultKind
    detail: str
    message: Mapping[str, Any] | None  # what it was sent (None: nothing sent yet)
    stderr: str = ""  # the end of the bot's stderr

    def to_dict(self) -> dict[str, Any]:
        return {
            "case": self.case,
            "kind": self.kind,
            "detail": self.detail,
            "message": self.message,
            "stderr": self.stderr,
        }


@dataclass
class GameCheck:
    """The verdict for one game: the checks passed, the problems, notes."""

    game: str
    passed: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    played: int = 0  # games against random through the referee

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "ok": self.ok,
            "passed": self.passed,
            "problems": [p.to_dict() for p in self.problems],
            "notes": self.notes,
            "played": self.played,
            "seconds": round(self.seconds, 3),
        }


class _Mishandled(Exception):
    def __init__(self, problem: Problem):
        super().__init__(problem.detail)
        self.problem = problem


def _tail(text: str, lines: int = 5) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


class _WallClock:
    """check-bot's move clock (an :class:`arena.match.session.MoveClock`): the
    wall clock from the ``act`` to the answer.  Not the referee's, which
    charges only the bot's own time on a machine loaded by other matches:
    check-bot runs one bot at a time, and says "no answer within 1s" in the
    user's own seconds."""

    def __init__(self, process: BotProcess, allowed: float, grace: float):
        self.started = time.monotonic()
        self.allowed = allowed + grace
        self.spent = 0.0

    def expired(self, now: float) -> bool:
        return now >= self.started + self.allowed

    def wake(self, now: float) -> float:
        return self.started + self.allowed

    def charged(self, now: float) -> float:
        self.spent = now - self.started
        return self.spent

    def overrun(self, move: float, bank: float) -> str:
        return f"no answer within {move + bank:g}s"


class _Conversation:
    """One bot process for one match, driven one message at a time through
    a :class:`~arena.match.session.Session`; a fault raises :class:`_Mishandled`
    with the case and the message."""

    def __init__(self, spec: BotSpec, level: str, limit: TimeControl, resources: ResourceLimits):
        self.limit = limit
        try:
            process = BotProcess(spec.argv(), resources, level, spec.files)
        except SandboxError as error:
            raise _Mishandled(Problem("start-up", FaultKind.CRASH, str(error), None)) from None
        self.session = Session(
            Channel(process, stderr_cap=resources.output), _WallClock, limit.grace
        )
        self.bank = limit.bank

    def _check(self, case: str, fault: Fault | None, message: Mapping[str, Any]) -> None:
        if fault is not None:
            raise _Mishandled(
                Problem(
                    case,
                    fault.kind,
                    fault.detail,
                    message,
                    _tail(self.session.channel.stderr_text()),
                )
            )

    def hello(self, case: str, message: messages.Hello) -> None:
        self._check(case, self.session.hello(message).answer().fault, message)

    def act(self, case: str, state: State, seat: int) -> Any:
        message = protocol.act(
            state.observation(seat), state.legal_actions(seat), self.limit.move, self.bank
        )
        answer = self.session.act(message).answer()
        if answer.spent is not None:
            self.bank = bank_after(self.bank, answer.spent, self.limit.move)
        self._check(case, answer.fault, message)
        return answer.action

    def new_game(self, case: str, index: int, seat: int, players: int) -> None:
        """Send ``new_game``; the bot must stay silent and alive for a moment."""
        self.bank = self.limit.bank
        message = protocol.new_game(index, seat, players, seeds.child(index, "check-bot", seat))
        self.session.new_game(message)
        self._check(case, self.session.listen(QUIET), message)

    def game_over(self, case: str, message: messages.GameOver) -> None:
        """Send ``game_over``; the bot must stay silent and alive for a moment."""
        self.session.game_over(message)
        self._check(case, self.session.listen(QUIET), message)

    def goodbye(self) -> bool:
        """Say goodbye; True when the bot exited by itself."""
        self.session.goodbye()
        try:
            self.session.channel.process.popen.wait(EXIT_WAIT)
            exited = True
        except Exception:
            exited = False
        self.kill()
        return exited

    def kill(self) -> None:
        self.session.kill()


def _ranks(state: State) -> list[int]:
    outcome = state.outcome()
    return list(outcome.ranks) + [d.rank for d in outcome.dummies]


def _play_out(
    session: _Conversation,
    state: State,
    seat: int,
    rng: random.Random,
    first_case: str,
    case: str,
    end_case: str,
) -> None:
    """Play ``state`` to its end, the bot in ``seat`` (its first act labelled
    ``first_case``) and random choices elsewhere; then ``game_over``."""
    label = first_case
    while acting := state.to_act():
        chosen = {}
        for s in acting:
            if s == seat:
                chosen[s] = session.act(label, state, s)
                label = case
            else:
                chosen[s] = rng.choice(state.legal_actions(s))
        state.apply(chosen)
    session.game_over(
        end_case,
        protocol.game_over(
            seat, list(state.outcome().scores), _ranks(state), state.observation(seat)
        ),
    )


@dataclass
class _Positions:
    """Real states found by random play: (state, seat) pairs."""

    single: tuple[State, int] | None = None
    largest: tuple[State, int, int] | None = None  # state, seat, list length
    last: tuple[State, int] | None = None


def find_positions(
    engine: Engine, players: int, options: dict, seed: int, games: int = 12, seconds: float = 3.0
) -> _Positions:
    """Random play of the engine: a position where a seat has a single legal
    action (not its first move), the largest legal-action list seen, and the
    last move of a game."""
    found = _Positions()
    started = time.monotonic()
    for k in range(games):
        if k and time.monotonic() - started > seconds:
            break
        rng = random.Random(f"positions:{seed}:{k}")
        state = engine.new_game(players, seed + k, options)
        steps: list[dict[int, Action]] = []
        while acting := state.to_act():
            chosen = {}
            for s in acting:
                legal = state.legal_actions(s)
                if len(legal) == 1 and found.single is None and steps:
                    found.single = (state.clone(), s)
                if found.largest is None or len(legal) > found.largest[2]:
                    found.largest = (state.clone(), s, len(legal))
                chosen[s] = rng.choice(legal)
            steps.append(chosen)
            state.apply(chosen)
        if found.last is None and steps:
            replay = engine.new_game(players, seed + k, options)
            for chosen in steps[:-1]:
                replay.apply(chosen)
            found.last = (replay, min(steps[-1]))
    return found


def _table_sizes(engine: Engine) -> tuple[int, int]:
    """The table for the main checks (smallest with an opponent) and another
    one for the new match (the next larger size up to 4, when there is one)."""
    counts = sorted(engine.info.players)
    main = min((n for n in counts if n >= 2), default=counts[0])
    other = [n for n in counts if n != main and n <= 4]
    return main, (min((n for n in other if n > main), default=max(other)) if other else main)


class _Checker:
    def __init__(
        self,
        name: str,
        spec: BotSpec,
        registry,
        limit: TimeControl,
        level: str | None,
        resources: ResourceLimits,
        seed: int,
        games: int,
        progress: Callable[[str], None] | None,
    ):
        from arena.sandbox.layers import choose_level

        self.name = name
        self.spec = spec
        self.registry = registry
        self.limit = limit
        self.level = choose_level(level)
        self.resources = resources
        self.seed = seed
        self.games = games
        self.progress = progress or (lambda text: None)

    # -- the real referee ----------------------------------------------------
    def against_random(
        self, engine: Engine, report: GameCheck, players: int, options: dict
    ) -> None:
        case = f"{self.games} game{'s' if self.games > 1 else ''} against random"
        entrants = [Entrant(self.name, self.spec)]
        entrants += [Entrant(f"random#{i}", self.registry.bot("random")) for i in range(1, players)]
        rng = random.Random(f"referee:{self.seed}:{engine.info.id}")
        deals = [
            Deal(rng.randrange(2**31), tuple((s + g) % players for s in range(players)))
            for g in range(self.games)
        ]
        mine: dict[int, Fault] = {}  # game index -> the checked bot's fault

        def on_fault(game: int, seat: int, fault: Fault) -> None:
            if deals[game].seating[seat] == 0:
                mine[game] = fault

        records = play_match(
            engine,
            entrants,
            deals,
            options,
            self.limit,
            sandbox=self.level,
            resources=self.resources,
            on_fault=on_fault,
        )
        report.played = len(records)
        for game, fault in sorted(mine.items()):
            deal, record = deals[game], records[game]
            seat = deal.seating.index(0)
            message, where = self._referee_message(engine, record, deal, game, seat, fault)
            report.problems.append(
                Problem(
                    f"{case}: game {game + 1} (seed {record.seed}, seat {seat}, {where})",
                    fault.kind,
                    fault.detail,
                    message,
                )
            )
        if not mine:
            report.passed.append(case)

    def _referee_message(
        self, engine: Engine, record: GameRecord, deal: Deal, game: int, seat: int, fault: Fault
    ) -> tuple[Mapping[str, Any] | None, str]:
        """Rebuild the message the faulted seat was handling, from the game's
        record and where the fault says it was, and say where that was."""
        if fault.stage == Stage.HELLO:
            return protocol.hello(
                engine.info.id,
                record.options,
                record.players,
                deal.hello_seed(0),
                self.limit.as_dict(),
            ), "start-up"
        if fault.stage == Stage.NEW_GAME:
            return protocol.new_game(game, seat, record.players, deal.seat_seed(seat)), "new_game"
        if fault.stage == Stage.ACT:
            state = engine.new_game(record.players, record.seed, record.options)
            asked = 0
            for step in record.steps:
                if seat in state.to_act():
                    asked += 1
                    if asked == fault.move:
                        return (
                            protocol.act(
                                state.observation(seat),
                                state.legal_actions(seat),
                                self.limit.move,
                                self.limit.bank,
                            ),
                            f"its move {asked}",
                        )
                state.apply({s: a for s, a in step})
        return None, f"after its {fault.move} moves"

    # -- edge cases, message by message ----------------------------------------
    def _session(self, engine: Engine, players: int, options: dict, match: int) -> _Conversation:
        session = _Conversation(self.spec, self.level, self.limit, self.resources)
        bot_seed = random.Random(f"check:{self.seed}:{match}").randrange(2**31)
        try:
            session.hello(
                f"start-up (hello, {players} players)",
                protocol.hello(engine.info.id, options, players, bot_seed, self.limit.as_dict()),
            )
        except _Mishandled:
            session.kill()
            raise
        return session

    def edge_cases(
        self, engine: Engine, report: GameCheck, players: int, other: int, options: dict
    ) -> None:
        rng = random.Random(f"edge:{self.seed}:{engine.info.id}")
        base = rng.randrange(2**30)
        found = find_positions(engine, players, options, base)
        scenarios: list[tuple[str, Callable[[_Conversation, int], None]]] = []

        def first_move(session, index):
            state = engine.new_game(players, base + 1000, options)
            session.new_game("first move: new_game", index, 0, players)
            _play_out(
                session,
                state,
                0,
                rng,
                "first move",
                "first move: the rest of that game",
                "first move: game_over",
            )

        scenarios.append(("first move and a whole game", first_move))

        def drop_in(label, state, seat):
            def run(session, index):
                session.new_game(f"{label}: new_game", index, seat, players)
                _play_out(
                    session,
                    state.clone(),
                    seat,
                    rng,
                    label,
                    f"{label}: the rest of that game",
                    f"{label}: game_over",
                )

            return run

        if found.single is not None:
            scenarios.append(("single legal action", drop_in("single legal action", *found.single)))
        else:
            report.notes.append("no position with a single legal action found by random play")
        if found.largest is not None:
            state, seat, size = found.largest
            label = f"largest legal-action list ({size} actions)"
            scenarios.append((label, drop_in(label, state, seat)))
        if found.last is not None:
            scenarios.append(("end of a game", drop_in("end of a game", *found.last)))

        session = None
        index = 0
        try:
            for label, scenario in scenarios:
                self.progress(f"{engine.info.id}: {label}")
                try:
                    if session is None:
                        session, index = self._session(engine, players, options, 1), 0
                    scenario(session, index)
                    index += 1
                    report.passed.append(label)
                except _Mishandled as error:
                    report.problems.append(error.problem)
                    if session is not None:
                        session.kill()
                    if session is None or error.problem.case.startswith("start-up"):
                        return  # it does not start: the other cases cannot be reached
                    session = None
            if session is not None and not session.goodbye():
                report.notes.append(
                    f"did not exit within {EXIT_WAIT:g}s of goodbye (the referee kills it anyway)"
                )
            session = None
            self.new_match(engine, report, other, options, rng, base)
        finally:
            if session is not None:
                session.kill()

    def new_match(self, engine, report, players, options, rng, base) -> None:
        seat = players - 1
        label = f"a new match ({players} players, seat {seat})"
        self.progress(f"{engine.info.id}: {label}")
        session = None
        try:
            session = self._session(engine, players, options, 2)
            state = engine.new_game(players, base + 2000, options)
            session.new_game(f"{label}: new_game", 0, seat, players)
            _play_out(
                session, state, seat, rng, f"{label}: first move", label, f"{label}: game_over"
            )
            session.goodbye()
            session = None
            report.passed.append(label)
        except _Mishandled as error:
            error.problem.case = (
                f"{label}: {error.problem.case}"
                if error.problem.case.startswith("start-up")
                else error.problem.case
            )
            report.problems.append(error.problem)
        finally:
            if session is not None:
                session.kill()

    def check_game(self, engine: Engine) -> GameCheck:
        started = time.monotonic()
        report = GameCheck(engine.info.id)
        options = engine.info.resolve_options({})
        players, other = _table_sizes(engine)
        self.progress(f"{engine.info.id}: games against random")
        self.against_random(engine, report, players, options)
        self.edge_cases(engine, report, players, other, options)
        report.seconds = time.monotonic() - started
        return report


def games_to_check(
    spec: BotSpec, registry, only: list[str] | None = None
) -> tuple[list[str], list[str]]:
    """(installed games to check, notes about games it claims that are not
    installed).  ``only`` restricts the check; a game the bot does not play
    there raises ValueError."""
    if only:
        for game in only:
            registry.engine(game)  # UnknownName for a game that is not installed
            if not spec.plays(game):
                raise ValueError(
                    f"bot '{spec.name}' does not play '{game}' (it plays: {', '.join(spec.games)})"
                )
        return list(dict.fromkeys(only)), []
    if ANY_GAME in spec.games:
        return sorted(registry.games), []
    notes = [
        f"claims '{game}', which is not installed"
        for game in spec.games
        if game not in registry.games
    ]
    return [game for game in spec.games if game in registry.games], notes


def check(
    name: str,
    *,
    registry=None,
    games: list[str] | None = None,
    rounds: int = 3,
    limit: TimeControl = TimeControl(),
    sandbox: str | None = None,
    resources: ResourceLimits = ResourceLimits(),
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> list[GameCheck]:
    """Check bot ``name`` (a registered name or ``cmd:...``); one verdict per
    game.  Raises UnknownName/BotSpecError/ValueError/SandboxError for bad
    input, never for anything the bot does."""
    if registry is None:
        from arena.plugins import installed

        registry = installed()
    spec = registry.bot(name)
    chosen, notes = games_to_check(spec, registry, games)
    if rounds < 1:
        raise ValueError("rounds must be at least 1")
    checker = _Checker(name, spec, registry, limit, sandbox, resources, seed, rounds, progress)
    reports = []
    referee_log = logging.getLogger("arena.match.referee")
    saved = referee_log.level
    referee_log.setLevel(logging.ERROR)  # its fault warnings: reported here, with more
    try:
        for game in chosen:
            reports.append(checker.check_game(registry.engine(game)))
    finally:
        referee_log.setLevel(saved)
    if reports and notes:
        reports[0].notes.extend(notes)
    return reports


def _short(message: Mapping[str, Any] | None, width: int) -> str:
    if message is None:
        return "(nothing yet)"
    text = json.dumps(message, default=repr, separators=(", ", ": "))
    return text if len(text) <= width else text[: width - 5] + " ...}"


def render_text(name: str, reports: list[GameCheck], width: int = 400) -> str:
    """The report: a line per game, and under a failing game each problem
    with the message the bot was sent (cut to ``width`` characters)."""
    lines = []
    column = max([len(r.game) for r in reports] + [4])
    for report in reports:
        verdict = "ok" if report.ok else "FAIL"
        lines.append(
            f"{report.game.ljust(column)}  {verdict:4}  {report.seconds:5.1f}s  "
            f"passed: {', '.join(report.passed) or 'nothing'}"
        )
        for problem in report.problems:
            lines.append(f"  {problem.case}: {problem.kind}: {problem.detail}")
            lines.append(f"    sent: {_short(problem.message, width)}")
            if problem.stderr:
                lines.extend(f"    stderr: {line}" for line in problem.stderr.splitlines())
        lines.extend(f"  note: {note}" for note in report.notes)
    failed = [r.game for r in reports if not r.ok]
    lines.append(f"{name}: " + (f"FAILED in {', '.join(failed)}" if failed else _verdict(reports)))
    return "\n".join(lines)


def _verdict(reports: list[GameCheck]) -> str:
    """``ok in farm-hand: 3 games against random, 5 edge cases`` -- the games
    checked by name and what was played, so a count of game types is never
    read as a count of games played."""
    played = sum(r.played for r in reports)
    edge = sum(len(r.passed) - 1 for r in reports)  # all passed, the games against random too
    return (
        f"ok in {', '.join(r.game for r in reports)}: {played} game{'s' * (played != 1)} "
        f"against random, {edge} edge case{'s' * (edge != 1)}"
    )


def to_json(name: str, reports: list[GameCheck]) -> dict[str, Any]:
    return {"bot": name, "ok": all(r.ok for r in reports), "games": [r.to_dict() for r in reports]}
