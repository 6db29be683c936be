"""Hand and Foot: 132 actions, because the engine already splits a turn.

Why this encoding: a Hand and Foot *turn* (draw, any melds, discard) has an
astronomical number of shapes, but the engine asks for it one step at a
time -- ``draw``, ``pile``, ``pile:R``, one ``meld``/``new`` per action,
``discard:CARD`` -- and each step names at most a rank, a wild kind or a card
code.  Enumerating those steps gives a small fixed list in which every engine
action has exactly one index; the mask is the legal steps now.

Vector: the own Hand as counts per card code; per relative team its score,
threshold, whether it has melded, and per natural rank the naturals and
wilds in its set; per relative seat its card count, Foot flag and whether it
is to act; the discard pile's top card and size, the stock and the round.
"""

from __future__ import annotations

from arena.rl.encoding import Encoding, counts, one_hot, relative
from engines.hand_and_foot.cards import DECK, NATURAL_RANKS, is_wild

CODES = tuple(dict.fromkeys(DECK))
CODE_INDEX = {code: index for index, code in enumerate(CODES)}
PHASES = ("draw", "meld", "over")
BOOK = 7

ACTIONS = (
    ("draw", "pile")
    + tuple(f"pile:{r}" for r in NATURAL_RANKS)
    + tuple(
        f"{kind}:{r}{wild}"
        for kind in ("meld", "new")
        for wild in ("", ":2", ":jk")
        for r in NATURAL_RANKS
    )
    + tuple(f"discard:{code}" for code in CODES)
)


class HandAndFootEncoding(Encoding):
    actions = ACTIONS

    def features(self, observation):
        me = observation["seat"]
        players = observation["players"]
        teams = len(observation["scores"])
        target = observation["options"]["target"]
        decks = players + 1
        out = counts(observation["hand"], CODE_INDEX, 8)
        for team in relative(observation["team"], teams):
            out += [
                observation["scores"][team] / (2 * target),
                observation["thresholds"][team] / 150,
                1.0 if observation["melded"][team] else 0.0,
            ]
            sets = observation["sets"][team]
            for rank in NATURAL_RANKS:
                cards = sets.get(rank, [])
                wilds = sum(1 for card in cards if is_wild(card))
                out += [
                    (len(cards) - wilds) / BOOK,
                    wilds / 3,
                    1.0 if cards else 0.0,
                    1.0 if len(cards) >= BOOK else 0.0,
                ]
        for seat in relative(me, players):
            out += [
                observation["hand_counts"][seat] / 30,
                1.0 if observation["in_foot"][seat] else 0.0,
                1.0 if observation["to_act"] == seat else 0.0,
            ]
        discard = observation["discard"]
        out += one_hot(CODE_INDEX[discard[-1]] if discard else None, len(CODES))
        out += [
            len(discard) / (20 * decks),
            observation["stock"] / (54 * decks),
            observation["round"] / observation["options"]["max_rounds"],
        ]
        out += one_hot(PHASES.index(observation["phase"]), len(PHASES))
        return out
