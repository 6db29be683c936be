"""What people read: the leaderboard document and its renderings.

:mod:`.leaderboard` builds one JSON-able document from the store (kept beside
it by :mod:`.board_cache`); :mod:`.pages` renders it and replays
(:mod:`.frames`) as HTML from ``templates/``; :mod:`.web` serves the same pages
live; :mod:`.match_summary` is ``arena match``"s per-bot table.
"""

__all__ = ["board_cache", "frames", "leaderboard", "match_summary", "pages", "web"]
