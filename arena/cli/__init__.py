"""The ``arena`` command: a thin typer layer over plain functions.

One module per command group, each registering on the shared app (the shape
of spaCy's CLI); importing this package registers them all.
"""

from arena.cli._app import app

# the order of registration is the order of `arena --help`
# isort: off
from arena.cli import (  # noqa: F401  (registers the commands)
    catalog,
    checkbot,
    doctor,
    match,
    newbot,
    sprt,
    tournament,
    ladder,
    viewer,
    play,
)
# isort: on

__all__ = ["app"]
