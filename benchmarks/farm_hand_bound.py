"""Solitaire Farm Hand: the best any player can do in rounds 1-4, exactly.

    nice -n 10 .venv/bin/python benchmarks/farm_hand_bound.py --deals 51

Solitaire the only hidden thing is the dummies' numbers (their suits and
order are seen, their play is fixed), and every deal consistent with what
the player sees is equally likely.  So enumerating those deals and solving
the round by expectimax over what the player sees, every turn searched (the
ismcts deals search, ``bots.ismcts.farm_hand_deals``, on the enumerated
deals instead of sampled ones), gives the optimum of the round: its best
expected points, and (scoring an exact bid 10**6) its best chance of an
exact bid.  Rounds 1-4 (hands of at most four cards) are cheap enough; a
position with more than ``--cap`` consistent deals is solved over
``--cap // 4`` sampled ones instead (slightly optimistic).  Rounds are dealt
afresh whatever was played, so per deal of the game the best chance of
making all four bids is the product of the rounds' best chances.

Prints, over the deals: that chance and the points, each a mean with its
95% interval -- the bound to set beside ``ismcts_strength.py farm-hand-1``'s
figures (the share of games reaching 21 can be no larger than it).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from itertools import permutations, product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.ismcts import farm_hand_deals as deals
from engines import unit_for
from engines.farm_hand.cards import CARD_ID, SUIT_CARDS, SUIT_INDEX
from engines.farm_hand.game import sample_hands

#: an exact bid's score when the chance of one is what is maximised (a miss
#: costs at most 6, so the chance is read to within 6 / EXACT)
EXACT = 10**6


def every_deal(observation, cap: int):
    """Every table of hands consistent with the observation at a bid (the
    dummies' hands in their order), or None when there are more than ``cap``."""
    seat, own = observation["seat"], [CARD_ID[code] for code in observation["hand"]]
    places: list[list[tuple[int, int]]] = [
        [] for _ in SUIT_CARDS
    ]  # per suit: (seat, index) of its hidden cards
    for other, suits in enumerate(observation["hand_suits"]):
        if other != seat:
            for index, suit in enumerate(suits):
                places[SUIT_INDEX[suit]].append((other, index))
    choices, count = [], 1
    for suit, cards in enumerate(SUIT_CARDS):
        count *= math.perm(len(cards) - sum(card in own for card in cards), len(places[suit]))
        if count > cap:
            return None
        choices.append(list(permutations([c for c in cards if c not in own], len(places[suit]))))
    tables = []
    for picked in product(*choices):
        hands: list[list[int | None]] = [
            list(own) if other == seat else [None] * len(suits)
            for other, suits in enumerate(observation["hand_suits"])
        ]
        for suit, dealt in enumerate(picked):
            for (other, index), card in zip(places[suit], dealt):
                hands[other][index] = card
        tables.append(hands)
    return tables


def best(observation, legal, tables, points: int) -> float:
    """The round's best mean score over ``tables``, an exact bid scoring ``points``."""
    rnd = deals._Round(observation, math.inf)
    rnd.points = points
    worlds = []
    for table in tables:
        hands, won = [list(hand) for hand in table], list(observation["won"])
        leader, trick, _, _ = deals._advance(rnd, hands, observation["leader"], [], won)
        worlds.append((hands, leader, trick, won))
    hand = [CARD_ID[code] for code in observation["hand"]]
    values = deals._values(rnd, worlds, hand, range(len(legal)), len(hand))
    return max(values) / len(worlds)


def first_bids(seed: int) -> dict[int, tuple]:
    """Rounds 1-4's bid observations and legal bids of the solitaire game ``seed``."""
    state = unit_for("farm-hand").engine.new_game(1, seed)
    bids: dict[int, tuple] = {}
    while state.to_act() and len(bids) < 4:
        observation = state.observation(0)
        if observation["phase"] == "bid":
            bids[observation["round"]] = (observation, state.legal_actions(0))
        state.apply({0: state.legal_actions(0)[0]})
    return bids


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{mean:.3f} [{mean - half:.3f}, {mean + half:.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=51)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument(
        "--cap",
        type=int,
        default=20000,
        help="most consistent deals enumerated (else cap/4 sampled)",
    )
    args = parser.parse_args()
    if args.deals < 1 or args.cap < 4:
        parser.exit(2, "--deals must be at least 1 and --cap at least 4\n")
    chances, points = [], []
    for seed in range(args.first_deal, args.first_deal + args.deals):
        chance, total = 1.0, 0.0
        for rnd, (observation, legal) in sorted(first_bids(seed).items()):
            tables = every_deal(observation, args.cap)
            if tables is None:
                rng = random.Random(seed * 10 + rnd)
                tables = [sample_hands(observation, rng) for _ in range(args.cap // 4)]
            chance *= min(1.0, best(observation, legal, tables, EXACT) / EXACT + 6 / EXACT)
            total += best(observation, legal, tables, observation["points"])
        chances.append(chance)
        points.append(total)
    print(
        f"farm-hand solitaire, rounds 1-4, the best any player can do "
        f"(deals {args.first_deal}-{args.first_deal + args.deals - 1}):"
    )
    print(f"  all four bids made {interval(chances)}   points {interval(points)}")


if __name__ == "__main__":
    main()
