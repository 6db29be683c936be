"""The Hand and Foot deal's own shuffle: the permutation of ``random.Random.shuffle``."""

import random

import pytest

from engines.hand_and_foot.cards import DECK, shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 17, 64, 162, 539, 540, 541, 700])
def test_shuffle_is_the_random_modules_own(size):
    # same cards in the same order from the same seed, and the generator
    # left where rng.shuffle leaves it (the game draws on from it)
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        cards, expected = list(range(size)), list(range(size))
        shuffle(ours, cards)
        theirs.shuffle(expected)
        assert cards == expected
        assert ours.getstate() == theirs.getstate()


def test_shuffle_moves_the_cards():
    cards = list(DECK * 3)
    shuffle(random.Random(7), cards)
    assert sorted(cards) == sorted(DECK * 3) and cards != list(DECK * 3)


class Rigged(random.Random):
    """A generator of another kind: its own shuffle reverses."""

    def shuffle(self, x):
        x.reverse()


def test_another_kind_of_generator_shuffles_as_it_does():
    cards = list(range(10))
    shuffle(Rigged(1), cards)
    assert cards == list(range(9, -1, -1))


def test_the_largest_deal_takes_the_fast_path(monkeypatch):
    # nine players' ten decks are shuffled by the loop of cards.shuffle, not
    # handed back to random.Random.shuffle (which would be as right, slower)
    def refused(self, x):
        raise AssertionError("random.Random.shuffle was called")

    monkeypatch.setattr(random.Random, "shuffle", refused)
    cards = list(DECK * 10)
    shuffle(random.Random(3), cards)
    assert sorted(cards) == sorted(DECK * 10) and cards != list(DECK * 10)
