"""A stored game as a sequence of frames for the replay viewer.

The game is re-run through its engine from the stored seed, options and
move record; frame 0 is the deal, frame k the table after move k.  A
*seat view* holds, at each frame, ``state.observation(seat)`` (exactly what
the referee shows that seat; nothing else of the state is read), the legal
actions when the seat is to act and the seat's own action; other seats'
actions are left out, since the seat is not told them except through its
observation.  The *table view* holds every seat's observation and every
action.

Values are turned into a small tree of nodes (``map``, ``list``, ``cards``,
``text``) for the templates; strings that are card codes of the game (the
values :meth:`State.secrets` hides, and the cards in hands) are drawn as
cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.game import Engine, GameError
from arena.records import GameRecord

TABLE = "table"


class ReplayError(ValueError):
    """The move record does not re-run through the installed engine."""


@dataclass
class Frame:
    number: int                       # 0: the deal; k: after move k
    acted: list[tuple[int, Any]]      # (seat, action) of the move that led here
    to_act: list[int]
    views: dict[int, dict[str, Any]] = field(default_factory=dict)   # seat -> node
    legal: dict[int, list[Any]] = field(default_factory=dict)


def _vocabulary(state, players: int) -> set[str]:
    words: set[str] = set()
    for seat in range(players):
        for group in state.secrets(seat):
            words.update(str(card) for card in group)
        hand = state.observation(seat).get("hand")
        if isinstance(hand, list):
            words.update(card for card in hand if isinstance(card, str))
        elif isinstance(hand, str):
            words.update(hand)
    return words


def shape(value: Any, cards: set[str]) -> dict[str, Any]:
    """The node tree of an observation value."""
    if isinstance(value, dict):
        if not value:
            return {"kind": "text", "text": "{}"}
        return {"kind": "map", "items": [(str(k), shape(v, cards)) for k, v in value.items()]}
    if isinstance(value, str):
        if value in cards:
            return {"kind": "cards", "cards": [value]}
        single = {c for c in cards if len(c) == 1}
        if single and value and all(ch in single for ch in value):
            return {"kind": "cards", "cards": list(value)}
        return {"kind": "text", "text": value}
    if isinstance(value, list):
        if value and all(isinstance(v, str) and v in cards for v in value):
            return {"kind": "cards", "cards": list(value)}
        if not value:
            return {"kind": "text", "text": "[]"}
        if all(not isinstance(v, (dict, list)) for v in value):
            return {"kind": "inline", "items": [shape(v, cards) for v in value]}
        return {"kind": "list", "items": [shape(v, cards) for v in value]}
    return {"kind": "text", "text": "–" if value is None else str(value)}


def _has_cards(node: dict[str, Any]) -> bool:
    if node["kind"] == "cards":
        return True
    children = node.get("items", [])
    return any(_has_cards(c[1] if isinstance(c, tuple) else c) for c in children)


def cards_first(node: dict[str, Any]) -> dict[str, Any]:
    """An observation's entries holding cards first (hands, tricks, melds):
    what a person looks for before the bookkeeping."""
    if node["kind"] != "map":
        return node
    items = sorted(node["items"], key=lambda item: not _has_cards(item[1]))
    return {"kind": "map", "items": items}


def frames(engine: Engine, record: GameRecord, seats: list[int] | None = None) -> list[Frame]:
    """Every frame of ``record`` holding the observations of ``seats``
    (default: every seat)."""
    players = record.players
    seats = list(range(players)) if seats is None else seats
    try:
        state = engine.new_game(players, record.seed, record.options)
    except (GameError, ValueError) as error:
        raise ReplayError(f"cannot deal game {record.game} seed {record.seed}: {error}")
    result: list[Frame] = []
    cards: set[str] = set()
    acted: list[tuple[int, Any]] = []
    steps = record.step_maps()
    for number in range(len(steps) + 1):
        cards |= _vocabulary(state, players)
        acting = list(state.to_act())
        frame = Frame(number, acted, acting)
        for seat in seats:
            frame.views[seat] = state.observation(seat)
            if seat in acting:
                frame.legal[seat] = state.legal_actions(seat)
        result.append(frame)
        if number == len(steps):
            break
        actions = steps[number]
        try:
            state.apply(actions)
        except (GameError, ValueError, KeyError, IndexError) as error:
            raise ReplayError(f"move {number + 1} does not replay: {error}")
        acted = sorted(actions.items())
    for frame in result:
        frame.views = {seat: cards_first(shape(view, cards))
                       for seat, view in frame.views.items()}
    return result


def view_of(frame: Frame, seat: int | None) -> dict[str, Any]:
    """What one view shows of a frame (``seat`` None: the whole table)."""
    if seat is None:
        return {"acted": frame.acted, "to_act": frame.to_act, "views": frame.views,
                "legal": frame.legal}
    return {"acted": [(s, a) for s, a in frame.acted if s == seat],
            "to_act": [seat] if seat in frame.to_act else [],
            "views": {seat: frame.views[seat]},
            "legal": {seat: frame.legal[seat]} if seat in frame.legal else {}}
