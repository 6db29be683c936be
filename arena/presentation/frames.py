"""A stored game as frames for the replay viewer.

The game is re-run through its engine from the stored seed, options and
move record; frame 0 is the deal, frame k the table after move k.  A
*seat view* holds, at each frame, ``state.observation(seat)`` (exactly what
the referee shows that seat; nothing else of the state is read for it), the
legal actions when the seat is to act and the seat's own action; other
seats' actions are left out, since the seat learns of them only through its
observation.  The *table view* holds every seat's observation and every
action.

:func:`payload` packs a view for the page: each observation as the keys that
changed since the previous frame (observations repeat most of themselves
from move to move: docs/performance.md says what that saves),
plus the game's card codes (the values :meth:`State.secrets` hides, and the
cards in hands) so the page can draw them as cards, and the table as the
game's drawing (:mod:`arena.game.drawing`) draws it from the observations of
that view alone, packed the same way (each seat of the drawing a key).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.game import Engine, GameError
from arena.game.drawing import Drawing, Table
from arena.records import GameRecord

TABLE = "table"


class ReplayError(ValueError):
    """The move record does not re-run through the installed engine."""


@dataclass
class Frame:
    number: int  # 0: the deal; k: after move k
    acted: list[tuple[int, Any]]  # (seat, action) of the move that led here
    to_act: list[int]
    views: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> observation
    legal: dict[int, list[Any]] = field(default_factory=dict)


@dataclass
class Replay:
    frames: list[Frame]
    cards: set[str]


def _card_codes(state, players: int) -> set[str]:
    codes: set[str] = set()
    for seat in range(players):
        for group in state.secrets(seat):
            codes.update(str(card) for card in group)
        hand = state.observation(seat).get("hand")
        if isinstance(hand, list):
            codes.update(card for card in hand if isinstance(card, str))
        elif isinstance(hand, str):
            codes.update(hand)
    return codes


def replay(engine: Engine, record: GameRecord, seats: list[int] | None = None) -> Replay:
    """Every frame of ``record`` with the observations of ``seats``
    (default: every seat)."""
    players = record.players
    seats = list(range(players)) if seats is None else seats
    try:
        state = engine.new_game(players, record.seed, record.options)
    except (GameError, ValueError) as error:
        raise ReplayError(f"cannot deal game {record.game} seed {record.seed}: {error}") from error
    frames: list[Frame] = []
    cards: set[str] = set()
    acted: list[tuple[int, Any]] = []
    steps = record.step_maps()
    for number in range(len(steps) + 1):
        cards |= _card_codes(state, players)
        acting = list(state.to_act())
        frame = Frame(number, acted, acting)
        for seat in seats:
            frame.views[seat] = state.observation(seat)
            if seat in acting:
                frame.legal[seat] = state.legal_actions(seat)
        frames.append(frame)
        if number == len(steps):
            break
        actions = steps[number]
        try:
            state.apply(actions)
        except (GameError, ValueError, KeyError, IndexError) as error:
            raise ReplayError(f"move {number + 1} does not replay: {error}") from error
        acted = sorted(actions.items())
    return Replay(frames, cards)


def _changes(before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
    """``after`` as the keys that differ from ``before`` (``"-"``: removed keys)."""
    if before is None:
        return {"set": after}
    change: dict[str, Any] = {
        "set": {k: v for k, v in after.items() if k not in before or before[k] != v}
    }
    gone = [k for k in before if k not in after]
    if gone:
        change["-"] = gone
    return change


def _flat(drawn: Table, faces: dict[str, list[str]]) -> dict[str, Any]:
    """A drawing with each seat and each zone of the middle a key of its
    own, so that a move that changes one sends that one alone
    (:func:`_changes`), and each card
    a key into ``faces`` (its code, or ``~`` and the tone of a face-down
    card), which it fills: a card's face is sent once per page."""

    def packed(zones: list) -> list:
        out = []
        for zone in zones:
            keys = []
            for card in zone["cards"]:
                key = card["code"] or "~" + card["tone"]
                faces.setdefault(key, [card["code"], card["label"], card["tone"]])
                keys.append(key)
            out.append({**zone, "cards": keys})
        return out

    flat: dict[str, Any] = {"title": drawn["title"], "texts": drawn["texts"]}
    for index, zone in enumerate(packed(drawn["middle"])):
        flat[f"middle:{index}"] = zone
    for index, value in enumerate(drawn["seats"]):
        flat[f"seat:{index}"] = {**value, "zones": packed(value["zones"])}
    return flat


def payload(game: Replay, seat: int | None, drawing: Drawing) -> dict[str, Any]:
    """What the page embeds for one view (``seat`` None: the whole table);
    ``drawing`` draws the table of each frame."""
    previous: dict[int, dict[str, Any]] = {}
    before: dict[str, Any] | None = None
    faces: dict[str, list[str]] = {}
    frames = []
    for frame in game.frames:
        shown = list(frame.views) if seat is None else [seat]
        views = {}
        for s in shown:
            views[str(s)] = _changes(previous.get(s), frame.views[s])
            previous[s] = frame.views[s]
        drawn = _flat(drawing.draw({s: frame.views[s] for s in shown}), faces)
        table, before = _changes(before, drawn), drawn
        frames.append(
            {
                "acted": [[s, a] for s, a in frame.acted if seat is None or s == seat],
                "to_act": [s for s in frame.to_act if seat is None or s == seat],
                "legal": {str(s): v for s, v in frame.legal.items() if seat is None or s == seat},
                "views": views,
                "table": table,
            }
        )
    return {"cards": sorted(game.cards), "faces": faces, "frames": frames}
