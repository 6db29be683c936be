"""Farm & Furious: six card actions; positions and face-up cards per seat.

Nothing is hidden once a turn is revealed, so the vector is the whole public
state, seen from the observing seat.
"""

from __future__ import annotations

from arena.rl.encoding import Encoding, counts, one_hot, relative
from engines.farm_and_furious.game import BASE_HAND, ROOSTER

CARDS = BASE_HAND + (ROOSTER,)
CARD_INDEX = {card: index for index, card in enumerate(CARDS)}


class FarmAndFuriousEncoding(Encoding):
    actions = CARDS

    def features(self, observation):
        finish = observation["finish"]
        positions = observation["positions"]
        seat = observation["seat"]
        out = []
        for other in relative(seat, len(positions)):
            face_up = observation["face_up"][other]
            out += [positions[other] / finish]
            out += counts(face_up, CARD_INDEX)
            out += one_hot(CARD_INDEX[face_up[-1]] if face_up else None, len(CARDS))
        best_other = max(p for s, p in enumerate(positions) if s != seat)
        out += [(positions[seat] - best_other) / finish]
        out += counts(observation["hand"], CARD_INDEX)
        out += [observation["turn"] / observation["options"]["max_turns"]]
        return out
