"""``arena sprt``: a sequential two-bot test with stated error rates."""

from __future__ import annotations

import json

import typer

from arena.cli._app import LEAST_SANDBOX, app, fail


@app.command()
def sprt(
    game: str = typer.Argument(..., help="game id (see `arena games`)"),
    bot: list[str] = typer.Option(..., "--bot", "-b", help="bot A, then bot B"),
    delta: float = typer.Option(0.1, help="H1: A wins a decided deal with chance 1/2 + delta"),
    alpha: float = typer.Option(0.05, help="the chance of saying A is better when it is not"),
    beta: float = typer.Option(0.05, help="the chance of missing A better by delta"),
    players: int | None = typer.Option(
        None, help="seats (default: the game's smallest table of two or more)"
    ),
    max_deals: int = typer.Option(2000, "--max-deals", min=1, help="stop undecided after this"),
    batch: int = typer.Option(8, min=1, help="deals per referee match"),
    seed: int | None = typer.Option(
        None, help="a public seed for the deals: predictable to the bots (default: a secret key)"
    ),
    key: str | None = typer.Option(
        None, "--key", help="the secret key (hex) an earlier run printed, to replay it"
    ),
    option: list[str] = typer.Option([], "--option", "-o", help="game option KEY=VALUE"),
    move: float = typer.Option(1.0, help="seconds per move"),
    sandbox: str = typer.Option("auto", help="auto, strict, basic or none"),
    least_sandbox: str = LEAST_SANDBOX,
    as_json: bool = typer.Option(False, "--json", help="print one JSON object at the end"),
) -> None:
    """Is A better than B by at least DELTA?  A sequential probability ratio
    test on duplicate deals (each played in every rotation of the seats),
    valid however early it stops.  (Half its length is the options typer
    reads from the signature; the test itself is :func:`arena.tournament.sprt.run`.)"""
    from arena.cli.match import PREDICTABLE, match_key, parse_options
    from arena.game import GameError
    from arena.match.referee import Entrant, TimeControl
    from arena.plugins import UnknownName, installed
    from arena.plugins.botspec import BotSpecError
    from arena.ratings.sequential import H1, SPRT
    from arena.sandbox import SandboxError
    from arena.sandbox.layers import choose_level
    from arena.tournament.sprt import run

    if len(bot) != 2 or bot[0] == bot[1]:
        raise fail("--bot: give two different bots, A then B")
    registry = installed()
    try:
        engine = registry.engine(game)
        seats = players or min(n for n in engine.info.players if n >= 2)
        engine.info.check_players(seats)
        options = engine.info.resolve_options(parse_options(option))
        specs = [registry.bot(name) for name in bot]
        for name, spec in zip(bot, specs):
            if not spec.plays(game):
                raise ValueError(f"bot '{name}' does not play '{game}'")
        test = SPRT(delta=delta, alpha=alpha, beta=beta)
        level = choose_level(sandbox)
        secret = match_key(seed, key, None)
    except ValueError as error:  # includes an SPRT setting out of range, a bad key
        raise fail(str(error)) from None
    except (UnknownName, GameError, BotSpecError, SandboxError) as error:
        raise fail(str(error)) from None
    if secret.public:
        typer.echo(PREDICTABLE, err=True)
    a, b = (
        Entrant(name, spec, submitted=registry.submitted(name)) for name, spec in zip(bot, specs)
    )
    source = f"seed {seed}" if secret.public else "a secret key"
    if not as_json:
        typer.echo(
            f"{game}, {seats} seats, deals from {source}: H0 '{a.name} is not better', "
            f"H1 '{a.name} wins a decided deal with chance >= {0.5 + delta:g}' "
            f"(alpha {alpha:g}, beta {beta:g}); LLR bounds "
            f"{test.lower:.2f} / {test.upper:.2f}"
        )

    def show(deals, gap, state):
        if deals % 10 == 0:
            typer.echo(
                f"deal {deals}: {a.name} won {state.wins}, lost {state.losses}, "
                f"level {state.ties}; LLR {state.llr:.2f}"
            )

    try:
        outcome = run(
            registry,
            game,
            a,
            b,
            test,
            players=seats,
            key=secret,
            options=options,
            limit=TimeControl(move=move),
            sandbox=level,
            least=least_sandbox,
            max_deals=max_deals,
            batch=batch,
            on_deal=None if as_json else show,
        )
    except (ValueError, SandboxError) as error:  # not playable, or not at strict
        raise fail(str(error)) from None
    verdict = (
        "undecided"
        if outcome.decision is None
        else f"{a.name} is better than {b.name}"
        if outcome.decision == H1
        else f"{a.name} is not better than {b.name} by {delta:g}"
    )
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "game": game,
                    "players": seats,
                    "seed": seed,
                    "key": None if secret.public else secret.hex,
                    "a": a.name,
                    "b": b.name,
                    "delta": delta,
                    "alpha": alpha,
                    "beta": beta,
                    "decision": outcome.decision,
                    "deals": outcome.deals,
                    "games": outcome.games,
                    "wins": test.wins,
                    "losses": test.losses,
                    "ties": test.ties,
                    "llr": round(test.llr, 4),
                    "bounds": [round(test.lower, 4), round(test.upper, 4)],
                }
            )
        )
        return
    typer.echo(
        f"{outcome.decision or 'undecided'}: {verdict} after {outcome.deals} deals "
        f"({outcome.games} games): won {test.wins}, lost {test.losses}, "
        f"level {test.ties}; LLR {test.llr:.2f}"
    )
    if not secret.public:
        typer.echo(f"key {secret.hex} (--key replays this test)")
