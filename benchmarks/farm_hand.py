"""Farm Hand figures: engine speed and the farm-hand-counter bot's strength.

    .venv/bin/python benchmarks/farm_hand.py            # full run (a few minutes)
    .venv/bin/python benchmarks/farm_hand.py --quick    # small run while developing
    .venv/bin/python benchmarks/farm_hand.py --baseline REF   # also the bot against REF

Prints:
* random playouts per second (whole games, six rounds plus any tie-break
  replays, random legal actions straight on the engine), median of 3 repeats,
  for every table size (3, 4 and 5 seats are the figures asked for);
* farm-hand-counter against three ``random`` bots (4 seats, the bot's seat
  rotating): its mean score, win rate (outright first place) and share of
  first (shared or not), with the random seats' mean score beside it;
* farm-hand-counter in solitaire against Mac and Donald: mean score, how often
  it beats both dummies outright, and how often it reaches the rulebook's
  challenge of 21 points (the maximum: every bid exact in all six rounds);
  ``random`` in the same seat as a baseline;
* with ``--baseline REF``: farm-hand-counter's CPU time per game in this tree
  and in REF (a git worktree, interleaved runs), and whether every decision
  it makes is the same in both (a digest of its actions and the scores).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
from pathlib import Path

# after PYTHONPATH, which names the other checkout in a --baseline child
sys.path.append(str(Path(__file__).resolve().parent.parent))

from arena.botkit import Bot
from arena.botkit.inprocess import play_game
from bots.farm_hand import CounterBot
from bots.random_bot import RandomBot
from engines.farm_hand import FarmHand
from support.baseline import ROOT, run_child, tree_of, worktree

ENGINE = FarmHand()


def playouts_per_second(players: int, games: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for index in range(games):
        state = ENGINE.new_game(players, seed * 100_003 + index)
        while acting := state.to_act():
            state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in acting})
        state.outcome()
    return games / (time.perf_counter() - start)


def versus_random(games: int) -> dict[str, float]:
    bot_scores: list[float] = []
    random_scores: list[float] = []
    wins = firsts = 0
    start = time.perf_counter()
    for game in range(games):
        seat = game % 4
        bots: list[Bot] = [RandomBot() for _ in range(4)]
        bots[seat] = CounterBot()
        outcome = play_game(ENGINE, bots, seed=game)
        bot_scores.append(outcome.scores[seat])
        random_scores.extend(s for i, s in enumerate(outcome.scores) if i != seat)
        firsts += outcome.ranks[seat] == 1
        wins += outcome.ranks[seat] == 1 and list(outcome.ranks).count(1) == 1
    return {
        "games": games,
        "mean": statistics.fmean(bot_scores),
        "stdev": statistics.stdev(bot_scores) if games > 1 else 0.0,
        "win": wins / games,
        "first": firsts / games,
        "random_mean": statistics.fmean(random_scores),
        "seconds": time.perf_counter() - start,
    }


def solitaire(games: int, bot_class) -> dict[str, float]:
    scores, wins, firsts, reached = [], 0, 0, 0
    exact = 0
    start = time.perf_counter()
    for game in range(games):
        outcome = play_game(ENGINE, [bot_class()], seed=game)
        score = outcome.scores[0]
        scores.append(score)
        everyone = [outcome.ranks[0]] + [d.rank for d in outcome.dummies]
        firsts += outcome.ranks[0] == 1
        wins += outcome.ranks[0] == 1 and everyone.count(1) == 1
        reached += score >= 21
        exact += score == 21
    return {
        "games": games,
        "mean": statistics.fmean(scores),
        "stdev": statistics.stdev(scores) if games > 1 else 0.0,
        "win": wins / games,
        "first": firsts / games,
        "reach21": reached / games,
        "seconds": time.perf_counter() - start,
    }


def decisions_child(deals: int) -> None:
    """farm-hand-counter in solitaire and at 3 and 5 seats (with random
    players) on ``deals`` deals each, as JSON for :func:`run_child`: the CPU
    seconds per game and a digest of every decision and score."""
    import bots.farm_hand as measured
    from bots.farm_hand import CounterBot as Counter

    digest = hashlib.sha256()

    class Recorded(Counter):
        def act(self, observation, legal, clock):
            action = super().act(observation, legal, clock)
            digest.update(json.dumps(action).encode())
            return action

    tables = (
        [Recorded],
        [Recorded, RandomBot, Recorded],
        [Recorded, RandomBot, RandomBot, Recorded, RandomBot],
    )
    start = time.process_time()
    for deal in range(deals):
        for table in tables:
            outcome = play_game(ENGINE, [bot() for bot in table], seed=deal)
            digest.update(json.dumps(outcome.scores).encode())
    print(
        json.dumps(
            {
                "seconds": (time.process_time() - start) / (deals * len(tables)),
                "digest": digest.hexdigest(),
                "tree": tree_of(measured),
            }
        )
    )


def against_baseline(ref: str, deals: int, repeats: int) -> None:
    """The counter bot's CPU per game here and in ``ref``, and its decisions
    compared; exit 2 if they differ (a speed-up must not change play)."""
    runs: dict[str, list[dict]] = {ref: [], "this tree": []}
    with worktree(ref, "farm-hand") as baseline:
        for _ in range(repeats):
            for name, tree in ((ref, baseline), ("this tree", ROOT)):
                runs[name].append(run_child(__file__, tree, deals))
    print(
        f"farm-hand-counter, {deals} deals x (solitaire, 3 and 5 seats with random players), "
        f"CPU per game, median of {repeats} interleaved runs:"
    )
    seconds = {
        name: statistics.median(r["seconds"] for r in values) for name, values in runs.items()
    }
    for name in runs:
        print(
            f"  {name:<10} {seconds[name] * 1000:7.1f} ms   decisions {runs[name][0]['digest'][:16]}"
        )
    same = runs[ref][0]["digest"] == runs["this tree"][0]["digest"]
    print(
        f"  ratio {ref} / this tree: {seconds[ref] / seconds['this tree']:.2f}x; "
        f"decisions {'the same' if same else 'DIFFERENT'}"
    )
    if not same:
        raise SystemExit(2)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run while developing")
    parser.add_argument("--baseline", metavar="REF", help="also compare the bot with this commit")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        decisions_child(args.child)
        return
    if args.baseline:
        against_baseline(args.baseline, 3 if args.quick else 10, 3 if args.quick else 5)
    playout_games = 100 if args.quick else 400
    bot_games = 100 if args.quick else 2000

    print(f"farm-hand engine: random playouts/s (median of 3 x {playout_games} games)")
    for players in (1, 2, 3, 4, 5):
        runs = [playouts_per_second(players, playout_games, seed) for seed in range(3)]
        label = {1: "1 seat + Mac + Donald", 2: "2 seats + Mac"}.get(players, f"{players} seats")
        print(f"  {label:<22} {statistics.median(runs):8.0f} playouts/s")

    print(f"\nfarm-hand-counter vs 3 x random, 4 seats, {bot_games} games (bot seat rotates)")
    r = versus_random(bot_games)
    print(
        f"  bot mean score {r['mean']:6.2f} (sd {r['stdev']:.2f})   random seats' mean "
        f"{r['random_mean']:6.2f}"
    )
    print(
        f"  bot wins outright {r['win']:6.1%}   first incl. shared {r['first']:6.1%}   "
        f"({r['seconds'] / bot_games * 1000:.0f} ms/game)"
    )

    print(f"\nsolitaire vs Mac and Donald, {bot_games} games")
    for name, bot_class in (("farm-hand-counter", CounterBot), ("random", RandomBot)):
        s = solitaire(bot_games, bot_class)
        print(
            f"  {name:<18} mean score {s['mean']:6.2f} (sd {s['stdev']:.2f})   "
            f"beats both {s['win']:6.1%} (first incl. shared {s['first']:.1%})   "
            f"reaches 21: {s['reach21']:6.1%}   ({s['seconds'] / bot_games * 1000:.0f} ms/game)"
        )


if __name__ == "__main__":
    main()
