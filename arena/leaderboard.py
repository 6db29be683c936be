"""The leaderboard: ratings from the store as a table, JSON, CSV or HTML.

Per game: rank, bot, mu, sigma, the conservative mu - 3 sigma (the sort
key), strength (mean P(beating each other bot head to head)), games, wins,
mean score and faults by kind.  Overall: each bot's mean strength over the
games it entered (see :mod:`arena.rating`).  The HTML page is one
self-contained file (inline CSS and SVG, no scripts, nothing fetched) with a
chart of every bot's rating (mu) over the games played.
"""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path
from typing import Any

from arena.rating import OVERALL, Board, OverallStanding, Pool, compute
from arena.records import FAULTS
from arena.store import Store

FORMATS = ("table", "json", "csv", "html")
FAULT_COLUMNS = [f"faults_{kind}" for kind in FAULTS]
COLUMNS = ["rank", "bot", "mu", "sigma", "conservative", "strength", "games", "wins",
           "mean_score", *FAULT_COLUMNS]
OVERALL_COLUMNS = ["rank", "bot", "strength", "entered", "games", "wins", *FAULT_COLUMNS]


def pools_from(store: Store, history: int = 20) -> Board:
    return compute(list(store.games()), history=history)


def _strength(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def rows(pool: Pool | list[OverallStanding]) -> list[dict[str, Any]]:
    """A game's rows (``COLUMNS``) or, for the overall list, ``OVERALL_COLUMNS``."""
    result = []
    if isinstance(pool, Pool):
        for rank, standing in enumerate(pool.table(), start=1):
            result.append({"rank": rank, "bot": standing.name, "mu": round(standing.mu, 3),
                           "sigma": round(standing.sigma, 3),
                           "conservative": round(standing.conservative, 3),
                           "strength": _strength(standing.strength), "games": standing.games,
                           "wins": standing.wins, "mean_score": round(standing.mean_score, 3),
                           **{f"faults_{k}": standing.faults.get(k, 0) for k in FAULTS}})
        return result
    for rank, standing in enumerate(pool, start=1):
        result.append({"rank": rank, "bot": standing.name,
                       "strength": _strength(standing.strength), "entered": standing.entered,
                       "games": standing.games, "wins": standing.wins,
                       **{f"faults_{k}": standing.faults.get(k, 0) for k in FAULTS}})
    return result


def _selected(board: Board, game: str | None) -> list[tuple[str, Any]]:
    """(name, pool or overall list) to show, overall first."""
    pools = board.pools
    if game is not None:
        if game not in pools:
            known = ", ".join(sorted(pools)) or "none"
            raise KeyError(f"no games of '{game}' in the store (stored: {known})")
        return [(game, pools[game])]
    return [(OVERALL, board.overall)] + [(k, pools[k]) for k in sorted(pools)]


def _games(board: Board, name: str) -> int:
    return board.games if name == OVERALL else board.pools[name].games


def render(board: Board, fmt: str = "table", game: str | None = None,
           title: str = "") -> str:
    """The leaderboard of ``game`` (default: overall then every game) as text."""
    chosen = _selected(board, game)
    if fmt == "table":
        return "\n".join(table_text(board, name) for name, _ in chosen)
    if fmt == "json":
        return json.dumps({name: {"games": _games(board, name), "bots": rows(pool)}
                           for name, pool in chosen}, indent=2)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=["pool", *COLUMNS, "entered"],
                                lineterminator="\n")
        writer.writeheader()
        for name, pool in chosen:
            for row in rows(pool):
                writer.writerow({"pool": name, **row})
        return out.getvalue()
    if fmt == "html":
        return html_page(board, title=title, only=game)
    raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")


def _faults(row: dict[str, Any]) -> str:
    return ", ".join(f"{kind} {row['faults_' + kind]}" for kind in FAULTS
                     if row["faults_" + kind]) or "-"


def _cells(name: str, row: dict[str, Any]) -> list[str]:
    """A row's shown cells, as in ``_heads``."""
    strength = "-" if row["strength"] is None else f"{row['strength']:.3f}"
    if name == OVERALL:
        return [str(row["rank"]), row["bot"], strength, str(row["entered"]),
                str(row["games"]), str(row["wins"]), _faults(row)]
    return [str(row["rank"]), row["bot"], f"{row['mu']:.2f}", f"{row['sigma']:.2f}",
            f"{row['conservative']:.2f}", strength, str(row["games"]), str(row["wins"]),
            f"{row['mean_score']:.2f}", _faults(row)]


def _heads(name: str) -> list[str]:
    if name == OVERALL:
        return ["#", "bot", "strength", "games entered", "seats", "wins", "faults"]
    return ["#", "bot", "mu", "sigma", "mu-3σ", "strength", "games", "wins", "mean score",
            "faults"]


def table_text(board: Board, name: str = OVERALL, width: int = 120) -> str:
    from rich.console import Console
    from rich.table import Table

    pool = board.overall if name == OVERALL else board.pools[name]
    table = Table(title=f"{name} ({_games(board, name)} games)", title_justify="left")
    for head in _heads(name):
        table.add_column(head, justify="left" if head in ("bot", "faults") else "right")
    for row in rows(pool):
        table.add_row(*_cells(name, row))
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    console.print(table)
    return console.file.getvalue().rstrip("\n")


# -- HTML -----------------------------------------------------------------------

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39"]

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;
max-width:1000px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0 1em}th,td{padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td.bot,th.bot{text-align:left}tr:nth-child(even) td{background:#fafafa}
tr.dummy td{color:#888;font-style:italic}svg{background:#fff;border:1px solid #eee}
.muted{color:#777;font-size:.9em}
"""


def chart_svg(pool: Pool, width: int = 900, height: int = 320) -> str:
    """Each bot's mu over the games of this pool, as inline SVG."""
    points = pool.history
    if not points:
        return '<p class="muted">no games yet</p>'
    names = [s.name for s in pool.table()]
    values = [mu for _, snapshot in points for mu in snapshot.values()] or [25.0]
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    left, right, top, bottom = 50, 190, 15, 35
    plot_w, plot_h = width - left - right, height - top - bottom
    last = max(points[-1][0], 1)

    def x(n):
        return left + plot_w * n / last

    def y(v):
        return top + plot_h * (high - v) / (high - low)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{html.escape(pool.name)} ratings over games">']
    for step in range(5):
        value = low + (high - low) * step / 4
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(value):.1f}" '
                     f'y2="{y(value):.1f}" stroke="#eee"/>')
        parts.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" font-size="11" '
                     f'text-anchor="end" fill="#666">{value:.1f}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 6}" font-size="11" '
                 f'text-anchor="middle" fill="#666">games rated (0–{last})</text>')
    parts.append(f'<text x="12" y="{top + plot_h / 2}" font-size="11" fill="#666" '
                 f'transform="rotate(-90 12 {top + plot_h / 2})" text-anchor="middle">mu</text>')
    for index, name in enumerate(names):
        colour = PALETTE[index % len(PALETTE)]
        coords = [(x(0), y(25.0))] + [(x(n), y(snap[name])) for n, snap in points if name in snap]
        polyline = " ".join(f"{a:.1f},{b:.1f}" for a, b in coords)
        dash = ' stroke-dasharray="4 3"' if name.startswith("dummy:") else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.6"{dash} '
                     f'points="{polyline}"><title>{html.escape(name)}</title></polyline>')
        ly = top + 14 + 16 * index
        parts.append(f'<line x1="{left + plot_w + 12}" x2="{left + plot_w + 30}" y1="{ly - 4}" '
                     f'y2="{ly - 4}" stroke="{colour}" stroke-width="3"{dash}/>')
        parts.append(f'<text x="{left + plot_w + 34}" y="{ly}" font-size="11">'
                     f'{html.escape(name[:24])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def table_html(board: Board, name: str) -> str:
    pool = board.overall if name == OVERALL else board.pools[name]
    out = ["<table><tr>" + "".join(
        f'<th class="bot">{h}</th>' if h == "bot" else f"<th>{h}</th>"
        for h in _heads(name)) + "</tr>"]
    for row in rows(pool):
        css = ' class="dummy"' if row["bot"].startswith("dummy:") else ""
        cells = _cells(name, row)
        out.append(f"<tr{css}>" + "".join(
            f'<td class="bot">{html.escape(cell)}</td>' if index == 1
            else f"<td>{html.escape(cell)}</td>" for index, cell in enumerate(cells)) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def html_page(board: Board, title: str = "", only: str | None = None) -> str:
    title = title or "Leaderboard"
    body = [f"<h1>{html.escape(title)}</h1>",
            '<p class="muted">Per game: TrueSkill-scale ratings fitted to all stored games '
            "at once (the same for any order of the games), sorted by mu − 3σ; strength is "
            "the mean chance of beating each other bot of the game head to head. Overall: "
            "the mean strength over the games a bot entered. Dummies (engine-played seats) "
            "are shown in grey and never ranked overall.</p>"]
    for name, _ in _selected(board, only):
        heading = "Overall (all games)" if name == OVERALL else name
        body.append(f'<h2 id="{html.escape(name)}">{html.escape(heading)} '
                    f'<span class="muted">{_games(board, name)} games</span></h2>')
        body.append(table_html(board, name))
        if name != OVERALL:
            body.append(chart_svg(board.pools[name]))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write_html(store: Store, path: Path) -> Path:
    """Write the page next to the store (atomically: a reader never sees half)."""
    meta = store.meta()
    page = html_page(pools_from(store), title=f"{meta.get('name', 'Tournament')} — leaderboard")
    path = Path(path)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(page, encoding="utf-8")
    temporary.replace(path)
    return path
