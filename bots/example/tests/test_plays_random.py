"""example-bot plays against `random` through the arena's real referee, in the
real sandbox, for every game it claims: no timeouts, crashes, protocol
errors or illegal actions.

Run with `pytest` in this folder after `pip install -e .`; for more games and
edge cases use `arena check-bot example-bot`.
"""

import pytest

from arena.plugins import installed
from arena.match.referee import Deal, Entrant, TimeControl, play_match

BOT = "example-bot"


def claimed_games():
    registry = installed()
    if BOT not in registry.bots:
        raise RuntimeError(f"bot {BOT!r} is not installed: run `pip install -e .` in its folder")
    spec = registry.bot(BOT)
    return sorted(game for game in registry.games if spec.plays(game))


@pytest.mark.parametrize("game", claimed_games())
def test_plays_against_random_without_faults(game):
    registry = installed()
    engine = registry.engine(game)
    # the smallest table with at least one opponent
    players = min((n for n in engine.info.players if n >= 2), default=min(engine.info.players))
    entrants = [Entrant(BOT, registry.bot(BOT))]
    entrants += [Entrant(f"random#{i}", registry.bot("random")) for i in range(1, players)]
    # two games, the bot in a different seat each time
    deals = [Deal(seed, tuple((seat + seed) % players for seat in range(players)))
             for seed in range(2)]
    records = play_match(engine, entrants, deals, limit=TimeControl(move=1.0, bank=5.0))
    for record in records:
        for seat in record.seats:
            assert seat.fault is None, (
                f"game seed {record.seed}: {seat.bot} faulted: {seat.fault}: {seat.fault_detail}")
