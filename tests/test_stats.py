"""The statistics on hand-built games with known answers."""

import pytest

from arena.stats import bootstrap, compute, head_to_head, showings, summarise
from arena.store import StoredGame

_ids = iter(range(1, 10_000))


def game(bots, scores, ranks, *, seed=1, name="g", teams=None, faults=None, dummies=()):
    n = next(_ids)
    return StoredGame(id=n, key=f"k/{n}", item="k", order=0, index=n, game=name,
                      players=len(bots), bots=list(bots), scores=list(scores),
                      ranks=list(ranks), teams=list(teams or range(len(bots))),
                      faults=list(faults or [None] * len(bots)),
                      dummies=[list(d) for d in dummies], seed=seed)


def test_a_bot_in_two_seats_played_one_game():
    g = game(["a", "b", "a"], [3, 2, 1], [1, 2, 3])
    seen = showings(g)
    assert seen["a"].seats == 2 and seen["a"].score == 2.0
    assert seen["a"].place == pytest.approx((1.0 + 0.0) / 2)     # first and last
    assert seen["b"].place == 0.5 and seen["a"].won and not seen["b"].won
    summary = summarise([g])
    assert summary["a"].games == 1 and summary["a"].seats == 2 and summary["a"].wins == 1


def test_a_faulted_seat_is_last_and_dummies_are_places():
    g = game(["a", "b"], [5, 1], [1, 2], faults=["illegal", None], dummies=[("mac", 3, 2)])
    seen = showings(g)
    assert seen["a"].place == 0.0 and not seen["a"].won and seen["a"].faults == ("illegal",)
    assert seen["dummy:mac"].place == 0.5 and seen["b"].place == 0.5
    # a win is the best place among the seats that did not fault (shared here)
    assert seen["b"].won and seen["dummy:mac"].won
    assert summarise([g])["a"].faults == {"illegal": 1}


def test_bootstrap_known_answers():
    assert bootstrap([(3.0, 1)]) is None                       # one deal: no interval
    assert bootstrap([(2.0, 1), (2.0, 1), (2.0, 1)]) == (2.0, 2.0)
    # two deals, means 0 and 1: a quarter of the resamples are all 0, a quarter all 1
    assert bootstrap([(0.0, 1), (1.0, 1)]) == (0.0, 1.0)
    # the same input gives the same interval
    clusters = [(float(k % 7), 1) for k in range(40)]
    assert bootstrap(clusters) == bootstrap(clusters)
    low, high = bootstrap(clusters)
    assert low < 3.0 < high


def test_intervals_resample_whole_deals():
    # two deals, each in 50 seatings: a per-game bootstrap would claim about
    # 0.4-0.6; with only two deals nothing narrower than 0-1 is honest
    games = [game(["a", "b"], [1 if deal == 1 else 0, 0], [1, 2], seed=deal)
             for deal in (1, 2) for _ in range(50)]
    a = summarise(games)["a"]
    assert a.mean_score == 0.5 and a.score_interval == (0.0, 1.0)


def test_head_to_head_counts_and_score_difference():
    games = [game(["a", "b"], [10, 4], [1, 2], seed=1),
             game(["b", "a"], [6, 6], [1, 1], seed=1),
             game(["a", "b"], [0, 8], [2, 1], seed=2),
             game(["a", "b", "c"], [5, 5, 1], [1, 1, 3], seed=3, teams=[0, 0, 1])]
    table = head_to_head(games)
    ab = table["a"]["b"]
    assert (ab.games, ab.above, ab.ties, ab.below) == (3, 1, 1, 1)   # teammates did not meet
    assert ab.score_diff == pytest.approx((6 + 0 - 8) / 3)
    assert ab.above_share == 0.5
    assert table["b"]["a"].score_diff == pytest.approx(-ab.score_diff)
    assert table["a"]["c"].games == 1 and table["a"]["c"].above == 1
    assert ab.interval is not None and ab.interval[0] <= ab.score_diff <= ab.interval[1]


def test_tables_per_game_and_size_and_overall_without_dummies_or_scores():
    games = [game(["a", "b"], [1, 0], [1, 2], name="x", dummies=[("mac", 0, 2)]),
             game(["a", "b", "b"], [0, 2, 1], [3, 1, 2], name="x", seed=2),
             game(["b", "a"], [100, 0], [1, 2], name="y")]
    figures = compute(games)
    assert set(figures.tables["x"]) == {2, 3} and figures.tables["x"][3].games == 1
    assert "dummy:mac" in figures.games["x"] and "dummy:mac" not in figures.overall
    assert figures.overall["b"].games == 3 and figures.overall["b"].seats == 4
    assert figures.overall["a"].mean_score == 0.0          # not computed across games
    assert figures.games["y"]["b"].mean_score == 100.0
    assert figures.counts == {"x": 2, "y": 1}
