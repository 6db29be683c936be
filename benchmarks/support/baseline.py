"""Another commit of this repository, checked out beside this tree, so a
benchmark can time it in the same run (``--baseline REF``): a speed-up is
then a ratio from one run on one machine, not two numbers from two days."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def worktree(ref: str | None, name: str = "baseline"):
    """A detached git worktree of ``ref`` (None: no worktree, yields None),
    under ``.benchmarks/`` of this tree -- not under /tmp, which the strict
    sandbox replaces with a private folder -- removed afterwards."""
    if ref is None:
        yield None
        return
    path = ROOT / ".benchmarks" / f"{name}-{ref}"
    if path.exists():
        subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, check=False)
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(path), ref], cwd=ROOT, check=True
    )
    try:
        yield path
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, check=False)


def python_for(tree: Path) -> str:
    """The interpreter that runs ``tree``'s own code everywhere, its bots'
    processes included: this environment's for this tree; for another
    checkout, a venv beside it (``.benchmarks/NAME-REF.venv``, made once and
    kept) where that checkout is installed editable over this environment's site
    folder (a ``.pth`` adds it after its own, so the checkout's ``arena``,
    ``engines`` and ``bots`` come first); only the requirements this
    environment lacks (an old tree's ``trueskill``) are installed there.
    PYTHONPATH alone is not enough: it reaches the referee but not a bot,
    whose environment the sandbox clears -- a bot of the other checkout
    would import this tree's modules."""
    if tree.resolve() == ROOT:
        return sys.executable
    venv = tree.with_name(tree.name + ".venv")
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        own = subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        )
        layer = Path(own.stdout.strip()) / "zz_layered_over.pth"
        layer.write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "--python",
                str(python),
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "-e",
                str(tree),
                "--config-settings",
                "editable_mode=compat",
            ],
            check=True,
        )
    return str(python)


#: the arena's modules by the names this tree gives them, and the names of a
#: checkout from before they were grouped into packages (a2d035e): a child run
#: in such a checkout imports the new names and gets the old modules
BEFORE_PACKAGES = {
    "arena.game._frozen": "arena.frozen",
    "arena.game.testing": "arena.testing",
    "arena.game.teams": "arena.teams",
    "arena.botkit.protocol": "arena.protocol",
    "arena.botkit.messages": "arena.messages",
    "arena.botkit.inprocess": "arena.inprocess",
    "arena.plugins.botspec": "arena.bots",
    "arena.plugins.host": "arena.plugin_host",
    "arena.plugins.sandboxed": "arena.plugin_sandbox",
    "arena.records.faults": "arena.faults",
    "arena.records.verify": "arena.verify",
    "arena.match.referee": "arena.referee",
    "arena.match.session": "arena.session",
    "arena.match.connection": "arena.connection",
    "arena.match.seeds": "arena.seeds",
    "arena.match.audit": "arena.audit",
    "arena.results.store": "arena.store",
    "arena.results.export": "arena.export",
    "arena.results.items": "arena.plan_items",
    "arena.ratings.rating": "arena.rating",
    "arena.ratings.thurstone": "arena.thurstone",
    "arena.ratings.stats": "arena.stats",
    "arena.ratings.sequential": "arena.sequential",
    "arena.presentation.leaderboard": "arena.leaderboard",
    "arena.presentation.pages": "arena.pages",
    "arena.presentation.frames": "arena.frames",
    "arena.presentation.web": "arena.web",
    "arena.presentation.board_cache": "arena.board_cache",
    "arena.presentation.match_summary": "arena.match_summary",
    "arena.tournament.sprt": "arena.sprt",
    "arena.authoring.checkbot": "arena.checkbot",
    "arena.authoring.newbot": "arena.newbot",
}
#: run first in a child: in a checkout from before the packages, the new names
#: resolve, on first import, to the old modules (and their new parents to
#: empty packages), so nothing is imported that the measured code would not
BOOTSTRAP = """
import importlib, importlib.abc, importlib.machinery, importlib.util, runpy, sys, types
moved = {moved!r}
class Before(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if name in moved:
            return importlib.util.spec_from_loader(name, self)
        if not any(new.startswith(name + ".") for new in moved):
            return None
        real = importlib.machinery.PathFinder.find_spec(name, path)
        if real is None:
            return importlib.util.spec_from_loader(name, self, is_package=True)
        if real.submodule_search_locations is None:  # a module then, a package now
            return importlib.util.spec_from_file_location(name, real.origin,
                                                          submodule_search_locations=[])
        return None
    def create_module(self, spec):
        if spec.name in moved:
            return importlib.import_module(moved[spec.name])
        package = types.ModuleType(spec.name)
        package.__path__ = []
        return package
    def exec_module(self, module):
        pass
if importlib.util.find_spec("arena.match") is None:
    sys.meta_path.insert(0, Before())
sys.argv = {argv!r}
sys.path.insert(0, sys.argv[0].rpartition("/")[0])  # as running the script would
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def tree_of(module) -> str:
    """The checkout a module of the arena (or of its engines or bots) was
    imported from: the nearest folder above it with a ``pyproject.toml``."""
    folder = Path(module.__file__).resolve().parent
    while not (folder / "pyproject.toml").is_file() and folder != folder.parent:
        folder = folder.parent
    return str(folder)


def child_command(python: str, script: str, *args: object) -> list[str]:
    """The command that runs ``script`` (a benchmark's own file) with
    ``--child ARGS`` under ``python``, in whichever checkout is on its path."""
    argv = [str(Path(script).resolve()), "--child", *map(str, args)]
    return [python, "-c", BOOTSTRAP.format(moved=BEFORE_PACKAGES, argv=argv)]


def run_child(script: str, tree: Path, *args: object) -> dict:
    """Run ``script`` as a child in ``tree`` (:func:`child_command`) and
    return the JSON object its last line prints; the child names the tree it
    measured (``"tree"``), checked here."""
    done = subprocess.run(
        child_command(python_for(tree), script, *args),
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr.strip()[-600:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["tree"]) != tree.resolve():
        raise SystemExit(f"measured {result['tree']}, not {tree}")
    return result
