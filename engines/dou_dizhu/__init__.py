"""Dou Dizhu (Fight the Landlord): 3 players, auction, landlord vs two peasants."""

from engines import lazy_exports

__all__ = ["DouDizhu", "DouDizhuState", "state_from_hands"]
__getattr__ = lazy_exports(__name__, "game", tuple(__all__))
