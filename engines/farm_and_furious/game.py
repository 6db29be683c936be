"""Farm & Furious rules (``docs/games/farm-and-furious.md``).

Every player secretly picks one card per turn; all are revealed together and
their effects computed from the whole set revealed that turn.  Actions are the
card names: ``"dog"``, ``"hen"``, ``"duckling"``, ``"rabbit"``, ``"whistle"``
and, with the ``rooster`` option, ``"rooster"``.

Rulings from the rules page, as implemented here:

* the finish is at ``track_length`` (default 20); the orange track is absent;
* a Dog advances 1 for every Hen and Rabbit played by the others this turn,
  even a Rabbit that would have failed anyway; every Dog counts independently;
* a Rooster is a copy of its owner's previous card (the last face-up card) for
  every rule; with no face-up card (first turn, just after a Whistle) it does
  nothing -- a Rooster copying a Whistle takes the cards back;
* tied leaders share first place; the game also stops after ``max_turns``.

Score is the final position, so ranks (further is better, equal positions
share a rank) follow from scores directly.  Nothing is hidden once a turn is
revealed -- every hand is deducible from the face-up cards -- so the only
secret is the simultaneous choice itself, which never enters the state before
the reveal.
"""

from __future__ import annotations

import random
from typing import Any

from arena.game import Engine, GameInfo, Observation, Option, Outcome, State
from engines import built_in_unit

DOG, HEN, DUCKLING, RABBIT, WHISTLE, ROOSTER = (
    "dog",
    "hen",
    "duckling",
    "rabbit",
    "whistle",
    "rooster",
)
BASE_HAND = (DOG, HEN, DUCKLING, RABBIT, WHISTLE)


class FarmAndFurious(Engine):
    info = GameInfo(
        id="farm-and-furious",
        version="1.0",
        players=(2, 3, 4, 5),
        options=(
            Option("rooster", False, "add a Rooster to every hand (6 cards)"),
            Option("track_length", 20, "position of the finish line", minimum=1),
            Option("max_turns", 200, "the game stops after this many turns", minimum=1),
        ),
        simultaneous=True,
        summary="simultaneous-move race: dogs, hens, ducklings, rabbits, whistles",
    )

    def _new_game(self, players: int, seed: int, options: dict[str, Any]):
        return FarmAndFuriousState(players, options)

    def sample_state(self, observation: Observation, rng: random.Random):
        """Nothing is hidden after a reveal, so the state is the observation."""
        state = FarmAndFuriousState(len(observation["positions"]), observation["options"])
        state._turn = observation["turn"]
        state._positions = list(observation["positions"])
        state._face_up = [list(cards) for cards in observation["face_up"]]
        state._history = [list(turn) for turn in observation["history"]]
        state._over = observation["over"]
        return state


class FarmAndFuriousState(State):
    def __init__(self, players: int, options: dict[str, Any]):
        self.players = players
        self._options = options
        self._hand = BASE_HAND + ((ROOSTER,) if options["rooster"] else ())
        self._turn = 0
        self._positions = [0] * players
        self._face_up: list[list[str]] = [[] for _ in range(players)]
        self._history: list[list[str]] = []
        self._over = False

    def to_act(self):
        return () if self._over else tuple(range(self.players))

    def hand(self, seat: int) -> list[str]:
        face_up = self._face_up[seat]
        return [card for card in self._hand if card not in face_up]

    def legal_actions(self, seat):
        return [] if self._over else self.hand(seat)

    def observation(self, seat) -> Observation:
        return {
            "seat": seat,
            "turn": self._turn,
            "hand": self.hand(seat),
            "positions": list(self._positions),
            "face_up": [list(cards) for cards in self._face_up],
            "history": [list(turn) for turn in self._history],
            "finish": self._options["track_length"],
            "options": dict(self._options),
            "over": self._over,
        }

    def effective(self, seat: int, card: str) -> str | None:
        """The card's meaning this turn: a Rooster copies its owner's last
        face-up card, or means nothing when there is none."""
        if card != ROOSTER:
            return card
        face_up = self._face_up[seat]
        return face_up[-1] if face_up else None

    def is_legal(self, seat, action):
        """Exact and without building the hand list (the whole move is a few
        additions, so the check would otherwise cost as much as the move)."""
        return action in self._hand and action not in self._face_up[seat]

    def _refusal(self, seat, action):
        return f"seat {seat} has no {action!r} in hand"

    def _apply(self, actions):
        played = [actions[seat] for seat in range(self.players)]
        meaning = [self.effective(seat, card) for seat, card in enumerate(played)]
        dogs = meaning.count(DOG)
        hens = meaning.count(HEN)
        rabbits = meaning.count(RABBIT)
        ducklings = meaning.count(DUCKLING)
        for seat, card in enumerate(meaning):
            if card == DUCKLING:
                self._positions[seat] += ducklings
            elif card == HEN and not dogs:
                self._positions[seat] += 3
            elif card == RABBIT and not dogs and rabbits == 1:
                self._positions[seat] += 4
            elif card == DOG:
                self._positions[seat] += hens + rabbits
        for seat, card in enumerate(played):
            if meaning[seat] == WHISTLE:
                self._face_up[seat] = []
            else:
                self._face_up[seat].append(card)
        self._history.append(played)
        self._turn += 1
        finished = max(self._positions) >= self._options["track_length"]
        self._over = finished or self._turn >= self._options["max_turns"]

    def outcome(self):
        return Outcome.from_scores(self._positions)

    def clone(self):
        copy = object.__new__(FarmAndFuriousState)
        copy.__dict__.update(self.__dict__)
        copy._positions = list(self._positions)
        copy._face_up = [list(cards) for cards in self._face_up]
        copy._history = list(self._history)
        return copy


#: this game as one plugin unit (:class:`arena.game.GameUnit`)
UNIT = built_in_unit(FarmAndFurious(), knowledge=False)
