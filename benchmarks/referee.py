"""Referee throughput against a bare msgpack pipe round trip.

(a) moves/s of the referee playing Farm & Furious between two ``random`` bot
processes (sandbox, framing, deadlines, legality checks, records included)
against (b) the same number of bare round trips of an equal-sized ``act``
frame to an echoing child process over a pipe, measured in the same run.
The ratio is what the referee costs on top of the pipe itself.
Prints medians of several repeats; ``--quick`` for a short run.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from arena import protocol
from arena.plugins import installed
from arena.referee import Deal, Entrant, Limit, play_match

ECHO_BOT = r"""
import sys
from arena import protocol
reply = protocol.encode({"type": "action", "action": "hen"})
out = sys.stdout.buffer
while (m := protocol.read_message(sys.stdin.buffer)) is not None:
    out.write(reply); out.flush()
"""


def referee_rate(games: int) -> tuple[float, int]:
    registry = installed()
    engine = registry.engine("farm-and-furious")
    entrants = [Entrant("a", registry.bot("random")), Entrant("b", registry.bot("random"))]
    deals = [Deal(seed, (0, 1) if seed % 2 else (1, 0)) for seed in range(games)]
    started = time.perf_counter()
    records = play_match(engine, entrants, deals, limit=Limit(move=5.0))
    elapsed = time.perf_counter() - started
    moves = sum(seat.moves for record in records for seat in record.seats)
    return moves / elapsed, moves


def sample_act() -> dict:
    state = installed().engine("farm-and-furious").new_game(2, 0)
    for _ in range(6):
        state.apply({0: state.legal_actions(0)[0], 1: state.legal_actions(1)[-1]})
    return protocol.act(state.observation(0), state.legal_actions(0), 1.0, 0.0)


def pipe_rate(round_trips: int) -> float:
    child = subprocess.Popen([sys.executable, "-c", ECHO_BOT],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    frame = protocol.encode(sample_act())
    started = time.perf_counter()
    for _ in range(round_trips):
        child.stdin.write(frame)
        child.stdin.flush()
        protocol.read_message(child.stdout)
    elapsed = time.perf_counter() - started
    child.stdin.close()
    child.wait()
    return round_trips / elapsed


def main() -> None:
    quick = "--quick" in sys.argv
    games, repeats = (100, 3) if quick else (1000, 5)
    referee, pipe = [], []
    for _ in range(repeats):
        rate, moves = referee_rate(games)
        referee.append(rate)
        # two bots answer each referee turn; a bare round trip is one answer
        pipe.append(pipe_rate(moves))
    ref, bare = statistics.median(referee), statistics.median(pipe)
    print(f"referee, 2 random bots, farm-and-furious: {ref:,.0f} moves/s "
          f"(median of {repeats}, {games} games each)")
    print(f"bare msgpack pipe round trip:            {bare:,.0f} round trips/s")
    print(f"ratio referee / bare pipe:               {ref / bare:.2f}")


if __name__ == "__main__":
    main()
