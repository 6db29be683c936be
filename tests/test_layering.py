"""The arena's layers, read from the source.

Every module of ``arena/`` belongs to one package of :data:`PACKAGES`, and
imports (anywhere in its source: a lazy import inside a function counts, and
so does one for type checkers only) only its own package and the packages
that package may use.  The table is ``docs/architecture.md``'s, row for row,
and it has no circle, so data flows one way: plan -> executor -> referee ->
store -> ratings -> leaderboard.  No module imports another package's private
(underscored) module, and no two modules import each other, however far round.
The bot side imports only what the strict sandbox shows a bot."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from arena.sandbox import view

ROOT = Path(__file__).resolve().parents[1]

#: each package, and the packages its modules may import (the root package
#: ``arena``, which holds only the version and the distribution's name, any may)
PACKAGES: dict[str, set[str]] = {
    "game": set(),
    "botkit": {"game"},
    "sandbox": set(),
    "plugins": {"game", "sandbox"},
    "records": {"game", "botkit"},
    "match": {"game", "botkit", "sandbox", "plugins", "records"},
    "results": {"game", "botkit", "records"},
    "ratings": {"game", "botkit", "records", "results"},
    "presentation": {"game", "botkit", "plugins", "sandbox", "records", "results", "ratings"},
    "tournament": {
        "game",
        "botkit",
        "sandbox",
        "plugins",
        "records",
        "match",
        "results",
        "ratings",
        "presentation",
    },
    "authoring": {"game", "botkit", "sandbox", "plugins", "records", "match"},
    "rl": {"game", "botkit", "sandbox", "plugins"},
}
#: a ladder is a tournament that goes on, with check-bot's admission
PACKAGES["ladder"] = PACKAGES["tournament"] | {"tournament", "authoring"}
#: the command line may use every other package
PACKAGES["cli"] = set(PACKAGES)
#: modules of one package that must not reach others of it
WITHIN = {
    # the bot session sits under the referee; fault kinds under the record
    "arena.match.session": {"arena.match.referee"},
    "arena.records.faults": {"arena.records"},
}


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.joinpath("arena").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = modules()


def _resolve(name: str) -> str | None:
    """The arena module that ``name`` (a module or a name in one) is."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


@cache
def imports(module: str) -> frozenset[str]:
    """The arena modules ``module`` names in an import anywhere in its source
    (``from a.b import c`` names ``a.b.c`` when that is a module, else ``a.b``)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str | None] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(
                _resolve(alias.name) for alias in node.names if alias.name.split(".")[0] == "arena"
            )
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            if base.split(".")[0] == "arena":
                found.update(_resolve(f"{base}.{alias.name}") for alias in node.names)
    found.discard(module)
    found.discard(None)
    return frozenset(name for name in found if name is not None)


def package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in PACKAGES else None


def closure(module: str) -> set[str]:
    """The arena modules ``module`` reaches through its imports."""
    return closure_of(module, imports) - {module}


def test_every_module_belongs_to_a_package_of_the_table():
    loose = [m for m in MODULES if m not in ("arena", "arena.__main__") and package_of(m) is None]
    assert loose == []


def test_the_table_has_no_circle_and_is_closed():
    # closed: a package may use what the packages it uses use, so a check of
    # direct imports is a check of everything reached
    for name, uses in PACKAGES.items():
        for used in uses:
            assert PACKAGES[used] <= uses, f"{name} uses {used} but not all it uses"
        assert name not in uses


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_what_its_package_may_use(module):
    mine = package_of(module)
    allowed = PACKAGES.get(mine, set(PACKAGES)) | {mine}
    bad = sorted(
        name for name in imports(module) if name != "arena" and package_of(name) not in allowed
    )
    assert bad == [], f"{module} ({mine}) imports {bad}"


def test_no_module_imports_another_package_s_private_module():
    bad = sorted(
        (module, name)
        for module in MODULES
        for name in imports(module)
        if name.rpartition(".")[2].startswith("_")
        and not name.endswith("__main__")
        and package_of(name) != package_of(module)
    )
    assert bad == []


def test_no_circle_between_modules():
    # a submodule naming its own package runs that package's __init__, which
    # is already running: that is how packages work, not a circle
    def edges(module):
        return {name for name in imports(module) if not module.startswith(name + ".")}

    circles = sorted(m for m in MODULES if any(m in closure_of(n, edges) for n in edges(m)))
    assert circles == []


def closure_of(start: str, edges) -> set[str]:
    seen, pending = {start}, [start]
    while pending:
        for name in edges(pending.pop()):
            if name not in seen:
                seen.add(name)
                pending.append(name)
    return seen


@pytest.mark.parametrize("module", sorted(WITHIN))
def test_no_module_reaches_one_above_it_in_its_package(module):
    assert closure(module) & WITHIN[module] == set()


def test_the_control_finds_an_import_that_is_there():
    # the reader is real: the runner does reach the store and the planner, and
    # a module of the store breaking the table would be seen
    assert {"arena.results.store", "arena.tournament.plan"} <= closure("arena.tournament.runner")
    assert "tournament" not in PACKAGES["results"]


def test_the_architecture_page_draws_the_table():
    page = (ROOT / "docs" / "architecture.md").read_text()
    rows = dict(re.findall(r"^\| `arena\.(\w+)` \| ([^|]*) \|", page, re.M))
    drawn = {name: set(re.findall(r"`(\w+)`", uses)) for name, uses in rows.items()}
    assert drawn == PACKAGES


def _shown(folders: tuple[str, ...]) -> set[str]:
    return {
        m for m in MODULES if any(MODULES[m].is_relative_to(ROOT / "arena" / f) for f in folders)
    }


def test_the_bot_kit_imports_only_what_a_strict_bot_is_shown():
    shown = _shown(view.KIT_MODULES) | {"arena"}
    assert closure("arena.botkit.__main__") - shown == set()
    assert closure("arena.botkit.__main__") >= {"arena.botkit", "arena.botkit.protocol"}


def test_the_plugin_host_imports_only_what_it_is_shown():
    shown = _shown(view.KIT_MODULES + view.HOST_MODULES) | {"arena"}
    # botspec's sandbox import is the referee's, never run in the host
    reached = closure("arena.plugins.host") - shown
    assert reached <= {m for m in MODULES if m.startswith("arena.sandbox")}
