"""Plan items: what the planner makes and the store keeps, as plain values.

A leaf module (it imports nothing of the arena) so that the store can read
and write the plan without importing the planner, which itself reads
ratings that read the store: data flows plan -> executor -> referee ->
store -> ratings -> leaderboard, and nothing downstream imports upstream.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlannedDeal:
    seed: int
    seating: tuple[int, ...]  # seating[seat] = index into the lineup
    chance: int | None = None  # the game's secret for the bots' and fallback's seeds


@dataclass(frozen=True)
class MatchItem:
    id: str
    order: int
    game: str
    label: str  # the game entry: its id, or id[n] when listed twice
    players: int
    options: dict[str, Any]
    lineup: tuple[str, ...]  # bot display names; entrant i is lineup[i]
    deals: tuple[PlannedDeal, ...]
    round: int = 0

    def key(self, index: int) -> str:
        return f"{self.id}/{index}"

    def keys(self) -> list[str]:
        return [self.key(index) for index in range(len(self.deals))]

    @property
    def group(self) -> str:
        return f"{self.label}/{self.players}p"

    def bots_at(self, index: int) -> list[str]:
        return [self.lineup[entrant] for entrant in self.deals[index].seating]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "order": self.order,
            "game": self.game,
            "label": self.label,
            "players": self.players,
            "options": self.options,
            "lineup": list(self.lineup),
            "deals": [[d.seed, list(d.seating), d.chance] for d in self.deals],
            "round": self.round,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchItem:
        return cls(
            id=data["id"],
            order=data["order"],
            game=data["game"],
            label=data["label"],
            players=data["players"],
            options=dict(data["options"]),
            lineup=tuple(data["lineup"]),
            deals=tuple(PlannedDeal(deal[0], tuple(deal[1]), *deal[2:]) for deal in data["deals"]),
            round=data.get("round", 0),
        )
