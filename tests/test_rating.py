"""Ratings on small hand-checked cases."""

import random

import pytest

from arena.rating import ENV, FALLBACK, OVERALL, compute, participants
from arena.store import StoredGame


def game(bots, ranks, teams=None, faults=None, dummies=(), name="g", order=0, index=0,
         scores=None):
    n = len(bots)
    return StoredGame(id=0, key=f"{order}/{index}", item=str(order), order=order, index=index,
                      game=name, players=n, bots=list(bots),
                      scores=list(scores or [10.0 - r for r in ranks]), ranks=list(ranks),
                      teams=list(teams if teams is not None else range(n)),
                      faults=list(faults or [None] * n), dummies=[list(d) for d in dummies])


def test_a_bot_that_always_wins_ends_on_top():
    rng = random.Random(1)
    games = []
    for k in range(60):
        seats = ["champ", "b", "c"]
        rng.shuffle(seats)
        others = iter(rng.sample([2, 3], 2))
        ranks = [1 if s == "champ" else next(others) for s in seats]
        games.append(game(seats, ranks, order=k))
    pools = compute(games)
    table = pools["g"].table()
    assert table[0].name == "champ"
    assert table[0].wins == 60 and table[0].games == 60
    assert table[0].mu > table[1].mu + 5
    assert pools[OVERALL].table()[0].name == "champ"


def test_one_against_two_updates_both_peasants():
    # landlord seat 0 (team 0) vs peasants seats 1 and 2 (team 1); peasants win
    pools = compute([game(["lord", "p1", "p2"], [2, 1, 1], teams=[0, 1, 1])])
    s = pools["g"].standings
    assert s["p1"].mu > ENV.mu and s["p2"].mu > ENV.mu
    assert s["p1"].mu == pytest.approx(s["p2"].mu)
    assert s["lord"].mu < ENV.mu
    assert s["p1"].wins == s["p2"].wins == 1 and s["lord"].wins == 0
    # and the landlord winning lowers both
    pools = compute([game(["p1", "lord", "p2"], [2, 1, 2], teams=[1, 0, 1])])
    s = pools["g"].standings
    assert s["p1"].mu < ENV.mu and s["p2"].mu < ENV.mu and s["lord"].mu > ENV.mu


def test_ties_share_a_rank():
    pools = compute([game(["a", "b", "c"], [1, 1, 3])])
    s = pools["g"].standings
    assert s["a"].mu == pytest.approx(s["b"].mu, rel=1e-3)   # TrueSkill iterates approximately
    assert s["a"].mu > ENV.mu > s["c"].mu
    assert s["a"].wins == s["b"].wins == 1


def test_a_faulted_seat_is_last_and_a_fallback_stands_in_for_its_team():
    # c crashed; the fallback finished its game and its team still won
    g = game(["a", "b", "c", "d"], [1, 2, 3, 2], teams=[0, 1, 0, 1],
             faults=[None, None, "crash", None], scores=[50, 10, 50, 10])
    groups, ranks, penalised = participants(g)
    assert dict(zip(map(tuple, groups), ranks)) == {("a", FALLBACK): 0, ("b", "d"): 1}
    assert penalised == ["c"]
    s = compute([g])["g"].standings
    assert set(s) == {"a", "b", "c", "d"}
    assert s["c"].faults == {"crash": 1} and s["c"].wins == 0 and s["a"].wins == 1
    assert s["b"].mu == pytest.approx(s["d"].mu)
    assert s["c"].mu < s["b"].mu < ENV.mu < s["a"].mu
    # a faulted seat in a free-for-all is simply last
    groups, ranks, penalised = participants(game(["a", "b", "c"], [1, 3, 2],
                                                 faults=[None, "illegal", None]))
    assert dict(zip(map(tuple, groups), ranks)) == {("a",): 0, ("b",): 3, ("c",): 1}
    assert penalised == []


def test_dummies_are_rated_players_and_solitaire_counts():
    games = [game(["solo"], [1], dummies=[["mac", 2.0, 2], ["donald", 1.0, 3]], order=k)
             for k in range(5)]
    pools = compute(games)
    s = pools["g"].standings
    assert set(s) == {"solo", "dummy:mac", "dummy:donald"}
    assert s["solo"].mu > s["dummy:mac"].mu > s["dummy:donald"].mu
    assert s["dummy:mac"].dummy and not s["solo"].dummy


def test_a_bot_in_two_seats_is_one_participant_at_its_mean_rank():
    # first and third around b's second: a draw between a and b
    s = compute([game(["a", "a", "b"], [1, 3, 2])])["g"].standings
    assert s["a"].games == 2 and s["a"].wins == 1
    assert s["a"].sigma < ENV.sigma
    assert abs(s["a"].mu - s["b"].mu) < 1e-9
    # first and second ahead of b: a won
    s = compute([game(["a", "a", "b"], [1, 2, 3])])["g"].standings
    assert s["a"].mu > ENV.mu > s["b"].mu
    # the same bot alone at a table: statistics only
    s = compute([game(["a", "a"], [1, 2])])["g"].standings
    assert s["a"].mu == ENV.mu and s["a"].games == 2


def test_overall_pools_every_game_and_history_is_kept():
    games = [game(["a", "b"], [1, 2], name="x", order=k) for k in range(10)] + \
            [game(["b", "a"], [1, 2], name="y", order=10 + k) for k in range(10)]
    pools = compute(games, history=5)
    assert set(pools) == {"x", "y", OVERALL}
    assert pools[OVERALL].games == 20 and pools["x"].games == 10
    assert pools["x"].standings["a"].mu > pools["x"].standings["b"].mu
    assert pools["y"].standings["b"].mu > pools["y"].standings["a"].mu
    assert 4 <= len(pools[OVERALL].history) <= 6
    assert pools[OVERALL].history[-1][0] == 20


def test_result_depends_on_plan_order_only():
    games = [game(["a", "b", "c"], random.Random(k).sample([1, 2, 3], 3), order=k)
             for k in range(30)]
    once = compute(games)
    again = compute(sorted(games, key=lambda g: g.order))
    assert {n: (s.mu, s.sigma) for n, s in once["g"].standings.items()} == \
        {n: (s.mu, s.sigma) for n, s in again["g"].standings.items()}


def test_fast_rate_agrees_with_the_trueskill_package():
    import trueskill
    from arena.rating import fast_rate
    rng = random.Random(3)
    checked = 0
    for _ in range(400):
        n = rng.randint(2, 6)
        groups = [[(rng.uniform(10, 40), rng.uniform(0.5, 8.4))
                   for _ in range(rng.choice([1, 1, 2, 3]))] for _ in range(n)]
        ranks = [rng.randint(0, n - 1) for _ in range(n)]
        weights = [[1 / len(g)] * len(g) if rng.random() < 0.5 else [1.0] * len(g)
                   for g in groups]
        try:
            expected = ENV.rate([tuple(trueskill.Rating(m, s) for m, s in g) for g in groups],
                                ranks=ranks, weights=weights)
        except FloatingPointError:
            continue
        for want, got in zip(expected, fast_rate(groups, ranks, weights)):
            for rating, (mu, sigma) in zip(want, got):
                assert mu == pytest.approx(rating.mu, abs=1e-9)
                assert sigma == pytest.approx(rating.sigma, abs=1e-9)
        checked += 1
    assert checked > 300


def test_one_against_two_does_not_deflate_everybody():
    """Team performance is the members' mean: equal bots taking turns as the
    landlord stay near the prior instead of drifting down."""
    rng = random.Random(2)
    games = []
    for k in range(600):
        lord = rng.randrange(3)
        lord_wins = rng.random() < 0.5
        ranks = [(1 if lord_wins else 2) if s == lord else (2 if lord_wins else 1)
                 for s in range(3)]
        games.append(game(["a", "b", "c"], ranks, teams=[0 if s == lord else 1 for s in range(3)],
                          order=k))
    standings = compute(games, history=0)["g"].standings
    for name in "abc":
        assert abs(standings[name].mu - ENV.mu) < 4, standings[name]
