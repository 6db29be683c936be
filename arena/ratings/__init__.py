"""Ratings and statistics of the stored games.

:mod:`.rating` fits the bots" strengths (:mod:`.thurstone`"s batch fit, order
free) per game and overall; :mod:`.stats` gives per-game summaries and
head-to-head figures with intervals; :mod:`.sequential` the tests that stay
valid when looked at after every deal (SPRT).
"""

__all__ = ["rating", "sequential", "stats", "thurstone"]
