"""Hand and Foot: partnership rummy for 2, 4, 6, 8 or 9 players."""

from engines.hand_and_foot.game import HandAndFoot, HandAndFootState

__all__ = ["HandAndFoot", "HandAndFootState"]
