"""Tournament figures: games per second for tournaments/quick.toml with 1 and 2
workers (and the ratio), and the time to recompute every rating from a store
of 100,000 games.

    .venv/bin/python benchmarks/tournament.py            # the full run
    .venv/bin/python benchmarks/tournament.py --quick    # 2 deals per table, 10,000 games
    .venv/bin/python benchmarks/tournament.py --baseline 61e4e52 --repeats 5 --skip-ratings

``--baseline REF`` also times another commit, checked out in a git worktree,
interleaved with this tree, each run through its own ``arena tournament``
command (so both pay the same start-up), and prints this tree's games/s as
a ratio of the baseline's.

Games of quick.toml that are not installed (yet) are left out and named.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
import zlib
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.plugins import installed  # noqa: E402
from arena.ratings.rating import compute  # noqa: E402
from arena.results.store import FILE_NAME as STORE_FILE, Store  # noqa: E402
from arena.tournament import config, run  # noqa: E402
from support.baseline import python_for, worktree  # noqa: E402
from support.wire import LIMITS  # noqa: E402


def installed_part(path: Path, registry, deals: int | None):
    """The tournament file, without the games and bots not installed here."""
    data = tomllib.loads(path.read_text())
    left_out: list[object] = []
    games: list[object] = []
    for entry in data["games"]:
        game_id = entry["id"] if isinstance(entry, dict) else entry
        (games if game_id in registry.games else left_out).append(entry)
    bots = [
        b
        for b in data["bots"]
        if (b if isinstance(b, str) else b["bot"]) in registry.bots
        or (b if isinstance(b, str) else b["bot"]).startswith("cmd:")
    ]
    left_out += [f"bot {b}" for b in data["bots"] if b not in bots]
    data["bots"] = bots
    data["games"] = [
        g
        for g in games
        if any(
            registry.bot(b if isinstance(b, str) else b["bot"]).plays(
                g["id"] if isinstance(g, dict) else g
            )
            for b in bots
        )
    ]
    if deals is not None:
        data["deals"] = deals
        for game in data["games"]:
            if isinstance(game, dict) and "deals" in game:
                game["deals"] = min(game["deals"], deals)
    return data, left_out


def games_per_second(
    path: Path, workers: int, deals: int | None, executor: str = "local"
) -> tuple[int, float, float]:
    """Games played, seconds taken and CPU seconds used (this process, its
    workers and their bots) by one run of the tournament's installed part,
    on ``executor`` (local pool, or a local Dask cluster)."""
    registry = installed()
    data, _ = installed_part(path, registry, deals)
    data["executor"] = executor
    data.pop("scheduler", None)
    with tempfile.TemporaryDirectory() as folder:
        tournament = config.parse(data, str(path), registry, results=folder, workers=workers)
        before = _cpu_seconds()
        summary = run(tournament, registry, progress=False, write_leaderboard=False)
        used = _cpu_seconds() - before
        if summary.errors:
            raise SystemExit(f"matches failed: {summary.errors[:3]}")
        return summary.played, summary.seconds, used


def _cpu_seconds() -> float:
    """CPU seconds of this process and of every descendant reaped so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime


def cores_obtained(processes: int, seconds: float = 2.0) -> float:
    """CPU seconds per wall second that ``processes`` busy processes get
    here now: ``processes`` on an idle machine, less on a shared one.  Its
    ratio for 2 and 1 is what 2 workers can gain over 1 at best, whatever
    the arena does."""
    code = f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    busy = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(processes)]
    for process in busy:
        process.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)) / (
        time.monotonic() - started
    )


# -- another checkout, side by side -------------------------------------------------


def cli_rate(tree: Path, text: str, workers: int) -> dict[str, Any]:
    """One ``arena tournament`` of ``tree`` on the tournament ``text``: the
    games played and seconds taken (as the run itself reports them), the
    whole command's seconds (as a user times it: start-up and leaderboard
    included), the CPU
    seconds of the whole run (driver, workers, bots) and the seconds its bots
    were charged for their moves (the stored ``time_used``: their own
    thinking, which no referee can save).  Each tree runs on its own
    interpreter (:func:`support.baseline.python_for`), so its bots are its
    own too.

    The CPU comes from ``perf stat`` where it is installed: it follows every
    process the run forks, while the kernel's accounting of reaped children
    (the fallback, ``"cpu_source": "rusage"``) misses a strict bot whose
    processes die with its pid namespace unwaited -- about 30 ms of each
    strict start-up here."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.toml"
        path.write_text(text)
        command = [
            python_for(tree),
            "-m",
            "arena",
            "tournament",
            str(path),
            "--results",
            str(Path(folder) / "r"),
            "--workers",
            str(workers),
            "--quiet",
        ]
        counted = Path(folder) / "perf.csv"
        perf = shutil.which("perf")
        if perf:
            command = [perf, "stat", "-x,", "-e", "task-clock", "-o", str(counted), "--", *command]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        done = subprocess.run(
            command,
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
            capture_output=True,
            text=True,
        )
        whole = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        charged = _charged(Path(folder) / "r")
        cpu = _perf_seconds(counted) if perf else None
    found = re.search(r"played (\d+) games(?:, \d+ already stored)? in ([\d.]+) s", done.stdout)
    if done.returncode != 0 or not found:
        raise SystemExit(f"{tree}: arena tournament failed: {done.stderr.strip()[-300:]}")
    source = "perf"
    if cpu is None:
        cpu, source = (
            (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
            "rusage",
        )
    return {
        "games": int(found.group(1)),
        "seconds": float(found.group(2)),
        "whole": whole,
        "cpu": cpu,
        "charged": charged,
        "cpu_source": source,
    }


def _perf_seconds(path: Path) -> float | None:
    """The task-clock seconds ``perf stat -x,`` wrote to ``path`` (None if
    it could not count: no permission, no such event)."""
    try:
        for line in path.read_text().splitlines():
            fields = line.split(",")
            if len(fields) > 2 and fields[2].startswith("task-clock") and fields[0]:
                return float(fields[0]) / 1000
    except (OSError, ValueError):
        pass
    return None


def _charged(results: Path) -> float:
    """Seconds charged to every seat of every stored game (NaN if the
    store has no such column)."""
    with sqlite3.connect(results / STORE_FILE) as db:
        try:
            rows = db.execute("SELECT time_used FROM games").fetchall()
        except sqlite3.Error:
            return math.nan
    return sum(sum(json.loads(row[0])) for row in rows)


def compare_with(ref: str, path: Path, deals: int | None, workers: int, repeats: int) -> None:
    text = path.read_text()
    if deals is not None:
        text = re.sub(r"(?m)^deals\s*=\s*\d+", f"deals = {deals}", text)
    with worktree(ref) as baseline:
        runs: dict[str, list[dict[str, float]]] = {"baseline": [], "this tree": []}
        for _ in range(repeats):  # interleaved, so load changes hit both alike
            for name, tree in (("baseline", baseline), ("this tree", ROOT)):
                runs[name].append(cli_rate(tree, text, workers))
    source = runs["this tree"][0]["cpu_source"]
    print(
        f"  {path.name}, {workers} workers, this tree against {ref} (median of {repeats} "
        f"interleaved runs; CPU per game = driver + workers + bots, by {source}):"
    )
    rates, cpu, whole = {}, {}, {}
    for name, values in runs.items():
        rates[name] = statistics.median(v["games"] / v["seconds"] for v in values)
        whole[name] = statistics.median(v["whole"] for v in values)
        cpu[name] = statistics.median(v["cpu"] / v["games"] for v in values)
        per_run = ", ".join(f"{v['games'] / v['seconds']:.1f}" for v in values)
        print(
            f"    {name:9}: {values[0]['games']} games, {rates[name]:6.2f} games/s "
            f"({per_run}), "
            f"{cpu[name] * 1000:5.1f} ms CPU per game, the whole command {whole[name]:.1f} s"
        )
    print(
        f"    ratio this tree / baseline: {rates['this tree'] / rates['baseline']:.2f} games/s, "
        f"{whole['baseline'] / whole['this tree']:.2f} as a user times the whole command, "
        f"{cpu['this tree'] / cpu['baseline']:.2f} CPU per game"
    )
    mine = runs["this tree"]
    think = statistics.median(v["charged"] / v["games"] for v in mine)
    floor, answers = in_process_cpu(path, deals)
    print(
        f"    the bots' own moves (time charged to them, this tree): {think * 1000:5.1f} ms per "
        f"game; the same games played in one process, engines and bots only (no referee, "
        f"pipes, processes or sandbox): {floor * 1000:5.1f} ms CPU per game, {answers:.0f} "
        f"answers. So with a free referee, free start-ups and ends, a CPU-bound run (a loaded "
        f"machine) cannot beat the baseline by more than its CPU per game over that: "
        f"{cpu['baseline'] / floor:.2f}x; nor can {workers} idle cores play more than "
        f"{workers / floor:.0f} games/s"
    )
    starts, level, costs = start_ups(path, deals, "forked")
    games = mine[0]["games"]
    per_game = (
        sum(count * costs[entry][0] for entry, count in starts.items())
        + workers * sum(first for _, first in costs.values())
    ) / games
    print(
        f"    its bot start-ups: {sum(starts.values())} a run (a fresh sandboxed process per "
        f"entrant of every seating's block of deals), at {level}, as the referee starts them "
        f"(forked by their zygotes where it can) "
        + ", ".join(f"{entry.split(':')[-1]} {costs[entry][0] * 1000:.0f} ms" for entry in starts)
        + f" of CPU each (start, hello, ready, end; by {source}), and a worker's first two "
        f"starts of each bot {sum(first for _, first in costs.values()) / len(costs) * 1000:.0f} "
        f"ms more on average (its view of what the bot may read, a first fresh start, the "
        f"zygote's own start), paid by each of the {workers} "
        f"workers: {per_game * 1000:5.1f} ms per game. With them and a free referee: at most "
        f"{cpu['baseline'] / (floor + per_game):.2f}x the baseline"
    )
    bare = start_cpu(BARE, level, "fresh")[0]
    kit = start_cpu(KIT_ONLY, level, "fresh")[0]
    forked = costs.get(KIT_ONLY, (None,))[0] or start_cpu(KIT_ONLY, level, "forked")[0]
    exchange = referee_floor_cpu(level)
    answering = answers * exchange
    for how, what, each in (
        (
            "starts a fresh sandboxed interpreter for",
            f"a bare interpreter in the same sandbox (no site, no kit, nothing "
            f"imported: {bare * 1000:.1f} ms a start)",
            bare,
        ),
        (
            "starts a fresh sandboxed interpreter for",
            f"a bot of the kit alone (the random bot: {kit * 1000:.1f} ms a start, "
            f"what any bot speaking through arena.botkit pays)",
            kit,
        ),
        (
            "forks a fresh sandboxed bot from its zygote for",
            f"a bot of the kit alone forked ({forked * 1000:.1f} ms a start)",
            forked,
        ),
    ):
        least = floor + sum(starts.values()) * each / games + answering
        print(
            f"    the least any arena that {how} every "
            f"entrant of every block must pay, each start {what}: the games themselves "
            f"({floor * 1000:.1f} ms), {sum(starts.values())} starts "
            f"({sum(starts.values()) * each / games * 1000:.1f} ms per game) and the floor of a "
            f"Python referee for each answer ({exchange * 1e6:.1f} us of CPU, "
            f"benchmarks/referee.py: {answering * 1000:.1f} ms per game): "
            f"{least * 1000:.1f} ms per game, so at most {cpu['baseline'] / least:.2f}x the "
            f"baseline"
        )
    print(
        f"    this tree's CPU per game over the in-process floor: "
        f"{cpu['this tree'] / floor:.2f}x (the bots' charged moves alone: {think / floor:.2f}x)"
    )


def _planned(path: Path, deals: int | None):
    """The tournament's installed part, its static plan, and each bot name's
    bot-kit entry point (the figures below start and play built-in-style
    bots; a ``cmd:`` bot has none)."""
    from arena.tournament.plan import plan

    registry = installed()
    data, _ = installed_part(path, registry, deals)
    with tempfile.TemporaryDirectory() as folder:
        tournament = config.parse(data, str(path), registry, results=folder, workers=1)
    entries = {bot.name: registry.bot(bot.bot).entry for bot in tournament.bots}
    if None in entries.values():
        raise SystemExit(f"{path}: the floor and start-up figures need bot-kit bots, not cmd: bots")
    return tournament, plan(tournament), entries


def start_ups(
    path: Path, deals: int | None, how: str
) -> tuple[Counter, str, dict[str, tuple[float, float]]]:
    """The bot processes one run of the tournament starts (per bot entry
    point: one per entrant of every plan item), the sandbox level they
    start at, and what starting each costs here, measured by
    :func:`start_cpu` (medians of 5): (CPU seconds of one more start, CPU
    seconds of a process's first start beyond that)."""
    from arena.sandbox.layers import choose_level

    tournament, items, entries = _planned(path, deals)
    starts = Counter(entries[name] for item in items for name in item.lineup)
    level = choose_level(tournament.sandbox)
    return starts, level, {entry: start_cpu(entry, level, how) for entry in starts}


#: the least a bot of the kit can be: one that imports nothing else
KIT_ONLY = "bots.random_bot:RandomBot"
#: the least a sandboxed Python bot can be: an interpreter that imports
#: nothing (no site, no kit, no msgpack), reads the hello frame and answers
#: with a ready frame made in advance -- the floor of a fresh process per bot
BARE = "bare"
_BARE_CODE = (
    "import sys\nr = sys.stdin.buffer\nr.read(int.from_bytes(r.read(4), 'big'))\n"
    "sys.stdout.buffer.write({ready!r})\nsys.stdout.buffer.flush()\nr.read()\n"
)


def start_cpu(
    entry: str, level: str, how: str, more: int = 12, repeats: int = 5
) -> tuple[float, float]:
    """(CPU seconds of one start of the bot kit's ``entry`` at ``level`` --
    start, hello, ready, end -- and the extra CPU seconds of a process's
    first two), every process it forks counted (``perf stat`` where
    installed, else reaped children).  ``how``: ``forked`` as the referee
    starts a built-in bot (forked by its zygote, which loaded its module,
    from a process's second start on), ``fresh`` a new interpreter in a
    new sandbox every time.

    A child process starts the bot 0, 2 and 2 + ``more`` times: one start
    costs the difference of the last two over ``more``; the first two starts'
    extra is what they cost beyond that (the referee's view of what the bot
    may read, worked out once per process and bot, and the zygote's start --
    each tournament worker pays them once for each bot it plays; what every view
    reads of the installed distributions is read before, in every child,
    as a tournament's driver does once for all its workers).  Medians of
    ``repeats`` interleaved rounds."""

    def run(count: int) -> float:
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--child-starts",
            entry,
            level,
            how,
            str(count),
        ]
        with tempfile.TemporaryDirectory() as folder:
            counted = Path(folder) / "perf.csv"
            perf = shutil.which("perf")
            if perf:
                command = [
                    perf,
                    "stat",
                    "-x,",
                    "-e",
                    "task-clock",
                    "-o",
                    str(counted),
                    "--",
                    *command,
                ]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(command, check=True, cwd=ROOT)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = _perf_seconds(counted) if perf else None
        if used is None:
            used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return used

    each, first = [], []
    for _ in range(repeats):
        none, two, many = run(0), run(2), run(2 + more)
        each.append(max(0.0, (many - two) / more))
        first.append(max(0.0, two - none - 2 * each[-1]))
    return statistics.median(each), statistics.median(first)


def starts_child(entry: str, level: str, how: str, count: int) -> None:
    """:func:`start_cpu`'s child: start ``entry`` (or the :data:`BARE`
    interpreter) ``count`` times, ``fresh`` or ``forked``."""
    from arena.botkit import protocol
    from arena.plugins.botspec import BotSpec
    from arena.sandbox import BotProcess, zygote
    from arena.sandbox.view import warm

    if how == "fresh":
        zygote.zygote_for = lambda *arguments: None  # type: ignore[assignment]

    warm()  # as a tournament's driver does once, before it forks the workers
    if entry == BARE:
        ready = protocol.encode({"type": protocol.READY})
        argv = [sys.executable, "-I", "-S", "-c", _BARE_CODE.format(ready=ready)]
    else:
        argv = BotSpec("measured", entry=entry).argv()
    hello = protocol.hello("farm-and-furious", {}, 2, 1, LIMITS)
    for _ in range(count):
        process = BotProcess(argv, level=level, preload=how == "forked")
        stdin, stdout = process.pipes()[:2]
        protocol.write_message(stdin, hello)
        if protocol.read_message(stdout) is None:
            raise SystemExit(f"{entry}: no answer to hello")
        process.kill()


def in_process_cpu(path: Path, deals: int | None) -> tuple[float, float]:
    """CPU seconds per game of this tree's engines and bots alone, and the
    answers (``act`` messages) per game: every game of the tournament's
    plan played in this process through the bot kit's dispatch
    (:func:`arena.botkit.inprocess.play_game`), which is what any arena must pay
    however lean its referee."""
    from arena.botkit import answer, inprocess, load

    _, items, entries = _planned(path, deals)
    registry = installed()
    games = 0
    answers = [0]

    def counted(bot, message):  # every act play_game sends a bot goes through here
        answers[0] += 1
        return answer(bot, message)

    with mock.patch.object(inprocess, "answer", counted):
        started = time.process_time()
        for item in items:
            engine = registry.engine(item.game)
            for index, deal in enumerate(item.deals):
                inprocess.play_game(
                    engine,
                    [load(entries[name]) for name in item.bots_at(index)],
                    seed=deal.seed,
                    options=item.options,
                )
                games += 1
        used = time.process_time() - started
    return used / games, answers[0] / games


def referee_floor_cpu(level: str) -> float:
    """CPU seconds per answer of the least a referee written in Python does
    (``benchmarks/referee.py``'s floor: encode, write, poll under a deadline,
    read, decode, check legality, keep the move clock), on bots of ``level``
    -- measured on VEGEtables' small frames, so a lower bound for larger
    ones; the bots' own side of each exchange is not counted.  Median of 3."""
    import referee

    return (
        statistics.median(
            referee.run_child(ROOT, level, False, 8)["floor_cpu_us"] for _ in range(3)
        )
        / 1e6
    )


# -- synthetic store --------------------------------------------------------------

BOTS = [
    "random",
    "farm-and-furious-racer",
    "dou-dizhu-greedy",
    "farm-hand-counter",
    "vegetables-planner",
    "hand-and-foot-builder",
    "cmd:./mine",
    "challenger",
]


def synthetic_game(rng: random.Random):
    kind = rng.randrange(5)
    if kind == 0:  # farm-and-furious, free-for-all 2-5
        n = rng.randint(2, 5)
        bots = rng.sample(BOTS, n)
        scores: list[float] = [rng.randint(0, 20) for _ in range(n)]
        dummies: list[list[Any]] = []
        teams, game = list(range(n)), "farm-and-furious"
    elif kind == 1:  # dou-dizhu: landlord vs two peasants
        bots = rng.sample(BOTS, 3)
        lord = rng.randrange(3)
        win = rng.choice([2, -2])
        scores = [win if s == lord else -win / 2 for s in range(3)]
        teams, dummies, game = [0 if s == lord else 1 for s in range(3)], [], "dou-dizhu"
    elif kind == 2:  # farm-hand with dummies sometimes
        n = rng.choice([1, 2, 3, 4])
        bots = rng.sample(BOTS, n)
        scores = [rng.randint(-10, 20) for _ in range(n)]
        dummies = [["mac", rng.randint(-10, 20)]] if n <= 2 else []
        if n == 1:
            dummies.append(["donald", rng.randint(-10, 20)])
        teams, game = list(range(n)), "farm-hand"
    elif kind == 3:  # vegetables, two players
        bots = rng.sample(BOTS, 2)
        scores = [rng.randint(0, 200) for _ in range(2)]
        teams, dummies, game = [0, 1], [], "vegetables"
    else:  # hand-and-foot partnerships
        bots = rng.sample(BOTS, 4)
        a, b = rng.randint(-2000, 4000), rng.randint(-2000, 4000)
        scores = [a, b, a, b]
        teams, dummies, game = [0, 1, 0, 1], [], "hand-and-foot"
    everyone = scores + [d[1] for d in dummies]
    ordered = sorted(everyone, reverse=True)
    ranks = [ordered.index(s) + 1 for s in everyone]
    faults: list[str | None] = [None] * len(bots)
    if rng.random() < 0.02:
        faults[rng.randrange(len(bots))] = rng.choice(["timeout", "crash", "illegal"])
    return (
        game,
        bots,
        scores,
        ranks[: len(bots)],
        teams,
        faults,
        [[d[0], d[1], r] for d, r in zip(dummies, ranks[len(bots) :])],
    )


def fill_store(folder: str, count: int) -> None:
    rng = random.Random(1)
    store = Store(folder)
    blob = zlib.compress(b"{}")
    rows = []
    for number in range(count):
        game, bots, scores, ranks, teams, faults, dummies = synthetic_game(rng)
        rows.append(
            (
                f"item{number // 8}/{number % 8}",
                f"item{number // 8}",
                number // 8,
                number % 8,
                "synthetic",
                game,
                "1",
                "{}",
                number,
                len(bots),
                json.dumps(bots),
                json.dumps(scores),
                json.dumps(ranks),
                json.dumps(teams),
                json.dumps(faults),
                json.dumps(dummies),
                50,
                json.dumps([0.01] * len(bots)),
                0.1,
                0.0,
                blob,
            )
        )
    with store.db:
        store.db.execute("BEGIN")
        store.db.executemany(
            "INSERT INTO games (key, item, ord, idx, tournament, game, version, options, seed, "
            "players, bots, scores, ranks, teams, faults, dummies, moves, time_used, duration, "
            "finished, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?)",
            rows,
        )
    store.close()


def rating_time(count: int, repeats: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        fill_store(folder, count)
        read, total = [], []
        for _ in range(repeats):
            with Store(folder, create=False) as store:
                started = time.perf_counter()
                games = list(store.games())
                loaded = time.perf_counter()
                board = compute(games)
                done = time.perf_counter()
            assert board.games == count
            read.append(loaded - started)
            total.append(done - started)
        return statistics.median(read), statistics.median(total)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run")
    parser.add_argument("--file", type=Path, default=ROOT / "tournaments" / "quick.toml")
    parser.add_argument("--games", type=int, default=None, help="synthetic stored games")
    parser.add_argument("--skip-play", action="store_true", help="only the rating figure")
    parser.add_argument("--repeats", type=int, default=None, help="runs per worker count")
    parser.add_argument("--baseline", metavar="REF", help="also time this commit, side by side")
    parser.add_argument("--skip-ratings", action="store_true", help="no rating figure")
    parser.add_argument(
        "--child-starts",
        nargs=4,
        metavar=("ENTRY", "LEVEL", "HOW", "COUNT"),
        help=argparse.SUPPRESS,
    )
    args = parser.parse_args(argv)
    if args.child_starts:
        entry, level, how, count = args.child_starts
        starts_child(entry, level, how, int(count))
        return
    deals = 2 if args.quick else None
    count = args.games or (10_000 if args.quick else 100_000)
    args.repeats = args.repeats or (1 if args.quick else 3)

    if not args.skip_play:
        registry = installed()
        _, left_out = installed_part(args.file, registry, deals)
        print(
            f"tournament: {args.file.relative_to(ROOT) if args.file.is_relative_to(ROOT) else args.file}"
            + (f" (not installed, left out: {', '.join(map(str, left_out))})" if left_out else "")
        )
        runs: dict[int, list[float]] = {1: [], 2: []}
        played = {}
        obtained: dict[int, list[float]] = {1: [], 2: []}
        busy: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(args.repeats):  # interleaved, so load changes hit both alike
            for workers in (1, 2):
                played[workers], seconds, used = games_per_second(args.file, workers, deals)
                runs[workers].append(seconds)
                busy[workers].append(used / seconds)
                obtained[workers].append(cores_obtained(workers))
        rates = {}
        for workers in (1, 2):
            seconds = statistics.median(runs[workers])
            rates[workers] = played[workers] / seconds
            print(
                f"  {workers} worker{'s' if workers > 1 else ' '}: {played[workers]} games in "
                f"{seconds:6.1f} s = {rates[workers]:6.2f} games/s (median of "
                f"{len(runs[workers])}: {', '.join(f'{x:.1f}' for x in runs[workers])} s)"
            )
        cores = {workers: statistics.median(values) for workers, values in obtained.items()}
        print(
            f"  ratio 2 workers / 1 worker: {rates[2] / rates[1]:.2f}; the machine's own "
            f"limit now: 1 busy process got {cores[1]:.2f} CPU, 2 got {cores[2]:.2f} "
            f"(ratio {cores[2] / cores[1]:.2f}; 2.00 on an idle machine)"
        )
        kept = {workers: statistics.median(values) for workers, values in busy.items()}
        print(
            f"  CPUs kept busy: 1 worker {kept[1]:.2f} (its bots think and start while its "
            f"referee waits), 2 workers {kept[2]:.2f}; at the same CPU per game 2 workers "
            f"can be at most {cores[2] / kept[1]:.2f}x faster than 1 here "
            f"(the CPUs 2 busy processes got / those 1 worker used)"
        )
        if args.baseline:
            compare_with(args.baseline, args.file, deals, 2, args.repeats)
    if args.skip_ratings:
        return

    read, total = rating_time(count, 1 if count >= 50_000 else 3)
    print(
        f"ratings: batch fit of every game (with the chart) from {count:,} stored games: "
        f"{total:.1f} s ({read:.1f} s reading the store, {count / total:,.0f} games/s)"
    )


if __name__ == "__main__":
    main()
