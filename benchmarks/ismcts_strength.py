"""ISMCTS strength against each game's heuristic bot, with duplicate deals.

    nice -n 10 .venv/bin/python benchmarks/ismcts_strength.py TABLE --deals 100 --iterations 200
    .venv/bin/python benchmarks/ismcts_strength.py --quick      # every table, a few deals

Every deal is played once per seating of the table (``ismcts`` rotated
through the seats, or its team through the partnerships), the heuristic bot
in all other seats, so luck of the deal cancels out; the statistics are over
deals (each deal: the mean over its seatings) with a 95% interval (normal
approximation, mean +- 1.96 standard errors).  The search runs a fixed number
of iterations per move (``--iterations``; ``--move`` instead gives it that
many seconds a move by the clock), in this process without the referee, so
figures do not depend on the sandbox.  Printed per table:

* ``first``: the share of first places that went to ``ismcts`` (a shared
  first split between those sharing it; dummies count as rivals) -- against
  the heuristic's own share at this table (``fair``: 1/teams);
* ``score``: mean score of ``ismcts``'s seats minus the heuristic's seats'
  (in Dou Dizhu this is 1.5 x the payoff per seat, which is ``payoff``);
* ``rank``: the heuristic's mean rank minus ``ismcts``'s (> 0: ismcts better);
* solitaire Farm Hand: mean score and the share of deals reaching 21, and
  the six rounds' points without tie-break replays (``rounds``: the figure
  ``benchmarks/farm_hand_bound.py`` bounds, on the same deals).

``--burners N`` runs N busy processes beside it for the whole run (the
loaded machine a user's tournament may meet): ismcts budgets its search by
the CPU time it is charged, so its strength should not move with them; the
CPU share the run got is printed beside the figures.

``--rows FILE`` appends every deal's figures to FILE as a JSON line;
``--summarise FILE...`` plays nothing and prints the figures of the deals in
such files (runs side by side, one per core, summed up; and
``farm_hand_bound.py --against FILE`` pairs solitaire ones with the bound).

``--seconds`` bounds the run: it stops after the deal that passes it and
reports the deals played (as it does on Ctrl-C or SIGTERM, say from
``timeout``: the deal under way is dropped).
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.botkit import load
from arena.botkit.inprocess import UNTIMED, play_game
from arena.plugins import installed
from bots.ismcts.bot import IsmctsBot


@dataclass(frozen=True)
class Table:
    game: str
    players: int
    rival: str
    options: tuple = ()
    team_size: int = 1  # ismcts takes this many seats, one team (seats t, t+T, ...)
    #: the rival's ``module:Class`` where it is not a bot of this tree's registry
    rival_entry: str = ""
    #: a bot of this tree also played in ismcts's seats on every deal (paired)
    compare: str = ""

    @property
    def name(self) -> str:
        suffix = "-rlcard" if self.rival_entry else ""
        return f"{self.game}-{self.players}{suffix}"

    def seatings(self) -> list[list[bool]]:
        """Per seating, which seats ismcts plays."""
        if self.team_size == 1:
            return [[seat == k for seat in range(self.players)] for k in range(self.players)]
        teams = self.players // self.team_size
        return [[seat % teams == k for seat in range(self.players)] for k in range(teams)]


HAND_AND_FOOT = (("max_rounds", 1), ("target", 100))
TABLES = {
    t.name: t
    for t in [
        Table("farm-and-furious", 2, "farm-and-furious-racer"),
        Table("farm-and-furious", 4, "farm-and-furious-racer"),
        Table("dou-dizhu", 3, "dou-dizhu-greedy"),
        Table(
            "dou-dizhu",
            3,
            "rlcard-rule",
            rival_entry="support.rlcard_rule:RuleAgentBot",
            compare="dou-dizhu-greedy",
        ),
        Table("vegetables", 2, "vegetables-planner"),
        Table("farm-hand", 1, "farm-hand-counter"),
        Table("farm-hand", 3, "farm-hand-counter"),
        Table("farm-hand", 5, "farm-hand-counter"),
        Table("hand-and-foot", 2, "hand-and-foot-builder", HAND_AND_FOOT),
        Table("hand-and-foot", 4, "hand-and-foot-builder", HAND_AND_FOOT, team_size=2),
    ]
}


class Measured(IsmctsBot):
    """``ismcts`` with the run's settings, keeping its last game's final
    round history (Farm Hand's, from ``game_over``)."""

    def __init__(self, settings: dict):
        super().__init__()
        self.given = settings
        self.history: list = []

    def new_match(self, hello):
        super().new_match(dict(hello, settings=self.given))

    def game_over(self, result):
        self.history = result["observation"].get("history", [])


def six_rounds(history: list, seat: int) -> float:
    """A Farm Hand seat's points over the six rounds, tie-break replays left out."""
    return float(sum(entry["points"][seat] for entry in history if not entry["replay"]))


def first_share(outcome, mine: list[bool]) -> float:
    """The share of first place held by ismcts's seats (team-wise)."""
    firsts = {}
    for seat, rank in enumerate(outcome.ranks):
        if rank == 1:
            firsts[outcome.teams[seat]] = mine[seat]
    dummies = sum(1 for dummy in outcome.dummies if dummy.rank == 1)
    return sum(firsts.values()) / (len(firsts) + dummies)


def play_deal(table: Table, deal: int, settings: dict) -> dict[str, float]:
    registry = installed()
    engine = registry.engine(table.game)
    rival = table.rival_entry or registry.bot(table.rival).entry
    compare = registry.bot(table.compare).entry if table.compare else None
    if rival is None or (table.compare and compare is None):
        raise SystemExit(f"{table.rival}: not a Python bot of this tree")
    figures: dict[str, list[float]] = {
        "first": [],
        "score": [],
        "rank": [],
        "mine": [],
        "rounds": [],
        "compared": [],
        "landlord": [],
        "compared landlord": [],
    }
    for mine in table.seatings():
        bots = [Measured(settings) if me else load(rival) for me in mine]
        outcome = play_game(engine, bots, seed=deal, options=dict(table.options))
        own = [s for s, me in zip(outcome.scores, mine) if me]
        own_ranks = [r for r, me in zip(outcome.ranks, mine) if me]
        if all(mine):  # solitaire: against the dummies only
            figures["mine"].append(own[0])
            figures["rank"].append(float(own[0] >= 21))
            figures["first"].append(first_share(outcome, mine))
            player = bots[0]
            assert isinstance(player, Measured)
            figures["rounds"].append(six_rounds(player.history, 0))
            continue
        theirs = [s for s, me in zip(outcome.scores, mine) if not me]
        their_ranks = [r for r, me in zip(outcome.ranks, mine) if not me]
        figures["first"].append(first_share(outcome, mine))
        figures["score"].append(statistics.fmean(own) - statistics.fmean(theirs))
        figures["rank"].append(statistics.fmean(their_ranks) - statistics.fmean(own_ranks))
        figures["mine"].append(statistics.fmean(own))
        if compare is not None:
            _compare(table, engine, deal, mine, outcome, (rival, compare), figures)
    return {key: statistics.fmean(values) for key, values in figures.items() if values}


def _compare(table, engine, deal, mine, outcome, entries, figures) -> None:
    """Into ``figures``: ``compare`` and then the rival itself in ismcts's seats of the same
    deal: the heuristic's mean score there, and in Dou Dizhu (where all these
    bots bid alike, so the landlord's seat is the same in every game) the
    landlord's win over the rival's own as landlord, for ismcts and for
    ``compare`` (-1, 0 or +1; no figure where ismcts's seat did not take
    the landlord)."""
    rival, compare = entries
    games = {
        name: play_game(
            engine,
            [load(entry) if me else load(rival) for me in mine],
            seed=deal,
            options=dict(table.options),
        )
        for name, entry in (("compared", compare), ("rival", rival))
    }
    seat = mine.index(True)
    figures["compared"].append(games["compared"].scores[seat])
    if table.game == "dou-dizhu" and outcome.teams[seat] == 0 and len(set(outcome.teams)) == 2:
        baseline = float(games["rival"].ranks[seat] == 1)
        figures["landlord"].append(float(outcome.ranks[seat] == 1) - baseline)
        figures["compared landlord"].append(float(games["compared"].ranks[seat] == 1) - baseline)


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def run(
    table: Table,
    deals: int,
    settings: dict,
    seconds: float,
    first_deal: int,
    kept: Path | None = None,
) -> None:
    start, cpu = time.monotonic(), time.process_time()
    rows = []
    try:
        for deal in range(first_deal, first_deal + deals):
            rows.append(play_deal(table, deal, settings))
            if kept is not None:
                with kept.open("a") as out:
                    out.write(json.dumps({"table": table.name, "deal": deal, **rows[-1]}) + "\n")
            if time.monotonic() - start > seconds:
                break
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (a timeout): report the deals played
        if not rows:
            raise
    budget = ", ".join(f"{k}={v}" for k, v in settings.items())
    wall = time.monotonic() - start
    report(
        table,
        rows,
        f"({budget}): {len(rows)} deals x {len(table.seatings())} seatings, {wall:.0f} s, "
        f"this process got {(time.process_time() - cpu) / wall:.2f} of a CPU",
    )


def report(table: Table, rows: list[dict], how: str) -> None:
    """Print the figures of ``rows`` (one per deal) for ``table``."""
    keys = dict.fromkeys(key for row in rows for key in row)  # landlord: some deals only
    column = {key: [row[key] for row in rows if key in row] for key in keys}
    teams = len(table.seatings())
    print(f"{table.name} vs {table.rival} {how}")
    if table.players == 1:
        print(
            f"  mean score {interval(column['mine'])}   reached 21 {interval(column['rank'])}"
            f"   first {interval(column['first'])}"
        )
        print(f"  six rounds' points (no replays) {interval(column['rounds'])}")
        return
    print(
        f"  first {interval(column['first'])} (fair {1 / (teams if table.team_size > 1 else table.players):.3f})"
        f"   score {interval(column['score'])}   rank {interval(column['rank'])}"
    )
    if table.game == "dou-dizhu":
        print(f"  payoff per seat {interval(column['mine'])}")
    if table.compare:
        paired = [a - b for a, b in zip(column["mine"], column["compared"])]
        print(
            f"  {table.compare} in the same seats: score per seat {interval(column['compared'])}"
            f"   ismcts - it {interval(paired)}"
        )
    if "landlord" in column:
        paired = [a - b for a, b in zip(column["landlord"], column["compared landlord"])]
        print(
            f"  landlord wins over {table.rival}'s own as landlord: ismcts "
            f"{interval(column['landlord'])}   {table.compare} {interval(column['compared landlord'])}"
            f"   ismcts - {table.compare} {interval(paired)} ({len(paired)} deals)"
        )
    sys.stdout.flush()


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main() -> None:
    signal.signal(signal.SIGTERM, _interrupt)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "tables",
        nargs="*",
        metavar="TABLE",
        help=f"tables to play (default: all): {', '.join(TABLES)}",
    )
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument(
        "--move",
        type=float,
        default=0.0,
        help="search by the clock with this many seconds a move instead (at most 1)",
    )
    parser.add_argument("--seconds", type=float, default=math.inf, help="stop after this long")
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="another ismcts setting (e.g. exploration=1.0)",
    )
    parser.add_argument(
        "--rows", type=Path, help="append each deal's figures here (a JSON line a deal)"
    )
    parser.add_argument(
        "--summarise",
        type=Path,
        nargs="+",
        metavar="ROWS",
        help="play nothing: the figures of the deals in these --rows files",
    )
    parser.add_argument("--burners", type=int, default=0, help="busy processes beside the run")
    parser.add_argument("--quick", action="store_true", help="every table, 2 deals, 20 iterations")
    args = parser.parse_args()
    if args.quick:
        args.deals, args.iterations = 2, 20
    if not 0 <= args.move <= UNTIMED["move"]:
        parser.exit(2, f"--move must be between 0 and {UNTIMED['move']:g} seconds\n")
    if args.move:  # the in-process clock says 1 s a move: think this share of it
        settings = {"time_fraction": args.move / UNTIMED["move"], "margin": 0.0}
    else:
        settings = {"iterations": args.iterations}
    for item in args.setting:
        key, _, value = item.partition("=")
        settings[key] = _number(value)
    unknown = [name for name in args.tables if name not in TABLES]
    if unknown:
        parser.exit(2, f"unknown table {unknown[0]!r} (known: {', '.join(TABLES)})\n")
    if args.summarise:
        missing = [path for path in args.summarise if not path.is_file()]
        if missing:
            parser.exit(2, f"--summarise: no file {missing[0]}\n")
        summarise(args.summarise, args.tables or list(TABLES))
        return
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.burners)
    ]
    try:
        for name in args.tables or list(TABLES):
            run(TABLES[name], args.deals, settings, args.seconds, args.first_deal, args.rows)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def summarise(files: list[Path], names: list[str]) -> None:
    """The figures of every table in ``names`` over the deals of ``files``
    (a deal found twice counted once)."""
    rows: dict[str, dict[int, dict]] = {}
    for path in files:
        for row in map(json.loads, path.read_text().splitlines()):
            rows.setdefault(row.pop("table"), {})[row.pop("deal")] = row
    for name in names:
        if name in rows:
            deals = sorted(rows[name])
            report(
                TABLES[name],
                [rows[name][deal] for deal in deals],
                f"(from {', '.join(path.name for path in files)}): {len(deals)} deals, "
                f"{deals[0]}-{deals[-1]}",
            )


def _number(text: str):
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


if __name__ == "__main__":
    main()
