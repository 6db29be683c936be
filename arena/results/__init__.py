"""The results store: every game played, as recorded, in one SQLite file.

:mod:`.store` writes and reads the games (the driver alone writes);
:mod:`.items` is the plan"s unit the store keys games by (a leaf, so the store
need not know the planner); :mod:`.export` gives every game as JSON lines.
"""

__all__ = ["export", "items", "store"]
