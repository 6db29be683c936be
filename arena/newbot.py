"""``arena new-bot``: write a ready, installable bot package.

:func:`create` writes NAME/ with its own ``pyproject.toml`` (the ``arena``
entry point), a plugin module that registers a :class:`~arena.bots.BotSpec`
without importing the bot, the bot class on :class:`arena.botkit.Bot` (a
seeded random player to start from, a docstring per method), a README for
its author and a test that plays it against ``random`` through the real
referee.  ``pip install -e ./NAME`` then makes it appear in ``arena bots``
and playable in ``arena match`` and tournaments at once.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from arena.bots import ANY_GAME

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")


class NewBotError(ValueError):
    """A name, game or folder that ``new-bot`` cannot use (nothing written)."""


@dataclass(frozen=True)
class Names:
    """How one bot name is spelled in each place it appears."""

    bot: str            # the arena's name for it: `arena match ... --bot NAME`
    distribution: str   # pip's name for the package
    module: str         # the import package
    cls: str            # the bot class

    @classmethod
    def from_name(cls, name: str) -> "Names":
        if not NAME_PATTERN.match(name):
            raise NewBotError(
                f"bot name {name!r}: use lowercase letters, digits and single hyphens "
                "(or underscores), "
                "starting with a letter (e.g. 'my-bot')")
        module = name.replace("-", "_")
        if keyword.iskeyword(module):
            raise NewBotError(f"bot name {name!r} is a Python keyword; choose another")
        parts = re.split(r"[-_]", name)
        camel = "".join(part[:1].upper() + part[1:] for part in parts)
        if parts[-1] != "bot":
            camel += "Bot"
        return cls(bot=name, distribution=name, module=module, cls=camel)


def check_available(names: Names, registry) -> None:
    """Refuse names that would clash with what is already installed."""
    if names.bot in registry.bots:
        raise NewBotError(f"a bot named '{names.bot}' is already installed "
                          f"(plugin '{registry.origin.get('bot:' + names.bot, '?')}'); choose another name")
    try:
        metadata.distribution(names.distribution)
    except metadata.PackageNotFoundError:
        pass
    else:
        raise NewBotError(f"a distribution named '{names.distribution}' is already installed; "
                          "choose another name")
    if importlib.util.find_spec(names.module) is not None:
        raise NewBotError(f"a Python module named '{names.module}' already exists here; "
                          "choose another name")


def resolve_games(games: list[str], registry) -> tuple[str, ...]:
    """The game ids the bot will claim: the given ones (checked), or any."""
    if not games:
        return (ANY_GAME,)
    unknown = [game for game in games if game not in registry.games]
    if unknown:
        known = ", ".join(sorted(registry.games)) or "none"
        raise NewBotError(f"unknown game '{unknown[0]}' (installed: {known})")
    return tuple(dict.fromkeys(games))


def render(names: Names, games: tuple[str, ...]) -> dict[str, str]:
    """Every file of the package, by path relative to its folder."""
    values = {
        "NAME": names.bot,
        "DIST": names.distribution,
        "MODULE": names.module,
        "CLASS": names.cls,
        "GAMES": repr(games) if len(games) != 1 else f"({games[0]!r},)",
        "GAMES_TEXT": "any game" if ANY_GAME in games else ", ".join(games),
        "GAME_EXAMPLE": "farm-and-furious" if ANY_GAME in games else games[0],
        "CHECK_GAMES": "" if ANY_GAME in games else "".join(f" --game {g}" for g in games),
    }
    files = {
        "pyproject.toml": PYPROJECT,
        "README.md": README,
        f"{names.module}/__init__.py": INIT,
        f"{names.module}/plugin.py": PLUGIN,
        f"{names.module}/bot.py": BOT,
        f"tests/test_{names.module}.py": TEST,
    }
    out = {}
    for path, template in files.items():
        text = template
        for key, value in values.items():
            text = text.replace("{{" + key + "}}", value)
        out[path] = text
    return out


def create(name: str, games: list[str] | None = None, directory: str | Path = ".",
           registry=None) -> Path:
    """Write the package for bot NAME under ``directory``; return its folder.

    Raises :class:`NewBotError` (before writing anything) for a bad or taken
    name, an unknown game or an existing non-empty folder."""
    if registry is None:
        from arena.plugins import installed
        registry = installed()
    names = Names.from_name(name)
    claimed = resolve_games(list(games or []), registry)
    check_available(names, registry)
    root = Path(directory) / names.bot
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise NewBotError(f"{root} already exists and is not empty")
    for path, text in render(names, claimed).items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


# -- templates ---------------------------------------------------------------
# ``{{KEY}}`` is replaced by the values in :func:`render`.

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "{{DIST}}"
version = "0.1.0"
description = "{{NAME}}: a bot for the farm-arena card-game arena"
readme = "README.md"
requires-python = ">=3.11"
# The arena itself; install it first (see README.md).
dependencies = ["farm-arena"]

[project.optional-dependencies]
test = ["pytest>=8"]

# How the arena finds the bot: a plugin in the "arena" entry-point group.
# The value is the module whose register_bots() hook returns the launch spec.
[project.entry-points.arena]
{{NAME}} = "{{MODULE}}.plugin"

[tool.setuptools.packages.find]
include = ["{{MODULE}}*"]
'''

INIT = '''\
"""{{NAME}}: a bot for the farm-arena card-game arena.

``plugin.py`` registers it with the arena; ``bot.py`` is the bot.
"""
'''

PLUGIN = '''\
"""Registers {{NAME}} with the arena (the "arena" entry point in pyproject.toml).

Only the launch spec lives here.  The arena imports this module to list the
bot (`arena bots`) but never imports the bot class: the referee starts it in
a sandboxed process of its own, as `python -m arena.botkit {{MODULE}}.bot:{{CLASS}}`.
So keep this module free of heavy imports, and do not import .bot here.
"""

from importlib.metadata import PackageNotFoundError, version

from arena.bots import BotSpec
from arena.plugins import hookimpl

#: the game ids this bot plays ("*": every game); see `arena games`
GAMES = {{GAMES}}

try:
    VERSION = version("{{DIST}}")
except PackageNotFoundError:  # not installed (run from a source checkout)
    VERSION = "0"


@hookimpl
def register_bots():
    """The bots this plugin adds to the arena (a list: a plugin may add several)."""
    return [
        BotSpec(
            "{{NAME}}",
            games=GAMES,
            entry="{{MODULE}}.bot:{{CLASS}}",
            version=VERSION,
            description="{{NAME}} (seeded random legal actions: make it smarter!)",
        )
    ]
'''

BOT = '''\
"""The {{NAME}} bot.

The arena runs this class in a sandboxed process of its own, through the bot
kit (arena.botkit): one instance lives for a whole match, a series of games
in which your seat may change.  The bot kit calls the methods below as the
referee's messages arrive (docs/protocol.md describes them all).

- Stdout is the wire: the bot kit sends `print` output to stderr, of which
  the referee keeps the first 64 KiB.  Print your debugging there freely.
- Every `act` has a time limit (`clock["move"]` seconds, default 1.0, plus
  a per-game bank `clock["bank"]`); too slow, a crash, or an action not in
  `legal` is a fault: the seat is played out at random and ranks last.
- Use the `seed` from `new_match` for every random choice, so a match can
  be replayed exactly.
- The sandbox has no network, and the files your package installs are
  read-only; your home and working folder is a private, empty /tmp.
"""

import random

from arena.botkit import Bot


class {{CLASS}}(Bot):
    """Plays {{GAMES_TEXT}}: for now, a uniformly random legal action."""

    #: reported to the referee in the ready message (shown in its logs)
    name = "{{NAME}}"
    version = "0.1.0"

    def new_match(self, hello):
        """Once per match, before the first game.

        `hello` has "game" (the game id, e.g. "{{GAME_EXAMPLE}}"), "options"
        (every game option with its value), "players" (bot seats at the
        table), "limits" ({"startup", "move", "bank"} in seconds) and "seed"
        (an int for your own random choices).
        """
        self.game = hello["game"]
        self.rng = random.Random(hello["seed"])

    def new_game(self, game):
        """Before each game of the match (no answer).

        `game` has "index" (0 for the match's first game), "seat" (your seat
        in this game, from 0; it can change from game to game) and "players".
        """
        self.seat = game["seat"]

    def act(self, observation, legal, clock):
        """Your move: return one element of `legal`, as it is.

        `observation` is everything your seat knows now (always "seat"; the
        other keys per game: docs/games/<game>.md).  `legal` is a non-empty
        list of strings or integers: return one of them unchanged (a string
        stays a string, an int an int).  `clock` has "move" (seconds for this
        move) and "bank" (seconds left in this game's time bank).
        """
        return self.rng.choice(legal)

    def game_over(self, result):
        """After each game (no answer).

        `result` has "seat" (yours), "scores" and "ranks" (by seat; rank 1 is
        best, ties share a rank, faulted seats are last; engine-played dummies
        follow the seats in "ranks") and "observation" (your final view).
        """
'''

TEST = '''\
"""{{NAME}} plays against `random` through the arena's real referee, in the
real sandbox, for every game it claims: no timeouts, crashes, protocol
errors or illegal actions.

Run with `pytest` in this folder after `pip install -e .`; for more games and
edge cases use `arena check-bot {{NAME}}`.
"""

import pytest

from arena.plugins import installed
from arena.referee import Deal, Entrant, Limit, play_match

BOT = "{{NAME}}"


def claimed_games():
    registry = installed()
    if BOT not in registry.bots:
        raise RuntimeError(f"bot {BOT!r} is not installed: run `pip install -e .` in its folder")
    spec = registry.bot(BOT)
    return sorted(game for game in registry.games if spec.plays(game))


@pytest.mark.parametrize("game", claimed_games())
def test_plays_against_random_without_faults(game):
    registry = installed()
    engine = registry.engine(game)
    # the smallest table with at least one opponent
    players = min((n for n in engine.info.players if n >= 2), default=min(engine.info.players))
    entrants = [Entrant(BOT, registry.bot(BOT))]
    entrants += [Entrant(f"random#{i}", registry.bot("random")) for i in range(1, players)]
    # two games, the bot in a different seat each time
    deals = [Deal(seed, tuple((seat + seed) % players for seat in range(players)))
             for seed in range(2)]
    records = play_match(engine, entrants, deals, limit=Limit(move=1.0, bank=5.0))
    for record in records:
        for seat in record.seats:
            assert seat.fault is None, (
                f"game seed {record.seed}: {seat.bot} faulted: {seat.fault}: {seat.fault_detail}")
'''

README = '''\
# {{NAME}}

A bot for the farm-arena card-game arena. It plays {{GAMES_TEXT}}.

| file | what |
|------|------|
| `{{MODULE}}/bot.py` | the bot: `{{CLASS}}`, on `arena.botkit.Bot`. Write your strategy in `act`. |
| `{{MODULE}}/plugin.py` | registers the bot with the arena: its name, the games it plays (`GAMES`) and how to start it |
| `pyproject.toml` | the package, with the `arena` entry point that makes the arena find the plugin |
| `tests/test_{{MODULE}}.py` | plays it against `random` through the arena's real referee |

## Install it

Into the same Python environment as the arena (`which arena` shows it):

```sh
pip install -e ./{{NAME}}        # from the folder above this one
arena bots                       # {{NAME}} is listed, with the games it plays
```

`-e` (editable) means your edits to `{{MODULE}}/` take effect in the next
match without reinstalling. Reinstall only after changing `pyproject.toml`.

## Try it

```sh
arena match {{GAME_EXAMPLE}} --bot {{NAME}} --bot random --games 10 --seed 1
arena check-bot {{NAME}}{{CHECK_GAMES}}     # conformance: a few games, then edge cases
pytest {{NAME}}                  # the test in tests/ (pip install pytest first)
```

`arena check-bot` plays a few games of each game the bot claims and then
sends it the edge cases (the first move, a single legal action, the largest
legal-action lists, the end of a game, a new match); it says `ok` per game,
or exactly which message the bot mishandled and how.

## Write it

- `act(observation, legal, clock)` must return one element of `legal`,
  unchanged, within `clock["move"]` seconds. The observation of each game is
  described in the arena's `docs/games/<game>.md`; the messages in
  `docs/protocol.md`.
- Use `self.rng` (seeded by the match) for chance, so a match replays exactly.
- `print` goes to stderr (the referee keeps 64 KiB); stdout is the wire.
- To play only some games, list their ids in `GAMES` in `plugin.py`
  (`arena games` shows them); `"*"` means every game.
- The bot runs sandboxed: no network, a private empty `/tmp` as its home,
  its own package files read-only. Ship data files inside `{{MODULE}}/` and
  open them relative to `__file__`.

## Enter a tournament

Add the bot to a tournament file (see the arena's `docs/tournaments.md`):

```toml
name = "mine"
bots = ["{{NAME}}", "random"]
games = ["{{GAME_EXAMPLE}}"]
```

```sh
arena tournament mine.toml       # plays it, stores results, prints the leaderboard
arena leaderboard results/mine
```
'''
