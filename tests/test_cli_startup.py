"""What ``arena tournament`` imports before it plays a local tournament.

The whole command is what a user times (issue 35), and every module the
driver imports before it forks its workers is paid in series, before the
first game: asyncio (with ssl) is ~25 ms of it, and only the Dask executor
needs it (docs/performance.md)."""

import subprocess
import sys

#: what the command itself imports (arena/cli/tournament.py) on a local run
COMMAND = (
    "import arena.cli\n"
    "from arena.tournament import run\n"
    "from arena.tournament.dask_executor import ClusterError\n"
    "from arena.tournament.executor import make_executor\n"
)


def loaded(code: str, modules: tuple[str, ...]) -> set[str]:
    """Which of ``modules`` running ``code`` in a fresh interpreter loads."""
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {modules!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-I", "-c", probe], capture_output=True, text=True, check=True
    )
    return set(done.stdout.split())


def test_the_probe_sees_asyncio_when_it_is_imported():
    # control: the probe does see it
    assert loaded(COMMAND + "import asyncio\n", ("asyncio",)) == {"asyncio"}


def test_a_local_tournament_does_not_import_asyncio():
    assert loaded(COMMAND, ("asyncio", "ssl")) == set()
