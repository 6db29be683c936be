"""VEGEtables: a two-player step-of-four card game with Silos, Wells and Tractors."""

from engines.vegetables.game import Vegetables, VegetablesState

__all__ = ["Vegetables", "VegetablesState"]
