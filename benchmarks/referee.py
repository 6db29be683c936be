"""The referee's cost per answer against a bare msgpack round trip of the same frames.

One run plays Vegetables (a game of single moves, so one bot thinks at a
time) between two ``random`` bot processes through the real referee, at one
sandbox level, and records every frame the referee writes.  Then it replays
exactly those frames to two plain processes of the same bot over bare pipes
(write a frame, read the answer when one is owed).  Both sides leave out the
bots' start-up (``hello`` -> ``ready``); the referee's side also leaves out
the engine's time (every call on the game state is timed and subtracted), so
what remains is framing, polling, deadlines, move clocks, legality checks and
records: the referee's own cost per answer.  The ratio to the bare round trip
is what the referee costs on top of the pipe (issue 16's goal: <= 3x pinned,
<= 1.1x unpinned).  The last column is the move clock alone (two looks at
the bot's CPU and run-queue counters per answer, the minimum of repeats):
what exact time-keeping costs, however lean the rest, against the same
bare round trip.  The floor columns (wall and CPU) are the least any referee written in
Python must do per answer, on the same frames and bots: encode the
message, write it, poll for the answer under a deadline, read and decode
it, check it is legal, and keep the move clock (the two looks above) --
what a goal in ratios to the bare pipe has to be measured against.

Two kinds of figure: wall-clock microseconds per answer (what a tournament
waits), and CPU microseconds per answer of the referee's process against
those of the bare replay's process (steadier on a loaded machine, where a
wait for a CPU inflates every wall-clock figure).

Each figure is measured with the script's process -- and so the bots, which
inherit it -- pinned to one core (``os.sched_setaffinity``; every wake-up is
a context switch on that core) and unpinned (cross-core wake-ups included).

    .venv/bin/python benchmarks/referee.py                 # 5 repeats, 20 games each
    .venv/bin/python benchmarks/referee.py --quick         # 1 repeat, 8 games
    .venv/bin/python benchmarks/referee.py --baseline eb272c2 --repeats 5

``--baseline REF`` measures another commit too (a git worktree of it, the
same script run against its ``arena``), interleaved with this tree, and
prints this tree's referee cost as a ratio of the baseline's.  Every figure
is a median of interleaved repeats, each from its own process; on a loaded
machine they move a lot, so compare only figures from the same run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast
from unittest import mock

from support.baseline import ROOT, child_command, python_for, tree_of, worktree
from support.wire import LIMITS, pipes

if TYPE_CHECKING:
    from arena.game import Engine

GAME = "vegetables"
LEVELS = ("none", "basic", "strict")
#: messages that are owed an answer
ASKING = ("hello", "act")


# -- one measurement (runs in a child process, against the arena on sys.path) ----


class _Timed:
    """Forwards every call to ``target`` and adds its duration to ``spent``
    (``[wall seconds, CPU seconds]``)."""

    def __init__(self, target, spent: list[float]):
        self._target, self._spent = target, spent

    def __getattr__(self, name):
        attribute = getattr(self._target, name)
        if not callable(attribute):
            return attribute
        spent = self._spent

        def timed(*args, **kwargs):
            started, cpu = time.perf_counter(), time.process_time()
            try:
                result = attribute(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - started
                spent[1] += time.process_time() - cpu
            return _Timed(result, spent) if name == "new_game" else result

        return timed


def measure(level: str, pinned: bool, games: int) -> dict:
    """Microseconds per answer: the referee's (engine and start-up left out)
    and the bare pipe's, on the same frames."""
    from arena.botkit import protocol
    from arena.match import connection, referee
    from arena.plugins import installed

    if pinned:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    registry = installed()
    spec = registry.bot("random")
    engine_time = [0.0, 0.0]
    engine = cast("Engine", _Timed(registry.engine(GAME), engine_time))  # forwards to one
    frames: list[tuple[int, bytes, bool]] = []  # (bot, frame, answer owed)
    bots: dict[int, int] = {}
    send = connection.Channel.send

    def recording(channel, message):
        bot = bots.setdefault(id(channel), len(bots))
        frames.append((bot, protocol.encode(message), message.get("type") in ASKING))
        return send(channel, message)

    starting = [0.0, 0.0]  # wall and CPU seconds, as engine_time
    playing = [0.0, 0.0]
    start, play = referee._Match._start, referee._Match.play

    def timing(method, spent):
        def timed(self, *args):
            began, cpu = time.perf_counter(), time.process_time()
            try:
                return method(self, *args)
            finally:
                spent[0] += time.perf_counter() - began
                spent[1] += time.process_time() - cpu

        return timed

    with (
        mock.patch.object(connection.Channel, "send", recording),
        mock.patch.object(referee._Match, "_start", timing(start, starting)),
        mock.patch.object(referee._Match, "play", timing(play, playing)),
    ):
        entrants = [referee.Entrant("a", spec), referee.Entrant("b", spec)]
        deals = [referee.Deal(seed, (0, 1) if seed % 2 else (1, 0)) for seed in range(games)]
        records = referee.play_match(
            engine, entrants, deals, limit=referee.TimeControl(move=5.0), sandbox=level
        )
    faults = [seat.fault for record in records for seat in record.seats if seat.fault]
    if faults or len(bots) != 2:
        raise SystemExit(f"the referee run went wrong: faults {faults[:3]}, {len(bots)} bots")
    answers = sum(owed for _, _, owed in frames) - 2  # the two hellos left out
    referee_us, referee_cpu_us = (
        (playing[k] - starting[k] - engine_time[k]) / answers * 1e6 for k in (0, 1)
    )
    bare, bare_cpu = _replay(spec.argv(), frames)
    floor, floor_cpu = _floor(spec.argv(), frames, level)
    return {
        "referee_us": referee_us,
        "bare_us": bare / answers * 1e6,
        "floor_us": floor / answers * 1e6,
        "floor_cpu_us": floor_cpu / answers * 1e6,
        "clock_us": _clock_us(spec.argv(), level),
        "referee_cpu_us": referee_cpu_us,
        "bare_cpu_us": bare_cpu / answers * 1e6,
        "answers": answers,
        "arena": tree_of(connection),
    }


def _clock_us(argv: list[str], level: str, moves: int = 2000) -> float:
    """Wall microseconds of one move's clock alone (started at the question,
    read at the answer: the two looks at the bot's and the referee's
    counters every answer pays) on a live bot of ``level``: the part of the
    referee's cost that keeping time exactly takes (docs/protocol.md, "Time")."""
    from arena.botkit import protocol
    from arena.match import referee
    from arena.sandbox import BotProcess

    if not hasattr(referee, "_MoveDeadline"):
        return math.nan  # an older tree, without this clock
    process = BotProcess(argv, level=level)
    try:
        stdin, stdout = process.pipes()[:2]
        protocol.write_message(stdin, protocol.hello(GAME, {}, 2, 1, LIMITS))
        protocol.read_message(stdout)
        figures = []
        for _ in range(5):
            began = time.perf_counter()
            for _ in range(moves):
                referee._MoveDeadline(process, 1.0, 0.05).charged(time.monotonic())
            figures.append((time.perf_counter() - began) / moves * 1e6)
        return min(figures)  # the cost itself, not the machine's load
    finally:
        process.kill()


def _replay(argv: list[str], frames: list[tuple[int, bytes, bool]]) -> tuple[float, float]:
    """Wall and CPU seconds (this process's) to write ``frames`` to plain
    bot processes over bare pipes and read every answer owed, after their
    hellos."""
    from arena.botkit import protocol

    children = [
        subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(2)
    ]
    streams = [pipes(child) for child in children]
    try:
        hellos = [
            index
            for index, (_, frame, _) in enumerate(frames)
            if protocol.FrameReader().feed(frame)[0]["type"] == "hello"
        ]
        for index in hellos:
            bot, frame, _ = frames[index]
            stdin, stdout = streams[bot]
            stdin.write(frame)
            stdin.flush()
            protocol.read_message(stdout)
        skip = set(hellos)
        started, cpu = time.perf_counter(), time.process_time()
        for index, (bot, frame, owed) in enumerate(frames):
            if index in skip:
                continue
            stdin, stdout = streams[bot]
            stdin.write(frame)
            stdin.flush()
            if owed:
                protocol.read_message(stdout)
        return time.perf_counter() - started, time.process_time() - cpu
    finally:
        for child, (stdin, _) in zip(children, streams):
            stdin.close()
            child.wait()


def _floor(
    argv: list[str], frames: list[tuple[int, bytes, bool]], level: str
) -> tuple[float, float]:
    """Wall and CPU seconds (this process's) of the least a Python referee does with
    ``frames``, after the hellos: encode each message, write it, and for an
    owed answer poll under a deadline, read and decode it, check it is one
    of the legal actions and keep the move clock on it (what
    :func:`_clock_us` times), with bots of ``level``.  NaN for an older
    tree without that clock."""
    import select

    from arena.botkit import protocol
    from arena.match import referee
    from arena.sandbox import BotProcess

    if not hasattr(referee, "_MoveDeadline"):
        return math.nan, math.nan
    messages = [(bot, protocol.FrameReader().feed(frame)[0], owed) for bot, frame, owed in frames]
    children = [BotProcess(argv, level=level) for _ in range(2)]
    try:
        readers = [protocol.FrameReader() for _ in children]
        fds = [tuple(pipe.fileno() for pipe in child.pipes()[:2]) for child in children]
        polls = []
        for _, stdout in fds:
            poll = select.poll()
            poll.register(stdout, select.POLLIN)
            polls.append(poll)
        started = None
        for bot, message, owed in messages:
            if started is None and message["type"] != "hello":
                started, cpu = time.perf_counter(), time.process_time()
            child = children[bot]
            os.write(fds[bot][0], protocol.encode(message))
            if not owed:
                continue
            clock = referee._MoveDeadline(child, 5.0, 0.05)
            answers: list = []
            while not answers:
                polls[bot].poll(5000)
                answers = readers[bot].feed(os.read(fds[bot][1], 65536))
            clock.charged(time.monotonic())
            if message["type"] == "act" and answers[0].get("action") not in message["legal"]:
                raise SystemExit(f"floor replay: an illegal answer {answers[0]}")
        if started is None:
            raise SystemExit("floor replay: no move after the hellos")
        return time.perf_counter() - started, time.process_time() - cpu
    finally:
        for child in children:
            child.kill()


# -- the driver ---------------------------------------------------------------------


def run_child(tree: Path, level: str, pinned: bool, games: int) -> dict:
    """One measurement in a fresh process using ``tree``'s arena."""
    done = subprocess.run(
        child_command(python_for(tree), __file__, level, int(pinned), games),
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: measuring {level} failed: {done.stderr.strip()[-400:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["arena"]).resolve() != tree.resolve():
        raise SystemExit(f"measured {result['arena']}, not {tree}")
    return result


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one repeat of a few games")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--games", type=int, default=None, help="games per measurement")
    parser.add_argument(
        "--levels", default=",".join(LEVELS), help="sandbox levels, comma-separated"
    )
    parser.add_argument("--baseline", metavar="REF", help="also measure this commit, interleaved")
    parser.add_argument(
        "--child", nargs=3, metavar=("LEVEL", "PINNED", "GAMES"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.child:
        level, pinned, games = args.child
        print(json.dumps(measure(level, pinned == "1", int(games))))
        return
    repeats = args.repeats or (1 if args.quick else 5)
    games = args.games or (8 if args.quick else 20)
    levels = args.levels.split(",")
    with worktree(args.baseline, "referee") as baseline:
        trees = {"this tree": ROOT} | ({"baseline": baseline} if baseline else {})
        runs: dict[tuple, list[dict]] = {}
        for _ in range(repeats):  # interleaved, so load changes hit all alike
            for level in levels:
                for pinned in (True, False):
                    for name, tree in trees.items():
                        runs.setdefault((name, level, pinned), []).append(
                            run_child(tree, level, pinned, games)
                        )
    print(
        f"referee cost per answer, {GAME}, 2 random bots, {games} games "
        f"(~{runs[('this tree', levels[0], True)][0]['answers']} answers), engine and "
        f"start-up left out; median of {repeats} interleaved runs"
        + (f"; baseline {args.baseline}" if args.baseline else "")
    )
    print(
        f"  {'tree':9} {'level':6} {'cpu':8} {'referee µs':>10} {'bare µs':>8} {'ratio':>6}"
        f"   {'referee CPU µs':>14} {'bare CPU µs':>11} {'ratio':>6}   {'of it the clock µs':>18}"
        f"   {'floor µs':>8} {'ratio':>6} {'floor CPU µs':>12} {'ratio':>6}"
    )
    for (name, level, pinned), results in runs.items():
        figures = [
            statistics.median(r[k] for r in results)
            for k in ("referee_us", "bare_us", "referee_cpu_us", "bare_cpu_us")
        ]
        ratios = [
            statistics.median(r[a] / r[b] for r in results)
            for a, b in (("referee_us", "bare_us"), ("referee_cpu_us", "bare_cpu_us"))
        ]
        line = (
            f"  {name:9} {level:6} {'1 core' if pinned else 'unpinned':8} "
            f"{figures[0]:10.1f} {figures[1]:8.1f} {ratios[0]:6.2f}"
            f"   {figures[2]:14.1f} {figures[3]:11.1f} {ratios[1]:6.2f}"
            f"   {statistics.median(r.get('clock_us', math.nan) for r in results):18.1f}"
            f"   {statistics.median(r['floor_us'] for r in results):8.1f}"
            f" {statistics.median(r['floor_us'] / r['bare_us'] for r in results):6.2f}"
            f" {statistics.median(r['floor_cpu_us'] for r in results):12.1f}"
            f" {statistics.median(r['floor_cpu_us'] / r['bare_cpu_us'] for r in results):6.2f}"
        )
        if name == "this tree" and args.baseline:
            before = runs[("baseline", level, pinned)]
            line += (
                "   this tree / baseline: wall "
                f"{figures[0] / statistics.median(r['referee_us'] for r in before):.2f}, CPU "
                f"{figures[2] / statistics.median(r['referee_cpu_us'] for r in before):.2f}"
            )
        print(line)


if __name__ == "__main__":
    main()
