"""`arena check-bot`: an honest bot passes every case; a bot that mishandles
one kind of message is reported with the case, the fault kind and the very
message it was sent."""

import json
import sys

import pytest
from typer.testing import CliRunner

import arena.cli.checkbot  # noqa: F401  (registers the command)
from arena.authoring.checkbot import check, find_positions, render_text
from arena.cli import app
from arena.match.referee import TimeControl

runner = CliRunner()

# A bot that plays legal[0] and misbehaves only where MODE says.
QUIRKY = """
import sys, time
from arena.botkit import protocol

MODE = sys.argv[1]
wire_in, wire_out = sys.stdin.buffer, sys.stdout.buffer
players = None

def say(message):
    protocol.write_message(wire_out, message)

while (message := protocol.read_message(wire_in)) is not None:
    kind = message["type"]
    if kind == "hello":
        players = message["players"]
        if MODE == "mute":
            time.sleep(60)
        if MODE == "crash-in-bigger-match" and players > 2:
            sys.exit("no room for more players")
        say({"type": "ready"})
    elif kind == "new_game":
        if MODE == "answers-new-game":
            say({"type": "ready"})
    elif kind == "act":
        legal = message["legal"]
        if MODE == "illegal-when-forced" and len(legal) == 1:
            say({"type": "action", "action": "not-" + str(legal[0])})
        elif MODE == "slow-on-long-lists" and len(legal) > 50:
            time.sleep(5)
        else:
            say({"type": "action", "action": legal[0]})
    elif kind == "game_over":
        if MODE == "crash-at-game-over":
            raise RuntimeError("cannot count the scores")
    elif kind == "goodbye":
        if MODE == "lingers":
            time.sleep(60)
        break
"""


@pytest.fixture
def quirky(tmp_path):
    tmp_path.chmod(0o755)  # the strict sandbox runs bots under uids of their own
    script = tmp_path / "quirky.py"
    script.write_text(QUIRKY)
    script.chmod(0o644)
    return lambda mode: f"cmd:{sys.executable} {script} {mode}"


def cases(report):
    return [p.case for p in report.problems]


def test_random_passes_every_case(registry):
    reports = check("random", registry=registry, games=["farm-and-furious", "vegetables"], rounds=2)
    assert [r.game for r in reports] == ["farm-and-furious", "vegetables"]
    for report in reports:
        assert report.ok, render_text("random", reports)
        assert report.passed[0] == "2 games against random"
        assert report.passed[1:4] == [
            "first move and a whole game",
            "single legal action",
            report.passed[3],
        ]
        assert report.passed[3].startswith("largest legal-action list (")
        assert report.passed[4] == "end of a game"
        assert report.passed[5].startswith("a new match (")
    assert reports[0].passed[5] == "a new match (3 players, seat 2)"
    assert reports[1].passed[5] == "a new match (2 players, seat 1)"


def test_positions_are_real_edge_cases(registry):
    engine = registry.engine("dou-dizhu")
    found = find_positions(engine, 3, engine.info.resolve_options({}), seed=1)
    state, seat = found.single
    assert seat in state.to_act() and len(state.legal_actions(seat)) == 1
    state, seat, size = found.largest
    assert len(state.legal_actions(seat)) == size > 50
    state, seat = found.last  # one turn before the end of a random game
    assert seat in state.to_act() and not state.is_over()


def test_illegal_action_on_a_single_legal_action(registry, quirky):
    [report] = check(
        quirky("illegal-when-forced"), registry=registry, games=["vegetables"], rounds=1
    )
    assert not report.ok
    [problem] = [p for p in report.problems if p.case == "single legal action"]
    assert problem.kind == "illegal"
    assert problem.message["type"] == "act" and len(problem.message["legal"]) == 1
    assert (
        problem.detail
        == f"played 'not-{problem.message['legal'][0]}', not one of the 1 legal actions"
    )
    # the other cases play their games on, and meet forced moves too
    assert "single legal action" not in report.passed


def test_crash_at_game_over_names_that_message(registry, quirky):
    [report] = check(
        quirky("crash-at-game-over"), registry=registry, games=["farm-and-furious"], rounds=1
    )
    first = (
        report.problems[0]
        if report.problems[0].case == "first move: game_over"
        else next(p for p in report.problems if p.case == "first move: game_over")
    )
    assert first.kind == "crash"
    assert first.message["type"] == "game_over" and first.message["seat"] == 0
    assert "cannot count the scores" in first.stderr


def test_answering_a_message_that_expects_none(registry, quirky):
    [report] = check(quirky("answers-new-game"), registry=registry, games=["farm-hand"], rounds=1)
    problem = next(p for p in report.problems if p.case == "first move: new_game")
    assert problem.kind == "protocol"
    assert problem.detail == "answered 'new_game' (with a 'ready'), which expects no answer"
    seed = problem.message.pop("seed")
    assert problem.message == {"type": "new_game", "index": 0, "seat": 0, "players": 2}
    assert isinstance(seed, int) and 0 <= seed < 2**64


def test_timeout_on_the_largest_list(registry, quirky):
    [report] = check(
        quirky("slow-on-long-lists"),
        registry=registry,
        games=["dou-dizhu"],
        rounds=1,
        limit=TimeControl(move=1.0),
    )
    problem = next(p for p in report.problems if p.case.startswith("largest legal-action list"))
    assert problem.kind == "timeout" and problem.detail == "no answer within 1s"
    assert len(problem.message["legal"]) > 50
    assert "single legal action" in report.passed


def test_a_bot_that_never_starts_stops_the_game_check_early(registry, quirky):
    [report] = check(
        quirky("mute"),
        registry=registry,
        games=["vegetables"],
        rounds=1,
        limit=TimeControl(startup=0.5),
    )
    assert [(p.kind, p.message["type"]) for p in report.problems][-1] == ("timeout", "hello")
    assert report.problems[-1].case == "start-up (hello, 2 players)"
    assert report.passed == []
    assert report.seconds < 10


def test_only_the_new_match_fails(registry, quirky):
    [report] = check(
        quirky("crash-in-bigger-match"), registry=registry, games=["farm-and-furious"], rounds=1
    )
    [problem] = report.problems
    assert problem.case == "a new match (3 players, seat 2): start-up (hello, 3 players)"
    assert problem.kind == "crash" and problem.message["players"] == 3
    assert "no room for more players" in problem.stderr
    assert len(report.passed) == 5


def test_lingering_after_goodbye_is_a_note_not_a_failure(registry, quirky):
    [report] = check(quirky("lingers"), registry=registry, games=["farm-and-furious"], rounds=1)
    assert report.ok
    assert any("goodbye" in note for note in report.notes)


def test_cli_reports_and_exit_status(quirky):
    ok = runner.invoke(app, ["check-bot", "random", "--game", "vegetables", "--games", "1", "-q"])
    assert ok.exit_code == 0, ok.output
    assert (
        ok.stdout.splitlines()[-1]
        == "random: ok in vegetables: 1 game against random, 5 edge cases"
    )
    assert ok.stdout.startswith("vegetables  ok ")

    bad = runner.invoke(
        app,
        ["check-bot", quirky("illegal-when-forced"), "--game", "vegetables", "--games", "1", "-q"],
    )
    assert bad.exit_code == 1
    lines = bad.stdout.splitlines()
    assert lines[0].startswith("vegetables  FAIL")
    at = next(
        i
        for i, line in enumerate(lines)
        if line.startswith("  single legal action: illegal: played 'not-")
    )
    assert lines[at + 1].startswith('    sent: {"type": "act", "observation": {"seat": ')
    assert lines[-1].endswith("FAILED in vegetables")

    as_json = runner.invoke(
        app,
        [
            "check-bot",
            quirky("illegal-when-forced"),
            "--game",
            "vegetables",
            "--games",
            "1",
            "-q",
            "--json",
        ],
    )
    document = json.loads(as_json.stdout)
    assert document["ok"] is False
    [game] = document["games"]
    problem = next(p for p in game["problems"] if p["case"] == "single legal action")
    assert problem["kind"] == "illegal" and len(problem["message"]["legal"]) == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["nobody"], "unknown bot 'nobody'"),
        (["farm-and-furious-racer", "--game", "vegetables"], "does not play 'vegetables'"),
        (["random", "--game", "chess"], "unknown game 'chess'"),
        (["random", "--sandbox", "paper"], "paper"),
    ],
)
def test_cli_bad_input(args, message):
    result = runner.invoke(app, ["check-bot", *args])
    assert result.exit_code == 2
    assert result.output.startswith("arena: error: ") and message in result.output
