"""The tournament file's keys: one table that the checker reads and the docs show.

Every key of every table of a tournament file is a :class:`KeySpec` here: its
TOML type, its default, the smallest value or the choices it takes, and
what it means.  :mod:`arena.tournament.config` reads a file through these
tables (unknown keys, types, minimums, choices, defaults), and the key
reference in ``docs/tournaments.md`` is rendered from them between
``<!-- keys: SECTION -->`` and ``<!-- /keys -->`` (``python -m
arena.tournament.keys`` rewrites it; a test fails when the two drift).
What the tables cannot say (a name must not be empty, a challenger must be
one of the bots, flags override the file) stays in the checker's code.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from arena.match.referee import TimeControl


class Format(StrEnum):
    """How tables are chosen (``format``); see :mod:`arena.tournament.plan`."""

    ROUND_ROBIN = "round-robin"
    GAUNTLET = "gauntlet"
    SWISS = "swiss"
    RATED = "rated"


class Seating(StrEnum):
    """How each deal is replayed (``seating``)."""

    AUTO = "auto"
    ROTATE = "rotate"
    PERMUTE = "permute"
    NONE = "none"


#: deals per referee match by default: each match plays its deals in one
#: seating, so this many games share a start-up of the bots (12 keeps the
#: games per start-up of the former four deals in three seatings)
MATCH_DEALS = 12
EXECUTORS = ("local", "dask")
#: the timing floor's default share of the mover's longest answer so far:
#: no move of a held table is seen sooner than its mover's longest one
FLOOR = 1.0

#: a TOML type as the checker's messages name it, and as the docs' type column does
KIND_NAMES = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
    list: "a list",
    dict: "a table",
}
_KIND_COLUMN = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "bool",
    list: "list",
    dict: "table",
}


@dataclass(frozen=True)
class KeySpec:
    """One key of a table: what the checker accepts and the docs say.

    ``default`` is the value when the key is absent (the checker may give a
    computed one instead, e.g. ``results``); ``shown_type`` and
    ``shown_default`` are the docs' columns where the derived text would
    not say it (``seconds > 0``, ``one per core``)."""

    name: str
    kind: type
    default: Any
    meaning: str
    minimum: float | None = None
    choices: tuple[str, ...] | None = None
    required: bool = False
    shown_type: str | None = None
    shown_default: str | None = None

    @property
    def type_text(self) -> str:
        if self.shown_type is not None:
            return self.shown_type
        base = _KIND_COLUMN[self.kind]
        return base if self.minimum is None else f"{base} ≥ {self.minimum:g}"

    @property
    def default_text(self) -> str:
        if self.shown_default is not None:
            return self.shown_default
        if self.required:
            return "required"
        if self.default is None:
            return "none"
        return (
            f"`{json.dumps(self.default)}`"
            if not isinstance(self.default, float)
            else f"`{self.default!r}`"
        )


TOP = (
    KeySpec(
        "name",
        str,
        "",
        "The tournament's name. It is stored with the results and shown on the leaderboard.",
        required=True,
    ),
    KeySpec(
        "seed",
        int,
        0,
        "The seed of the plan: who plays whom and in which order, Swiss and rated tie-breaks."
        " The deals come from the secret key, not from it (see [the secret "
        "key](#the-secret-key-deals-no-bot-can-foresee)).",
    ),
    KeySpec(
        "format",
        str,
        Format.ROUND_ROBIN,
        "How tables are chosen. See [Formats](#formats).",
        choices=tuple(Format),
    ),
    KeySpec(
        "deals",
        int,
        1,
        "How many deal seeds each table plays. Each deal is played once per seating, so the "
        "number of games per pairing is `deals` × the number of seatings. A game entry can "
        "override it.",
        minimum=1,
    ),
    KeySpec(
        "seating",
        str,
        Seating.AUTO,
        "How each deal is replayed. See [Seating](#seating-duplicate-deals). A game entry can"
        " override it.",
        choices=tuple(Seating),
    ),
    KeySpec(
        "match_deals",
        int,
        MATCH_DEALS,
        "At most this many deals make one referee match, that is, one plan item, all in one "
        "seating (each seating of a block of deals is its own match, so no process meets a "
        "deal twice). Bot processes live for a whole match. Larger matches pay the start-up "
        "cost less often; smaller ones spread better over the workers.",
        minimum=1,
    ),
    KeySpec(
        "workers",
        int,
        None,
        "How many matches run at once, each in its own forked worker process. `0` plays them "
        "one after another in the `arena` process itself. `--workers` overrides it. The "
        "default is what the machine can serve: the cores this process may run on, capped by "
        "its cgroup's CPU quota. More is allowed, with a one-line warning: matches get no "
        "faster, and the move clock does not charge a bot the time it waits for a CPU "
        '(docs/protocol.md, "Time").',
        minimum=0,
        shown_default="one per core",
    ),
    KeySpec(
        "results",
        str,
        None,
        "The results folder, relative to the current directory. `--results` overrides it.",
        shown_default='`"results/NAME"`',
    ),
    KeySpec(
        "sandbox",
        str,
        "auto",
        "The sandbox level for the bots: `auto` is `strict` where bubblewrap works, else "
        "`basic`. See `arena doctor`.",
    ),
    KeySpec(
        "least_sandbox",
        str,
        "strict",
        "The least level a submitted bot (a `cmd:` line, a third-party plugin's) may run at: "
        "a run that would start one at a lower level stops before it plays, naming what is "
        'missing. `least_sandbox = "basic"` accepts the basic level where bubblewrap is '
        "missing; the arena's own bots may always run at basic. `--least-sandbox` overrides "
        "it. See [sandbox.md](sandbox.md).",
    ),
    KeySpec(
        "limits",
        dict,
        {},
        "Resource limits for every bot (a bot's own `limits` overrides them): `memory_mb` "
        "(2048), `cpu_seconds` per match (600), `file_size_mb` (64), `open_files` (256), "
        "`processes` (64), `disk_mb` for its private `/tmp` and `/dev/shm` (64), `output_kb` "
        "of stderr kept (64). See [sandbox.md](sandbox.md).",
        shown_default="the sandbox's defaults",
    ),
    KeySpec(
        "executor",
        str,
        None,
        "Where matches run: `local` is the pool of forked worker processes, `dask` a Dask "
        "cluster. See [cluster.md](cluster.md). `--executor` overrides it.",
        choices=EXECUTORS,
        shown_default='`"local"` (`"dask"` when `scheduler` is set)',
    ),
    KeySpec(
        "scheduler",
        str,
        None,
        "The address of a running Dask scheduler (`tcp://HOST:PORT`). Without it, `executor ="
        ' "dask"` starts a local cluster. See [cluster.md](cluster.md). `--scheduler` '
        "overrides it.",
    ),
    KeySpec("bots", list, [], "The bots. See [Bots](#bots).", required=True),
    KeySpec("games", list, [], "The games. See [Games](#games).", required=True),
    KeySpec("time", dict, {}, "The time control. See [`[time]`](#time).", shown_default=""),
    KeySpec("gauntlet", dict, {}, 'Settings for `format = "gauntlet"`.', shown_default=""),
    KeySpec("swiss", dict, {}, 'Settings for `format = "swiss"`.', shown_default=""),
    KeySpec("rated", dict, {}, 'Settings for `format = "rated"`.', shown_default=""),
    KeySpec("stop", dict, {}, "When to end early. See [`[stop]`](#stop).", shown_default=""),
)

TIME = (
    KeySpec(
        "startup",
        float,
        TimeControl.startup,
        "Time for a bot to start and answer hello, once per match.",
        minimum=0.001,
        shown_type="seconds > 0",
    ),
    KeySpec(
        "move",
        float,
        TimeControl.move,
        "Time for each move.",
        minimum=0.001,
        shown_type="seconds > 0",
    ),
    KeySpec(
        "bank",
        float,
        TimeControl.bank,
        "Extra time per game, drawn on when a move runs over `move`.",
        minimum=0.0,
        shown_type="seconds ≥ 0",
    ),
    KeySpec(
        "floor",
        float,
        FLOOR,
        "The timing floor: at a table with a `cmd:` or third-party bot, no seat learns of a "
        "move sooner after it was asked than this share of the longest the mover has taken "
        "to answer so far in the match (at most `move`), forced or not, so a rival's answer "
        "times do not tell its hidden situation. Wall time, charged to nobody: a quick bot's "
        "moves are held for milliseconds. `0` turns it off. Built-in bots alone are not held. "
        "See [sandbox.md](sandbox.md).",
        minimum=0.0,
        shown_type="number ≥ 0",
    ),
)

STOP = (
    KeySpec(
        "confidence",
        float,
        None,
        "End once, in every game and table size, every two bots next to each other in the "
        "ranking by mean place are separated at this confidence (see below).",
        shown_type="number between 0 and 1",
    ),
    KeySpec("budget", int, None, "End once this many games are stored.", minimum=1),
)

BOT = (
    KeySpec("bot", str, None, "A registered bot name or `cmd:COMMAND LINE`.", required=True),
    KeySpec(
        "name",
        str,
        None,
        "The display name, used in the results and on the leaderboard. It must be unique, so "
        "the same bot can be entered twice under two names.",
        shown_default="the `bot` string",
    ),
    KeySpec(
        "games",
        list,
        None,
        "Enter the bot only in these games.",
        shown_type="list of game ids",
        shown_default="all it plays",
    ),
    KeySpec(
        "limits",
        dict,
        {},
        "This bot's own resource limits, same keys as the top-level `limits`, e.g. `limits = "
        "{ memory_mb = 4096 }`.",
        shown_default="the top-level `limits`",
    ),
    KeySpec(
        "files",
        list,
        [],
        "Files or folders this bot may read in the strict sandbox, besides what its launch "
        "needs: a `cmd:` bot sees only the files its command line names (each file alone, not"
        ' its folder), so list e.g. its model folder here: `files = ["old-bot/weights"]`. '
        "Relative paths are from the current folder, like a `cmd:` line's. A path must exist "
        "and must not show the `results` folder (it holds the tournament's secret key). Not "
        "part of the plan: changing it does not stop a resume. See [sandbox.md](sandbox.md).",
        shown_type="list of paths",
    ),
    KeySpec(
        "settings",
        dict,
        None,
        "Passed unchanged to the bot in its `hello` message (`settings`); what the keys mean "
        "is the bot's business, e.g. `settings = { iterations = 400 }` for `ismcts` "
        "([bots.md](bots.md)).",
    ),
)

GAME = (
    KeySpec(
        "id",
        str,
        None,
        "The game id (see `arena games`). The same game may be listed twice with different "
        "options. The second entry is labelled `id[2]` in plan ids, and both are rated as the"
        " same game.",
        required=True,
    ),
    KeySpec(
        "players",
        list,
        None,
        "The table sizes to play. Farm Hand allows 1 (solitaire against Mac and Donald) and 2"
        " (with Mac).",
        shown_type="integer or list",
        shown_default="every count the game allows",
    ),
    KeySpec(
        "options",
        dict,
        {},
        "Game options, checked against the game (see `arena games`).",
        shown_default="the game's defaults",
    ),
    KeySpec(
        "deals",
        int,
        None,
        "Deals per table for this game.",
        minimum=1,
        shown_default="top-level `deals`",
    ),
    KeySpec(
        "seating",
        str,
        None,
        "Seating for this game.",
        choices=tuple(Seating),
        shown_default="top-level `seating`",
    ),
    KeySpec(
        "bots",
        list,
        None,
        "Only these bots play this game.",
        shown_type="list of display names",
        shown_default="every bot that plays the game",
    ),
    KeySpec(
        "repeats",
        bool,
        None,
        "Whether one bot may take several seats at a table. By default it may only when fewer"
        " bots play the game than it has seats, and then tables where a single bot takes "
        "every seat are left out. `false` needs at least as many bots as seats. `true` adds "
        "the tables with repeats even when there are enough bots, and lets a lone bot play "
        "itself (without it, one bot in a game of several seats is an error).",
        shown_default="automatic",
    ),
)

GAUNTLET = (
    KeySpec(
        "challenger", str, None, "The bot at every table.", required=True, shown_type="display name"
    ),
)

SWISS = (
    KeySpec(
        "rounds", int, None, "The number of rounds.", minimum=1, shown_default="⌈log₂ bots⌉ + 1"
    ),
)

RATED = (
    KeySpec(
        "sigma",
        float,
        2.5,
        "Stop once every bot's sigma in a group is below this.",
        minimum=0.01,
        shown_type="number > 0",
    ),
    KeySpec("budget", int, 500, "The most games per game and table size.", minimum=1),
    KeySpec(
        "batch",
        int,
        0,
        "Tables per matchmaking step.",
        minimum=0,
        shown_default="`0` (twice the workers)",
    ),
)

#: every table of the file, by the name its docs marker uses
SECTIONS: dict[str, tuple[KeySpec, ...]] = {
    "top": TOP,
    "time": TIME,
    "stop": STOP,
    "bot": BOT,
    "game": GAME,
    "gauntlet": GAUNTLET,
    "swiss": SWISS,
    "rated": RATED,
}
#: the sections that are a format's own table (``[gauntlet]``...), headed so in the docs
FORMAT_SECTIONS = (Format.GAUNTLET, Format.SWISS, Format.RATED)


def spec(section: str, name: str) -> KeySpec:
    return next(k for k in SECTIONS[section] if k.name == name)


def names(section: str) -> set[str]:
    return {k.name for k in SECTIONS[section]}


def markdown(section: str) -> list[str]:
    """The docs' table of ``section``: a line per key, in table order."""
    label = f"`[{section}]` key" if section in FORMAT_SECTIONS else "key"
    lines = [f"| {label} | type | default | meaning |", "|---|---|---|---|"]
    for k in SECTIONS[section]:
        lines.append(
            f"| `{k.name}` | {k.type_text} | {k.default_text} | {k.meaning} |".replace(
                "|  |", "| |"
            )
        )
    return lines


_MARKED = re.compile(
    r"^(?P<indent>[ ]*)<!-- keys: (?P<section>\w+) -->\n"
    r".*?^(?P=indent)<!-- /keys -->$",
    re.MULTILINE | re.DOTALL,
)


def render_docs(text: str) -> str:
    """``text`` with every marked key table rendered afresh from :data:`SECTIONS`."""

    def table(match: re.Match) -> str:
        indent, section = match["indent"], match["section"]
        rows = [indent + line for line in markdown(section)]
        return "\n".join([f"{indent}<!-- keys: {section} -->", *rows, f"{indent}<!-- /keys -->"])

    return _MARKED.sub(table, text)


def main(argv: list[str]) -> int:
    """``python -m arena.tournament.keys [DOC]``: rewrite the key tables of
    DOC (default docs/tournaments.md) from the key table."""
    path = Path(argv[0] if argv else "docs/tournaments.md")
    text = path.read_text(encoding="utf-8")
    rendered = render_docs(text)
    if rendered != text:
        path.write_text(rendered, encoding="utf-8")
        print(f"{path}: key tables rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
