"""Mutation testing of arena/ and engines/ with Cosmic Ray (``make mutate``).

Each module listed under ``[tool.mutate.modules]`` in pyproject.toml is
mutated against its *own* fast tests only, so a survivor says "the tests
meant for this module do not notice this change", not "some slow end-to-end
test elsewhere happens to".  Mutants are sampled (``sample`` per module, the
same ones every run for a given ``seed`` and source) to keep the whole set
within a coffee break on a small machine; ``SAMPLE=0`` runs every mutant.

The mutants are made in a scratch copy of the tree (``.mutate/tree``), never
in the working tree, so an interrupted run leaves no mutated source behind;
``PYTHONPATH`` makes the tests -- and the bot processes they start -- import
the copy.  ``jobs`` modules run at once, each job in a copy of its own
(``.mutate/tree``, ``.mutate/tree-1``, ...): Cosmic Ray mutates a file in
place, so one tree holds one mutant at a time, and most of a module's time is
its tests waiting (for bots to start, for pipes, for timeouts), which a second
job fills.  The longest modules (as last measured, ``.mutate/times.json``)
start first, so the jobs end close together.  The report is one line per
module (killed/run, kill rate, its wall time) and a list of the survivors
with their diffs, also kept in ``.mutate/report.txt``.  The survivors judged
equivalent, with why, are in ``tools/mutation-equivalents.toml``, each named
by its module's line of text: ``--check-equivalents`` reports an entry whose
line is no longer in its module (a test runs it, so a stale entry fails CI).

Usage: ``python tools/mutate.py [MODULE ...]`` (default: every listed module);
``--jobs N`` (default: pyproject's ``jobs``); ``MUTATE_SCRATCH=dir`` runs in
another scratch folder (two runs at once).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

# Cosmic Ray is imported where a run uses it: --check-equivalents (which make
# test runs) needs only this file and the standard library
ROOT = Path(__file__).resolve().parents[1]
#: the survivors judged equivalent, by module
EQUIVALENTS = ROOT / "tools" / "mutation-equivalents.toml"
SCRATCH = Path(os.environ.get("MUTATE_SCRATCH", ROOT / ".mutate")).resolve()
#: each module's wall time in the last run, so the next one starts the longest first
TIMES = SCRATCH / "times.json"


def tree_of(job: int) -> Path:
    """The scratch copy job ``job`` mutates."""
    return SCRATCH / ("tree" if job == 0 else f"tree-{job}")


def settings() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutate"]


def equivalents() -> dict[str, list[tuple[str, str]]]:
    """The mutants judged equivalent, as (old line, new line) by module; a
    new line ``*`` stands for every mutant of the old one."""
    return {
        module: [
            tuple(part.strip() for part in entry.split(" => ", 1))
            for judgement in judgements
            for entry in judgement["mutants"]
        ]
        for module, judgements in tomllib.loads(EQUIVALENTS.read_text()).items()
    }


def stale(judged: dict[str, list[tuple[str, str]]], modules, root: Path = ROOT) -> list[str]:
    """What is wrong with ``judged`` (from :func:`equivalents`): a module
    not among ``modules`` (those mutated), or an entry whose old line is no
    longer in its module -- it changed, and the mutant must be judged again."""
    found = []
    for module, entries in judged.items():
        if module not in modules or not (root / module).is_file():
            found.append(f"{module}: not a mutated module ({len(entries)} entries)")
            continue
        lines = {line.strip() for line in (root / module).read_text().splitlines()}
        found += [
            f"{module}: no line {old!r} (for => {new!r})"
            for old, new in entries
            if old not in lines
        ]
    return found


def check_equivalents(modules) -> int:
    """``--check-equivalents``: each stale entry on a line, exit status 1 if any."""
    try:
        judged = equivalents()
        problems = stale(judged, modules)
    except (OSError, ValueError, KeyError, TypeError) as error:  # not the file's shape
        print(
            f"mutate: {EQUIVALENTS.name}: not a table of judgements with their "
            f'"old => new" mutants per module ({error!r})',
            file=sys.stderr,
        )
        return 2
    for problem in problems:
        print(f"mutate: stale equivalent in {EQUIVALENTS.name}: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"mutate: {sum(map(len, judged.values()))} equivalents of {len(judged)} modules current")
    return 0


def copy_tree(tree: Path) -> None:
    """The project's files (tracked and new, not ignored) into a scratch
    tree -- not the scratch folder itself, if it is an unignored one."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .split("\0")
    )
    shutil.rmtree(tree, ignore_errors=True)
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file() and SCRATCH not in source.resolve().parents:
            target = tree / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def test_command(tests: list[str]) -> str:
    return shlex.join(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    )


def config_for(module: str, tests: list[str], conf: dict, timeout: float) -> Path:
    """A Cosmic Ray configuration file for one module (its format is its own
    TOML table, so it is written from pyproject's settings)."""
    command = test_command(tests).replace("\\", "\\\\").replace('"', '\\"')
    excluded = ", ".join(f'"{op}"' for op in conf.get("exclude-operators", []))
    path = SCRATCH / (module.replace("/", "_") + ".toml")
    path.write_text(
        "[cosmic-ray]\n"
        f'module-path = "{module}"\n'
        f"timeout = {timeout:.1f}\n"
        "excluded-modules = []\n"
        f'test-command = "{command}"\n'
        "[cosmic-ray.distributor]\n"
        'name = "local"\n'
        "[cosmic-ray.filters.operators-filter]\n"
        f"exclude-operators = [{excluded}]\n"
    )
    return path


def sample(session: Path, size: int, seed: str, unevaluated: list) -> int:
    """Mark all but ``size`` mutants skipped: those whose hash of (seed,
    operator, occurrence, position) is smallest, so the sample is the same
    from run to run and an unchanged function keeps its mutants.  A sampled
    mutant inside an annotation that is never evaluated (``unevaluated``,
    see :func:`annotations`) is recorded as surviving without running its
    tests, which it would pass: the tally counts it equivalent either way."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        items = list(db.pending_work_items)

        def key(item):
            m = item.mutations[0]
            text = f"{seed}|{m.operator_name}|{m.occurrence}|{m.start_pos}|{m.end_pos}"
            return hashlib.sha256(text.encode()).hexdigest()

        chosen = sorted(items, key=key)
        if size > 0:
            for item in chosen[size:]:
                db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
            chosen = chosen[:size]
        for item in chosen:
            start = tuple(item.mutations[0].start_pos)
            if any(a <= start < b for a, b in unevaluated):
                db.set_result(
                    item.job_id,
                    WorkResult(
                        worker_outcome=WorkerOutcome.NORMAL,
                        test_outcome=TestOutcome.SURVIVED,
                        output="not run: inside an annotation that is never evaluated",
                        diff="",
                    ),
                )
        return len(chosen)


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where the annotations of a module are, as ((line, col), (end line,
    end col)): a local variable's annotation is never evaluated, and none is
    under ``from __future__ import annotations``."""
    tree = ast.parse(source)
    postponed = any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(alias.name == "annotations" for alias in node.names)
        for node in tree.body
    )
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if postponed:
                found += [
                    a.annotation
                    for a in ast.walk(node.args)
                    if isinstance(a, ast.arg) and a.annotation is not None
                ]
                found += [node.returns] if node.returns is not None else []
            found += [n.annotation for n in ast.walk(node) if isinstance(n, ast.AnnAssign)]
        elif isinstance(node, ast.AnnAssign) and postponed:
            found.append(node.annotation)
    return [
        ((n.lineno, n.col_offset), (n.end_lineno, n.end_col_offset))
        for n in found
        if n.end_lineno is not None and n.end_col_offset is not None
    ]  # parse sets them


def change(diff: str) -> tuple[str, str]:
    """A mutant as (old line, new line), stripped: how
    ``mutation-equivalents.toml`` names one, whatever line it is on."""
    lines = diff.splitlines()
    old = next(
        (line[1:] for line in lines if line.startswith("-") and not line.startswith("---")), ""
    )
    # a mutant that deletes a line (a statement removed) has no new line
    new = next(
        (line[1:] for line in lines if line.startswith("+") and not line.startswith("+++")), ""
    )
    return old.strip(), new.strip()


def tool(name: str, *args: str, tree: Path) -> None:
    """Run one of Cosmic Ray's commands in ``tree``, importing that tree."""
    subprocess.run(
        [str(Path(sys.executable).parent / name), *args],
        cwd=tree,
        check=True,
        env=dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1"),
    )


def run_module(module: str, tests: list[str], conf: dict, size: int, tree: Path) -> dict:
    """Mutate ``module`` in ``tree``: its tests once unmutated, then the
    sampled mutants; the tally, with the module's wall time."""
    started = time.monotonic()
    # unmutated, the tests must pass, or every mutant would count as killed
    baseline = subprocess.run(
        shlex.split(test_command(tests)),
        cwd=tree,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1"),
    )
    if baseline.returncode != 0:
        print(
            f"mutate: the tests of {module} fail without any mutant; skipped:\n"
            f"{baseline.stdout[-2000:]}",
            file=sys.stderr,
        )
        return {
            "module": module + " (tests fail unmutated)",
            "run": 0,
            "killed": 0,
            "incompetent": 0,
            "equivalent": 0,
            "timeouts": 0,
            "survivors": [],
            "seconds": 0.0,
        }
    # a mutant that makes a test hang is killed by the timeout: a few times
    # what the tests took unmutated (so a loaded machine does not pass for a
    # hang), never less than pyproject's ``timeout``
    took = time.monotonic() - started
    config = config_for(
        module,
        tests,
        conf,
        max(float(conf.get("timeout", 60)), conf.get("timeout-factor", 4) * took),
    )
    session = SCRATCH / (module.replace("/", "_") + ".sqlite")
    session.unlink(missing_ok=True)
    tool("cosmic-ray", "init", str(config), str(session), tree=tree)
    tool("cr-filter-operators", str(session), str(config), tree=tree)
    chosen = sample(
        session,
        size,
        str(conf.get("seed", "farm-arena")),
        annotation_spans((ROOT / module).read_text()),
    )
    tool("cosmic-ray", "exec", str(config), str(session), tree=tree)
    return dict(tally(module), chosen=chosen, seconds=time.monotonic() - started)


def run_all(modules: list[str], jobs: int, run) -> dict[str, dict]:
    """``run(module, tree)`` for every module, ``jobs`` at once, each job in
    a tree of its own, the longest modules (as last measured) first; their
    results by module.  A line on stderr as each ends, for a long run."""
    try:
        last = json.loads(TIMES.read_text())
    except (OSError, ValueError):
        last = {}
    todo: queue.Queue[str] = queue.Queue()
    for module in sorted(modules, key=lambda m: -last.get(m, 0.0)):
        todo.put(module)
    results: dict[str, dict] = {}
    failed: list[BaseException] = []

    def work(tree: Path) -> None:
        copy_tree(tree)
        while not failed:
            try:
                module = todo.get_nowait()
            except queue.Empty:
                return
            try:
                results[module] = result = run(module, tree)
            except BaseException as error:  # a Cosmic Ray command failed: stop the others
                failed.append(error)
                return
            print(
                f"mutate: {module}: {result['killed']}/{result['run']} killed, "
                f"{result['seconds']:.0f}s",
                file=sys.stderr,
                flush=True,
            )

    threads = [
        threading.Thread(target=work, args=(tree_of(job),))
        for job in range(max(1, min(jobs, len(modules))))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed:
        raise failed[0]
    TIMES.write_text(
        json.dumps(
            last | {m: round(r["seconds"], 1) for m, r in results.items()}, indent=1, sort_keys=True
        )
        + "\n"
    )
    return results


def tally(module: str) -> dict:
    """Killed, run, equivalent and the survivors of a module's last session."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    session = SCRATCH / (module.replace("/", "_") + ".sqlite")
    survivors, killed, run, incompetent, equivalent, timeouts = [], 0, 0, 0, 0, 0
    judged = set(equivalents().get(module, []))
    unevaluated = annotation_spans((ROOT / module).read_text())
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                continue
            if result.test_outcome == TestOutcome.INCOMPETENT:
                incompetent += 1  # the mutant does not even import: not counted
                continue
            if result.test_outcome == TestOutcome.SURVIVED:
                start = tuple(item.mutations[0].start_pos)
                if (
                    change(result.diff) in judged
                    or (change(result.diff)[0], "*") in judged
                    or any(a <= start < b for a, b in unevaluated)
                ):
                    equivalent += 1
                    continue
                m = item.mutations[0]
                survivors.append(f"{module}:{m.start_pos[0]} {m.operator_name}\n{result.diff}")
            else:
                killed += 1
                timeouts += result.output == "timeout"
            run += 1
    return {
        "module": module,
        "run": run,
        "killed": killed,
        "incompetent": incompetent,
        "equivalent": equivalent,
        "timeouts": timeouts,
        "survivors": survivors,
        "seconds": 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="modules to mutate (default: all listed)")
    parser.add_argument(
        "--sample",
        type=int,
        default=None,
        help="mutants per module (0: all; default: pyproject's 'sample')",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="modules mutated at once, each in its own scratch tree (default: pyproject's 'jobs')",
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="only report the last run's sessions again (after judging "
        "survivors equivalent in mutation-equivalents.toml)",
    )
    parser.add_argument(
        "--check-equivalents",
        action="store_true",
        help="only report the equivalents whose line is no longer in their "
        "module (exit status 1 if any)",
    )
    args = parser.parse_args(argv)
    conf = settings()
    listed = {
        module: entry if isinstance(entry, list) else entry["tests"]
        for module, entry in conf["modules"].items()
    }
    if args.check_equivalents:
        return check_equivalents(listed)
    sizes = {
        module: entry.get("sample")
        for module, entry in conf["modules"].items()
        if isinstance(entry, dict)
    }
    unknown = [m for m in args.modules if m not in listed]
    if unknown:
        print(
            f"mutate: {', '.join(unknown)} not in [tool.mutate.modules] of pyproject.toml "
            f"(listed: {', '.join(listed)})",
            file=sys.stderr,
        )
        return 2
    size = conf.get("sample", 40) if args.sample is None else args.sample
    chosen = args.modules or list(listed)
    started = time.monotonic()
    if args.report:
        results = [
            tally(module)
            for module in chosen
            if (SCRATCH / (module.replace("/", "_") + ".sqlite")).exists()
        ]
    else:
        SCRATCH.mkdir(parents=True, exist_ok=True)

        def run(module: str, tree: Path) -> dict:
            own = sizes.get(module) if args.sample is None else None
            return run_module(module, listed[module], conf, size if own is None else own, tree)

        jobs = conf.get("jobs", 1) if args.jobs is None else args.jobs
        try:
            by_module = run_all(chosen, jobs, run)
        except subprocess.CalledProcessError as error:
            print(
                f"mutate: {shlex.join(map(str, error.cmd))} failed (exit {error.returncode})",
                file=sys.stderr,
            )
            return 1
        results = [by_module[module] for module in chosen]
    lines = [
        f"{'module':36} {'killed':>6} {'of':>4} {'rate':>5} {'equiv':>5} {'t/o':>4} {'time':>6}"
    ]
    for r in results:
        rate = r["killed"] / r["run"] if r["run"] else 0.0
        lines.append(
            f"{r['module']:36} {r['killed']:>6} {r['run']:>4} {rate:>5.0%} "
            f"{r['equivalent']:>5} {r['timeouts']:>4} {r['seconds']:>5.0f}s"
        )
    if not args.report:
        lines.append(
            f"{len(results)} modules in {(time.monotonic() - started) / 60:.1f} "
            f"minutes, {max(1, min(jobs, len(results)))} at a time"
        )
    for r in results:
        lines += ["", f"== survivors in {r['module']} ({len(r['survivors'])})"] + r["survivors"]
    report = "\n".join(lines)
    if not args.report:
        (SCRATCH / "report.txt").write_text(report + "\n")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
