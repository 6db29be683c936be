"""What the move clock costs, and what it charges a starved bot.

    nice -n 10 .venv/bin/python benchmarks/move_clock.py [--quick]

1. The cost of one look at a bot's clock -- ``BotProcess.usage()`` (its
   tree's CPU time and its main process's run-queue wait) plus the referee's
   own run-queue wait -- at each sandbox level this machine has, median of
   repeats, in microseconds.  A move takes at least two looks (at the
   question and at the answer); the ratio is those two looks against the
   referee's whole cost per move (moves/s of benchmarks/referee.py's match).
2. A bot that thinks a fixed CPU time per move, on a machine loaded with one
   busy process per core more than it has: median wall-clock time per move
   against the median time charged.  The wall time is what the old rule
   charged.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.match.referee import Deal, Entrant, TimeControl, _MoveDeadline, play_match
from arena.plugins import installed
from arena.sandbox import BotProcess
from arena.sandbox.layers import choose_level, strict_available
from arena.sandbox.usage import waited

THINKER = Path(__file__).resolve().parents[1] / "tests" / "bots" / "thinker.py"
SPIN = "import time\nwhile True: time.sleep(0.001)"


def look_cost(level: str, looks: int, repeats: int) -> float:
    """Median microseconds of one clock look at a live bot of ``level``."""
    process = BotProcess([sys.executable, "-c", SPIN], level=level)
    try:
        time.sleep(0.3)
        process.usage()
        figures = []
        for _ in range(repeats):
            started = time.perf_counter()
            for _ in range(looks):
                process.usage()
                waited()
            figures.append((time.perf_counter() - started) / looks * 1e6)
        return statistics.median(figures)
    finally:
        process.kill()


def referee_move_cost(games: int) -> float:
    """Microseconds of referee time per move in a random-vs-random match."""
    registry = installed()
    engine = registry.engine("farm-and-furious")
    entrants = [Entrant("a", registry.bot("random")), Entrant("b", registry.bot("random"))]
    started = time.perf_counter()
    records = play_match(
        engine, entrants, [Deal(s, (0, 1)) for s in range(games)], limit=TimeControl(move=5.0)
    )
    moves = sum(seat.moves for record in records for seat in record.seats)
    return (time.perf_counter() - started) / moves * 1e6


def starved(think: float, moves: int) -> tuple[float, float]:
    """(median wall, median charged) seconds per move of a thinking bot
    under one busy process per core more than the machine has."""
    from arena.match.connection import Channel, exchange

    cores = len(os.sched_getaffinity(0))
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cores + 1)]
    process = BotProcess([sys.executable, str(THINKER), str(think)], level=choose_level(None))
    channel = Channel(process)
    walls, charged = [], []
    try:
        channel.ask({"type": "hello"})
        exchange({0: (channel, time.monotonic() + 30)})
        for _ in range(moves):
            deadline = _MoveDeadline(process, 60.0, 0.0)
            channel.ask({"type": "act", "legal": [0]})
            _, at = exchange({0: (channel, deadline)})[0]
            walls.append(at - deadline.started)
            charged.append(deadline.charged(at))
    finally:
        process.kill()
        for p in load:
            p.kill()
            p.wait()
    return statistics.median(walls), statistics.median(charged)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    quick = parser.parse_args().quick
    looks, repeats = (300, 3) if quick else (2000, 7)
    per_move = referee_move_cost(4 if quick else 20)
    print(f"referee time per move (random vs random): {per_move:.0f} us")
    levels = ["basic"] + (["strict"] if strict_available() else [])
    for level in levels:
        cost = look_cost(level, looks, repeats)
        print(
            f"one clock look, {level:6s}: {cost:6.1f} us; two per move = "
            f"{2 * cost / per_move:.1%} of the referee's time per move"
        )
    wall, charge = starved(0.02, 10 if quick else 30)
    print(
        f"bot thinking 0.020 s CPU a move under load: wall {wall:.3f} s a move, "
        f"charged {charge:.3f} s (wall / charged = {wall / charge:.1f}x)"
    )


if __name__ == "__main__":
    main()
