"""The leaderboard: ratings from the store as a table, JSON, CSV or HTML.

Per game and overall: rank, bot, mu, sigma, the conservative mu - 3 sigma
(the sort key), games, wins, mean score and faults by kind.  The HTML page is
one self-contained file (inline CSS and SVG, no scripts, nothing fetched)
with a chart of every bot's rating (mu) over the games played.
"""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path
from typing import Any

from arena.rating import OVERALL, Ratings, compute
from arena.records import FAULTS
from arena.store import Store

FORMATS = ("table", "json", "csv", "html")
COLUMNS = ["rank", "bot", "mu", "sigma", "conservative", "games", "wins", "mean_score",
           *[f"faults_{kind}" for kind in FAULTS]]


def pools_from(store: Store, history: int = 300) -> dict[str, Ratings]:
    return compute(list(store.games()), history=history)


def rows(pool: Ratings) -> list[dict[str, Any]]:
    result = []
    for rank, standing in enumerate(pool.table(), start=1):
        row = {"rank": rank, "bot": standing.name, "mu": round(standing.mu, 3),
               "sigma": round(standing.sigma, 3),
               "conservative": round(standing.conservative, 3), "games": standing.games,
               "wins": standing.wins, "mean_score": round(standing.mean_score, 3)}
        for kind in FAULTS:
            row[f"faults_{kind}"] = standing.faults.get(kind, 0)
        result.append(row)
    return result


def _selected(pools: dict[str, Ratings], game: str | None) -> list[Ratings]:
    if game is not None:
        if game not in pools:
            known = ", ".join(sorted(k for k in pools if k != OVERALL)) or "none"
            raise KeyError(f"no games of '{game}' in the store (stored: {known})")
        return [pools[game]]
    return [pools[OVERALL]] + [pools[k] for k in sorted(pools) if k != OVERALL]


def render(pools: dict[str, Ratings], fmt: str = "table", game: str | None = None,
           title: str = "") -> str:
    """The leaderboard of ``game`` (default: overall then every game) as text."""
    chosen = _selected(pools, game)
    if fmt == "table":
        return "\n".join(table_text(pool) for pool in chosen)
    if fmt == "json":
        return json.dumps({pool.name: {"games": pool.games, "bots": rows(pool)}
                           for pool in chosen}, indent=2)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=["pool", *COLUMNS], lineterminator="\n")
        writer.writeheader()
        for pool in chosen:
            for row in rows(pool):
                writer.writerow({"pool": pool.name, **row})
        return out.getvalue()
    if fmt == "html":
        return html_page(pools, title=title, only=game)
    raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")


def table_text(pool: Ratings, width: int = 120) -> str:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{pool.name} ({pool.games} games)", title_justify="left")
    for name, justify in (("#", "right"), ("bot", "left"), ("mu", "right"),
                          ("sigma", "right"), ("mu-3σ", "right"), ("games", "right"),
                          ("wins", "right"), ("mean score", "right"), ("faults", "left")):
        table.add_column(name, justify=justify)
    for row in rows(pool):
        faults = ", ".join(f"{kind} {row['faults_' + kind]}" for kind in FAULTS
                           if row["faults_" + kind]) or "-"
        table.add_row(str(row["rank"]), row["bot"], f"{row['mu']:.2f}", f"{row['sigma']:.2f}",
                      f"{row['conservative']:.2f}", str(row["games"]), str(row["wins"]),
                      f"{row['mean_score']:.2f}", faults)
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


def chart_svg(pool: Ratings, width: int = 900, height: int = 320) -> str:
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


def table_html(pool: Ratings) -> str:
    heads = ["#", "bot", "mu", "sigma", "mu − 3σ", "games", "wins", "mean score",
             *FAULTS]
    out = ["<table><tr>" + "".join(
        f'<th class="bot">{h}</th>' if h == "bot" else f"<th>{h}</th>" for h in heads) + "</tr>"]
    for row in rows(pool):
        css = ' class="dummy"' if row["bot"].startswith("dummy:") else ""
        cells = [row["rank"], f'<td class="bot">{html.escape(row["bot"])}</td>',
                 f"{row['mu']:.2f}", f"{row['sigma']:.2f}", f"{row['conservative']:.2f}",
                 row["games"], row["wins"], f"{row['mean_score']:.2f}",
                 *[row["faults_" + kind] for kind in FAULTS]]
        out.append(f"<tr{css}>" + "".join(
            c if isinstance(c, str) and c.startswith("<td") else f"<td>{c}</td>"
            for c in cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def html_page(pools: dict[str, Ratings], title: str = "", only: str | None = None) -> str:
    title = title or "Leaderboard"
    body = [f"<h1>{html.escape(title)}</h1>",
            '<p class="muted">Sorted by the conservative rating mu − 3σ (TrueSkill). '
            "Ratings are recomputed from the stored games in plan order; dummies "
            "(engine-played seats) are shown in grey.</p>"]
    for pool in _selected(pools, only):
        heading = "Overall (all games)" if pool.name == OVERALL else pool.name
        body.append(f'<h2 id="{html.escape(pool.name)}">{html.escape(heading)} '
                    f'<span class="muted">{pool.games} games</span></h2>')
        body.append(table_html(pool))
        body.append(chart_svg(pool))
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
