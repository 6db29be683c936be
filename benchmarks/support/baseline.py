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
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(path), ref],
                   cwd=ROOT, check=True)
    try:
        yield path
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, check=False)


def python_for(tree: Path) -> str:
    """The interpreter that runs ``tree``'s own code everywhere, its bots'
    processes included: this environment's for this tree; for another
    checkout, a venv beside it (``.benchmarks/NAME-REF.venv``, made once and
    kept) where that checkout is installed editable without dependencies,
    over this environment's site folder (a ``.pth`` adds it after its own,
    so the checkout's ``arena``, ``engines`` and ``bots`` come first).
    PYTHONPATH alone is not enough: it reaches the referee but not a bot,
    whose environment the sandbox clears -- a bot of the other checkout
    would import this tree's modules."""
    if tree.resolve() == ROOT:
        return sys.executable
    venv = tree.with_name(tree.name + ".venv")
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                        "--quiet", "--disable-pip-version-check", "--no-deps", "-e", str(tree),
                        "--config-settings", "editable_mode=compat"], check=True)
        own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                              "['purelib'])"], capture_output=True, text=True, check=True)
        layer = Path(own.stdout.strip()) / "zz_layered_over.pth"
        layer.write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    return str(python)


def run_child(script: str, tree: Path, *args: object) -> dict:
    """Run ``script`` (a benchmark's own file) as a child in ``tree`` with
    ``--child ARGS`` and return the JSON object its last line prints; the
    child names the tree it measured (``"tree"``), checked here."""
    done = subprocess.run([python_for(tree), str(Path(script).resolve()), "--child",
                           *map(str, args)], cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr.strip()[-600:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["tree"]) != tree.resolve():
        raise SystemExit(f"measured {result['tree']}, not {tree}")
    return result
