"""``farm-and-furious-racer``: plays the card with the best expected advance.

Every opponent's hand is known from the face-up cards, so the bot enumerates
all the combinations of cards the opponents could reveal this turn (each
opponent assumed to pick uniformly from its hand) and scores each of its own
cards by the average advance it would bring.  The Whistle is worth playing
when nothing in hand is expected to move the token far enough and enough
cards are face up to be worth taking back.
"""

from __future__ import annotations

import itertools

from arena.botkit import Bot
from engines.farm_and_furious.game import (
    BASE_HAND,
    DOG,
    DUCKLING,
    HEN,
    RABBIT,
    ROOSTER,
    WHISTLE,
)


def whistle_threshold(players: int) -> float:
    """Below this expected advance, taking the cards back beats playing on.
    Measured against random play: the more opponents, the more a Whistle turn
    costs relative to the field, so the bar drops as the table grows."""
    return max(0.5, 3.5 - 0.75 * players)


def advance(mine: str | None, others: tuple[str | None, ...]) -> int:
    """How far a card with meaning ``mine`` moves its owner against the
    meanings ``others`` revealed by the opponents."""
    everyone = (mine,) + others
    if mine == DUCKLING:
        return everyone.count(DUCKLING)
    if mine == HEN:
        return 0 if DOG in everyone else 3
    if mine == RABBIT:
        return 0 if DOG in everyone or everyone.count(RABBIT) > 1 else 4
    if mine == DOG:
        return others.count(HEN) + others.count(RABBIT)
    return 0


def meaning(card: str, face_up: list[str]) -> str | None:
    if card != ROOSTER:
        return card
    return face_up[-1] if face_up else None


class Racer(Bot):
    name = "farm-and-furious-racer"
    version = "1.0"

    def act(self, observation, legal, clock):
        seat = observation["seat"]
        face_up = observation["face_up"]
        full_hand = BASE_HAND + ((ROOSTER,) if observation["options"]["rooster"] else ())
        opponent_choices = [
            [meaning(card, face_up[other]) for card in full_hand if card not in face_up[other]]
            for other in range(len(face_up))
            if other != seat
        ]
        combos = list(itertools.product(*opponent_choices))
        expected = {
            card: sum(advance(meaning(card, face_up[seat]), combo) for combo in combos)
            / len(combos)
            for card in legal
        }
        best = max(
            (c for c in legal if meaning(c, face_up[seat]) != WHISTLE),
            key=expected.__getitem__,
            default=WHISTLE,
        )
        if (
            WHISTLE in legal
            and expected[best] < whistle_threshold(len(face_up))
            and len(face_up[seat]) >= 2
        ):
            return WHISTLE
        return best
