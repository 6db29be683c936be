"""``arena match`` as a short cutechess-style match: a summary per bot,
``--rotate`` for duplicate deals, ``--results`` to keep the games."""

import json

from typer.testing import CliRunner

import arena.cli.tournament  # noqa: F401  (registers replay and leaderboard)
from arena.cli import app
from arena.game import DummyResult
from arena.presentation.match_summary import summarize
from arena.records import GameRecord, SeatRecord

runner = CliRunner()
DUEL = [
    "match",
    "farm-and-furious",
    "--bot",
    "farm-and-furious-racer",
    "--bot",
    "random",
    "--seed",
    "1",
    "--games",
    "2",
    "--option",
    "track_length=8",
]


def game(*seats, dummies=()):
    return GameRecord(
        "g",
        "1",
        {},
        0,
        len(seats),
        [
            SeatRecord(bot, score, rank, i, fault)
            for i, (bot, score, rank, fault) in enumerate(seats)
        ],
        [DummyResult(*d) for d in dummies],
    )


def test_duels_count_wins_draws_losses_and_tables_mean_rank():
    duel = summarize(
        [
            game(("a", 3, 1, None), ("b", 1, 2, None)),
            game(("a", 2, 1, None), ("b", 2, 1, None)),
            game(("b", 5, 1, None), ("a", 0, 2, "crash")),
        ]
    )
    a = duel[0]
    assert (a.bot, a.games, a.wins, a.draws, a.losses, a.faults) == ("a", 3, 1, 1, 1, 1)
    assert a.duel and a.mean_score == 5 / 3
    assert round(a.interval, 4) == round(1.96 * 1.5275252 / 3**0.5, 4)
    assert "W 1  D 1  L 1  score 1.67 ± 1.73  faults 1" in a.line(1)
    # a bot alone against Farm Hand's dummies is not a duel: mean rank
    [solo] = summarize([game(("a", 4, 2, None), dummies=[("mac", 6, 1), ("donald", 0, 3)])])
    assert not solo.duel and solo.mean_rank == 2 and solo.interval is None
    assert solo.line(1) == "a  1 game  mean rank 2.00  firsts 0  score 4.00  faults 0"


def test_the_text_output_ends_with_a_summary_line_per_bot():
    result = runner.invoke(app, DUEL)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[-2:]] == ["farm-and-furious-racer", "random"]
    assert all(" 2 games  W " in line and " ± " in line for line in lines[-2:])
    doc = json.loads(runner.invoke(app, DUEL + ["--json"]).stdout)
    assert [s["bot"] for s in doc["summary"]] == ["farm-and-furious-racer", "random"]
    assert sum(s["wins"] + s["draws"] for s in doc["summary"]) >= 2


def test_rotate_replays_each_deal_in_every_seating():
    doc = json.loads(runner.invoke(app, DUEL + ["--rotate", "--json"]).stdout)
    seats = [[s["bot"] for s in g["seats"]] for g in doc["games"]]
    seeds = [g["seed"] for g in doc["games"]]
    assert len(seats) == 4 and seeds[0] == seeds[1] and seeds[2] == seeds[3] != seeds[0]
    assert seats[0] == seats[1][::-1] == ["farm-and-furious-racer", "random"]
    # the rotated match keeps the plain match's deals
    plain = json.loads(runner.invoke(app, DUEL + ["--json"]).stdout)
    assert [g["seed"] for g in plain["games"]] == seeds[::2]
    # fixed teams: every distinct permutation, so partnerships vary too
    four = json.loads(
        runner.invoke(
            app,
            [
                "match",
                "hand-and-foot",
                "-b",
                "hand-and-foot-builder",
                "-b",
                "random",
                "-b",
                "hand-and-foot-builder",
                "-b",
                "random",
                "--seed",
                "2",
                "--rotate",
                "--json",
                "--option",
                "max_rounds=1",
                "--option",
                "target=200",
            ],
        ).stdout
    )
    assert len(four["games"]) == 6  # 4!/(2!2!) distinct seatings of two pairs


def test_results_keeps_the_games_for_replay_and_leaderboard(tmp_path):
    folder = str(tmp_path / "m")
    first = runner.invoke(app, DUEL + ["--rotate", "--results", folder])
    assert first.exit_code == 0, first.output
    assert first.stdout.splitlines()[-1].startswith(f"stored in {folder}: arena leaderboard")
    board = runner.invoke(app, ["leaderboard", folder, "--format", "json"])
    assert board.exit_code == 0, board.output
    overall = json.loads(board.stdout)
    assert "farm-and-furious-racer" in board.output and "random" in board.output
    assert overall
    shown = runner.invoke(app, ["replay", folder, "4", "--verify"])
    assert shown.exit_code == 0 and "match/3" in shown.output, shown.output
    # the same match again plays nothing; another match is refused, one line, exit 2
    again = runner.invoke(app, DUEL + ["--rotate", "--results", folder])
    assert again.stdout.splitlines()[0] == f"4 of 4 games already stored in {folder}"
    assert "game 1 seed" not in again.output
    other = runner.invoke(app, DUEL + ["--results", folder])
    assert other.exit_code == 2 and other.stdout == ""
    [line] = other.stderr.splitlines()
    assert line.startswith("arena: error: ") and "use another results folder" in line


def test_results_resumes_a_match_where_it_stopped(tmp_path):
    import sqlite3

    from arena.results.store import Store

    def games(folder):
        with Store(folder, create=False) as store:
            return {
                game.key: (game.record.seed, [s.bot for s in game.record.seats], game.record.steps)
                for game in store.records()
            }

    folder = tmp_path / "m"
    first = runner.invoke(app, DUEL + ["--rotate", "--results", str(folder)])
    assert first.exit_code == 0, first.output
    played = games(folder)
    with sqlite3.connect(folder / "results.sqlite") as db:  # as if stopped before these
        db.execute("DELETE FROM games WHERE key IN ('match/1', 'match/2')")
    again = runner.invoke(app, DUEL + ["--rotate", "--results", str(folder)])
    lines = again.stdout.splitlines()
    assert lines[0] == f"2 of 4 games already stored in {folder}"
    assert [line.split(" seed ")[0] for line in lines if line.startswith("game ")] == [
        "game 1",
        "game 2",
    ]
    assert games(folder) == played  # the same games, dealt from the folder's key
