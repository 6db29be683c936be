"""ISMCTS search speed: iterations per second in every game, one core.

    .venv/bin/python benchmarks/ismcts_speed.py            # 1 s per position
    .venv/bin/python benchmarks/ismcts_speed.py --quick    # 0.2 s per position

For each game a random game is played to a mid-game position (a third of its
moves); from the observation of the seat to act there, the ``ismcts`` search
runs (one determinization by ``Engine.sample_state`` per iteration, the game's
default rollout: to the end, or cut off and evaluated in Hand and Foot) for a
fixed time.  Prints iterations per second (median of 3 positions) and, as the
baseline ratio, the share of one iteration spent in ``sample_state`` alone.
The issue's reference figures (random rollouts, no tree): Farm & Furious ~50k/s,
Dou Dizhu ~7.8k, Farm Hand ~5.7k, VEGEtables ~2.7k, Hand and Foot ~30/s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.plugins import installed
from bots.ismcts.knowledge import for_game
from bots.ismcts.search import Search

#: (game, players, options): the two-seat table where there is one
TABLES: list[tuple[str, int, dict[str, object]]] = [
    ("farm-and-furious", 2, {}),
    ("dou-dizhu", 3, {}),
    ("farm-hand", 3, {}),
    ("vegetables", 2, {}),
    ("hand-and-foot", 2, {}),
]


def mid_game(engine, players, options, seed):
    """A random game's state a third of the way through, with one seat to act."""
    rng = random.Random(seed)
    moves = 0
    state = engine.new_game(players, seed, options)
    while acting := state.to_act():
        state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in acting})
        moves += 1
    target = moves // 3
    state = engine.new_game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(target):
        state.apply({seat: rng.choice(state.legal_actions(seat)) for seat in state.to_act()})
    return state


def measure(game, players, options, seconds, seed):
    engine = installed().engine(game)
    state = mid_game(engine, players, options, seed)
    observation = state.observation(state.to_act()[0])
    search = Search(engine, for_game(game), random.Random(seed))
    start = time.monotonic()
    done = search.run(observation, deadline=start + seconds)
    rate = done / (time.monotonic() - start)
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(200):
        engine.sample_state(observation, rng)
    sample = (time.perf_counter() - start) / 200
    return rate, sample * rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="0.2 s per position")
    args = parser.parse_args()
    seconds = 0.2 if args.quick else 1.0
    print(f"{'game':18} {'players':>7} {'iterations/s':>13} {'sampling share':>15}")
    for game, players, options in TABLES:
        runs = [measure(game, players, options, seconds, seed) for seed in (1, 2, 3)]
        rate = statistics.median(run[0] for run in runs)
        share = statistics.median(run[1] for run in runs)
        print(f"{game:18} {players:>7} {rate:>13.0f} {share:>15.0%}")


if __name__ == "__main__":
    main()
