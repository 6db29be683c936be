"""``python -m arena`` is the ``arena`` command."""

from arena.cli import app

app(prog_name="arena")
