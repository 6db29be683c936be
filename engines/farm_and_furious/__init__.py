"""Farm & Furious: a simultaneous-move race for 2-5 players."""

from engines.farm_and_furious.game import FarmAndFurious, FarmAndFuriousState

__all__ = ["FarmAndFurious", "FarmAndFuriousState"]
