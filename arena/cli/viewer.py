"""``arena serve`` (the web viewer), ``arena export`` (JSON lines) and the
offline replay page behind ``arena replay --html``."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from arena.cli._app import app, fail


def write_replay(record, title: str, path: Path) -> None:
    """One self-contained page with every view of the game."""
    from arena.plugins import UnknownName, installed
    from arena.presentation.frames import ReplayError
    from arena.presentation.pages import replay_page

    try:
        engine = installed().engine(record.game)
        page = replay_page(record, engine, title=title)
    except (UnknownName, ReplayError) as error:
        raise fail(str(error)) from None
    try:
        Path(path).write_text(page, encoding="utf-8")
    except OSError as error:
        raise fail(f"--html: cannot write {path}: {error.strerror}") from None
    typer.echo(f"replay: {path}")


def _weaker_levels(folder: Path) -> str:
    """The levels below strict the served tournament's games ran (or its run
    claimed to run) at, as a text ("" if none): the warning follows what the
    tournament ran at, not what this machine supports."""
    from arena.results.store import Store

    with Store(folder, create=False) as store:
        levels = store.levels()
    return ", ".join(sorted(level or "unrecorded" for level in levels if level != "strict"))


def _listening(host: str, port: int) -> int:
    """A socket listening on ``host``:``port``, as a descriptor for the web
    server: bound here, so that a port in use is an OSError to report in
    one line (the web server would print its own text and exit)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
    except OSError:
        listener.close()
        raise
    return listener.detach()


@app.command()
def serve(
    results: Path | None = typer.Argument(
        None, help="results folder (default: the latest under results/)"
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(
        8000, "--port", min=0, max=65535, help="port to listen on (0: any free port)"
    ),
) -> None:
    """Serve a read-only web viewer of a results folder: the leaderboard
    (following a running tournament), bot pages and game replays."""
    from werkzeug.serving import make_server

    from arena.ladder.web import add_ladder, is_ladder
    from arena.presentation.web import create_app
    from arena.results.store import StoreError, find_store

    try:
        folder = find_store(results)
        application = create_app(folder, host=host, port=port or None)
    except StoreError as error:
        raise fail(str(error)) from None
    ladder = is_ladder(folder)
    if ladder:
        add_ladder(application, folder)
    try:
        server = make_server(host, port, application, threaded=True, fd=_listening(host, port))
    except OSError as error:
        raise fail(f"cannot listen on {host}:{port}: {error.strerror}") from None
    application.config["PORT"] = server.port
    typer.echo(f"serving {folder} on http://{host}:{server.port}/ (Ctrl-C stops)", err=False)
    if ladder:
        typer.echo(f"the ladder: http://{host}:{server.port}/ladder")
    weaker = _weaker_levels(folder)
    if weaker:
        # the viewer shows whole tables of finished games, and duplicate deals
        # are being played at other tables meanwhile
        typer.echo(
            f"warning: games of this tournament ran at sandbox level {weaker}: bots there "
            "may reach this viewer over the network and read finished games' hands; "
            "serve a running tournament only where its bots run at strict (arena doctor)",
            err=True,
        )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


@app.command()
def export(
    results: Path = typer.Argument(..., help="results folder"),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="write to this file instead of stdout"
    ),
    salvage: bool = typer.Option(
        False, "--salvage", help="from a damaged store: the games that can still be read"
    ),
) -> None:
    """Every stored game as JSON lines (schema in docs/tournaments.md): all
    of them or nothing (a damaged store is an error), unless --salvage."""
    from arena.results import export as exporting
    from arena.results.store import Store, StoreError

    lost = 0
    try:
        with Store(results, create=False) as store:
            if salvage:
                text, lost = exporting.salvage(store)
            else:
                store.check()
                text = list(exporting.lines(store))
    except StoreError as error:
        raise fail(str(error)) from None
    if output is None:
        for each in text:
            typer.echo(each)
    else:
        _write_whole(output, "".join(each + "\n" for each in text))
    if salvage:
        typer.echo(f"salvaged {len(text)} games; {lost} could not be read", err=True)


def _write_whole(path: Path, text: str) -> None:
    """``path`` with all of ``text`` or, on failure, unchanged: written
    beside it under another name, then renamed."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise fail(f"--output: cannot write {path}: {error.strerror}") from None
