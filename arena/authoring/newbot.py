"""``arena new-bot``: write a ready, installable bot package.

:func:`create` writes NAME/ with its own ``pyproject.toml`` (the ``arena``
entry point), a plugin module that registers a :class:`~arena.plugins.botspec.BotSpec`
without importing the bot, the bot class on :class:`arena.botkit.Bot` (a
seeded random player to start from, a docstring per method), a README for
its author and a test that plays it against ``random`` through the real
referee.  ``pip install -e ./NAME`` then makes it appear in ``arena bots``
and playable in ``arena match`` and tournaments at once.

The files are jinja2 templates in ``arena/authoring/newbot-templates/`` (rendered with
``StrictUndefined``: a misspelt variable fails instead of writing a blank),
so each reads as the file it becomes.  The arena is on no package index, so
the package's README says how to install the arena from a clone first; when
this arena runs from its own checkout, that path is written in.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import jinja2

from arena.plugins.botspec import ANY_GAME

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")


class NewBotError(ValueError):
    """A name, game or folder that ``new-bot`` cannot use (nothing written)."""


@dataclass(frozen=True)
class Names:
    """How one bot name is spelled in each place it appears."""

    bot: str  # the arena's name for it: `arena match ... --bot NAME`
    distribution: str  # pip's name for the package
    module: str  # the import package
    cls: str  # the bot class

    @classmethod
    def from_name(cls, name: str) -> Names:
        if not NAME_PATTERN.match(name):
            raise NewBotError(
                f"bot name {name!r}: use lowercase letters, digits and single hyphens "
                "(or underscores), "
                "starting with a letter (e.g. 'my-bot')"
            )
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
        raise NewBotError(
            f"a bot named '{names.bot}' is already installed "
            f"(plugin '{registry.origin.get('bot:' + names.bot, '?')}'); choose another name"
        )
    try:
        metadata.distribution(names.distribution)
    except metadata.PackageNotFoundError:
        pass
    else:
        raise NewBotError(
            f"a distribution named '{names.distribution}' is already installed; choose another name"
        )
    if importlib.util.find_spec(names.module) is not None:
        raise NewBotError(
            f"a Python module named '{names.module}' already exists here; choose another name"
        )


def resolve_games(games: list[str], registry) -> tuple[str, ...]:
    """The game ids the bot will claim: the given ones (checked), or any."""
    if not games:
        return (ANY_GAME,)
    unknown = [game for game in games if game not in registry.games]
    if unknown:
        known = ", ".join(sorted(registry.games)) or "none"
        raise NewBotError(f"unknown game '{unknown[0]}' (installed: {known})")
    return tuple(dict.fromkeys(games))


#: the package's files: path (``{module}`` filled in) -> template
FILES = {
    "pyproject.toml": "pyproject.toml.j2",
    "README.md": "README.md.j2",
    "{module}/__init__.py": "__init__.py.j2",
    "{module}/plugin.py": "plugin.py.j2",
    "{module}/bot.py": "bot.py.j2",
    "tests/test_{module}.py": "test.py.j2",
}
#: shown in the README when the arena's own checkout cannot be found
ARENA_PLACEHOLDER = "/path/to/farm-arena"


def arena_checkout() -> str:
    """The folder of the arena's source checkout (an editable install from a
    clone), or :data:`ARENA_PLACEHOLDER` when it runs from site-packages."""
    root = Path(__file__).resolve().parents[2]
    project = root / "pyproject.toml"
    if project.is_file() and 'name = "farm-arena"' in project.read_text(encoding="utf-8"):
        return str(root)
    return ARENA_PLACEHOLDER


def render(names: Names, games: tuple[str, ...], arena_source: str | None = None) -> dict[str, str]:
    """Every file of the package, by path relative to its folder."""
    values = {
        "name": names.bot,
        "dist": names.distribution,
        "module": names.module,
        "cls": names.cls,
        "games_literal": repr(games) if len(games) != 1 else f"({games[0]!r},)",
        "games_text": "any game" if ANY_GAME in games else ", ".join(games),
        "game_example": "farm-and-furious" if ANY_GAME in games else games[0],
        "check_games": "" if ANY_GAME in games else "".join(f" --game {g}" for g in games),
        "arena_source": arena_source or arena_checkout(),
    }
    templates = jinja2.Environment(
        loader=jinja2.PackageLoader("arena.authoring", "newbot-templates"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    return {
        path.format(module=names.module): templates.get_template(template).render(values)
        for path, template in FILES.items()
    }


def create(
    name: str, games: list[str] | None = None, directory: str | Path = ".", registry=None
) -> Path:
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
