"""Farm Hand's 21-card deck, the deal table and the trick rule.

Cards are ints 0..20 inside the engine, numbered in (suit, number) order so
that ``sorted(hand)`` is the canonical order of a bot's hand (it reveals the
suits, which everyone sees anyway, and nothing else).  On the wire a card is
its short code, the suit name followed by the number: ``"blue4"``.
"""

from __future__ import annotations

from collections.abc import Sequence

#: **Ruling** of the rules page: the suits and the numbers in each
SUIT_NUMBERS: dict[str, tuple[int, ...]] = {
    "blue": (1, 2, 3, 4, 5, 6),
    "green": (3, 4, 5, 6, 7),
    "orange": (1, 2, 6, 7),
    "yellow": (2, 3, 5),
    "red": (1, 4),
    "purple": (7,),
}
SUITS: tuple[str, ...] = tuple(SUIT_NUMBERS)
SUIT_INDEX: dict[str, int] = {suit: index for index, suit in enumerate(SUITS)}

#: per card id: suit index, suit name, number and wire code
CARD_SUIT: list[int] = []
CARD_SUIT_NAME: list[str] = []
CARD_NUMBER: list[int] = []
CARD_CODE: list[str] = []
for _suit, _numbers in SUIT_NUMBERS.items():
    for _number in _numbers:
        CARD_SUIT.append(SUIT_INDEX[_suit])
        CARD_SUIT_NAME.append(_suit)
        CARD_NUMBER.append(_number)
        CARD_CODE.append(f"{_suit}{_number}")
DECK_SIZE = len(CARD_CODE)
CARD_ID: dict[str, int] = {code: card for card, code in enumerate(CARD_CODE)}
#: the card ids of each suit index
SUIT_CARDS: list[list[int]] = [
    [card for card in range(DECK_SIZE) if CARD_SUIT[card] == suit] for suit in range(len(SUITS))
]

#: **Ruling** of the rules page: cards per hand by round, keyed by hands at the table
HAND_SIZES: dict[int, tuple[int, ...]] = {
    3: (1, 2, 3, 4, 5, 6),
    4: (1, 2, 3, 4, 5, 5),
    5: (1, 2, 3, 4, 4, 4),
}
ROUNDS = 6

#: dummy bids by round 1..6 (replays of round 6 use the round-6 bid)
DUMMY_BIDS: dict[str, tuple[int, ...]] = {
    "mac": (0, 1, 0, 2, 0, 3),
    "donald": (1, 0, 1, 0, 2, 0),
}

assert DECK_SIZE == 21
assert all(CARD_NUMBER.count(number) == 3 for number in range(1, 8))


def card(code: str) -> int:
    """The card id of a wire code such as ``"blue4"``."""
    return CARD_ID[code]


def trick_winner(numbers: Sequence[int]) -> int | None:
    """Index (in play order) of the winning card, or None when every card
    cancels: numbers played more than once cancel each other entirely, the
    highest number left wins whatever its suit."""
    best = -1
    best_index = None
    for index, number in enumerate(numbers):
        if number > best and numbers.count(number) == 1:
            best = number
            best_index = index
    return best_index


def round_score(bid: int, won: int, points: int) -> int:
    """``points`` (the round number) for an exact bid, else -1 per trick off."""
    return points if bid == won else -abs(bid - won)
