"""Tournaments: files (config), plans (formats and duplicate-deal seating),
executors (where matches run) and the runner that ties them to the store."""

from arena.tournament.config import ConfigError, Tournament, load
from arena.tournament.plan import MatchItem, make_planner, plan
from arena.tournament.runner import RunSummary, run

__all__ = [
    "ConfigError",
    "MatchItem",
    "RunSummary",
    "Tournament",
    "load",
    "make_planner",
    "plan",
    "run",
]
