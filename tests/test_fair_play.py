"""Fair play: bots written to cheat, through the real referee and CLI.

Each cheat is shown to work where its precondition holds (a public seed, one
process meeting a deal twice) and then to fail in a real tournament."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.match.referee import Deal, Entrant, TimeControl, play_match
from arena.plugins.botspec import BotSpec
from arena.results.store import Store

CHEATER = Path(__file__).parent / "bots" / "cheater.py"
RANDOM = BotSpec("random", entry="bots.random_bot:RandomBot", version="1.0")


def cheater(mode, seed=""):
    return f"cmd:{sys.executable} {CHEATER} {mode} {seed}".strip()


def arena(*args):
    return subprocess.run(
        [sys.executable, "-m", "arena", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def tournament_file(tmp_path, mode, seed=7, deals=2):
    path = tmp_path / f"{mode}.toml"
    path.write_text(
        f'name = "{mode}"\nseed = {seed}\ndeals = {deals}\nsandbox = "basic"\nleast_sandbox = "basic"\n'
        f'workers = 0\nresults = "{tmp_path / mode}"\n'
        f'bots = [{{ name = "cheater", bot = "{cheater(mode, seed)}" }}, "random",'
        f' {{ name = "r2", bot = "random" }}]\n'
        "[time]\nstartup = 30.0\nmove = 5.0\n"  # a loaded machine is no cheat
        '[[games]]\nid = "dou-dizhu"\nplayers = [3]\n'
    )
    return path


def cheater_seats(folder):
    with Store(folder, create=False) as store:
        records = [store.record(game.id).record for game in store.games()]
    return records, [seat for record in records for seat in record.seats if seat.bot == "cheater"]


def test_public_seeds_give_the_deal_away_and_the_tournament_key_does_not(tmp_path):
    # control: with a public seed the cheater finds its deal, so it knows every hand
    control = arena(
        "match",
        "dou-dizhu",
        "--bot",
        cheater("seeds", 7),
        "--bot",
        "random",
        "--bot",
        "random",
        "--seed",
        7,
        "--sandbox",
        "basic",
        "--least-sandbox",
        "basic",
        "--json",
    )
    assert control.returncode == 0, control.stderr
    assert "predictable to the bots" in control.stderr
    seat = json.loads(control.stdout)["games"][0]["seats"][0]
    assert seat["fault"] == "illegal"
    result = arena("tournament", tournament_file(tmp_path, "seeds"), "--quiet")
    assert result.returncode == 0, result.stderr
    records, seats = cheater_seats(tmp_path / "seeds")
    assert len(records) == 6 and len(seats) == 6
    # neither the file's seed nor hello's seed leads the cheater to a deal
    assert [seat.fault for seat in seats] == [None] * 6, [s.fault_detail for s in seats]
    assert max(record.seed for record in records) >= 2**32  # 64-bit deal seeds


def test_one_process_never_meets_a_deal_twice(tmp_path):
    # control: the same deal in every seating for the same processes is recognised
    entrants = [
        Entrant("cheater", BotSpec.from_command(cheater("memory")[4:])),
        Entrant("random", RANDOM),
        Entrant("r2", RANDOM),
    ]
    deals = [
        Deal(seed, tuple((seat + turn) % 3 for seat in range(3)))
        for seed in (11, 12, 13)
        for turn in range(3)
    ]
    from arena.plugins import installed

    engine = installed().engine("dou-dizhu")
    records = play_match(engine, entrants, deals, limit=TimeControl(move=5.0), sandbox="basic")
    caught = [s.fault_detail for r in records for s in r.seats if s.bot == "cheater" and s.fault]
    assert any("PWNED:remembered" in detail for detail in caught), caught
    # the tournament still replays every deal in every seating, never to one process twice
    result = arena("tournament", tournament_file(tmp_path, "memory", deals=3), "--quiet")
    assert result.returncode == 0, result.stderr
    records, seats = cheater_seats(tmp_path / "memory")
    assert [seat.fault for seat in seats] == [None] * 9, [s.fault_detail for s in seats]
    by_deal = {}
    for record in records:
        by_deal.setdefault(record.seed, set()).add(tuple(s.bot for s in record.seats))
    assert len(by_deal) == 3 and all(len(seatings) == 3 for seatings in by_deal.values())


@pytest.mark.parametrize("mode", ["early", "double"])
def test_frames_nobody_asked_for_are_protocol_faults(mode, broken_bot):
    # the other seats think 0.3 s a move: the cheater's frame comes while
    # the referee is asking them, not it
    from arena.plugins import installed

    engine = installed().engine("dou-dizhu")
    slow = BotSpec.from_command(broken_bot("slow", "0.3")[4:])
    entrants = [
        Entrant("cheater", BotSpec.from_command(cheater(mode)[4:])),
        Entrant("slow", slow),
        Entrant("slow2", slow),
    ]
    [record] = play_match(
        engine, entrants, [Deal(21, (0, 1, 2))], limit=TimeControl(move=2.0), sandbox="basic"
    )
    mine, *others = record.seats
    assert mine.fault == "protocol", mine.fault_detail
    assert "nobody asked for" in mine.fault_detail, mine.fault_detail
    assert all(seat.fault is None for seat in others)
    assert mine.rank == 3


def test_the_key_is_secret_kept_and_publishable(tmp_path):
    path = tournament_file(tmp_path, "honest")
    path.write_text(path.read_text().replace(cheater("honest", 7), "random"))
    first = arena("tournament", path, "--quiet")
    assert first.returncode == 0, first.stderr
    key_file = tmp_path / "honest" / "key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = arena("key", tmp_path / "honest")
    assert key.returncode == 0 and len(key.stdout.strip()) == 64
    assert key.stdout.strip() == key_file.read_text().strip()
    # the published key replays the very same games in another folder
    again = arena(
        "tournament", path, "--quiet", "--results", tmp_path / "again", "--key", key.stdout.strip()
    )
    assert again.returncode == 0, again.stderr
    mine, theirs = cheater_seats(tmp_path / "honest")[0], cheater_seats(tmp_path / "again")[0]
    assert [(r.seed, r.steps, [s.score for s in r.seats]) for r in mine] == [
        (r.seed, r.steps, [s.score for s in r.seats]) for r in theirs
    ]
    # a fresh folder gets a fresh key: other deals
    fresh = arena("tournament", path, "--quiet", "--results", tmp_path / "fresh")
    assert fresh.returncode == 0
    assert {r.seed for r in cheater_seats(tmp_path / "fresh")[0]}.isdisjoint(r.seed for r in mine)
    # another key for a folder that has one is refused in one line
    wrong = arena("tournament", path, "--quiet", "--key", "ab" * 32)
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1
    assert "holds another key" in wrong.stderr
    # results without their key cannot be resumed with a new one
    os.remove(key_file)
    lost = arena("tournament", path, "--quiet")
    assert lost.returncode == 2 and "already holds results" in lost.stderr


def test_match_without_seed_uses_a_secret_key_that_replays_it():
    runner = CliRunner()
    first = runner.invoke(
        app, ["match", "dou-dizhu", "-b", "random", "-b", "random", "-b", "random", "--json"]
    )
    doc = json.loads(first.stdout)
    assert doc["seed"] is None and len(doc["key"]) == 64
    assert doc["games"][0]["seed"] >= 0 and "predictable" not in first.output
    again = runner.invoke(
        app,
        [
            "match",
            "dou-dizhu",
            "-b",
            "random",
            "-b",
            "random",
            "-b",
            "random",
            "--json",
            "--key",
            doc["key"],
        ],
    )
    assert json.loads(again.stdout) == doc
