"""The leaderboard: ratings and statistics from the store, in every format.

One document (:func:`build`) holds everything; the table, JSON, CSV and
HTML renderings (and the web viewer) only present it, so no format knows
more than another.  Its keys are documented in docs/tournaments.md.

* ``overall``: bots only (engine-played dummies are no contestants), ranked
  by their overall strength (:mod:`arena.ratings.rating`: the mean over the games a
  bot entered of its chance of beating each other bot of that game), shown
  with how many games it entered; no mean score (scores of different games
  do not add up), the place share instead.
* one entry per game: every participant, dummies included and marked,
  ranked by the game's rating (a game whose result is its payoff,
  ``GameInfo.result``, by its fitted expected payoff, shown with its
  interval; ``ranked_by`` says which), with mean score and place and their
  intervals; ``players`` splits the statistics by table size and
  ``head_to_head`` holds a matrix per table size.

Ratings are read through :func:`ratings` alone (one adapter over
:mod:`arena.ratings.rating`), so a new rating fit changes only that function.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.presentation import board_cache
from arena.ratings import stats
from arena.records import FAULTS
from arena.results.store import Store, StoredGame

if TYPE_CHECKING:
    from rich.console import JustifyMethod

FORMATS = ("table", "json", "csv", "html")
OVERALL = "overall"
#: the store's meta entry naming the games (ids, comma-separated) whose
#: result is their payoff (``GameInfo.result``): the runner writes it
PAYOFF_META = "payoff"
COLUMNS = [
    "rank",
    "bot",
    "dummy",
    "mu",
    "sigma",
    "interval_low",
    "interval_high",
    "strength",
    "entered",
    "games",
    "seats",
    "wins",
    "mean_score",
    "score_low",
    "score_high",
    "payoff",
    "payoff_low",
    "payoff_high",
    "place",
    "place_low",
    "place_high",
    *[f"faults_{kind}" for kind in FAULTS],
]
#: the CSV's head-to-head rows (``bot`` against ``against`` at one table size)
PAIR_COLUMNS = [
    "against",
    "met",
    "above",
    "ties",
    "below",
    "above_share",
    "score_diff",
    "diff_low",
    "diff_high",
]


@dataclass
class Rated:
    """One rating pool as the leaderboard reads it."""

    order: list[str]  # best first
    mu: dict[str, float]
    sigma: dict[str, float]
    #: (games rated in the pool so far, {participant: mu}) for the charts
    history: list[tuple[int, dict[str, float]]] = field(default_factory=list)
    #: per participant: its strength (chance of beating the others head to
    #: head; overall, the mean over its games) and, overall, games entered
    strength: dict[str, float | None] = field(default_factory=dict)
    entered: dict[str, int] = field(default_factory=dict)
    #: overall: the strength's interval (see :func:`strength_interval`)
    interval: dict[str, tuple[float, float]] = field(default_factory=dict)


def strength_interval(pool, name: str) -> tuple[float, float] | None:
    """The strength ``name`` would have with its mu at -2 and +2 sigma (the
    others' ratings as fitted): the rating interval seen as a strength."""
    from arena.ratings.thurstone import beat_probability

    me = pool.standings[name]
    others = [s for s in pool.standings.values() if not s.dummy and s is not me]
    if not others:
        return None
    low, high = (
        (
            sum(
                beat_probability((me.mu + shift * me.sigma, me.sigma), (o.mu, o.sigma))
                for o in others
            )
            / len(others)
        )
        for shift in (-2, 2)
    )
    return low, high


def ratings(games: Sequence[StoredGame], history: int = 0, rater=None) -> dict[str, Rated]:
    """The adapter: mu, sigma, strength and the ranking per game id, and the
    overall ranking by strength (no mu or sigma: it is not a rating pool).
    ``rater`` (no chart): an :class:`arena.ratings.rating.Rater` that already holds
    the games up to its ``last_id``; the others are added to it."""
    from arena.ratings.rating import compute

    if rater is not None:
        held = rater.last_id  # read once: adding games moves it, and ids are not in plan order
        rater.extend([game for game in games if game.id > held])
        board = rater.board()
    else:
        board = compute(games, history=history)
    rated = {
        name: Rated(
            order=[s.name for s in pool.table()],
            mu={n: s.mu for n, s in pool.standings.items()},
            sigma={n: s.sigma for n, s in pool.standings.items()},
            history=list(pool.history),
            strength={n: s.strength for n, s in pool.standings.items()},
        )
        for name, pool in board.pools.items()
    }
    intervals: dict[str, list[tuple[float, float]]] = {}
    for pool in board.pools.values():
        for name, standing in pool.standings.items():
            found = None if standing.dummy else strength_interval(pool, name)
            if found is not None:
                intervals.setdefault(name, []).append(found)
    rated[OVERALL] = Rated(
        order=[s.name for s in board.overall],
        mu={},
        sigma={},
        strength={s.name: s.strength for s in board.overall},
        entered={s.name: s.entered for s in board.overall},
        interval={
            name: (sum(p[0] for p in pairs) / len(pairs), sum(p[1] for p in pairs) / len(pairs))
            for name, pairs in intervals.items()
        },
    )
    return rated


def _round(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


def _pair(interval: stats.Interval | None) -> list[float] | None:
    return None if interval is None else [round(interval[0], 3), round(interval[1], 3)]


def row(
    summary: stats.BotStats, *, rated: Rated | None, scores: bool, payoff: bool = False
) -> dict[str, Any]:
    """One participant's line of a table (``rank`` is filled in by the
    caller; ``payoff``: with the fitted expected payoff)."""
    line: dict[str, Any] = {"bot": summary.name, "dummy": summary.dummy}
    if rated is not None:
        mu = rated.mu.get(summary.name)
        sigma = rated.sigma.get(summary.name)
        line["mu"] = _round(mu)
        line["sigma"] = _round(sigma)
        line["interval"] = (
            _pair(rated.interval.get(summary.name))
            if mu is None or sigma is None
            else [round(mu - 2 * sigma, 3), round(mu + 2 * sigma, 3)]
        )
        line["strength"] = _round(rated.strength.get(summary.name))
        if rated.entered:
            line["entered"] = rated.entered.get(summary.name, 0)
    line.update(games=summary.games, seats=summary.seats, wins=summary.wins)
    if scores:
        line["mean_score"] = _round(summary.mean_score)
        line["score_interval"] = _pair(summary.score_interval)
    if payoff:
        line["payoff"] = _round(summary.payoff)
        line["payoff_interval"] = _pair(summary.payoff_interval)
    line["place"] = _round(summary.place)
    line["place_interval"] = _pair(summary.place_interval)
    for kind in FAULTS:
        line[f"faults_{kind}"] = summary.faults.get(kind, 0)
    return line


def _ranked(
    summaries: dict[str, stats.BotStats], rated: Rated | None, scores: bool, payoff: bool = False
) -> list[dict[str, Any]]:
    if payoff:
        names = sorted(summaries, key=lambda n: (-(summaries[n].payoff or 0.0), n))
    elif rated is not None:
        position = {name: index for index, name in enumerate(rated.order)}
        names = sorted(summaries, key=lambda n: (position.get(n, len(position)), n))
    else:
        names = sorted(summaries, key=lambda n: (-summaries[n].place, n))
    return [
        {"rank": rank, **row(summaries[name], rated=rated, scores=scores, payoff=payoff)}
        for rank, name in enumerate(names, start=1)
    ]


def meeting(m: stats.Meeting) -> dict[str, Any]:
    return {
        "games": m.games,
        "above": m.above,
        "ties": m.ties,
        "below": m.below,
        "above_share": round(m.above_share, 3),
        "score_diff": round(m.score_diff, 3),
        "interval": _pair(m.interval),
    }


def chart(games: Sequence[StoredGame], rated: Rated, names: list[str]) -> dict[str, list]:
    """Per participant, its rating after each of *its own* games (sampled
    like the pool's history): ``[[games played, mu], ...]``.  A line over
    its own games never bridges games it did not play."""
    points: dict[str, list[list[float]]] = {name: [] for name in names}
    played: dict[str, int] = {name: 0 for name in names}
    snapshots = iter(rated.history)
    snapshot = next(snapshots, None)
    for number, game in enumerate([None, *games]):
        if game is not None:
            record = game.record
            for name in {seat.bot for seat in record.seats} | {
                stats.DUMMY_PREFIX + dummy.name for dummy in record.dummies
            }:
                if name in played:
                    played[name] += 1
        while snapshot is not None and snapshot[0] == number:
            for name, mu in snapshot[1].items():
                if name in points and played[name]:
                    line = points[name]
                    if line and line[-1][0] == played[name]:
                        line[-1][1] = mu
                    else:
                        line.append([played[name], mu])
            snapshot = next(snapshots, None)
    return {name: line for name, line in points.items() if line}


def build(
    games: Sequence[StoredGame],
    *,
    history: int = 0,
    name: str = "",
    stopped: str | None = None,
    rater=None,
    tally=None,
    payoff: Collection[str] = (),
) -> dict[str, Any]:
    """The leaderboard document (see the module docstring; ``rater``: see
    :func:`ratings`; ``tally``: a :class:`arena.ratings.stats.Tally` that already
    holds the games up to its ``last_id``, the others are added to it --
    with both, ``games`` need hold only the games after those).  The games
    of ``payoff`` (ids) are ranked by their fitted expected payoff
    (:meth:`arena.ratings.stats.Tally.payoffs`), the others by rating;
    ``ranked_by`` says which."""
    games = list(games)
    pools = ratings(games, history=history, rater=rater)
    if tally is None:
        figures = stats.compute(games)
    else:
        held = tally.last_id
        tally.extend([game for game in games if game.id > held])
        figures = tally.statistics()
    overall = pools.get(OVERALL, Rated([], {}, {}))
    contestants = replace(
        overall, order=[n for n in overall.order if not n.startswith(stats.DUMMY_PREFIX)]
    )
    board: dict[str, Any] = {
        OVERALL: {
            "games": sum(figures.counts.values()),
            "bots": _ranked(figures.overall, contestants, False),
        }
    }
    if history:
        board[OVERALL]["chart"] = chart(games, contestants, contestants.order)
    for game_id in sorted(figures.games):
        rated = pools.get(game_id, Rated([], {}, {}))
        entry: dict[str, Any] = {
            "games": figures.counts[game_id],
            "ranked_by": "payoff" if game_id in payoff else "rating",
            "bots": _ranked(figures.games[game_id], rated, True, game_id in payoff),
            "players": {
                str(size): {"games": table.games, "bots": _ranked(table.bots, None, True)}
                for size, table in figures.tables[game_id].items()
            },
            "head_to_head": {
                str(size): {
                    a: {b: meeting(m) for b, m in sorted(row.items())}
                    for a, row in sorted(table.head_to_head.items())
                }
                for size, table in figures.tables[game_id].items()
            },
        }
        if history:
            entry["chart"] = chart(
                [g for g in games if g.record.game == game_id], rated, rated.order
            )
        board[game_id] = entry
    board_meta = {"name": name}
    if stopped:
        board_meta["stopped"] = stopped
    return {"tournament": board_meta, **board}


def _restored(store: Store, cache: dict[str, Any], *, charted: bool):
    """The saved tally and rater to go on from (the rater None for a chart,
    which replays the games in plan order), or fresh ones where the cache
    holds none for this store -- or a damaged one: the cache is derived
    data, so a results folder whose cache was cut short or edited is read
    from scratch, never refused."""
    from arena.ratings.rating import Rater

    try:
        held = board_cache.held(store, cache)
        sums = "tally" in held and board_cache.sums_of(store, held["tally"])
        tally = stats.Tally.from_state(held["tally"]["state"], sums) if sums else stats.Tally()
        if charted:
            return tally, None
        return tally, Rater.from_state(held["rater"]["state"]) if "rater" in held else Rater()
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return stats.Tally(), None if charted else Rater()


def from_store(store: Store, *, history: int = 0) -> dict[str, Any]:
    """The document of ``store``: as built before when the store has not
    changed since, else built, going on from the saved rater and tally when
    the store only grew (:mod:`arena.presentation.board_cache`).  Raises a
    :class:`~arena.results.store.StoreError` for a damaged store."""
    store.check()  # a damaged store is said to be, never shown from the cache
    content = board_cache.content_key(store)  # before reading: never newer than the games
    cache = board_cache.load(store)
    boards = cache.get("boards", {}) if cache.get("content") == content else {}
    board = boards.get(str(history))
    if board is not None:
        return _with_levels(board, store)
    tally, rater = _restored(store, cache, charted=bool(history))
    # the games read: those the saved rater and tally do not both hold
    after = min(tally.last_id, rater.last_id) if rater is not None else -1
    meta = content["meta"]
    board = build(
        list(store.games(after=after)),
        history=history,
        name=meta.get("name", ""),
        stopped=meta.get("stopped"),
        rater=rater,
        tally=tally,
        payoff=[game for game in meta.get(PAYOFF_META, "").split(",") if game],
    )
    board = json.loads(json.dumps(board))  # as a cache hit gives it back
    boards[str(history)] = board
    states = {"tally": tally.state()}
    if rater is not None:
        states["rater"] = rater.state()
    board_cache.save(
        store, content, boards, {**cache, **board_cache.entries(store, states)}, tally.sums_bytes()
    )
    return _with_levels(board, store)


def _with_levels(board: dict[str, Any], store: Store) -> dict[str, Any]:
    """``board`` with the sandbox levels its games ran at, read from the
    store each time, not cached (unchanged for a store from before levels
    were recorded)."""
    levels = sorted(level for level in store.levels() if level)
    if not levels:
        return board
    return {**board, "tournament": {**board["tournament"], "sandbox": levels}}


def pools(board: dict[str, Any], game: str | None = None) -> list[str]:
    """The pools to show: ``game`` alone, or overall then every game."""
    names = [key for key in board if key != "tournament"]
    if game is None:
        return names
    if game not in board or game in (OVERALL, "tournament"):
        known = ", ".join(n for n in names if n != OVERALL) or "none"
        raise KeyError(f"no games of '{game}' in the store (stored: {known})")
    return [game]


def render(
    board: dict[str, Any], fmt: str = "table", game: str | None = None, title: str = ""
) -> str:
    """The leaderboard (default: overall then every game) as text."""
    chosen = pools(board, game)
    if fmt == "table":
        stopped = board["tournament"].get("stopped")
        levels = board["tournament"].get("sandbox")
        return "\n".join(
            ([f"sandbox: {', '.join(levels)}"] if levels else [])
            + ([f"stopped: {stopped}"] if stopped else [])
            + [table_text(board, pool, detail=game is not None) for pool in chosen]
        )
    if fmt == "json":
        return json.dumps(
            {"tournament": board["tournament"], **{pool: board[pool] for pool in chosen}}, indent=2
        )
    if fmt == "csv":
        return csv_text(board, chosen)
    if fmt == "html":
        from arena.presentation.pages import leaderboard_page

        return leaderboard_page(board, title=title, only=chosen)
    raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")


def flat(line: dict[str, Any]) -> dict[str, Any]:
    """A table line with its intervals as two columns each (CSV)."""
    out = dict(line)
    for key, low, high in (
        ("interval", "interval_low", "interval_high"),
        ("score_interval", "score_low", "score_high"),
        ("payoff_interval", "payoff_low", "payoff_high"),
        ("place_interval", "place_low", "place_high"),
    ):
        pair = out.pop(key, None) or ["", ""]
        out[low], out[high] = pair
    return out


def csv_text(board: dict[str, Any], chosen: list[str]) -> str:
    """A line per participant of every pool, and of every table size
    (``players``; empty for a whole game or overall), then a line per
    head-to-head pair (``against`` filled in)."""
    out = io.StringIO()
    writer = csv.DictWriter(
        out,
        fieldnames=["pool", "players", *COLUMNS, *PAIR_COLUMNS],
        lineterminator="\n",
        restval="",
    )
    writer.writeheader()
    for pool in chosen:
        for line in board[pool]["bots"]:
            writer.writerow({"pool": pool, "players": "", **flat(line)})
        for size, table in board[pool].get("players", {}).items():
            for line in table["bots"]:
                writer.writerow({"pool": pool, "players": size, **flat(line)})
        for size, matrix in board[pool].get("head_to_head", {}).items():
            for a, others in matrix.items():
                for b, m in others.items():
                    low, high = m["interval"] or ["", ""]
                    writer.writerow(
                        {
                            "pool": pool,
                            "players": size,
                            "bot": a,
                            "against": b,
                            "met": m["games"],
                            "above": m["above"],
                            "ties": m["ties"],
                            "below": m["below"],
                            "above_share": m["above_share"],
                            "score_diff": m["score_diff"],
                            "diff_low": low,
                            "diff_high": high,
                        }
                    )
    return out.getvalue()


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _interval_text(pair: list[float] | None, digits: int = 2) -> str:
    return "-" if pair is None else f"{pair[0]:.{digits}f}–{pair[1]:.{digits}f}"


def table_text(board: dict[str, Any], pool: str, width: int = 140, detail: bool = False) -> str:
    """A terminal table of one pool (with ``detail``: its table sizes and
    head-to-head too)."""
    from rich.console import Console
    from rich.table import Table

    entry = board[pool]
    text = io.StringIO()
    console = Console(file=text, width=width, color_system=None, highlight=False)
    payoff = entry.get("ranked_by") == "payoff"
    by = ", ranked by payoff: points a game above the average participant" if payoff else ""
    table = Table(title=f"{pool} ({entry['games']} games{by})", title_justify="left")
    overall = pool == OVERALL
    columns: list[tuple[str, JustifyMethod]] = [("#", "right"), ("bot", "left")]
    columns += (
        [("strength", "right"), ("±2σ", "right"), ("entered", "right")]
        if overall
        else [("mu", "right"), ("sigma", "right"), ("mu±2σ", "right"), ("strength", "right")]
    )
    columns += [("games", "right"), ("seats", "right"), ("wins", "right")]
    if not overall:
        columns += [("mean score [95%]", "right")]
    if payoff:
        columns += [("payoff [95%]", "right")]
    columns += [("place [95%]", "right"), ("faults", "left")]
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for line in entry["bots"]:
        cells = [str(line["rank"]), line["bot"] + (" (dummy)" if line["dummy"] else "")]
        strength = "-" if line.get("strength") is None else f"{line['strength']:.3f}"
        cells += (
            [strength, _interval_text(line["interval"], 3), str(line.get("entered", 0))]
            if overall
            else [
                _number(line["mu"]),
                _number(line["sigma"]),
                _interval_text(line["interval"]),
                strength,
            ]
        )
        cells += [str(line["games"]), str(line["seats"]), str(line["wins"])]
        if not overall:
            cells.append(f"{line['mean_score']:.2f} [{_interval_text(line['score_interval'])}]")
        if payoff:
            cells.append(f"{line['payoff']:+.2f} [{_interval_text(line['payoff_interval'])}]")
        cells.append(f"{line['place']:.2f} [{_interval_text(line['place_interval'])}]")
        cells.append(
            ", ".join(
                f"{kind} {line['faults_' + kind]}" for kind in FAULTS if line["faults_" + kind]
            )
            or "-"
        )
        table.add_row(*cells)
    console.print(table)
    if detail:
        for size, matrix in entry.get("head_to_head", {}).items():
            pairs = Table(title=f"{pool}, {size} players: head-to-head", title_justify="left")
            heads: list[tuple[str, JustifyMethod]] = [
                ("bot", "left"),
                ("against", "left"),
                ("games", "right"),
                ("above", "right"),
                ("ties", "right"),
                ("below", "right"),
                ("score diff [95%]", "right"),
            ]
            for name, justify in heads:
                pairs.add_column(name, justify=justify)
            for a, others in matrix.items():
                for b, m in others.items():
                    pairs.add_row(
                        a,
                        b,
                        str(m["games"]),
                        str(m["above"]),
                        str(m["ties"]),
                        str(m["below"]),
                        f"{m['score_diff']:+.2f} [{_interval_text(m['interval'])}]",
                    )
            console.print(pairs)
    return text.getvalue().rstrip("\n")


def write_html(store: Store, path: Path, board: dict[str, Any] | None = None) -> Path:
    """Write the page next to the store (atomically: a reader never sees
    half); ``board``: the store's document with its charts
    (``from_store(store, history=20)``) when the caller has it already."""
    from arena.presentation.pages import leaderboard_page

    if board is None:
        board = from_store(store, history=20)
    page = leaderboard_page(
        board, title=f"{board['tournament']['name'] or 'Tournament'} — leaderboard"
    )
    path = Path(path)
    temporary = path.with_suffix(".tmp")
    try:
        temporary.write_text(page, encoding="utf-8")
        temporary.replace(path)
    except OSError:
        temporary.unlink(missing_ok=True)  # no half page left behind (a full disk)
        raise
    return path
