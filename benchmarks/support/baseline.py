"""Another commit of this repository, checked out beside this tree, so a
benchmark can time it in the same run (``--baseline REF``): a speed-up is
then a ratio from one run on one machine, not two numbers from two days."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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


def run_child(script: str, tree: Path, *args: object) -> dict:
    """Run ``script`` (a benchmark's own file) as a child in ``tree`` with
    ``--child ARGS`` and return the JSON object its last line prints; the
    child names the tree it measured (``"tree"``), checked here."""
    done = subprocess.run([sys.executable, str(Path(script).resolve()), "--child",
                           *map(str, args)], cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr.strip()[-600:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["tree"]) != tree.resolve():
        raise SystemExit(f"measured {result['tree']}, not {tree}")
    return result
