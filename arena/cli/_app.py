"""The shared typer app and the one way every command reports a fatal error."""

from __future__ import annotations

import sys

import typer
from typer.core import TyperGroup

#: exit status for bad input (unknown game or bot, bad option, bad file)
USAGE_ERROR = 2


class _OneLineErrors(TyperGroup):
    """The ``arena`` group, whose usage errors (bad or missing option or
    argument) are one line ``arena: error: ...`` like every other error,
    instead of typer's boxed panel: scripts and people grep for that prefix."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.TyperException as error:  # typer's (vendored click's) usage errors
            code = getattr(error, "exit_code", USAGE_ERROR)
            if type(error).__name__ == "NoArgsIsHelpError":
                typer.echo(error.format_message(), err=True)  # a bare command: its help
            else:
                context = getattr(error, "ctx", None)
                where = f" (see '{context.command_path} --help')" if context is not None else ""
                typer.echo(
                    f"arena: error: {' '.join(error.format_message().split())}{where}", err=True
                )
        except typer.Abort:
            typer.echo("arena: interrupted", err=True)
            code = 130
        if not standalone_mode:
            return code
        sys.exit(code or 0)


#: ``--least-sandbox`` of a command that plays at once (match, sprt): strict unless lowered
LEAST_SANDBOX = typer.Option(
    "strict",
    "--least-sandbox",
    help="the least level a cmd: or third-party bot may run at (basic accepts basic)",
)
#: the options a command that plays a file (tournament, ladder) shares: each
#: overrides the file's key of the same name
RESULTS_OVER_FILE = typer.Option(None, "--results", help="results folder (overrides the file)")
WORKERS_OVER_FILE = typer.Option(
    None, "--workers", min=0, help="parallel matches (0: in this process)"
)
EXECUTOR_OVER_FILE = typer.Option(
    None, "--executor", help="local (process pool) or dask (overrides the file)"
)
#: ``--least-sandbox`` of a command that reads a file (tournament, ladder): the file's unless given
LEAST_SANDBOX_OVER_FILE = typer.Option(
    None,
    "--least-sandbox",
    help="the least level a cmd: or third-party bot may run at (overrides the file)",
)


app = typer.Typer(
    name="arena",
    help="A tournament arena for card-game AI bots.",
    cls=_OneLineErrors,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        from arena import __version__

        typer.echo(f"arena {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False,
        "--version",
        is_eager=True,
        callback=_print_version,
        help="print the version and exit",
    ),
) -> None:
    pass


def fail(message: str, code: int = USAGE_ERROR) -> typer.Exit:
    """Print ``arena: error: MESSAGE`` on one line to stderr; return the Exit
    to raise, so callers read ``raise fail(...)``."""
    typer.echo(f"arena: error: {message}", err=True)
    return typer.Exit(code)
