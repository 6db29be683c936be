"""Dou Dizhu: a canonical index over every play the deck allows.

Why this encoding: a play is a multiset of ranks (suits never matter), and
the engine names it by its sorted rank string, so the set of all plays is
finite and fixed -- every play a full 54-card deck allows, 24,639 strings.
Indexing them all (after the four bids and ``pass``) keeps the action space a
plain ``Discrete`` with a one-to-one map to engine actions: no move is
merged with another or left out, and the mask says which ones the hand
allows right now.  Abstracting to move *types* (solo, pair, chain...) would
make a smaller space but need a second decision (which kickers) that the
referee cannot ask for.

Cards are 54 bits per set, DouZero-style: four "at least k" bits per rank
3..2 and one per joker.  Sets: the own hand, the cards not seen yet, the
bottom cards, the play to beat, and per relative seat the cards it has
played and its last action this trick.
"""

from __future__ import annotations

import functools

from arena.rl.encoding import Encoding, one_hot, relative
from engines.dou_dizhu import moves
from engines.dou_dizhu.game import BIDS, DECK_COUNTS, PASS

PHASES = ("auction", "play", "over")
CARD_BITS = 54


@functools.lru_cache(maxsize=1)
def all_plays() -> tuple[str, ...]:
    """Every play a full deck allows, shortest first, then in rank order."""
    rank = moves.RANK_INDEX.__getitem__
    return tuple(
        sorted(
            moves.lead_moves(list(DECK_COUNTS)),
            key=lambda play: (len(play), [rank(ch) for ch in play]),
        )
    )


def card_bits(ranks: str) -> list[float]:
    have = [0] * moves.NRANKS
    for ch in ranks:
        have[moves.RANK_INDEX[ch]] += 1
    bits = []
    for rank in range(13):
        bits += [1.0 if have[rank] > k else 0.0 for k in range(4)]
    return bits + [float(have[13]), float(have[14])]


class DouDizhuEncoding(Encoding):
    def __init__(self, engine, players, options=None):
        self.actions = BIDS + (PASS,) + all_plays()
        super().__init__(engine, players, options)

    def features(self, observation):
        me = observation["seat"]
        lord = observation["landlord"]
        order = relative(me, 3)
        played = ["", "", ""]
        last = [None, None, None]
        if lord is not None:
            for turn, action in enumerate(observation["plays"]):
                who = (lord + turn) % 3
                last[who] = action
                if action != PASS:
                    played[who] += action
        seen = observation["hand"] + "".join(played)
        unseen = "".join(
            moves.RANKS[r] * (DECK_COUNTS[r] - seen.count(moves.RANKS[r]))
            for r in range(moves.NRANKS)
        )
        out = card_bits(observation["hand"]) + card_bits(unseen)
        out += card_bits(observation["bottom"] or "")
        out += card_bits(observation["to_beat"] or "")
        for seat in order:
            out += card_bits(played[seat])
            out += card_bits(last[seat] if last[seat] not in (None, PASS) else "")
            out += [
                1.0 if last[seat] == PASS else 0.0,
                observation["hand_sizes"][seat] / 20,
                1.0 if seat == lord else 0.0,
                1.0 if seat == observation["to_beat_seat"] else 0.0,
            ]
        out += one_hot(PHASES.index(observation["phase"]), len(PHASES))
        out += one_hot(observation["bid"], 4)
        out += [observation["redeals"] / 3, min(observation["multiplier"].bit_length() - 1, 8) / 8]
        return out
