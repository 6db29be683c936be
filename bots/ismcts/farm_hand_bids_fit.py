"""Counts how ``farm-hand-counter`` bids by the numbers in its hand, at the
five-hand table: the model of a rival's bid that weights the ismcts bot's
deals there (:func:`bots.ismcts.farm_hand.determinize`).

    python -m bots.ismcts.farm_hand_bids_fit     # rewrites farm_hand_bids.py (~2 min of CPU)

Once the bids are revealed, a rival's bid says much about its hand: at five
hands of four cards the counter bids one trick with a 7 or two high cards
and none without, so a rival who bid 0 rarely holds a 7.  Every round's
deal is drawn here (seeded, the dealer turning as in a game), each seat's
bid asked of the counter on its own observation, and the bids counted by
the sorted numbers of the hand.  Same seeds, same counts.  Then it prints
what the counts are worth: in held-out games of five counters, how many of
the rivals' cards the search's deals get right, drawn alike and by the bids.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

from arena.game import State
from bots.farm_hand import CounterBot
from bots.ismcts.farm_hand import determinize
from bots.ismcts.knowledge import uniform_states
from engines import unit_for
from engines.farm_hand.cards import CARD_NUMBER, HAND_SIZES
from engines.farm_hand.game import FarmHandState

COUNTS_FILE = Path(__file__).with_name("farm_hand_bids.py")
TABLE = 5
#: deals drawn per hand size (five bids each)
DEALS = {1: 300, 2: 600, 3: 1200, 4: 2400}
FIRST_SEED = 500_000


def count_bids(table: int, size: int, deals: int, seed: int) -> dict[tuple, Counter]:
    """Per sorted hand numbers, how often the counter bid each number of
    tricks, over ``deals`` deals of ``size`` cards from ``seed`` on."""
    bot = CounterBot()
    bot.rng = random.Random(seed)
    rnd = HAND_SIZES[table].index(size) + 1
    counts: dict[tuple, Counter] = {}
    for deal in range(deals):
        state = FarmHandState(table, random.Random(seed + deal))
        state._round = rnd
        state._dealer = deal % table
        state._deal()
        for seat in range(table):
            bid = bot.bid(state.observation(seat), state.legal_actions(seat))
            numbers = tuple(sorted(CARD_NUMBER[card] for card in state._hands[seat]))
            counts.setdefault(numbers, Counter())[bid] += 1
    return counts


def hands_of(state: State) -> list[list[str]]:
    """Every seat's hand, sorted, as that seat sees it."""
    return [sorted(state.observation(seat)["hand"]) for seat in range(TABLE)]


def rival_cards_right(games: int, seed: int, draws: int = 100) -> tuple[float, float, int]:
    """How well the deals drawn by the bids know the rivals' cards: in
    games of five counters (seeded from ``seed``, held out from the count),
    at every decision of a round of three or more cards once the bids are
    out, the share of the rivals' cards (sorted, place by place) that
    ``draws`` deals got right, drawn alike and by the bids; and the
    decisions."""
    engine = unit_for("farm-hand").engine
    bots = [CounterBot() for _ in range(TABLE)]
    for index, bot in enumerate(bots):
        bot.rng = random.Random(seed + index)
    right = {"alike": 0.0, "by the bids": 0.0}
    decisions = 0
    for game in range(games):
        state = engine.new_game(TABLE, seed + game)
        while acting := state.to_act():
            moves = {}
            for seat in acting:
                observation, legal = state.observation(seat), state.legal_actions(seat)
                if observation["phase"] == "play" and observation["hand_size"] >= 3:
                    decisions += 1
                    truth = hands_of(state)
                    for name, drawer in (("alike", uniform_states), ("by the bids", determinize)):
                        draw = drawer(engine, observation, random.Random(decisions))
                        for _ in range(draws):
                            hands = hands_of(draw())
                            for other in range(TABLE):
                                if other != seat and truth[other]:
                                    same = zip(hands[other], truth[other])
                                    share = sum(a == b for a, b in same) / len(truth[other])
                                    right[name] += share / (draws * (TABLE - 1))
                moves[seat] = bots[seat].act(observation, legal, {})
            state.apply(moves)
    return right["alike"] / decisions, right["by the bids"] / decisions, decisions


def main() -> None:
    lines = [
        f'"""Written by ``python -m bots.ismcts.farm_hand_bids_fit``: '
        f"``farm-hand-counter``'s bids\nat the {TABLE}-hand table by the sorted numbers "
        'of its hand."""',
        "",
        f"TABLE = {TABLE}",
        "#: hand size -> sorted numbers -> bid counts (index: the bid)",
        "BIDS: dict[int, dict[tuple[int, ...], tuple[int, ...]]] = {",
    ]
    for size, deals in DEALS.items():
        counts = count_bids(TABLE, size, deals, FIRST_SEED + 10_000 * size)
        print(f"{size} cards: {deals * TABLE} bids, {len(counts)} hands", file=sys.stderr)
        lines.append(f"    {size}: {{")
        for numbers in sorted(counts):
            row = tuple(counts[numbers][bid] for bid in range(size + 1))
            lines.append(f"        {numbers}: {row},")
        lines.append("    },")
    lines.append("}")
    COUNTS_FILE.write_text("\n".join(lines) + "\n")
    alike, weighted, decisions = rival_cards_right(20, 900_000)
    print(
        f"rival cards right, {decisions} decisions of 20 held-out games: "
        f"drawn alike {alike:.1%}, by the bids {weighted:.1%}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
