"""What the sandbox costs: bot start-up per level, and the per-move round trip.

Start-up: from launching ``random`` to its ``ready`` answer, for a plain
subprocess (no wrapper at all) and for each level; median ms and the ratio
to plain.  Round trip: ``act`` → ``action`` of a real Farm & Furious
observation, inside the strict sandbox against a plain process.  Plugin
discovery: what a third-party bot distribution adds to the start of
``arena bots``/``match``/``tournament`` -- its plugins loaded in a sandboxed
child (the arena's own distribution stands in for it) against importing the
same entry points here.  ``--quick`` for a short run.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from arena import DISTRIBUTION, plugins
from arena.botkit import protocol
from arena.plugins import installed, sandboxed as plugin_sandbox
from arena.plugins.botspec import BotSpec
from arena.sandbox import BotProcess
from arena.sandbox.layers import strict_available
from support.wire import LIMITS, pipes

ARGV = BotSpec("random", entry="bots.random_bot:RandomBot").argv()
HELLO = protocol.hello(
    "farm-and-furious", {"rooster": False, "track_length": 20, "max_turns": 200}, 2, 1, LIMITS
)


class Plain:
    """The baseline: the same bot as a bare subprocess."""

    def __init__(self):
        self.popen = subprocess.Popen(ARGV, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def pipes(self):
        return pipes(self.popen)

    def kill(self):
        self.popen.kill()
        self.popen.wait()


def ask(process, message) -> dict[str, Any]:
    stdin, stdout = process.pipes()[:2]
    protocol.write_message(stdin, message)
    reply = protocol.read_message(stdout)
    if reply is None:
        raise SystemExit("the bot closed its output instead of answering")
    return reply


def start(level: str | None):
    return Plain() if level is None else BotProcess(ARGV, level=level)


def startup_ms(level: str | None, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        process = start(level)
        assert ask(process, HELLO)["type"] == "ready"
        times.append((time.perf_counter() - began) * 1000)
        process.kill()
    return statistics.median(times)


def _starting(how: str) -> None:
    """Start strict bots ``fresh`` (no zygote) or forked from the first start on."""
    from arena.sandbox import zygote

    zygote.STARTS_BEFORE = 0
    if how == "fresh":
        zygote.zygote_for = lambda *arguments: None  # type: ignore[assignment]


def startup_cpu_ms(how: str, repeats: int) -> float:
    """Median CPU ms a strict bot is charged from its start to ``ready`` (its
    cgroups' clock, the referee's): ``fresh`` (a new interpreter in a new
    sandbox: bwrap, setpriv, prlimit, Python, the kit, the bot), or forked
    by its zygote (arena.sandbox.zygote) with the bot's module ``preloaded``
    by the zygote (a built-in bot) or ``imported`` by the child (a submitted
    one).  The zygote's own start is paid once and is not in the figure."""
    from arena.sandbox import zygote

    found, before = zygote.zygote_for, zygote.STARTS_BEFORE
    _starting(how)
    try:
        figures = []
        for _ in range(repeats + 1):  # the first forked one also starts the zygote
            process = BotProcess(ARGV, level="strict", preload=how == "preloaded")
            assert isinstance(process.popen, zygote.ForkedBot) == (how != "fresh")
            assert ask(process, HELLO)["type"] == "ready"
            figures.append(process.usage().cpu * 1000)
            process.kill()
        return statistics.median(figures[1:])
    finally:
        zygote.zygote_for, zygote.STARTS_BEFORE = found, before


def starts(how: str, count: int) -> None:
    """Start ``count`` strict bots to ``ready``, one after the other, as
    :func:`startup_cpu_ms` does (this script's ``--starts HOW COUNT``, the
    process :func:`whole_start_ms` counts)."""
    _starting(how)
    for _ in range(count):
        process = BotProcess(ARGV, level="strict", preload=how == "preloaded")
        assert ask(process, HELLO)["type"] == "ready"
        process.kill()


def whole_start_ms(how: str, repeats: int, extra: int = 20) -> float | None:
    """Median CPU ms a start costs every process taking part (the referee's
    side, bubblewrap or the zygote's fork and the child's monitor, the bot):
    ``perf stat`` of this script's ``--starts`` with 2 + ``extra`` starts less
    one with 2 (the first may start the zygote), interleaved.  None without
    ``perf``."""
    perf = shutil.which("perf")
    if not perf:
        return None
    figures = []
    with tempfile.TemporaryDirectory() as folder:
        counted = os.path.join(folder, "perf.csv")

        def cpu(count: int) -> float:
            command = [sys.executable, __file__, "--starts", how, str(count)]
            subprocess.run(
                [perf, "stat", "-x,", "-e", "task-clock", "-o", counted, "--", *command],
                check=True,
            )
            with open(counted) as f:
                rows = [line.split(",") for line in f if "task-clock" in line]
            return float(rows[0][0])  # ms

        for _ in range(repeats):
            figures.append((cpu(2 + extra) - cpu(2)) / extra)
    return statistics.median(figures)


def prestarted_ms(level: str, repeats: int, lead: float = 0.3) -> float:
    """Median ms from needing a bot to its ``ready`` when it was launched
    ``lead`` seconds ahead (arena.match.referee.prestart: a worker starts the next
    match's bots while it plays the current one): only the hello round trip
    is left on the match's path."""
    times = []
    for _ in range(repeats):
        process = start(level)
        time.sleep(lead)  # the current match playing
        began = time.perf_counter()
        assert ask(process, HELLO)["type"] == "ready"
        times.append((time.perf_counter() - began) * 1000)
        process.kill()
    return statistics.median(times)


def end_ms(level: str, repeats: int) -> tuple[float, float, float]:
    """Median ms on the caller's path to end a bot after goodbye: the whole
    end done there (``kill``), handed to the background (``end``, what the
    referee's close does), and stopped at once with the rest in the
    background (a faulted bot)."""
    from arena.sandbox.process import UNDERTAKER

    figures: dict[str, list[float]] = {"kill": [], "end": [], "fault": []}
    for _ in range(repeats):
        for how in figures:
            process = start(level)
            ask(process, HELLO)
            protocol.write_message(process.pipes()[:2][0], {"type": "goodbye"})
            began = time.perf_counter()
            if how == "kill":
                process.kill()
            elif how == "fault":
                process.end()  # a faulted bot: stopped at once
            else:
                process.end(by=time.monotonic() + 0.2)  # as the referee's close
            figures[how].append((time.perf_counter() - began) * 1000)
            UNDERTAKER.drain()
    kill, end, fault = (statistics.median(figures[how]) for how in ("kill", "end", "fault"))
    return kill, end, fault


def round_trip_us(level: str | None, moves: int) -> float:
    state = installed().engine("farm-and-furious").new_game(2, 0)
    act = protocol.act(state.observation(0), state.legal_actions(0), 1.0, 0.0)
    process = start(level)
    ask(process, HELLO)
    began = time.perf_counter()
    for _ in range(moves):
        ask(process, act)
    elapsed = time.perf_counter() - began
    process.kill()
    return elapsed / moves * 1e6


def main() -> None:
    if sys.argv[1:2] == ["--starts"]:
        starts(sys.argv[2], int(sys.argv[3]))
        return
    quick = "--quick" in sys.argv
    repeats, moves = (5, 2000) if quick else (21, 20000)
    levels = ["none", "basic"] + (["strict"] if strict_available() else [])
    plain = startup_ms(None, repeats)
    print(f"start-up to ready, median of {repeats}:")
    print(f"  plain subprocess   {plain:7.1f} ms")
    for level in levels:
        ms = startup_ms(level, repeats)
        forked = " (forked by its zygote from the second start on)" if level == "strict" else ""
        print(f"  {level:<18} {ms:7.1f} ms   x{ms / plain:.2f}{forked}")
    if "strict" in levels:
        cpu = {how: startup_cpu_ms(how, repeats) for how in ("fresh", "preloaded", "imported")}
        print(
            f"a strict bot's CPU from start to ready, median of {repeats} (its cgroups' clock): "
            f"fresh {cpu['fresh']:.1f} ms; forked by its zygote {cpu['preloaded']:.1f} ms "
            f"(module loaded by the zygote; goal <= 5 ms), {cpu['imported']:.1f} ms "
            f"(imported by the child, as a submitted bot's)"
        )
        whole = {how: whole_start_ms(how, 3) for how in ("fresh", "preloaded")}
        if whole["fresh"] is not None and whole["preloaded"] is not None:
            print(
                f"  every process's CPU a start, median of 3 x 20 (perf stat): fresh "
                f"{whole['fresh']:.1f} ms; forked {whole['preloaded']:.1f} ms "
                f"x{whole['preloaded'] / whole['fresh']:.2f}"
            )
        ahead = prestarted_ms("strict", repeats)
        print(
            f"  strict, pre-started {ahead:7.1f} ms   x{ahead / plain:.2f} (launched 0.3 s ahead: "
            f"the hello round trip is all that is left; goal <= x1.25)"
        )
        kill, end, fault = end_ms("strict", repeats)
        print(
            f"ending a strict bot, on the caller's path, median of {repeats}: all of it here "
            f"{kill:.1f} ms, after goodbye handed to the background {end:.2f} ms (goal <= 1 ms), "
            f"a faulted one stopped at once {fault:.2f} ms"
        )
        runs: dict[str | None, list[float]] = {None: [], "strict": []}
        for _ in range(5):  # alternate, so drift in machine load hits both alike
            for sandbox in runs:
                runs[sandbox].append(round_trip_us(sandbox, moves))
        bare, strict = statistics.median(runs[None]), statistics.median(runs["strict"])
        print(
            f"per-move round trip, median of 5 x {moves} moves: plain {bare:.1f} us, "
            f"strict {strict:.1f} us, x{strict / bare:.2f}"
        )

    discovery: dict[str, list[float]] = {"here": [], "sandboxed": []}
    for _ in range(repeats):
        for how in discovery:
            began = time.perf_counter()
            if how == "here":
                _import_fresh()
            else:
                plugin_sandbox.discover([DISTRIBUTION])
            discovery[how].append((time.perf_counter() - began) * 1000)
    here, boxed = (statistics.median(discovery[k]) for k in ("here", "sandboxed"))
    print(
        f"plugin discovery of one distribution, median of {repeats}: imported here "
        f"{here:.1f} ms (modules cached), sandboxed child {boxed:.1f} ms, adds {boxed - here:.1f} ms"
    )


def _import_fresh() -> None:
    """Load the entry points as the arena's own are (their modules are cached
    after the first time: the honest floor for the in-process cost)."""
    plugins.load([p for p in plugins.entry_points(group=plugins.GROUP) if plugins.trusted(p)])


if __name__ == "__main__":
    main()
