"""Every HTML page, from the jinja2 templates in ``arena/presentation/templates``.

One environment serves the static ``leaderboard.html``, the web viewer and
the offline replay, so a page looks the same wherever it is read.  Pages are
self-contained (inline CSS, inline SVG, inline script where one is needed),
so a file written here works offline and as an e-mail attachment.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jinja2

PALETTE = [
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
    "#393b79",
    "#637939",
    "#8c6d31",
    "#843c39",
]


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("arena.presentation", "templates"),
        autoescape=jinja2.select_autoescape(default=True),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["interval"] = lambda pair, digits=2: (
        "–" if pair is None else f"{pair[0]:.{digits}f} – {pair[1]:.{digits}f}"
    )
    env.policies["json.dumps_kwargs"] = {"sort_keys": False}  # observations keep their order
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def chart_geometry(
    lines: dict[str, list], order: list[str], width: int = 560, height: int = 240
) -> dict[str, Any] | None:
    """SVG coordinates of a rating chart: one polyline per participant over
    its own games (``lines`` from :func:`arena.presentation.leaderboard.chart`).
    The chart is drawn at most ``width`` pixels wide and scales down to a
    phone's width (about 360 pixels): its labels are ``font`` units, which
    is 10 pixels or more there."""
    names = [name for name in order if name in lines]
    if not names:
        return None
    values = [mu for name in names for _, mu in lines[name]]
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    last = max(max(n for n, _ in lines[name]) for name in names)
    left, right, top, bottom = 56, 10, 12, 34
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(n: float) -> float:
        return left + plot_w * (n - 1) / max(last - 1, 1)

    def y(v: float) -> float:
        return top + plot_h * (high - v) / (high - low)

    series = []
    for index, name in enumerate(names):
        coords = [(x(n), y(mu)) for n, mu in lines[name]]
        series.append(
            {
                "name": name,
                "colour": PALETTE[index % len(PALETTE)],
                "dashed": name.startswith("dummy:"),
                "points": " ".join(f"{a:.1f},{b:.1f}" for a, b in coords),
                "single": coords[0] if len(coords) == 1 else None,
            }
        )
    ticks = [
        {"y": round(y(low + (high - low) * k / 4), 1), "label": f"{low + (high - low) * k / 4:.1f}"}
        for k in range(5)
    ]
    return {
        "width": width,
        "height": height,
        "left": left,
        "top": top,
        "plot_w": plot_w,
        "plot_h": plot_h,
        "last": last,
        "series": series,
        "ticks": ticks,
        "font": 16,
    }


def leaderboard_page(
    board: dict[str, Any],
    *,
    title: str = "",
    only: list[str] | None = None,
    live: bool = False,
    refresh_ms: int = 3000,
) -> str:
    """The leaderboard as one page (``live``: the web viewer's, with links to
    bot pages and replays and a refresh while the tournament runs)."""
    pools = only or [key for key in board if key != "tournament"]
    charts = {
        pool: chart_geometry(
            board[pool].get("chart", {}), [line["bot"] for line in board[pool]["bots"]]
        )
        for pool in pools
    }
    return render(
        "leaderboard.html",
        board=board,
        pools=pools,
        charts=charts,
        title=title or "Leaderboard",
        live=live,
        refresh_ms=refresh_ms,
    )


def drawing_for(record, unit=None):
    """The drawing of ``record``'s table: its game unit's ``drawing`` part
    (``unit``, else the installed game's), or the plain one of
    :mod:`arena.game.drawing` for a game without one."""
    from arena.game.drawing import Drawing
    from arena.plugins import UnknownName, installed

    if unit is None:
        try:
            unit = installed().unit(record.game)
        except UnknownName:
            unit = None
    kind = (unit.part("drawing") if unit is not None else None) or Drawing
    bots = [s.bot for s in record.seats]
    names = [f"{bot} (seat {n})" if bots.count(bot) > 1 else bot for n, bot in enumerate(bots)]
    return kind(record.players, names)


def replay_page(
    record,
    engine,
    *,
    title: str,
    view: str | None = None,
    live: bool = False,
    unit=None,
    details: bool = True,
) -> str:
    """The replay viewer of one stored game, each moment drawn as its table
    (:func:`drawing_for`, with ``unit``), the observations beneath.

    ``view`` is a seat number or ``"table"``: the live viewer embeds only
    that view (a seat's page holds nothing that seat was not shown) and
    links to the others.  Without ``view`` (the offline file) the page holds
    the whole table and switches between the views in place.  ``details``:
    with each fault's detail (which may quote the bot's stderr)."""
    from arena.presentation.frames import TABLE, payload, replay

    ids = [str(seat) for seat in range(record.players)] + [TABLE]
    labels = {str(seat): f"seat {seat}: {s.bot}" for seat, s in enumerate(record.seats)}
    labels[TABLE] = "the whole table"
    warning = ""
    if engine.info.version != record.version:
        warning = (
            f"This game was played with {record.game} {record.version}; it is replayed "
            f"with {engine.info.version}."
        )
    seat = None if view in (None, TABLE) else int(view)
    game = replay(engine, record, None if seat is None else [seat])
    drawing = drawing_for(record, unit)
    if view is None:  # every view in place: each one's drawing, from its eyes alone
        data = payload(game, None, drawing)
        seen = {s: payload(game, s, drawing) for s in range(record.players)}
        data["seat_tables"] = {
            str(s): [frame["table"] for frame in one["frames"]] for s, one in seen.items()
        }
        for one in seen.values():
            data["faces"].update(one["faces"])
    else:
        data = payload(game, seat, drawing)
    current = view or TABLE
    views = [
        {
            "id": name,
            "label": labels[name],
            "embedded": view is None or name == view,
            "href": f"?view={name}",
        }
        for name in ids
    ]
    options = ", ".join(f"{k}={v}" for k, v in sorted(record.options.items()))
    return render(
        "replay.html",
        title=title,
        record=record,
        views=views,
        current=current,
        last=len(record.steps),
        live=live,
        warning=warning,
        options=options,
        data=data,
        bots=[s.bot for s in record.seats],
        details=details,
    )
