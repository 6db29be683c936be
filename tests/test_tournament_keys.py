"""The key table: one source for the tournament-file checker and the docs' key reference."""

from dataclasses import replace
from pathlib import Path

import pytest

from arena.game.teams import Teams
from arena.match.referee import TimeControl
from arena.tournament import keys
from arena.tournament.config import ConfigError, load

DOC = Path(__file__).resolve().parents[1] / "docs" / "tournaments.md"


def test_the_docs_key_reference_is_the_key_table():
    text = DOC.read_text(encoding="utf-8")
    assert text.count("<!-- keys: ") == len(keys.SECTIONS), "every section has its table"
    assert keys.render_docs(text) == text, (
        "docs/tournaments.md's key tables drifted from arena/tournament/keys.py: "
        "run `python -m arena.tournament.keys`"
    )


def test_a_change_to_the_key_table_shows_in_the_docs(monkeypatch):
    # the control: the comparison above is not vacuous
    text = DOC.read_text(encoding="utf-8")
    changed = tuple(
        replace(k, meaning="Something else.") if k.name == "move" else k for k in keys.TIME
    )
    monkeypatch.setitem(keys.SECTIONS, "time", changed)
    rendered = keys.render_docs(text)
    assert rendered != text
    assert "| `move` | seconds > 0 | `1.0` | Something else. |" in rendered


def test_the_checker_knows_exactly_the_tables_keys(write_tournament, registry):
    path = write_tournament(
        'name = "x"\nbots = ["random", "farm-and-furious-racer"]\ngames = ["farm-and-furious"]\n'
        "colour = 1\n[time]\nspeed = 2\n"
    )
    with pytest.raises(ConfigError) as caught:
        load(path, registry)
    top, time = caught.value.errors
    assert top.endswith(f"colour: unknown key (known: {', '.join(sorted(keys.names('top')))})")
    assert time.endswith(
        f"time.speed: unknown key (known: {', '.join(sorted(keys.names('time')))})"
    )


def test_left_out_keys_get_the_tables_defaults(write_tournament, registry):
    t = load(
        write_tournament(
            name="x",
            bots=["random", "farm-and-furious-racer"],
            games=["farm-and-furious"],
            format="rated",
        ),
        registry,
    )
    for name in ("seed", "deals", "match_deals", "sandbox"):
        assert getattr(t, name) == keys.spec("top", name).default
    # the floor is on in a tournament by default, off in the referee's own default
    assert (
        t.time == TimeControl(floor=keys.FLOOR) and t.time.move == keys.spec("time", "move").default
    )
    assert (t.sigma, t.budget, t.batch) == tuple(
        keys.spec("rated", n).default for n in ("sigma", "budget", "batch")
    )
    assert t.format is keys.Format.RATED and t.format == "rated"


def test_a_wrong_value_is_checked_as_the_table_says(write_tournament, registry):
    path = write_tournament(
        'name = "x"\nbots = ["random", "farm-and-furious-racer"]\ngames = ["farm-and-furious"]\n'
        'match_deals = 0\nseating = "shuffle"\n[time]\nmove = 0\n'
    )
    with pytest.raises(ConfigError) as caught:
        load(path, registry)
    assert [line.split(": ", 1)[1] for line in caught.value.errors] == [
        "seating: 'shuffle' is not one of auto, rotate, permute, none",
        "match_deals: must be at least 1, got 0",
        "time.move: must be at least 0.001, got 0.0",
    ]


def test_every_engine_groups_teams_as_the_enum_names(registry):
    teams = {registry.engine(game).info.teams for game in registry.games}
    assert teams <= set(Teams) and Teams.FIXED in teams
