"""Bot text is inert: the control characters a bot writes (ESC sequences
that retitle a terminal or write its clipboard with OSC 52, BEL, CR, C1
controls) never reach the store, the log or the arena's output."""

import json
import subprocess

from typer.testing import CliRunner

from arena.cli import app
from arena.match import connection
from arena.match.deals import Deal
from arena.match.referee import Entrant, TimeControl, play_match
from arena.plugins.botspec import BotSpec
from arena.sandbox.text import inert

ESCAPES = ("\x1b", "\x07", "\r", "\u009b")


def controls(text: str) -> list[str]:
    return [c for c in ESCAPES if c in text]


def test_inert_keeps_text_tab_and_newline_and_drops_every_control():
    text = "a\tb\nc\x1b]52;c;eA==\x07d\re\x7ff\u0085g\u009bh\x00 é ☃"
    assert inert(text) == "a\tb\nc]52;c;eA==defgh é ☃"
    assert all(not c.isprintable() for c in set(text) - set(inert(text)))


def test_the_bot_really_writes_raw_escapes(broken_bot):
    """The control: run by hand, the bot's stderr holds the raw bytes."""
    argv = broken_bot("escapes").removeprefix("cmd:").split()
    from arena.botkit import protocol

    hello = protocol.encode(
        protocol.hello("farm-and-furious", {}, 2, 1, {"startup": 1, "move": 1, "bank": 0})
    )
    act = protocol.encode(protocol.act({"seat": 0}, [1], 1.0, 0.0))
    done = subprocess.run(argv, input=hello + act, capture_output=True, timeout=30)
    assert b"\x1b]52;c;cHduZWQ=\x07" in done.stderr and b"\xc2\x9b" in done.stderr


def strings(value) -> list[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def _crash(broken_bot, registry):
    spec = BotSpec.from_command(broken_bot("escapes"))
    entrants = [Entrant("escaper", spec), Entrant("random", registry.bot("random"))]
    engine = registry.engine("farm-and-furious")
    (record,) = play_match(
        engine, entrants, [Deal(5, (0, 1), 6)], limit=TimeControl(move=5.0), sandbox="none"
    )
    return record.seats[0].fault_detail


def test_a_crash_detail_keeps_the_words_not_the_escapes(broken_bot, registry, monkeypatch):
    detail = _crash(broken_bot, registry)
    assert "title]0;pwned clip]52;c;cHduZWQ= csi2J end" in detail and not controls(detail)
    monkeypatch.setattr(connection, "inert", lambda text: text)  # the control: no filter
    raw = _crash(broken_bot, registry)  # (a raw CR splits the tail into lines)
    assert {"\x1b", "\x07", "\u009b"} <= set(controls(raw))


def test_store_log_match_and_replay_output_are_clean(broken_bot, tmp_path):
    results = tmp_path / "results"
    runner = CliRunner()
    match = runner.invoke(
        app,
        ["match", "farm-and-furious", "--bot", broken_bot("escapes"), "--bot", "random"]
        + ["--sandbox", "none", "--least-sandbox", "none", "--seed", "3"]
        + ["--results", str(results)],
    )
    assert match.exit_code == 0, match.output
    assert "FAULT crash" in match.output and "clip]52" in match.output
    replay = runner.invoke(app, ["replay", str(results), "1"])
    assert replay.exit_code == 0, replay.output
    export = runner.invoke(app, ["export", str(results)])
    assert export.exit_code == 0, export.output
    stored = "\n".join(strings(json.loads(export.stdout)))  # every stored string, decoded
    assert "clip]52" in stored
    for text in (match.output, replay.output, stored):
        assert not controls(text)


def test_a_tournament_log_is_clean(broken_bot, write_tournament, tmp_path, registry):
    from arena.tournament import load, run

    path = write_tournament(
        '[[games]]\nid = "farm-and-furious"\n',
        name="inert",
        sandbox="none",
        least_sandbox="none",
        bots=[{"name": "escaper", "bot": broken_bot("escapes")}, "random"],
    )
    run(load(path, registry, results=str(tmp_path / "t")), registry, progress=False)
    log = (tmp_path / "t" / "tournament.log").read_text()
    assert "clip]52" in log and not controls(log)
