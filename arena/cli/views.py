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


#: a drawn card's tone (:mod:`arena.game.drawing`) as a rich style
TONE_STYLE = {
    "red": "bold red",
    "black": "bold",
    "crimson": "bold white on red",
    "blue": "bold white on blue",
    "green": "bold white on green",
    "yellow": "bold black on yellow",
    "purple": "bold white on magenta",
    "orange": "bold black on dark_orange",
    "plain": "bold",
}
#: at most this many face-down cards are drawn; more are counted
BACKS = 8


def _zone_text(zone: dict) -> str:
    faces = [
        f"[{TONE_STYLE.get(c['tone'], 'bold')}]{'▒' if not c['code'] else escape(c['label'])}[/]"
        for c in zone["cards"]
    ]
    if zone["hidden"]:
        faces.append("▒" * min(zone["hidden"], BACKS) + f" [dim]{zone['hidden']} face down[/]")
    shown = " ".join(faces)
    text = escape(zone["text"])
    return f"  [dim]{escape(zone['label'])}:[/] " + " ".join(t for t in (shown, text) if t)


def render_table(drawn: dict, me: int) -> list[str]:
    """A drawing's :class:`arena.game.drawing.Table` as rich lines for the
    terminal: the title and texts, the other seats, the middle of the table,
    then the seat ``me`` (nearest, last); ``▶`` marks whose turn it is."""
    lines = [f"[bold]{escape(drawn['title'])}[/]"] + [escape(t) for t in drawn["texts"]]

    def place(seat: dict) -> None:
        role = f" [cyan]({escape(seat['role'])})[/]" if seat["role"] else ""
        mark = "[bold yellow]▶[/] " if seat["turn"] else "  "
        texts = " · ".join(escape(t) for t in seat["texts"])
        lines.append(
            f"{mark}[bold]{escape(seat['name'])}[/]{role}" + (f" — {texts}" if texts else "")
        )
        lines.extend(_zone_text(zone) for zone in seat["zones"])

    for seat in drawn["seats"]:
        if seat["seat"] != me:
            place(seat)
    if drawn["middle"]:
        lines.append("[bold green]On the table[/]")
        lines.extend(_zone_text(zone) for zone in drawn["middle"])
    for seat in drawn["seats"]:
        if seat["seat"] == me:
            place(seat)
    return lines


def drawing_for(game_id: str, players: int, me: int):
    """The drawing of ``game_id``'s unit for a person in seat ``me`` (the
    others by number), or None if the game has none."""
    from engines import unit_for

    kind = unit_for(game_id).part("drawing")
    names = ["you" if seat == me else f"seat {seat}" for seat in range(players)]
    return None if kind is None else kind(players, names)


def plain(text: str) -> str:
    """``text`` as a person may type it: no markup, no case, no spaces or
    separators (``blue 6``, ``Blue6`` and ``blue6`` are one move)."""
    from rich.text import Text

    return "".join(ch for ch in Text.from_markup(text).plain.lower() if ch.isalnum())
