"""End to end through entry points: the example bot distribution (bots/example)
and a package fresh from `arena new-bot`, installed with the arena into a new
virtual environment of their own (no system site-packages), are listed by
that environment's `arena bots` and play its matches, check-bot and a small
tournament in the strict sandbox.

The arena is installed from a copy of this checkout (pip builds in the
source folder; the copy keeps build/ out of it); its dependencies come from
the package index.  About a minute.
"""

import json
import os
import shutil
import subprocess
import textwrap
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Runs the arena CLI of the new environment with every command module
# imported, also those not yet listed in arena/cli/__init__.py.
CLI = (
    "import importlib, sys\n"
    "from arena.cli import app\n"
    "for name in ('tournament', 'newbot', 'checkbot'):\n"
    "    importlib.import_module('arena.cli.' + name)\n"
    "app(prog_name='arena')\n"
)


def _copy_arena(target: Path) -> None:
    """The arena's sources without .venv, results, caches or the example."""
    target.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, target / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for package in ("arena", "engines", "bots"):
        shutil.copytree(ROOT / package, target / package, ignore=ignore)
    shutil.rmtree(target / "bots" / "example")


class Env:
    def __init__(self, root: Path):
        self.root = root
        self.bin = root / "venv" / "bin"

    def run(self, *argv, check=True, timeout=300, cwd=None):
        result = subprocess.run(
            [str(a) for a in argv],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=cwd or self.root,
            env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        )
        if check and result.returncode != 0:
            pytest.fail(
                f"{' '.join(map(str, argv))} -> {result.returncode}\n"
                f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
            )
        return result

    def arena(self, *args, **kw):
        return self.run(self.bin / "arena", *args, **kw)

    def cli(self, *args, **kw):
        return self.run(self.bin / "python", "-c", CLI, *args, **kw)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("fresh-env")
    root.chmod(0o755)
    _copy_arena(root / "arena-src")
    shutil.copytree(
        ROOT / "bots" / "example",
        root / "example",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"),
    )
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(root / "venv")
    e = Env(root)
    e.run(e.bin / "python", "-m", "pip", "install", "--quiet", "./arena-src", "./example")
    return e


def test_the_environment_is_its_own(env):
    result = env.run(
        env.bin / "python",
        "-c",
        "import sys, arena, example_bot; print(sys.flags.no_site, arena.__file__, "
        "example_bot.__file__)",
    )
    assert str(env.root / "venv") in result.stdout.split()[1]
    assert str(ROOT) not in result.stdout
    cfg = (env.root / "venv" / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = false" in cfg


def test_example_bot_is_listed_by_its_plugin(env):
    result = env.arena("bots")
    line = next(row for row in result.stdout.splitlines() if row.startswith("example-bot "))
    assert "any" in line and "example-bot" in line.split()[3]  # the plugin column
    assert result.stderr == ""


def test_example_bot_plays_a_match_in_the_strict_sandbox(env):
    result = env.arena(
        "match",
        "vegetables",
        "--bot",
        "example-bot",
        "--bot",
        "random",
        "--seed",
        "5",
        "--games",
        "2",
        "--sandbox",
        "strict",
        "--json",
    )
    summary = json.loads(result.stdout)
    assert [s["bot"] for s in summary["games"][0]["seats"]] == ["example-bot", "random"]
    assert all(s["fault"] is None for g in summary["games"] for s in g["seats"])


@pytest.fixture(scope="module")
def fresh_bot(env):
    """A package fresh from `arena new-bot`, installed editable, then edited."""
    env.cli("new-bot", "fresh-bot", "--game", "farm-and-furious", "--game", "vegetables")
    package = env.root / "fresh-bot"
    assert (package / "fresh_bot" / "bot.py").exists()
    # as its README says: the bot and its test extra, into the arena's environment
    readme = (package / "README.md").read_text()
    assert "pip install -e './fresh-bot[test]'" in readme
    env.run(env.bin / "python", "-m", "pip", "install", "--quiet", "-e", "./fresh-bot[test]")
    # editable: the source folder stays where it is (and the sandbox must see it)
    (package / "fresh_bot" / "bot.py").write_text(
        (package / "fresh_bot" / "bot.py")
        .read_text()
        .replace("return self.rng.choice(legal)", "return legal[-1]")
    )
    return package


def test_new_bot_installed_editable_plays_at_once(env, fresh_bot):
    listed = env.arena("bots").stdout
    assert any(
        row.startswith("fresh-bot ") and "farm-and-furious,vegetables" in row
        for row in listed.splitlines()
    ), listed
    result = env.arena(
        "match",
        "farm-and-furious",
        "--bot",
        "fresh-bot",
        "--bot",
        "random",
        "--seed",
        "3",
        "--games",
        "2",
        "--sandbox",
        "strict",
        "--json",
    )
    summary = json.loads(result.stdout)
    assert all(s["fault"] is None for g in summary["games"] for s in g["seats"]), summary
    # the package's own test: the bot against random through the real referee
    # pytest came with the package's test extra (nothing installed by hand)
    own = env.run(env.bin / "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "fresh-bot")
    assert "2 passed" in own.stdout, own.stdout
    check = env.cli(
        "check-bot",
        "fresh-bot",
        "--game",
        "vegetables",
        "--games",
        "1",
        "--quiet",
        "--sandbox",
        "strict",
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert (
        check.stdout.splitlines()[-1]
        == "fresh-bot: ok in vegetables: 1 game against random, 5 edge cases"
    )


def test_small_tournament_with_the_plugin_bots(env, fresh_bot):
    (env.root / "small.toml").write_text(
        textwrap.dedent("""
        name = "plugins"
        seed = 7
        deals = 2
        workers = 1
        sandbox = "strict"
        bots = ["example-bot", "fresh-bot", "random"]

        [[games]]
        id = "farm-and-furious"
        players = [2]

        [[games]]
        id = "vegetables"
    """)
    )
    result = env.cli("tournament", "small.toml", "--results", "out", "--quiet")
    assert "example-bot" in result.stdout
    board = json.loads(env.cli("leaderboard", "out", "--format", "json").stdout)
    text = json.dumps(board)
    assert all(name in text for name in ("example-bot", "fresh-bot", "random"))
    faults = env.run(
        env.bin / "python",
        "-c",
        textwrap.dedent("""
        import json, sqlite3
        rows = sqlite3.connect('out/results.sqlite').execute('select bots, faults from games')
        rows = [(json.loads(b), json.loads(f)) for b, f in rows]
        print(len(rows), sum(1 for _, f in rows for x in f if x))
        """),
    ).stdout.split()
    games, faulted = map(int, faults)
    assert games == 24 and faulted == 0  # 3 pairs x 2 deals x 2 seatings x 2 games
