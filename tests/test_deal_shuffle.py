"""Dou Dizhu's deal shuffles with its own loop (no method call per card):
it must give exactly ``random.shuffle``'s permutation from the same draws,
or every stored deal of a seed would change."""

import random

from engines.dou_dizhu.game import DECK, shuffled_deck


def test_the_deal_is_random_shuffle_of_the_deck():
    for seed in [*range(500), 2**63 - 1, 12345678901234567890]:
        expected = list(DECK)
        reference = random.Random(seed)
        reference.shuffle(expected)
        mine = random.Random(seed)
        assert shuffled_deck(mine) == expected, seed
        assert mine.getrandbits(64) == reference.getrandbits(64)  # same draws used up
