"""The rated planner's group ratings as the runner keeps them: every stored
game counts once, whatever order the workers committed the games in."""

from arena.ratings.rating import Rater
from arena.records import GameRecord, SeatRecord
from arena.results.items import MatchItem, PlannedDeal
from arena.results.store import Store, StoredGame
from arena.tournament.runner import _GroupRatings, _results_view


def item(order, lineup=("a", "b")):
    return MatchItem(
        id=f"g/2p/{'+'.join(lineup)}/r0/d{order}/s0",
        order=order,
        game="g",
        label="g",
        players=2,
        options={},
        lineup=lineup,
        deals=(PlannedDeal(order, (0, 1)),),
    )


def record(winner):
    seats = [
        SeatRecord(bot, 1.0 if seat == winner else 0.0, 1 if seat == winner else 2, seat)
        for seat, bot in enumerate(("a", "b"))
    ]
    return GameRecord(game="g", version="1", options={}, seed=0, players=2, seats=seats)


def unstored(winner):
    """A game as a stored one, never stored (the store's additions left blank)."""
    return StoredGame(
        record(winner), id=0, key="", item="", order=0, index=0, tournament="", finished=0.0
    )


WINNERS = [0, 0, 1, 0, 0, 1, 0, 0]


def expected() -> dict:
    rater = Rater()
    for winner in WINNERS:
        rater.add(unstored(winner))
    return rater.ratings("g")


def test_games_committed_out_of_plan_order_all_count(tmp_path):
    # two workers commit in any order: here the last planned game first
    items = [item(order) for order in range(len(WINNERS))]
    with Store(tmp_path) as store:
        store.add_items(items)
        for it in reversed(items):
            store.add_game(it, 0, record(WINNERS[it.order]))
        assert [g.order for g in store.games()] == list(range(len(WINNERS)))  # plan order
        assert [g.id for g in store.games()] == list(range(len(WINNERS), 0, -1))  # ids reversed
        ratings = _GroupRatings(store, _results_view(store))("g/2p")
    assert ratings == expected()
    # the control: one game left out rates differently (the check can fail)
    rater = Rater()
    for winner in WINNERS[1:]:
        rater.add(unstored(winner))
    assert rater.ratings("g") != ratings


def test_games_handed_in_by_the_run_rate_as_the_stored_ones(tmp_path):
    items = [item(order) for order in range(len(WINNERS))]
    with Store(tmp_path) as store:
        store.add_items(items)
        half = len(items) // 2
        for it in items[:half]:  # stored before this run
            store.add_game(it, 0, record(WINNERS[it.order]))
        ratings = _GroupRatings(store, _results_view(store))
        for it in reversed(items[half:]):  # this run's, as they arrive
            ratings.add(it, store.add_game(it, 0, record(WINNERS[it.order])))
        assert ratings("g/2p") == expected()
        assert ratings("g/2p") == expected()  # asked again: nothing added twice
        assert ratings("other/2p") == {}


def test_a_tournament_plan_names_its_payoff_games(registry):
    # the runner writes them into the store's meta for the leaderboard
    from pathlib import Path

    from arena.tournament.config import load
    from arena.tournament.runner import tournament_plan

    root = Path(__file__).resolve().parent.parent
    plan = tournament_plan(load(root / "tournaments" / "quick.toml", registry), registry)
    assert plan.payoff == ("dou-dizhu",)
