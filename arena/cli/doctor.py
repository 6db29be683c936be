"""``arena doctor``: which sandbox layers protect you here, and a self-test."""

from __future__ import annotations

import json
import sys

import typer

from arena import DISTRIBUTION
from arena.cli._app import app
from arena.plugins import sandboxed_distributions
from arena.plugins.sandboxed import discover
from arena.sandbox import BotProcess, SandboxError, probe
from arena.sandbox.layers import choose_level, survey


def self_test(level: str) -> list[tuple[str, bool]]:
    """Start the probe bot at ``level`` and check what it could do."""
    # run as a file, like a ``cmd:`` bot: the sandbox shows a bot the files
    # its command names, not the arena's package
    process = BotProcess([sys.executable, probe.__file__], level=level)
    try:
        line = process.pipes()[1].readline()
    finally:
        process.kill()
    report = json.loads(line)
    checks = [("the bot starts and answers", True), ("private home folder", report["home_private"])]
    if level == "strict":
        checks += [
            ("sees only its own processes", report["processes_visible"] <= 3),
            ("cannot open a network socket", not report["inet_socket"]),
            ("cannot ptrace", not report["ptrace"]),
            ("cannot create user namespaces", not report["new_user_namespace"]),
            ("host folders hidden", "home" not in report["root_listing"]),
            ("cannot take file locks", not report["file_lock"]),
            ("other packages hidden (only the bot kit and its own)", not report["referee_visible"]),
            ("machine-wide counters hidden (/proc/loadavg, file-nr)", not report["counters"]),
        ]
        found = discover([DISTRIBUTION], level)[DISTRIBUTION]
        checks.append(("plugins register in the sandbox", bool(found.bots)))
    return checks


@app.command()
def doctor() -> None:
    """Check this machine's sandbox layers and run a probe bot in the sandbox."""
    for layer in survey(sandboxed_distributions()):
        state = "active " if layer.active else "MISSING"
        remedy = f"  -> {layer.remedy}" if not layer.active and layer.remedy else ""
        typer.echo(f"{state}  {layer.name:<16} {layer.detail}{remedy}")
    level = choose_level(None)
    typer.echo(f"\ndefault sandbox level: {level}")
    try:
        checks = self_test(level)
    except (SandboxError, ValueError, OSError) as error:
        typer.echo(f"self-test FAILED: {error}")
        raise typer.Exit(1) from None
    for name, passed in checks:
        typer.echo(f"{'ok    ' if passed else 'FAILED'}  {name}")
    if not all(passed for _, passed in checks):
        raise typer.Exit(1)
