"""The ``arena`` command: a thin typer layer over plain functions.

One module per command group, each registering on the shared app (the shape
of spaCy's CLI); importing this package registers them all.
"""

from arena.cli._app import app
from arena.cli import catalog, checkbot, doctor, match, newbot, sprt, tournament, viewer  # noqa: F401  (registers the commands)
from arena.cli import play  # noqa: F401,E402  (registers `arena play`)

__all__ = ["app"]
