"""Per-bot figures of a match, as ``arena match`` prints them after the games.

What cutechess-cli and fastchess print after a match, for card games: a
two-place game (two seats, no dummies) is a duel, summed up as wins, draws
and losses; a bigger table is summed up by mean rank and first places
(shared ones included).  The mean score comes with a 95 % interval (normal
approximation, ``1.96 * sd / sqrt(n)``), so a short match does not read as a
verdict.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass

from arena.records import GameRecord

#: the normal quantile of a two-sided 95 % interval
Z95 = 1.96


@dataclass
class BotSummary:
    bot: str
    games: int
    wins: int  # rank 1 alone (duels) / rank 1, shared or not (tables)
    draws: int  # duels only: both seats ranked 1
    losses: int  # duels only
    firsts: int  # rank 1, shared or not
    mean_rank: float
    mean_score: float
    interval: float | None  # half-width of the 95 % interval; None for one game
    faults: int
    duel: bool

    def to_dict(self) -> dict:
        return asdict(self)

    def line(self, width: int) -> str:
        spread = f" ± {self.interval:.2f}" if self.interval is not None else ""
        places = (
            f"W {self.wins}  D {self.draws}  L {self.losses}"
            if self.duel
            else f"mean rank {self.mean_rank:.2f}  firsts {self.firsts}"
        )
        return (
            f"{self.bot.ljust(width)}  {self.games} game{'s' * (self.games != 1)}  "
            f"{places}  score {self.mean_score:.2f}{spread}  faults {self.faults}"
        )


def summarize(records: list[GameRecord]) -> list[BotSummary]:
    """One summary per bot name, in order of first appearance."""
    seen: dict[str, list[tuple[GameRecord, int]]] = {}
    for record in records:
        for seat, s in enumerate(record.seats):
            seen.setdefault(s.bot, []).append((record, seat))
    return [_summary(bot, games) for bot, games in seen.items()]


def _summary(bot: str, games: list[tuple[GameRecord, int]]) -> BotSummary:
    duel = all(len(r.seats) + len(r.dummies) == 2 for r, _ in games)
    ranks = [r.seats[seat].rank for r, seat in games]
    scores = [float(r.seats[seat].score) for r, seat in games]
    firsts = sum(rank == 1 for rank in ranks)
    draws = sum(1 for r, seat in games if duel and all(s.rank == 1 for s in r.seats))
    interval = Z95 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else None
    return BotSummary(
        bot=bot,
        games=len(games),
        wins=firsts - draws,
        draws=draws,
        losses=len(games) - firsts if duel else 0,
        firsts=firsts,
        mean_rank=statistics.fmean(ranks),
        mean_score=statistics.fmean(scores),
        interval=interval,
        faults=sum(1 for r, seat in games if r.seats[seat].fault),
        duel=duel,
    )


def summary_lines(records: list[GameRecord]) -> list[str]:
    summaries = summarize(records)
    width = max((len(s.bot) for s in summaries), default=0)
    return [s.line(width) for s in summaries]
