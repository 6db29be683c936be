"""Farm Hand: trick-taking with exact bids and cancelling numbers, 1-5 players
(Mac and Donald, engine-played dummies, fill the table to three)."""

from engines.farm_hand.game import FarmHand, FarmHandState

__all__ = ["FarmHand", "FarmHandState"]
