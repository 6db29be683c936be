"""VEGEtables: 169 actions (play/tractor per card, takes, draws, discard, pass).

Card sets are 80-long 0/1 vectors in the engine's card order (purple 1-20,
green, red, yellow): the own Hand, both Grounds, the opponent cards this seat
knows, Silo cards (all, and the takeable fronts), stand-in targets; then the
16 stack tops, Wells, Tractors and scores.
"""

from __future__ import annotations

from arena.rl.encoding import Encoding, counts, one_hot
from engines.vegetables.game import CARD, DISCARD, DRAW, PASS, PLAY, TAKE, TRACTOR

PHASES = ("play", "take", "draw", "over")
SCORE_SCALE = 300.0


class VegetablesEncoding(Encoding):
    actions = tuple(PLAY + TRACTOR + TAKE + DRAW + [DISCARD, PASS])

    def features(self, observation):
        me = observation["seat"]
        seats = (me, 1 - me)
        silos = observation["silos"]
        out = counts(observation["hand"], CARD)
        out += counts(observation["hand_public"], CARD)
        for seat in seats:
            out += counts(observation["grounds"][seat], CARD)
        out += counts(observation["opponent_known"], CARD)
        out += counts(observation["tractor_targets"], CARD)
        out += counts([card for column in silos for card in column], CARD)
        out += counts([column[0] for column in silos if column], CARD)
        out += [top / 20 for top in observation["tops"]]
        out += [cards / 8 for cards in observation["wells"]]
        out += [1.0 if observation["third_well_open"] else 0.0]
        for seat in seats:
            out += [
                observation["hand_sizes"][seat] / 40,
                observation["tractors"][seat] / 4,
                observation["tractors_locked"][seat] / 4,
                observation["tractors_used"][seat] / 4,
                observation["tractors_discarded"][seat] / 4,
                observation["scores"][seat] / SCORE_SCALE,
            ]
        out += one_hot(PHASES.index(observation["phase"]), len(PHASES))
        out += [
            min(observation["played_this_turn"], 20) / 20,
            observation["draw_start"] / 12,
            observation["turn"] / observation["options"]["max_turns"],
            1.0 if observation["to_move"] == me else 0.0,
        ]
        return out
