"""Cards, points and meld arithmetic for Hand and Foot.

Card codes are two characters: a rank ``2 3 4 5 6 7 8 9 t j q k a`` (``t`` is
the ten) followed by a suit ``c d h s``, e.g. ``"7h"``, ``"ts"``, ``"2s"``; the
joker is ``"jk"``.  Several decks are in play, so a code may occur many times.
Ranks that can form a set are the *natural* ranks ``4 5 6 7 8 9 t j q k a``;
2s and jokers are wild; 3s are dead.
"""

from __future__ import annotations

import random

SUITS = "cdhs"
RANKS = "23456789tjqka"
NATURAL_RANKS = "456789tjqka"
JOKER = "jk"

#: one deck: 52 cards and two jokers
DECK = tuple(rank + suit for rank in RANKS for suit in SUITS) + (JOKER, JOKER)

#: order for sorting hands: by rank, then suit, jokers last
ORDER = {card: index for index, card in enumerate(dict.fromkeys(DECK))}


def _value(card: str) -> int:
    if card == JOKER:
        return 50
    rank = card[0]
    if rank in "4567":
        return 5
    if rank in "89tjqk":
        return 10
    if rank in "a2":
        return 20
    return -500 if card[1] in "dh" else -50  # a 3


#: points of a card (3s negative: black -50, red -500)
VALUE = {card: _value(card) for card in ORDER}
#: what a card costs when left in a Hand or Foot at the end of a round
PENALTY = {card: abs(value) for card, value in VALUE.items()}
#: the point value of a natural rank
RANK_VALUE = {rank: VALUE[rank + "c"] for rank in NATURAL_RANKS}


def is_wild(card: str) -> bool:
    return card == JOKER or card[0] == "2"


def is_three(card: str) -> bool:
    return card[0] == "3"


def threshold(team_score: int) -> int:
    """Points a team must lay down in one turn to make its first set of a round.

    **Ruling** of the rules page: the rulebook's ranges have gaps; these bounds
    close them."""
    if team_score < 1500:
        return 50
    if team_score < 3000:
        return 75
    if team_score < 5000:
        return 100
    if team_score < 6500:
        return 150
    return 200


def shuffle(rng, cards: list) -> None:
    """``rng.shuffle(cards)`` of a ``random.Random``, the same permutation
    from the same draws, faster: its loop with the bounds and their bit
    lengths looked up rather than computed for every card (the deal of every
    round shuffles 3 to 10 decks, sample_state every unseen card;
    docs/performance.md).  Another kind of
    generator may draw otherwise, and a longer list is no deal: they shuffle
    as ``rng`` does."""
    size = len(cards)
    if type(rng) is not random.Random or size > MOST_CARDS:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for index, bound, bits in _SPANS[MOST_CARDS - size :]:
        other = getrandbits(bits)
        while other >= bound:
            other = getrandbits(bits)
        cards[index], cards[other] = cards[other], cards[index]


#: the most cards in play: ten decks (nine players)
MOST_CARDS = 10 * len(DECK)
#: (index, the bound of the swap partner drawn for it, that bound's bit
#: length) for each step of ``random.Random.shuffle`` of MOST_CARDS cards, in
#: its order; a shorter list's steps are the last ones
_SPANS = [(index, index + 1, (index + 1).bit_length()) for index in range(MOST_CARDS - 1, 0, -1)]


def sort_cards(cards) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


#: the wild cards: 2s of every suit and the joker
WILDS = frozenset(card for card in ORDER if is_wild(card))


def set_wilds(cards) -> int:
    """How many wild cards a set holds."""
    return len([card for card in cards if card in WILDS])


def books(sets: dict) -> tuple[int, int]:
    """(clean books, dirty books) among a team's sets (rank -> cards)."""
    clean = dirty = 0
    for cards in sets.values():
        if len(cards) >= 7:
            if set_wilds(cards):
                dirty += 1
            else:
                clean += 1
    return clean, dirty


def can_go_out(sets: dict) -> bool:
    """A team may go out with at least one complete clean and one dirty book."""
    clean, dirty = books(sets)
    return clean > 0 and dirty > 0


def max_meld_value(hand, sets: dict) -> int:
    """The most points that ``sets`` (rank -> cards) plus what could still be
    melded from ``hand`` into them or into new sets can be worth (see
    :func:`meld_value`, which counts it from the cards' counts)."""
    laid = 0
    slots = 0
    for cards in sets.values():
        for card in cards:
            laid += VALUE[card]
        slots += 2 - set_wilds(cards)
    naturals: dict[str, int] = {}
    jokers = twos = 0
    for card in hand:
        if card == JOKER:
            jokers += 1
        else:
            rank = card[0]
            if rank == "2":
                twos += 1
            elif rank != "3":
                naturals[rank] = naturals.get(rank, 0) + 1
    return meld_value(
        laid, slots, [(rank, count, rank in sets) for rank, count in naturals.items()], jokers, twos
    )


def meld_value(laid: int, slots: int, naturals, jokers: int, twos: int) -> int:
    """:func:`max_meld_value` from counts: ``laid`` points already in the
    sets, ``slots`` free wild places in them (2 per set less its wilds),
    ``naturals`` (rank, count held, whether the team has a set of it) and the
    jokers and 2s held.

    Used for the initial-meld threshold: every natural of a rank that has a
    set (or three naturals) can be laid; a pair needs a wild; each set holds at
    most two wilds.  Completing a pair with a wild never costs a wild slot
    (it opens a new one), so the best use of the wilds is to complete as many
    pairs as possible (highest first) and put the best remaining wilds in free
    slots.
    """
    value = laid
    pairs = []
    for rank, count, has_set in naturals:
        if has_set or count >= 3:
            value += count * RANK_VALUE[rank]
            if not has_set:
                slots += 2
        elif count == 2:
            pairs.append(2 * RANK_VALUE[rank])
    if jokers or twos:
        wilds = [50] * jokers + [20] * twos
        pairs.sort(reverse=True)
        completed = min(len(pairs), len(wilds))
        value += sum(pairs[:completed])
        value += sum(wilds[: min(len(wilds), 2 * completed + slots)])
    return value
