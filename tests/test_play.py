"""`arena play` driven through a pseudo-terminal, as a person meets it: a
whole game of each of the five games, bad input, and Ctrl-C."""

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

ARENA = str(Path(sys.executable).with_name("arena"))
PROMPT = r"\(number or move\): "
CONFIRM = r"sends it, \S*u\S* takes it back: "
PAUSE = r"\S*Enter\S* goes on: "

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
    "hand-and-foot": ["Team A"],
    "vegetables": ["silo fronts"],
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
    """Answer every prompt with the first move (or bid 0), go on from every
    trick's or round's end; the whole output."""
    transcript, answers = [], 0
    while (seen := child.expect([PROMPT, CONFIRM, PAUSE, pexpect.EOF])) < 3:
        transcript.append(child.before + child.after)
        if seen in (1, 2):
            child.sendline("")  # send the chosen move, or go on
            continue
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


@pytest.mark.parametrize(
    ("game", "ends"),
    [
        ("farm-hand", [r"^Trick \d+ of \d+: played .*; won by ", r"^Round 1 ended: you bid "]),
        ("dou-dizhu", [r"^Trick \d+: .* played .* and nobody beat it; .* leads$"]),
        ("hand-and-foot", [r"^Round 1 ended"]),
    ],
)
def test_each_trick_and_round_end_is_shown_before_play_goes_on(game, ends):
    """The end of a trick or round stops the screen until Enter, before the
    table of the next move is drawn: each stop's last line is that end, a
    line never shown twice in a row, and the game is played to its end."""
    two_rounds = ["-o", "max_rounds=2", "-o", "target=5000"] if game == "hand-and-foot" else []
    output, _ = _play_out(_spawn(game, *GAMES[game], *two_rounds))
    plain = re.sub(r"\x1b\[[0-9;]*m", "", output).replace("\r", "")
    stops = [chunk.rstrip("\n").splitlines()[-1] for chunk in plain.split("Enter goes on: ")[:-1]]
    assert stops and "Game over" in plain
    for end in ends:
        assert any(re.search(end, line) for line in stops), (end, stops[:5])
    assert all(a != b for a, b in itertools.pairwise(stops))


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
    _hen_is_played(child, "hEN")  # typed, in any case


def _hen_is_played(child, typed: str) -> None:
    """Type the Hen as ``typed``, send it, see it shown as your last card,
    and play the game out."""
    child.sendline(typed)
    child.expect(CONFIRM)
    child.sendline("")
    child.expect(r"you[^\n]*\n(?:  [^\n]*\n)*?  [^\n]*showed last turn:[^\n]*Hen")
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


def test_a_mistyped_move_is_taken_back_before_it_is_sent():
    child = _spawn("farm-and-furious", "--bot", "random", "--seed", "3", "-o", "track_length=3")
    child.expect(PROMPT)
    child.sendline("dog")
    child.expect(CONFIRM)
    child.sendline("u")  # not that one
    child.expect("Taken back: choose again.")
    child.expect(PROMPT)
    _hen_is_played(child, "HEN")


def test_a_move_is_typed_as_shown_in_any_case_and_spacing():
    import io

    from rich.console import Console

    from arena.cli.seat import HumanSeat
    from engines.farm_hand.view import FarmHandView

    seat = HumanSeat(io.StringIO(), Console(file=io.StringIO(), width=100))
    seat.view = FarmHandView(3)
    legal = ["blue6", "green3", "orange12"]
    assert seat.view.label("blue6").endswith("blue 6[/]")  # shown so
    for typed in ("blue 6", "Blue6", " BLUE  6 ", "blue6"):
        assert seat._choose(typed, legal) == "blue6"
    assert seat._choose("orange 12", legal) == "orange12"
    assert seat._choose("blue 7", legal) is None and seat._choose("--", legal) is None
    # Enter sends the move; u takes it back and the person chooses again
    seat.tty_in = io.StringIO("blue 6\nu\ngreen 3\n\n")
    seat.drawing = None
    clock = {"move": 86400.0, "bank": 0.0}
    observation = {"seat": 0}
    seat.view.show = lambda observation: ["the table"]
    assert seat.act(observation, legal, clock) == "green3"
    assert "Taken back" in seat.console.file.getvalue()
