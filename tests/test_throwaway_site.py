"""The tests install distributions into a throw-away site folder of their
session, never the project's environment (issue 30: a test interrupted at
the wrong moment left a broken distribution in ``.venv``); the arena gives
that folder, a site folder added at run time, to a bot's interpreter."""

import os
import site
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from arena import SITES_VARIABLE
from arena.sandbox import view
from arena.sandbox.process import bot_environment


def own_site_listing() -> dict[str, list[str]]:
    """Every entry of the interpreter's own site folders (the project's
    ``.venv``): dist-infos, packages, ``.pth`` files."""
    return {folder: sorted(os.listdir(folder)) for folder in site.getsitepackages()}


def test_a_distribution_installed_by_a_test_leaves_the_project_environment_alone(
    install_distribution, throwaway_site
):
    before = own_site_listing()
    package = install_distribution("throwaway-probe", {"__init__.py": "ANSWER = 42\n"})
    assert own_site_listing() == before  # nothing written to the project's .venv
    assert package == throwaway_site / "throwaway_probe"
    assert not any(str(throwaway_site).startswith(folder) for folder in site.getsitepackages())
    installed = metadata.distribution("throwaway-probe")  # installed, for this process
    assert Path(str(installed.locate_file(""))) == throwaway_site
    assert view.run_time_sites() == [str(throwaway_site)]


def test_a_bots_interpreter_is_given_the_site_folders_added_at_run_time(
    install_distribution, throwaway_site
):
    install_distribution("throwaway-probe", {"__init__.py": "ANSWER = 42\n"})
    given = bot_environment("/nowhere")
    assert given[SITES_VARIABLE] == str(throwaway_site)
    code = "from arena.botkit import add_sites; add_sites(); import throwaway_probe as p; print(p.ANSWER)"

    def child(environment):
        # -I, as the plugin host runs: no PYTHONPATH, no user site
        return subprocess.run(
            [sys.executable, "-I", "-c", code], env=environment, capture_output=True, text=True
        )

    assert child(given).stdout == "42\n"
    # the control: without the variable a fresh interpreter does not find it
    del given[SITES_VARIABLE]
    missing = child(given)
    assert missing.returncode != 0 and "No module named 'throwaway_probe'" in missing.stderr
