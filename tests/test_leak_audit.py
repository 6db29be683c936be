"""The referee's leak audit: it passes honest engines over many real games,
and it catches an engine that shows a seat what it may not know."""

import pytest

from arena.match.audit import LeakError
from arena.match.referee import Deal, Entrant, play_match
from engines.farm_and_furious import FarmAndFurious
from engines.farm_and_furious.game import FarmAndFuriousState

#: (game, players, options) for short games of every installed engine
TABLES = {
    "farm-and-furious": [(2, {}), (5, {"rooster": True})],
    "farm-hand": [(1, {}), (3, {}), (5, {})],
    "vegetables": [(2, {})],
    "dou-dizhu": [(3, {})],
    "hand-and-foot": [(2, {"target": 500, "max_rounds": 1}), (4, {"target": 500, "max_rounds": 1})],
}


def audited(engine, players, options, games, registry, bot="random"):
    entrants = [Entrant(f"r{i}", registry.bot(bot)) for i in range(players)]
    deals = [
        Deal(seed, tuple((seat + seed) % players for seat in range(players)))
        for seed in range(games)
    ]
    return play_match(engine, entrants, deals, options, audit=True, sandbox="basic")


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_message_of_every_game_passes_the_audit(registry, game):
    engine = registry.engine(game)
    for players, options in TABLES[game]:
        records = audited(engine, players, options, 12, registry)
        assert len(records) == 12
        assert all(seat.fault is None for record in records for seat in record.seats)


class PeekingState(FarmAndFuriousState):
    """Shows each seat its neighbour's hand, declared secret: a leak the
    secrets check must catch even though the sampler copies it faithfully."""

    def observation(self, seat):
        view = super().observation(seat)
        view["rival_hand"] = self.hand((seat + 1) % self.players)
        return view

    def secrets(self, seat):
        return [self.hand(other) for other in range(self.players) if other != seat]


class Peeking(FarmAndFurious):
    def new_game(self, players, seed, options=None):
        return PeekingState(players, self.info.resolve_options(options))

    def sample_state(self, observation, rng):
        state = super().sample_state(observation, rng)
        peeking = PeekingState(state.players, observation["options"])
        peeking.__dict__.update(state.__dict__)
        return peeking


def test_audit_catches_a_leaked_hand(registry):
    with pytest.raises(LeakError, match="hidden value appears"):
        audited(Peeking(), 2, {}, 1, registry)
