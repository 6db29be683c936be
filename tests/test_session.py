"""The bot session the referee and check-bot share: a fault comes out as a
value that says where it was (the message the bot was handling, its move),
the referee passes it on as it happens, and check-bot rebuilds from it the
very message the bot was sent."""

import hashlib
import sys
import time
from pathlib import Path

import pytest

from arena.authoring.checkbot import check
from arena.botkit import protocol
from arena.match.connection import Channel
from arena.match.referee import Deal, Entrant, TimeControl, _MoveDeadline, play_match
from arena.match.session import Session, answers, bank_after
from arena.records.faults import Fault, FaultKind, Stage
from arena.sandbox import BotProcess, ResourceLimits

BOTS = Path(__file__).parent / "bots"
QUICK = TimeControl(startup=10.0, move=2.0)


def tag(observation):
    return hashlib.sha1(protocol.encode(observation)).hexdigest()[:12]


def once_argv(mode: str, at: int = 1) -> list[str]:
    """tests/bots/once.py misbehaving in ``mode`` on its act ``at``."""
    return [sys.executable, str(BOTS / "once.py"), mode, str(at)]


@pytest.fixture
def once():
    """The ``cmd:`` bot name of :func:`once_argv`."""
    return lambda mode, at=1: "cmd:" + " ".join(once_argv(mode, at))


def faults_of(registry, bot, game="vegetables", deals=(Deal(5, (0, 1), index=7),)):
    """Every fault play_match reports, and the records."""
    seen = []
    entrants = [Entrant("once", registry.bot(bot)), Entrant("random", registry.bot("random"))]
    records = play_match(
        registry.engine(game),
        entrants,
        list(deals),
        limit=QUICK,
        on_fault=lambda game, seat, fault: seen.append((game, seat, fault)),
    )
    return seen, records


@pytest.mark.parametrize(
    "mode, at, kind, stage, move",
    [
        ("illegal", 3, FaultKind.ILLEGAL, Stage.ACT, 3),
        ("not-an-action", 2, FaultKind.PROTOCOL, Stage.ACT, 2),
        ("exit", 2, FaultKind.CRASH, Stage.ACT, 2),
        ("exit-at-hello", 1, FaultKind.CRASH, Stage.HELLO, 0),
    ],
)
def test_a_fault_says_which_message_and_move(registry, once, mode, at, kind, stage, move):
    [(game, seat, fault)], [record] = faults_of(registry, once(mode, at))
    assert (game, seat) == (7, 0)  # the game's index as sent, the faulted seat
    assert (fault.kind, fault.stage, fault.move) == (kind, stage, move), fault
    # the record keeps the kind and the detail, the same strings as before
    assert record.seats[0].fault == kind.value and record.seats[0].fault_detail == fault.detail
    assert record.seats[1].fault is None


def test_a_frame_answering_new_game_is_placed_where_it_was_found(registry, once):
    """A stray reply to ``new_game`` is found either before the first
    ``act`` is sent (placed at ``new_game``) or, if it is still on its way
    then, together with that act's answer (placed at the act, as "more than
    one message"): which one is a race between the bot and the referee --
    seen both ways on a fresh clone -- so both places are right, nothing else is."""
    [(game, seat, fault)], [record] = faults_of(registry, once("answers-new-game", 1))
    assert (game, seat) == (7, 0)
    assert fault.kind == FaultKind.PROTOCOL, fault
    assert (fault.stage, fault.move) in {(Stage.NEW_GAME, 0), (Stage.ACT, 1)}, fault
    assert record.seats[0].fault == "protocol" and record.seats[0].fault_detail == fault.detail
    assert record.seats[1].fault is None


def test_a_clean_match_reports_no_fault(registry, once):
    seen, [record] = faults_of(registry, once("illegal", 10**6))  # never misbehaves
    assert seen == [] and [s.fault for s in record.seats] == [None, None]


def test_the_simultaneous_seats_are_asked_at_once_and_judged_each():
    """Two sessions, one question each, waited for together: one answers
    legally, the other illegally; each answer is judged on its own."""
    sessions = []
    for at in (2, 1):  # the second is illegal at once
        sessions.append(
            Session(
                Channel(BotProcess(once_argv("illegal", at), ResourceLimits(), "none")),
                _MoveDeadline,
                0.05,
            )
        )
    try:
        hellos = {
            i: s.hello(protocol.hello("vegetables", {}, 2, 1, QUICK.as_dict()))
            for i, s in enumerate(sessions)
        }
        assert [a.fault for a in answers(hellos).values()] == [None, None]
        for session in sessions:
            session.new_game(protocol.new_game(0, 0, 2, 1))
        acts = {
            i: s.act(protocol.act({"seat": i}, ["a", "b"], 2.0, 0.0))
            for i, s in enumerate(sessions)
        }
        good, bad = answers(acts).values()
        assert good.action == "a" and good.fault is None and 0 <= good.spent < 2.0
        assert bad.fault == Fault(
            FaultKind.ILLEGAL,
            f"played 'not-{tag({'seat': 1})}', not one of the 2 legal actions",
            Stage.ACT,
            1,
        )
        assert bad.spent is not None  # an answer in time, then refused
    finally:
        for session in sessions:
            session.kill()


def started(mode: str, at: int = 1, clock=_MoveDeadline) -> Session:
    """A session with tests/bots/once.py, past its hello and new_game."""
    session = Session(
        Channel(BotProcess(once_argv(mode, at), ResourceLimits(), "none")), clock, 0.05
    )
    assert (
        session.hello(protocol.hello("vegetables", {}, 2, 1, QUICK.as_dict())).answer().fault
        is None
    )
    session.new_game(protocol.new_game(0, 0, 2, 1))
    return session


def test_a_frame_found_as_the_next_question_is_asked_is_the_last_messages_fault():
    """The bot answers new_game; the session only reads it just before the
    first act (a question first reads what came before it): the fault is
    new_game's, and that act is not counted as sent."""
    session = started("answers-new-game")
    try:
        time.sleep(0.5)  # its stray ready is in the pipe by now
        answer = session.act(protocol.act({"seat": 0}, ["a"], 2.0, 0.0)).answer()
        assert answer.fault == Fault(
            FaultKind.PROTOCOL, "sent a 'ready' message nobody asked for", Stage.NEW_GAME, 0
        )
    finally:
        session.kill()


def test_check_bot_shows_the_act_the_referee_faulted(registry, once):
    """Against random, a fault on the bot's third move is shown with that
    move's act, rebuilt from the record and the fault's move number: the
    very observation the bot named in its illegal action."""
    [report] = check(once("illegal", 3), registry=registry, games=["vegetables"], rounds=1)
    [problem] = [p for p in report.problems if p.case.startswith("1 game against random")]
    assert problem.case.endswith("its move 3)"), problem.case
    assert problem.kind == FaultKind.ILLEGAL
    legal = problem.message["legal"]
    assert problem.message["type"] == "act"
    assert problem.detail == (
        f"played 'not-{tag(problem.message['observation'])}', not one of "
        f"the {len(legal)} legal actions"
    )


def test_check_bot_shows_the_hello_the_bot_was_sent(registry, once):
    """A bot that dies at hello: the rebuilt hello carries the seed that bot
    really got (it says it on stderr, which the crash detail quotes)."""
    [report] = check(once("exit-at-hello"), registry=registry, games=["vegetables"], rounds=1)
    [problem] = [p for p in report.problems if p.case.startswith("1 game against random")]
    assert problem.case.endswith("start-up)") and problem.kind == FaultKind.CRASH
    assert problem.message["type"] == "hello"
    assert f"seed={problem.message['seed']})" in problem.detail, problem.detail


def test_listening_after_a_message_catches_its_answer():
    late, quiet = started("answers-new-game-late"), started("illegal", 99)
    try:
        assert late.listen(1.0) == Fault(
            FaultKind.PROTOCOL,
            "answered 'new_game' (with a 'ready'), which expects no answer",
            Stage.NEW_GAME,
            0,
        )
        assert quiet.listen(0.3) is None
    finally:
        late.kill()
        quiet.kill()


def test_a_slow_ready_is_a_start_up_timeout():
    session = Session(
        Channel(BotProcess(once_argv("slow-ready"), ResourceLimits(), "none")), _MoveDeadline, 0.05
    )
    try:
        limits = {**QUICK.as_dict(), "startup": 0.5}
        answer = session.hello(protocol.hello("vegetables", {}, 2, 1, limits)).answer()
        assert answer.fault == Fault(
            FaultKind.TIMEOUT, "not ready within 0.5s start-up", Stage.HELLO, 0
        )
    finally:
        session.kill()


def test_a_hello_answered_with_anything_but_ready_is_a_protocol_fault():
    # "start" sorts after "ready": refused as any other type is
    session = Session(
        Channel(BotProcess(once_argv("start-not-ready"), ResourceLimits(), "none")),
        _MoveDeadline,
        0.05,
    )
    try:
        answer = session.hello(protocol.hello("vegetables", {}, 2, 1, QUICK.as_dict())).answer()
        assert answer.fault == Fault(
            FaultKind.PROTOCOL, "expected 'ready', got 'start'", Stage.HELLO, 0
        )
    finally:
        session.kill()


def test_the_bank_pays_only_a_moves_overrun_and_never_goes_below_zero():
    assert bank_after(2.0, 1.5, 1.0) == 1.5  # 0.5 s over a 1 s move
    assert bank_after(2.0, 0.5, 1.0) == 2.0  # within the move: the bank is untouched
    assert bank_after(0.3, 1.5, 1.0) == 0.0


def test_a_move_may_draw_on_the_bank_and_no_further():
    # 1.4 s to answer: within a 1 s move and a 1 s bank, not within a 0.2 s move
    session = started("slow")
    try:
        answer = session.act(protocol.act({"seat": 0}, ["a"], 1.0, 1.0)).answer()
        # charged a little less than the sleep on a loaded machine (its run-queue waits)
        assert answer.fault is None and answer.action == "a" and answer.spent > 1.2
    finally:
        session.kill()
    session = started("slow")
    try:
        answer = session.act(protocol.act({"seat": 0}, ["a"], 0.2, 0.0)).answer()
        assert answer.fault.kind == FaultKind.TIMEOUT and answer.spent is None
        assert answer.fault.detail.startswith("no action within 0.2s + 0.000s bank (charged 0.2")
    finally:
        session.kill()


class _Late:
    """A move clock that never expires but charges more than it allows:
    an answer that arrived after its time."""

    allowed, spent = 1.0, 0.0

    def __init__(self, process, allowed, grace):
        pass

    def expired(self, now):
        return False

    def wake(self, now):
        return now + 1.0

    def charged(self, now):
        self.spent = 5.0
        return self.spent

    def overrun(self, move, bank):
        return f"late for {move:g}s + {bank:g}s"


def test_an_answer_after_its_time_is_a_timeout():
    session = started("illegal", 99, clock=_Late)
    try:
        answer = session.act(protocol.act({"seat": 0}, ["a"], 1.0, 0.5)).answer()
        assert answer.fault == Fault(FaultKind.TIMEOUT, "late for 1s + 0.5s", Stage.ACT, 1)
    finally:
        session.kill()
