"""The docs cannot go stale: every ``console`` example of README.md and
docs/**/*.md is run and its output compared (tests/docs_examples.py says how
to mark one and how to regenerate the outputs with ``--update``)."""

import subprocess

import docs_examples as docs
import pytest
from docs_examples import ROOT, matches, parse, run_file, updated

TESTED = [path for path in docs.documented_files() if parse(path)]


def test_the_readme_and_the_tutorial_have_tested_examples():
    names = {str(path.relative_to(ROOT)) for path in TESTED}
    assert {"README.md", "docs/writing-a-bot.md"} <= names, names


@pytest.mark.parametrize("path", TESTED, ids=lambda p: str(p.relative_to(ROOT)))
def test_documented_commands_print_what_the_docs_show(path):
    problems = run_file(path)
    assert not problems, "\n\n".join(problems) + (
        "\n\nIf the change is intended: python -m tests.docs_examples --update"
    )


PAGE = """# A page

```sh
$ echo shown, never run
```

```console
$ echo one; echo two
one
two
$ printf 'a\\nb\\nc\\n' \\
>   | tail -n 2
b
c
```
"""


def test_console_blocks_are_parsed_with_continuations(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE)
    commands = parse(page)
    assert [c.text for c in commands] == [
        "echo one; echo two",
        "printf 'a\\nb\\nc\\n' \\\n  | tail -n 2",
    ]
    assert [c.expected for c in commands] == [["one", "two"], ["b", "c"]]


def test_ellipsis_matches_text_in_a_line_and_whole_lines():
    assert matches(["seed ..., sandbox ...", "end"], ["seed 7, sandbox strict", "end"])
    assert matches(["start", "...", "end"], ["start", "x", "y", "end"])
    assert matches(["start", "...", "end"], ["start", "end"])
    assert not matches(["seed ..., sandbox basic"], ["seed 7, sandbox strict"])
    assert not matches(["one"], ["one", "two"])
    assert not matches(["a.c"], ["abc"])  # only "..." is a wildcard


def test_update_keeps_the_lines_that_still_match():
    assert updated(["seed ...", "score 1"], ["seed 9", "score 2"]) == ["seed ...", "score 2"]
    assert updated(["...", "x"], ["a", "b"]) == ["a", "b"]


def test_a_stale_page_fails_and_update_rewrites_it(tmp_path, monkeypatch):
    monkeypatch.setattr(docs, "ROOT", tmp_path)
    page = tmp_path / "page.md"
    page.write_text(PAGE.replace("two\n$ printf", "three\n$ printf"))
    [problem] = run_file(page)
    assert (
        "page.md:8: $ echo one; echo two" in problem and "-three" in problem and "+two" in problem
    )
    assert run_file(page, update=True)
    assert page.read_text() == PAGE and run_file(page) == []


def test_no_file_refers_to_a_rules_folder_outside_the_repository():
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    outside = ("../" + "shared", "shared/" + "rules")  # spelt apart: this file is tracked too
    offenders = []
    for name in tracked:
        path = ROOT / name
        if name.startswith("results/") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if any(words in text for words in outside):
            offenders.append(name)
    assert offenders == []


def test_the_readme_links_a_rules_page_for_every_game(registry):
    readme = (ROOT / "README.md").read_text()
    for game in registry.games:
        page = ROOT / "docs" / "games" / f"{game}.md"
        assert f"(docs/games/{game}.md)" in readme and page.is_file(), game


def test_the_examples_do_not_see_bots_the_reader_installed(tmp_path):
    """A reader who followed the tutorial has `my-bot` in the arena's .venv;
    the examples' environment hides every distribution that plugs into the
    arena (but the arena itself), and keeps every other one."""

    def distribution(name: str, files: list[str], entry_points: str = "") -> None:
        info = tmp_path / f"{name.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(entry_points)
        listed = [*files, f"{info.name}/METADATA", f"{info.name}/RECORD"]
        (info / "RECORD").write_text("".join(f"{f},,\n" for f in listed))
        for f in files:
            (tmp_path / f).write_text("")

    distribution("my-bot", ["__editable__.my_bot-1.0.pth"], "[arena]\nmy-bot = my_bot.plugin\n")
    distribution("farm-arena", ["__editable__.farm_arena-1.0.pth"], "[arena]\nb = bots.plugin\n")
    distribution("numpy-ish", ["numpy_ish.py"])
    scratch = docs.Scratch()
    try:
        seen = {p.name for p in scratch._without_plugins(tmp_path, 9).iterdir()}
    finally:
        scratch.close()
    assert "__editable__.my_bot-1.0.pth" not in seen and "my_bot-1.0.dist-info" not in seen
    assert {"__editable__.farm_arena-1.0.pth", "farm_arena-1.0.dist-info", "numpy_ish.py"} <= seen
