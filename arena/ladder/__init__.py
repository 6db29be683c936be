"""A ladder: a tournament that never ends, its entrants changing while it runs.

Bots are submitted (each version its own entrant), validated by a check-bot
run before they play, suspended when they keep faulting and withdrawn by
their authors; the tables are chosen by expected information
(:mod:`arena.ratings.matchmaking`) and played on secret duplicate deals by
the tournament's runner, which stores, resumes and locks the results folder
as it does for a tournament.
"""

from arena.ladder.entrants import LadderError, Roster, Version
from arena.ladder.run import ladder_plan, run_ladder

__all__ = ["LadderError", "Roster", "Version", "ladder_plan", "run_ladder"]
