"""The arena's layers, read from the source: data flows plan -> executor ->
referee -> store -> ratings -> leaderboard, and no module imports one
downstream of it (a lazy import inside a function counts too); the bot side
imports only what the strict sandbox shows a bot."""

import ast
from functools import cache
from pathlib import Path

import pytest

from arena.sandbox import view

ROOT = Path(__file__).resolve().parents[1]


def _file(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


@cache
def imports(module: str) -> frozenset[str]:
    """The arena modules ``module`` imports anywhere in its source, with the
    packages Python runs on the way (``a.b.c`` runs ``a`` and ``a.b``)."""
    path = _file(module)
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            if name.split(".")[0] == "arena" and _file(name) is not None:
                parts = name.split(".")
                found.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))
    found.discard(module)
    return frozenset(found)


def closure(module: str) -> set[str]:
    seen, pending = set(), [module]
    while pending:
        for name in imports(pending.pop()):
            if name not in seen:
                seen.add(name)
                pending.append(name)
    return seen


UPSTREAM_OF = {
    # module: modules it must never reach (directly or through others)
    "arena.plan_items": {"arena.tournament", "arena.store", "arena.rating", "arena.referee"},
    "arena.referee": {"arena.tournament", "arena.store", "arena.rating", "arena.leaderboard"},
    "arena.store": {"arena.tournament", "arena.rating", "arena.leaderboard", "arena.referee"},
    "arena.rating": {"arena.tournament", "arena.leaderboard", "arena.referee"},
    "arena.leaderboard": {"arena.tournament", "arena.referee"},
    # the bot session sits under the referee and check-bot; fault kinds under all
    "arena.session": {"arena.referee", "arena.checkbot", "arena.tournament", "arena.store"},
    "arena.faults": {"arena.connection", "arena.session", "arena.referee", "arena.records",
                     "arena.sandbox"},
}


@pytest.mark.parametrize("module", sorted(UPSTREAM_OF))
def test_no_module_imports_downstream(module):
    reached = closure(module)
    bad = sorted(name for name in reached
                 if any(name == b or name.startswith(b + ".") for b in UPSTREAM_OF[module]))
    assert bad == [], f"{module} reaches {bad}"


def test_the_control_finds_an_import_that_is_there():
    # the reader is real: the runner does reach the store and the planner
    assert {"arena.store", "arena.tournament.plan"} <= closure("arena.tournament.runner")


def test_the_bot_kit_imports_only_what_a_strict_bot_is_shown():
    shown = {"arena." + name.removesuffix(".py") for name in view.KIT_MODULES} - {"arena.__init__"}
    assert closure("arena.botkit") - {"arena"} <= shown
