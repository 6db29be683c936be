"""Dou Dizhu (Fight the Landlord): 3 players, auction, landlord vs two peasants."""

from engines.dou_dizhu.game import DouDizhu, DouDizhuState, state_from_hands

__all__ = ["DouDizhu", "DouDizhuState", "state_from_hands"]
