"""`arena play` driven through a pseudo-terminal, as a person meets it: a
whole game of each of the five games, bad input, and Ctrl-C."""

import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

ARENA = str(Path(sys.executable).with_name("arena"))
PROMPT = r"\(number or move\): "

GAMES = {
    "farm-and-furious": [
        "--bot",
        "random",
        "--bot",
        "farm-and-furious-racer",
        "--seed",
        "3",
        "-o",
        "rooster=true",
    ],
    "farm-hand": ["--seed", "2"],  # solitaire: the person, Mac and Donald
    "vegetables": ["--bot", "vegetables-planner", "--seed", "5", "-o", "max_turns=6"],
    "dou-dizhu": ["--bot", "random", "--bot", "dou-dizhu-greedy", "--seat", "1", "--seed", "4"],
    "hand-and-foot": [
        "--bot",
        "random",
        "--seed",
        "7",
        "-o",
        "target=100",
        "-o",
        "max_rounds=1",
        "-o",
        "hand_size=2",
    ],
}
#: what must be drawn besides the moves (Farm Hand's dummies sit at the table)
SHOWN = {
    "farm-hand": ["Mac", "Donald", ", mac ", ", donald "],
    "dou-dizhu": ["landlord"],
    "hand-and-foot": ["Team 0"],
    "vegetables": ["Silo fronts"],
    "farm-and-furious": ["Rooster"],
}


def _spawn(*args):
    return pexpect.spawn(
        ARENA,
        ["play", *args],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 140),
        env={"TERM": "xterm-256color", "PATH": "/usr/bin:/bin"},
    )


def _play_out(child, first=None):
    """Answer every prompt with the first move (or bid 0); the whole output."""
    transcript, answers = [], 0
    while child.expect([PROMPT, pexpect.EOF]) == 0:
        transcript.append(child.before)
        answers += 1
        child.sendline(
            first
            if first and answers == 1
            else "0"
            if "Your bid" in child.before[-200:] + child.after
            else "1"
        )
    transcript.append(child.before)
    child.close()
    return "".join(transcript), answers


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_in_the_terminal(game):
    child = _spawn(game, *GAMES[game])
    output, answers = _play_out(child)
    assert child.exitstatus == 0, output[-2000:]
    assert answers > 0
    assert "Game over" in output and "Result: " in output
    assert "you " in output.split("Result: ")[1]
    assert all(text in output for text in SHOWN[game])
    assert "Traceback" not in output


def test_bad_input_is_a_polite_reprompt_and_a_typed_move_is_played():
    child = _spawn("farm-and-furious", "--bot", "random", "--seed", "3", "-o", "track_length=3")
    child.expect(PROMPT)
    for bad in ("banana", "0", "99", ""):
        child.sendline(bad)
        if bad:
            child.expect(r"Sorry, .* is not one of your moves")
        child.expect(PROMPT)
    child.sendline("?")  # the whole list again
    child.expect(r"1\).*Dog")
    child.expect(PROMPT)
    child.sendline("Hen")  # typed, in any case
    child.expect(r"Last turn: you .*Hen")
    output, _ = _play_out(child)
    assert child.exitstatus == 0 and "Result: " in output


def test_ctrl_d_leaves_the_table_and_the_seat_is_played_out():
    child = _spawn("farm-and-furious", "--bot", "random", "--seed", "3", "-o", "track_length=5")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "You left the table (crash); your seat was played out at random." in child.before
    assert "Result: you " in child.before


def test_ctrl_c_ends_the_game_cleanly(processes_running):
    child = _spawn("dou-dizhu", "--bot", "random", "--bot", "random", "--seed", "1")
    child.expect(PROMPT)
    assert processes_running("arena.cli.seat")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "game abandoned (Ctrl-C)" in child.before
    assert "Traceback" not in child.before
    assert processes_running("arena.cli.seat") == []


def test_without_a_terminal_or_with_a_bad_seat_it_is_a_one_line_error():
    def run(*args):
        return subprocess.run(
            [ARENA, "play", *args], capture_output=True, text=True, stdin=subprocess.DEVNULL
        )

    no_tty = run("farm-and-furious", "--bot", "random")
    assert no_tty.returncode == 2
    assert no_tty.stderr == "arena: error: arena play needs a terminal (stdin and stdout)\n"
    bad_seat = run("farm-and-furious", "--bot", "random", "--seat", "2")
    assert bad_seat.returncode == 2
    assert bad_seat.stderr == "arena: error: --seat 2: seats are 0 to 1\n"
