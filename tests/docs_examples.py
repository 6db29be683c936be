"""Run the console examples of README.md and docs/**/*.md, compare their output.

A *tested example* is a fenced block whose info string is ``console``::

    ```console
    $ arena match farm-and-furious --bot random --bot random --seed 1
    farm-and-furious, seed 1 (the same seed replays this match), sandbox ...
    ...
    ```

Every ``$ `` line is a command for bash, continued by the lines after it
that start with ``> `` (as bash's own prompt shows a here-document or an
open quote), and the lines up to the next ``$ `` are what it prints, stdout
and stderr together as a terminal shows them.  In the expected output,
``...`` inside a line matches any text, and a line that is only ``...``
matches any number of lines.  Blocks marked ``sh`` (or anything else) are
shown, never run.

All blocks of one file run in order in one scratch folder (a later block sees
what an earlier one wrote), under a scratch Python environment layered over
the arena's: ``arena``, ``python``, ``pip`` and ``pytest`` are on PATH, what
``pip install`` installs goes into the scratch environment and never into
yours, bots and games installed in yours (the tutorial's ``my-bot``, if you
followed it in ``.venv``) are hidden from it, and ``.venv`` in the scratch folder is that environment, so
``.venv/bin/arena`` works as the README writes it.

Regenerate the expected outputs after a change that alters them (new seeds,
new output format)::

    python -m tests.docs_examples --update            # every documented file
    python -m tests.docs_examples --update docs/writing-a-bot.md

``--update`` rewrites only the outputs that differ; in an output whose line
count is unchanged, the lines that still match (with their ``...``) are kept.
Without ``--update`` it reports the differences and exits 1.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import site
import subprocess
import sys
import tempfile
import venv
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
PROMPT = "$ "
MORE = "> "
ANY_LINES = "..."
#: seconds one documented command may take
TIMEOUT = 180


@dataclass
class Command:
    text: str  # the command as bash runs it (continuations joined)
    line: int  # 0-based line of its "$ " in the file
    expected: list[str]  # expected output lines
    output_start: int  # 0-based line of the first expected line
    indent: str = ""


def documented_files() -> list[Path]:
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def parse(path: Path) -> list[Command]:
    """The commands of every ``console`` block of a Markdown file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    commands: list[Command] = []
    fenced = False
    inside: str | None = None  # the indent of an open console block
    current: Command | None = None  # the command whose output is being read
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = FENCE.match(line)
        if fence:
            if not fenced and fence.group(2) == "console":
                inside = fence.group(1)
            else:
                inside = None
            fenced = not fenced
            current = None
        elif inside is not None:
            body = line[len(inside) :]
            if body.startswith(PROMPT):
                start = index
                text = body[len(PROMPT) :]
                while index + 1 < len(lines) and _continues(lines[index + 1][len(inside) :]):
                    index += 1
                    text += "\n" + lines[index][len(inside) + len(MORE) :]
                current = Command(text, start, [], index + 1, inside)
                commands.append(current)
            elif current is not None:
                current.expected.append(body)
        index += 1
    return commands


def _continues(line: str) -> bool:
    """A ``> `` line, or a bare ``>`` (an empty line of a here-document)."""
    return line.startswith(MORE) or line == MORE.rstrip()


def _line_pattern(line: str) -> str:
    return ".*".join(re.escape(part) for part in line.split("..."))


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` fits ``expected`` (``...`` wildcards, see above)."""
    pattern = "".join(
        r"(?:[^\n]*\n)*?" if line.strip() == ANY_LINES else _line_pattern(line.rstrip()) + r"\n"
        for line in expected
    )
    text = "".join(line.rstrip() + "\n" for line in actual)
    return re.fullmatch(pattern, text) is not None


def updated(expected: list[str], actual: list[str]) -> list[str]:
    """New expected lines for ``actual``, keeping the lines that still match."""
    actual = [line.rstrip() for line in actual]
    if len(expected) != len(actual) or any(line.strip() == ANY_LINES for line in expected):
        return actual
    return [old if matches([old], [new]) else new for old, new in zip(expected, actual)]


class Scratch:
    """A scratch folder with a Python environment layered over the arena's."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="docs-example-"))
        self.folder.chmod(0o755)  # the strict sandbox runs bots under uids of their own
        self.mirrors: list[Path] = []
        env_dir = self.folder / ".venv"
        venv.EnvBuilder(with_pip=False, symlinks=True).create(env_dir)
        self.bin = env_dir / "bin"
        python = self.bin / "python"
        layer = subprocess.run(
            [str(python), "-c", "import site; print(site.getsitepackages()[0])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        arena_sites = [
            str(self._without_plugins(Path(p), index))
            for index, p in enumerate(site.getsitepackages())
            if Path(p).is_dir()
        ]
        Path(layer, "_arena_layer.pth").write_text(
            "import site; " + "; ".join(f"site.addsitedir({p!r})" for p in arena_sites) + "\n"
        )
        for name, call in (
            ("arena", "from arena.cli import app as main"),
            ("pip", "from pip._internal.cli.main import main"),
            ("pytest", "from pytest import main"),
        ):
            script = self.bin / name
            script.write_text(f"#!{python}\nimport sys\n{call}\nsys.exit(main())\n")
            script.chmod(0o755)
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("VIRTUAL_ENV", "PYTHONPATH", "COLUMNS", "LINES")
        }
        self.env.update(
            PATH=f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}",
            PYTHONUNBUFFERED="1",
            PIP_DISABLE_PIP_VERSION_CHECK="1",
            NO_COLOR="1",
            TERM="dumb",
        )

    def _without_plugins(self, sites: Path, index: int) -> Path:
        """A copy of the arena's ``sites`` made of links to its entries, less
        every distribution that plugs into the arena but the arena itself: a
        bot the reader installed there (the tutorial's ``my-bot`` in
        ``.venv``) is not seen by the examples, which install their own."""
        from importlib.metadata import distributions

        hidden: set[str] = set()
        for dist in distributions(path=[str(sites)]):
            groups = {entry.group for entry in dist.entry_points}
            if dist.metadata["Name"] != "farm-arena" and groups & {"arena", "arena.engines"}:
                hidden.update(Path(str(f)).parts[0] for f in dist.files or ())
        mirror = self.folder.parent / f"{self.folder.name}-site{index}"
        mirror.mkdir()
        for entry in sites.iterdir():
            if entry.name not in hidden:
                (mirror / entry.name).symlink_to(entry)
        self.mirrors.append(mirror)
        return mirror

    def run(self, command: str) -> list[str]:
        result = subprocess.run(
            ["bash", "-c", command],
            cwd=self.folder,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=TIMEOUT,
        )
        return result.stdout.replace(str(self.folder), ".").splitlines()

    def close(self) -> None:
        for folder in (self.folder, *self.mirrors):
            shutil.rmtree(folder, ignore_errors=True)


def run_file(path: Path, update: bool = False) -> list[str]:
    """Run a file's examples; the differences found (rewritten with ``update``)."""
    commands = parse(path)
    if not commands:
        return []
    problems = []
    replacements: list[tuple[Command, list[str]]] = []
    scratch = Scratch()
    try:
        for command in commands:
            actual = scratch.run(command.text)
            if matches(command.expected, actual):
                continue
            where = f"{path.relative_to(ROOT)}:{command.line + 1}"
            diff = difflib.unified_diff(
                command.expected, actual, "documented", "printed", lineterm=""
            )
            problems.append(f"{where}: $ {command.text}\n" + "\n".join(diff))
            replacements.append((command, updated(command.expected, actual)))
    finally:
        scratch.close()
    if update and replacements:
        lines = path.read_text(encoding="utf-8").splitlines()
        for command, new in sorted(replacements, key=lambda r: -r[0].line):
            end = command.output_start + len(command.expected)
            lines[command.output_start : end] = [
                command.indent + line if line else line for line in new
            ]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.docs_examples", description="Run the console examples of the docs."
    )
    parser.add_argument("files", nargs="*", type=Path, help="Markdown files (default: all)")
    parser.add_argument(
        "--update", action="store_true", help="rewrite the expected outputs that differ"
    )
    args = parser.parse_args(argv)
    files = [path.resolve() for path in args.files] or documented_files()
    failed = 0
    for path in files:
        problems = run_file(path, update=args.update)
        for problem in problems:
            print(problem, end="\n\n")
        if problems:
            failed += 1
            print(
                f"{path.relative_to(ROOT)}: {len(problems)} example(s) "
                + ("rewritten" if args.update else "differ"),
                file=sys.stderr,
            )
    return 0 if args.update or not failed else 1


if __name__ == "__main__":
    sys.exit(main())
