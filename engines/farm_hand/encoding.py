"""Farm Hand: bids 0..6 and the 21 cards as actions; dummies are table seats.

Per table seat (dummies included, relative to the observer): whether it is a
dummy, its bid, tricks won, score and the suits it holds (public).  Plus the
own hand, the trick so far and the cards already played this round.
"""

from __future__ import annotations

from arena.rl.encoding import Encoding, counts, one_hot, relative
from engines.farm_hand.cards import CARD_CODE, CARD_ID, CARD_SUIT, ROUNDS, SUITS

MAX_BID = 6
PHASES = ("bid", "play", "over")
SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}
#: a round scores at most 6 and loses at most 6, over 6 rounds and 3 replays
SCORE_SCALE = 60.0


class FarmHandEncoding(Encoding):
    actions = tuple(range(MAX_BID + 1)) + tuple(CARD_CODE)

    def features(self, observation):
        table = observation["table"]
        players = observation["players"]
        out = one_hot(PHASES.index(observation["phase"]), len(PHASES))
        out += one_hot(observation["round"] - 1, ROUNDS)
        out += [min(observation["replay"], 3) / 3, observation["hand_size"] / MAX_BID]
        out += counts(observation["hand"], CARD_ID)
        for other in relative(observation["seat"], table):
            bid = observation["bids"][other]
            out += [1.0 if other >= players else 0.0]
            out += one_hot(bid, MAX_BID + 1)
            out += [
                observation["won"][other] / MAX_BID,
                observation["scores"][other] / SCORE_SCALE,
                1.0 if other == observation["leader"] else 0.0,
                1.0 if other == observation["dealer"] else 0.0,
            ]
            out += counts(observation["hand_suits"][other], SUIT_INDEX, MAX_BID)
        trick = observation["trick"]
        out += counts(trick, CARD_ID)
        out += one_hot(CARD_SUIT[CARD_ID[trick[0]]] if trick else None, len(SUITS))
        out += counts([card for done in observation["tricks"] for card in done["cards"]], CARD_ID)
        return out
