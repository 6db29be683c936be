"""Usage errors of the ``arena`` command, as a user meets them in a terminal:
one line ``arena: error: ...`` on stderr, exit status 2, never typer's box."""

import subprocess
import sys
from pathlib import Path

import pytest

import arena

ROOT = Path(__file__).parents[1]
ARENA = [str(Path(sys.executable).parent / "arena")]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(ARENA + list(args), capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize(
    "args, says",
    [
        (("tournament", "tournaments/quick.toml", "--workers", "-1"), "'--workers'"),
        # issue 30, finding 5: the arena's words, not the validation library's
        (
            ("match", "vegetables", "-b", "random", "-b", "random", "--games", "0"),
            "arena: error: --games must be at least 1, got 0",
        ),
        (("tournament", "tournaments/quick.toml", "--bogus"), "No such option: --bogus"),
        (("tournament",), "Missing argument"),
        (("leaderboard", "--format"), "'--format' requires an argument"),
        (("no-such-command",), "No such command"),
    ],
)
def test_usage_errors_are_one_plain_line_with_exit_2(args, says):
    result = run(*args)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("arena: error: ") and says in lines[0]
    assert "╭" not in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_version_prints_the_package_version():
    result = run("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"arena {arena.__version__}"


def test_help_still_works():
    result = run("tournament", "--help")
    assert result.returncode == 0 and "--workers" in result.stdout


@pytest.mark.parametrize(
    "fault, says",
    [
        (MemoryError(), "the driver ran out of memory"),
        (FileNotFoundError(2, "No such file or directory", "/gone/results.sqlite"), "/gone/"),
        (PermissionError(13, "Permission denied", "/locked/tournament.log"), "Permission denied"),
    ],
)
def test_a_driver_fault_mid_run_is_one_line(monkeypatch, fault, says):
    """Issue 30: out of memory in the driver, the folder removed or its
    permission lost mid-run: one line and a non-zero status, no traceback."""
    from typer.testing import CliRunner

    import arena.tournament
    from arena.cli import app

    def run(*args, **kwargs):
        raise fault

    monkeypatch.setattr(arena.tournament, "run", run)
    result = CliRunner().invoke(app, ["tournament", str(ROOT / "tournaments" / "quick.toml")])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena: error: ") and says in lines[0], lines
    assert "run the same command again" in lines[0]


def test_a_run_stopped_before_its_store_was_made_says_so_without_a_traceback(monkeypatch, tmp_path):
    """Found by ``make chaos`` (a SIGTERM in the first second): the summary
    opened a store that was not made yet."""
    from typer.testing import CliRunner

    import arena.tournament
    from arena.cli import app
    from arena.tournament.runner import RunSummary

    monkeypatch.setattr(
        arena.tournament,
        "run",
        lambda *args, **kwargs: RunSummary(results=tmp_path / "none", interrupted=True),
    )
    result = CliRunner().invoke(app, ["tournament", str(ROOT / "tournaments" / "quick.toml")])
    assert result.exit_code == 130, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "run the same command again to resume" in result.output
