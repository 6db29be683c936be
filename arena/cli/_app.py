"""The shared typer app and the one way every command reports a fatal error."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="arena",
    help="A tournament arena for card-game AI bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: exit status for bad input (unknown game or bot, bad option, bad file)
USAGE_ERROR = 2


def fail(message: str, code: int = USAGE_ERROR) -> typer.Exit:
    """Print ``arena: error: MESSAGE`` on one line to stderr; return the Exit
    to raise, so callers read ``raise fail(...)``."""
    typer.echo(f"arena: error: {message}", err=True)
    return typer.Exit(code)
