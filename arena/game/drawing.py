"""A game drawn as its table: the ``drawing`` part of a game's unit.

A drawing turns what one view of the table may see -- the observations of
the seats it looks through (one seat's, or every seat's for the whole
table) -- into a :class:`Table`: the seats around it, each with its name,
role, texts (bid, tricks won, score) and zones of cards (the hand, face up
only where the view holds that seat's observation; what it played this
trick), and the middle of the table (piles, the trick, melds by team).  It
is plain data (JSON-able dicts), so the replay page (HTML) and ``arena
play`` (rich, in the terminal) draw the same description, each its own way.

A game without a drawing of its own gets :class:`Drawing`, which shows the
hand as cards and the other fields of the observation as text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict


class Card(TypedDict):
    """One card face: ``code`` as the engine writes it, ``label`` as a
    person reads it, ``tone`` its colour: ``red`` or ``black`` ink on a white
    card, a card filled ``crimson``, ``blue``, ``green``, ``yellow``,
    ``purple`` or ``orange``, or ``plain``.  A card whose ``code`` is empty
    is face down, showing its back in its tone (a suit seen on the back)."""

    code: str
    label: str
    tone: str


class Zone(TypedDict):
    """A labelled place of cards: ``cards`` face up, ``hidden`` face down
    (counted), ``text`` a line beside them."""

    label: str
    cards: list[Card]
    hidden: int
    text: str


class Seat(TypedDict):
    """A seat at the table: ``turn`` when it is to act."""

    seat: int
    name: str
    role: str
    texts: list[str]
    zones: list[Zone]
    turn: bool


class Table(TypedDict):
    """The whole drawing of one moment: a title, texts (the round, the
    phase, the score), the seats in order round the table and the zones in
    the middle."""

    title: str
    texts: list[str]
    seats: list[Seat]
    middle: list[Zone]


def plural(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``: a count as a person writes it."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def card(code: str, label: str | None = None, tone: str = "plain") -> Card:
    return {"code": str(code), "label": str(code) if label is None else label, "tone": tone}


def zone(label: str, cards: Sequence[Card] = (), *, hidden: int = 0, text: str = "") -> Zone:
    return {"label": label, "cards": list(cards), "hidden": int(hidden), "text": text}


def seat(
    number: int,
    name: str,
    *,
    role: str = "",
    texts: Sequence[str] = (),
    zones: Sequence[Zone] = (),
    turn: bool = False,
) -> Seat:
    return {
        "seat": number,
        "name": name,
        "role": role,
        "texts": list(texts),
        "zones": list(zones),
        "turn": bool(turn),
    }


def table(
    title: str, seats: Sequence[Seat], *, texts: Sequence[str] = (), middle: Sequence[Zone] = ()
) -> Table:
    return {"title": title, "texts": list(texts), "seats": list(seats), "middle": list(middle)}


class Drawing:
    """How a game is drawn; this base is the plain fallback for a game with
    no drawing of its own.  ``names`` are the seats' names (the bots');
    :meth:`draw` gets ``views``, seat -> the observation that seat was
    shown, for the seats the view looks through (at least one)."""

    title = ""

    def __init__(self, players: int, names: Sequence[str] = ()):
        self.players = players
        self.names = list(names) or [f"seat {s}" for s in range(players)]

    def name(self, number: int) -> str:
        return self.names[number] if number < len(self.names) else f"seat {number}"

    def public(self, views: Mapping[int, Mapping[str, Any]]) -> Mapping[str, Any]:
        """One of ``views`` to read what every seat sees (the lowest seat's)."""
        return views[min(views)]

    def ended(self, observation: Mapping[str, Any]) -> list[str]:
        """The last trick, turn or round finished, as one seat's
        ``observation`` tells it (who won it, what it scored), in lines; []
        while none has.  A person's seat (``arena play``) stops on these
        lines, until Enter, whenever they change, so the end of each is seen
        before play goes on.  The plain fallback knows no tricks: []."""
        return []

    def face(self, code: Any) -> Card:
        """A card as this game writes it on its face."""
        return card(str(code))

    def cards(self, codes: Sequence[Any]) -> list[Card]:
        return [self.face(code) for code in codes]

    def draw(self, views: Mapping[int, Mapping[str, Any]]) -> Table:
        seats = []
        for number in range(self.players):
            zones = []
            hand = views.get(number, {}).get("hand")
            if isinstance(hand, list | str):
                zones.append(zone("hand", self.cards(list(hand))))
            seats.append(seat(number, self.name(number), zones=zones))
        shown = self.public(views)
        texts = [
            f"{key}: {value}"
            for key, value in shown.items()
            if key not in ("hand", "options", "history", "seat")
        ]
        return table(self.title, seats, texts=texts)


def check_table(drawn: Any, players: int) -> list[str]:
    """What is wrong with a drawing's :class:`Table` (empty: nothing): the
    keys and types each part must have, one seat per player first, in order."""
    problems: list[str] = []

    def expect(value: Any, keys: dict[str, type], where: str) -> bool:
        if not isinstance(value, dict):
            problems.append(f"{where} is {type(value).__name__}, not a dict")
            return False
        wrong = [key for key, kind in keys.items() if not isinstance(value.get(key), kind)]
        problems.extend(f"{where}[{key!r}] is {type(value.get(key)).__name__}" for key in wrong)
        return not wrong

    def check_zone(value: Any, where: str) -> None:
        if expect(value, {"label": str, "cards": list, "hidden": int, "text": str}, where):
            for index, face in enumerate(value["cards"]):
                expect(face, {"code": str, "label": str, "tone": str}, f"{where} card {index}")

    if not expect(drawn, {"title": str, "texts": list, "seats": list, "middle": list}, "table"):
        return problems
    numbers = [s.get("seat") if isinstance(s, dict) else None for s in drawn["seats"]]
    if numbers[:players] != list(range(players)):  # dummies' seats may follow
        problems.append(f"seats {numbers}, not 0 to {players - 1} first, in order")
    for index, value in enumerate(drawn["seats"]):
        keys = {"name": str, "role": str, "texts": list, "zones": list, "turn": bool}
        if expect(value, keys, f"seat {index}"):
            for z, value_zone in enumerate(value["zones"]):
                check_zone(value_zone, f"seat {index} zone {z}")
    for z, value_zone in enumerate(drawn["middle"]):
        check_zone(value_zone, f"middle zone {z}")
    return problems


__all__ = [
    "Card",
    "Drawing",
    "Seat",
    "Table",
    "Zone",
    "card",
    "check_table",
    "plural",
    "seat",
    "table",
    "zone",
]
