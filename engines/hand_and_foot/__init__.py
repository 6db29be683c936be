"""Hand and Foot: partnership rummy for 2, 4, 6, 8 or 9 players."""

from engines import lazy_exports

__all__ = ["HandAndFoot", "HandAndFootState"]
__getattr__ = lazy_exports(__name__, "game", tuple(__all__))
