import importlib
import json
import os
import shutil
import site
import sys
import tempfile
import textwrap
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

BOTS = Path(__file__).parent / "bots"


def _broken_bot(mode: str, *args: str) -> str:
    """A ``cmd:`` bot name for tests/bots/broken.py in the given mode."""
    return " ".join([f"cmd:{sys.executable}", str(BOTS / "broken.py"), mode, *args])


def _processes_running(marker: str) -> list[int]:
    """Live (non-zombie) processes whose command line contains ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().decode(errors="replace")
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry))
    return found


@pytest.fixture
def plugin_dir(tmp_path, monkeypatch):
    """Writes a plugin module on the path: ``write(name, body)`` gives its entry point."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(name, body):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(body))
        return EntryPoint(name=name, value=name, group="arena")

    return write


@pytest.fixture
def registry():
    from arena.plugins import installed

    return installed()


def toml_value(value) -> str:
    """A Python value as TOML: strings, numbers, booleans, lists, inline tables."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # TOML's basic strings escape as JSON's do
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {toml_value(item)}" for key, item in value.items()) + " }"
    raise TypeError(f"no TOML for {value!r}")


@pytest.fixture
def write_tournament(tmp_path):
    """Write a tournament file into the test's folder (after tox's
    ``tox_project``): ``write_tournament(TEXT, filename="t.toml", **keys)``
    writes each keyword as a top-level key (Python values, e.g.
    ``bots=["random"]``), then TEXT (dedented TOML: tables, [[games]]), and
    returns the file's path."""

    def write(text: str = "", *, filename: str = "t.toml", **keys) -> Path:
        lines = [f"{key} = {toml_value(value)}\n" for key, value in keys.items()]
        path = tmp_path / filename
        path.write_text("".join(lines) + textwrap.dedent(text))
        return path

    return write


@pytest.fixture
def broken_bot():
    return _broken_bot


@pytest.fixture
def processes_running():
    return _processes_running


@pytest.fixture(scope="session")
def throwaway_site():
    """A site folder of this test session's own, never the project's
    ``.venv``: what ``install_distribution`` installs goes there, so a test
    interrupted at any moment leaves nothing broken in the environment (at
    worst a folder in /var/tmp).  It is added as a site folder after the
    interpreter's (``site.addsitedir``, as a layered environment is), which
    the arena gives its bots and plugin hosts too
    (``arena.sandbox.view.run_time_sites``)."""
    # not in /tmp, which the basic level's bots see a private one of
    folder = Path(tempfile.mkdtemp(prefix="arena-test-site-", dir="/var/tmp"))
    folder.chmod(0o755)  # bots run as uids of their own
    before = list(sys.path)
    site.addsitedir(str(folder))
    try:
        yield folder
    finally:
        sys.path[:] = [p for p in sys.path if p in before]
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def install_distribution(throwaway_site):
    """Install tiny distributions for real into the session's throw-away
    site folder (package files, METADATA, RECORD, entry points, as pip
    leaves them) for the length of one test."""
    from arena.sandbox import view

    site_dir = throwaway_site
    made: list[Path] = []
    path_before = list(sys.path)

    def install(
        name: str,
        files: dict[str, str],
        requires=(),
        entry_points: str = "",
        editable: Path | None = None,
    ):
        """``editable``: the source folder of an editable install (the
        package goes there, a ``.pth`` naming it and ``direct_url.json``
        into the site folder)."""
        module = name.replace("-", "_")
        info = site_dir / f"{module}-1.0.dist-info"
        home = editable if editable is not None else site_dir
        made.extend([info, site_dir / module, site_dir / f"{module}.pth"])
        info.mkdir()
        for relative, text in files.items():
            (home / module / relative).parent.mkdir(parents=True, exist_ok=True)
            (home / module / relative).write_text(textwrap.dedent(text))
        requirements = "".join(f"Requires-Dist: {r}\n" for r in requires)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n{requirements}"
        )
        (info / "top_level.txt").write_text(module + "\n")
        meta = ["METADATA", "top_level.txt", "RECORD"]
        if entry_points:
            (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))
            meta.append("entry_points.txt")
        if editable is None:
            records = [f"{module}/{relative}" for relative in files]
        else:
            (site_dir / f"{module}.pth").write_text(f"{editable}\n")
            (info / "direct_url.json").write_text(
                f'{{"url": "file://{editable}", "dir_info": {{"editable": true}}}}'
            )
            records, meta = [f"{module}.pth"], meta + ["direct_url.json"]
            site.addsitedir(str(site_dir))  # reads the new .pth, as a new interpreter would
        records += [f"{info.name}/{m}" for m in meta]
        (info / "RECORD").write_text("".join(f"{r},,\n" for r in records))
        importlib.invalidate_caches()
        view.forget_installed()
        return home / module

    try:
        yield install
    finally:
        for path in made:
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)  # the .pth files (rmtree skips files)
        sys.path[:] = [p for p in sys.path if p in path_before]  # editable sources
        importlib.invalidate_caches()
        view.forget_installed()


VIEWER_TOURNAMENT = """
name = "viewer"
seed = 11
deals = 2
workers = 2
sandbox = "none"
least_sandbox = "none"
bots = ["random", "farm-and-furious-racer", "dou-dizhu-greedy", "farm-hand-counter",
        "hand-and-foot-builder",
        {{ name = "cheater", bot = "{cheater}", games = ["farm-and-furious"] }}]

[[games]]
id = "farm-and-furious"
players = [2]
options = {{ track_length = 10 }}

[[games]]
id = "dou-dizhu"
players = [3]
deals = 1

[[games]]
id = "farm-hand"
players = [1, 2]
deals = 1

[[games]]
id = "hand-and-foot"
players = [2]
options = {{ target = 2000, max_rounds = 1 }}
deals = 1
"""


@pytest.fixture(scope="session")
def viewer_results(tmp_path_factory):
    """A small real results folder, played once per session: built-in bots in
    four games, and a bot that plays an illegal action (faults to look at)."""
    from arena.plugins import installed
    from arena.tournament import load, run

    folder = tmp_path_factory.mktemp("viewer")
    path = folder / "viewer.toml"
    path.write_text(VIEWER_TOURNAMENT.format(cheater=_broken_bot("illegal")))
    summary = run(
        load(path, installed(), results=str(folder / "results")), installed(), progress=False
    )
    assert summary.played and not summary.errors, summary.errors
    return folder / "results"


@pytest.fixture
def shared_basic(monkeypatch):
    """The basic level as it was before it had namespaces and a uid of its
    own: its bots share the host's file system and network with the tests,
    which some tests of the referee use to see what a bot did (and the
    hostile suites as the control of an attack the new layers stop)."""
    from arena.sandbox import namespaces

    monkeypatch.setattr(namespaces, "available", lambda: False)
    monkeypatch.setattr(namespaces, "uid_possible", lambda private=None: False)
