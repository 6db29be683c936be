"""How ``arena play`` draws a game for a person: one view per game.

A view turns a seat's observation -- the same dict a bot receives -- into
rich renderables (cards as cards, suits in their colours, the table, the
last plays, scores), labels the legal moves, and reads a typed move the way
a person writes it.  Games without a view of their own get :class:`View`,
which lists the observation's fields.  A game's own view is a part of its
unit (:class:`arena.game.GameUnit`), e.g. ``engines/farm_hand/view.py``.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

Action = Any


class View:
    """The fallback for any game: the observation as fields."""

    def __init__(self, players: int):
        self.players = players

    def seat_name(self, seat: int, me: int) -> str:
        return "you" if seat == me else f"seat {seat}"

    def show(self, observation: dict) -> list:
        return [
            f"[bold]{escape(key)}[/]: {escape(repr(value))}"
            for key, value in observation.items()
            if key not in ("options", "history")
        ]

    def label(self, action: Action) -> str:
        return escape(str(action))

    def normalize(self, text: str) -> str:
        """A typed move written the way the engine writes it."""
        return text.strip().lower()


def grid(*columns: str) -> Table:
    """A borderless table of ``columns`` (the unnamed first one in bold)."""
    table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False)
    for column in columns:
        table.add_column(column, style="bold" if column == "" else None)
    return table


def view_for(game_id: str, players: int) -> View:
    """The view of ``game_id``'s unit for a table of ``players``, else the fallback."""
    from engines import unit_for

    return (unit_for(game_id).part("view") or View)(players)
