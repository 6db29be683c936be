"""Solitaire Farm Hand: the best any player can do, round by round and over
the whole game, exactly.

    nice -n 10 .venv/bin/python benchmarks/farm_hand_bound.py --deals 100 --first-deal 1000 --jobs 2

Solitaire the only hidden thing is the dummies' numbers (their suits and
order are seen, their play is fixed), and every deal consistent with what
the player sees is equally likely.  So enumerating those deals and solving
the round by expectimax over what the player sees, every turn searched (the
ismcts deals search, ``bots.ismcts.farm_hand_deals``, on the enumerated
deals instead of sampled ones), gives the optimum of the round: its best
expected points, and (scoring an exact bid 10**6) its best chance of an
exact bid.  Every round is enumerated in full (at most 345,600 consistent
deals seen in round 6); only a position with more than ``--cap`` of them is
solved over ``--cap // 4`` sampled ones instead (slightly optimistic: the
count of such rounds is printed).

Rounds are dealt afresh from the game's seed whatever was played, and a
round's points add to the total, so the whole game's best expected points
(the six rounds, tie-break replays left out) is the sum of the rounds'
best, and the best chance of making all six bids (the rulebook's 21) is the
product of the rounds' best chances: no policy that sees only what the
player sees does better on these deals.  Prints, over the deals, each round
and those totals as a mean with its 95% interval -- the bound to set beside
``ismcts_strength.py farm-hand-1``'s figures on the same deals (its
``six rounds' points`` and ``reached 21``): ``--against ROWS``, a file of
its ``--rows``, prints the bot's six rounds minus the bound, paired by deal.

A deal's round 6 takes up to a few minutes, so ``--results FILE`` keeps
every solved round (a JSON line each) and a later run solves only the
rounds missing from it: an interrupted run resumes, and runs over parts of
the deals are summed up by a run over all of them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from itertools import permutations, product
from multiprocessing import Pool
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
    groups = deals.by_sight(rnd, observation, [[list(hand) for hand in table] for table in tables])
    hand = [CARD_ID[code] for code in observation["hand"]]
    return max(deals.bid_values(rnd, groups, hand, range(len(legal)), len(hand))) / len(tables)


def bid_rounds(seed: int, rounds: int) -> dict[int, tuple]:
    """The first ``rounds`` rounds' bid observations and legal bids of the
    solitaire game ``seed`` (tie-break replays left out; the play in between
    does not change the deals)."""
    state = unit_for("farm-hand").engine.new_game(1, seed)
    bids: dict[int, tuple] = {}
    while state.to_act() and len(bids) < rounds:
        observation = state.observation(0)
        if observation["phase"] == "bid" and not observation["replay"]:
            bids[observation["round"]] = (observation, state.legal_actions(0))
        state.apply({0: state.legal_actions(0)[0]})
    return bids


def solve_round(seed: int, number: int, cap: int) -> dict:
    """Round ``number`` of the game ``seed``: its best chance of an exact bid,
    its best expected points, and whether it was solved over samples."""
    observation, legal = bid_rounds(seed, number)[number]
    tables = every_deal(observation, cap)
    sampled = tables is None
    if tables is None:
        rng = random.Random(seed * 10 + number)
        tables = [sample_hands(observation, rng) for _ in range(cap // 4)]
    return {
        "chance": min(1.0, best(observation, legal, tables, EXACT) / EXACT + 6 / EXACT),
        "points": best(observation, legal, tables, observation["points"]),
        "sampled": sampled,
    }


def _solve_one(job: tuple[int, int, int]) -> dict:
    seed, number, cap = job
    return {"deal": seed, "round": number, "cap": cap, **solve_round(seed, number, cap)}


def _kept(path: Path, cap: int) -> dict[tuple[int, int], dict]:
    """The rounds already solved in ``path``, by (deal, round): every exact
    one, and those solved over samples with this ``cap`` (none if the file
    does not exist)."""
    if not path.exists():
        return {}
    entries = map(json.loads, path.read_text().splitlines())
    return {
        (entry["deal"], entry["round"]): entry
        for entry in entries
        if not entry["sampled"] or entry["cap"] == cap
    }


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{mean:.3f} [{mean - half:.3f}, {mean + half:.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument(
        "--cap",
        type=int,
        default=400_000,
        help="most consistent deals enumerated (else cap/4 sampled)",
    )
    parser.add_argument("--rounds", type=int, default=6, help="the first this many rounds")
    parser.add_argument("--jobs", type=int, default=1, help="rounds solved side by side")
    parser.add_argument("--quick", action="store_true", help="3 deals, rounds 1-4")
    parser.add_argument(
        "--against", type=Path, help="ismcts_strength.py --rows of farm-hand-1: paired with it"
    )
    parser.add_argument("--results", type=Path, help="solved rounds kept here, not solved again")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.rounds = 3, 4
    if args.deals < 1 or args.cap < 4 or args.jobs < 1 or not 1 <= args.rounds <= 6:
        parser.exit(2, "--deals and --jobs must be at least 1, --cap at least 4, --rounds 1 to 6\n")
    if args.against and not args.against.is_file():
        parser.exit(2, f"--against: no file {args.against}\n")
    seeds = range(args.first_deal, args.first_deal + args.deals)
    kept = _kept(args.results, args.cap) if args.results else {}
    jobs = [  # deal by deal (an interrupted run leaves whole deals), its long rounds first
        (seed, number, args.cap)
        for seed in seeds
        for number in range(args.rounds, 0, -1)
        if (seed, number) not in kept
    ]
    with Pool(args.jobs) as pool:
        for entry in pool.imap_unordered(_solve_one, jobs):
            kept[entry["deal"], entry["round"]] = entry
            if args.results:
                with args.results.open("a") as out:
                    out.write(json.dumps(entry) + "\n")
    solved = [[kept[seed, number] for number in range(1, args.rounds + 1)] for seed in seeds]
    chances = [[entry["chance"] for entry in deal] for deal in solved]
    points = [[entry["points"] for entry in deal] for deal in solved]
    print(
        f"farm-hand solitaire, the best any player can do (deals {seeds[0]}-{seeds[-1]}; "
        f"{sum(entry['sampled'] for deal in solved for entry in deal)} rounds sampled):"
    )
    for index in range(args.rounds):
        print(
            f"  round {index + 1}: bid made {interval([deal[index] for deal in chances])}"
            f"   points {interval([deal[index] for deal in points])}"
        )
    for last in sorted({min(4, args.rounds), args.rounds}):
        print(
            f"  rounds 1-{last}: all bids made "
            f"{interval([math.prod(deal[:last]) for deal in chances])}"
            f"   points {interval([sum(deal[:last]) for deal in points])}"
        )
    if args.against and args.rounds == 6:
        played = {
            row["deal"]: row
            for row in map(json.loads, args.against.read_text().splitlines())
            if row["table"] == "farm-hand-1"
        }
        both = [(played[seed], sum(deal)) for seed, deal in zip(seeds, points) if seed in played]
        if both:
            print(
                f"  {args.against.name}, the same {len(both)} deals: six rounds' points "
                f"minus the bound {interval([row['rounds'] - bound for row, bound in both])}"
                f"   all six bids made {interval([float(row['rounds'] >= 21) for row, _ in both])}"
            )


if __name__ == "__main__":
    main()
