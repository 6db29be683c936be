"""The statistics on hand-built games with known answers."""

import numpy as np
import pytest

from arena.game import DummyResult
from arena.ratings.stats import (
    Tally,
    compute,
    deal_weights,
    head_to_head,
    intervals,
    showings,
    summarise,
)
from arena.records import GameRecord, SeatRecord
from arena.results.store import StoredGame

_ids = iter(range(1, 10_000))


def bootstrap(clusters):
    """The statistics' interval of ``sum of values / number of values`` for
    values in clusters ``(sum, count)`` resampled whole -- the leaderboard's
    own pieces (:func:`deal_weights`, :func:`intervals`) on bare numbers,
    clusters told apart by position; None under two clusters, as a
    participant with one deal gets none."""
    if len(clusters) < 2:
        return None
    weights = deal_weights(range(len(clusters)))
    sums = np.array([[s for s, _ in clusters], [c for _, c in clusters]], dtype=float)
    return intervals(*(sums @ weights)[:, None, :])[0]


def game(bots, scores, ranks, *, seed=1, name="g", teams=None, faults=None, dummies=()):
    n = next(_ids)
    seats = [
        SeatRecord(bot, score, rank, team, fault)
        for bot, score, rank, team, fault in zip(
            bots, scores, ranks, teams or range(len(bots)), faults or [None] * len(bots)
        )
    ]
    record = GameRecord(name, "1", {}, seed, len(bots), seats, [DummyResult(*d) for d in dummies])
    return StoredGame(
        record, id=n, key=f"k/{n}", item="k", order=0, index=n, tournament="t", finished=0.0
    )


def test_a_bot_in_two_seats_played_one_game():
    g = game(["a", "b", "a"], [3, 2, 1], [1, 2, 3])
    seen = showings(g.record)
    assert seen["a"].seats == 2 and seen["a"].score == 2.0
    assert seen["a"].place == pytest.approx((1.0 + 0.0) / 2)  # first and last
    assert seen["b"].place == 0.5 and seen["a"].won and not seen["b"].won
    summary = summarise([g])
    assert summary["a"].games == 1 and summary["a"].seats == 2 and summary["a"].wins == 1


def test_a_faulted_seat_is_last_and_dummies_are_places():
    g = game(["a", "b"], [5, 1], [1, 2], faults=["illegal", None], dummies=[("mac", 3, 2)])
    seen = showings(g.record)
    assert seen["a"].place == 0.0 and not seen["a"].won and seen["a"].faults == ("illegal",)
    assert seen["dummy:mac"].place == 0.5 and seen["b"].place == 0.5
    # a win is the best place among the seats that did not fault (shared here)
    assert seen["b"].won and seen["dummy:mac"].won
    assert summarise([g])["a"].faults == {"illegal": 1}


def test_bootstrap_known_answers():
    assert bootstrap([(3.0, 1)]) is None  # one deal: no interval
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
    games = [
        game(["a", "b"], [1 if deal == 1 else 0, 0], [1, 2], seed=deal)
        for deal in (1, 2)
        for _ in range(50)
    ]
    a = summarise(games)["a"]
    assert a.mean_score == 0.5 and a.score_interval == (0.0, 1.0)


def test_head_to_head_counts_and_score_difference():
    games = [
        game(["a", "b"], [10, 4], [1, 2], seed=1),
        game(["b", "a"], [6, 6], [1, 1], seed=1),
        game(["a", "b"], [0, 8], [2, 1], seed=2),
        game(["a", "b", "c"], [5, 5, 1], [1, 1, 3], seed=3, teams=[0, 0, 1]),
    ]
    table = head_to_head(games)
    ab = table["a"]["b"]
    assert (ab.games, ab.above, ab.ties, ab.below) == (3, 1, 1, 1)  # teammates did not meet
    assert ab.score_diff == pytest.approx((6 + 0 - 8) / 3)
    assert ab.above_share == 0.5
    assert table["b"]["a"].score_diff == pytest.approx(-ab.score_diff)
    assert table["a"]["c"].games == 1 and table["a"]["c"].above == 1
    assert ab.interval is not None and ab.interval[0] <= ab.score_diff <= ab.interval[1]


def test_tables_per_game_and_size_and_overall_without_dummies_or_scores():
    games = [
        game(["a", "b"], [1, 0], [1, 2], name="x", dummies=[("mac", 0, 2)]),
        game(["a", "b", "b"], [0, 2, 1], [3, 1, 2], name="x", seed=2),
        game(["b", "a"], [100, 0], [1, 2], name="y"),
    ]
    figures = compute(games)
    assert set(figures.tables["x"]) == {2, 3} and figures.tables["x"][3].games == 1
    assert "dummy:mac" in figures.games["x"] and "dummy:mac" not in figures.overall
    assert figures.overall["b"].games == 3 and figures.overall["b"].seats == 4
    assert figures.overall["a"].mean_score == 0.0  # not computed across games
    assert figures.games["y"]["b"].mean_score == 100.0
    assert figures.counts == {"x": 2, "y": 1}


def varied(count, seed=5):
    """``count`` games of two games and two table sizes, each deal in two
    seatings, with dummies, a fault now and then and teams in the 4-seat ones."""
    import random

    rng = random.Random(seed)
    names = ["a", "b", "c", "d", "e"]
    games = []
    for k in range(count // 2):
        size = rng.choice([2, 4])
        lineup = rng.sample(names, size)
        scores = [rng.randint(-5, 20) + rng.random() for _ in range(size)]
        for seating in (lineup, lineup[::-1]):
            ranks = [sorted(scores, reverse=True).index(s) + 1 for s in scores]
            games.append(
                game(
                    seating,
                    scores,
                    ranks,
                    seed=k,
                    name=rng.choice(["x", "y"]),
                    teams=[0, 1, 0, 1] if size == 4 else None,
                    faults=["timeout", None] if k % 17 == 0 and size == 2 else None,
                    dummies=[("mac", 3, size + 1)] if k % 5 == 0 else (),
                )
            )
    return games


def test_going_on_from_a_saved_tally_gives_exactly_what_one_pass_gives():
    import json
    import random

    games = varied(400)
    whole = compute(games)
    first = Tally()
    first.extend(games[:250])
    assert first.statistics() != whole  # the prefix alone is another answer
    again = Tally.from_state(json.loads(json.dumps(first.state())), first.sums_bytes())
    later = games[250:]
    random.Random(1).shuffle(later)  # added in store (id) order, whatever is given
    again.extend(later)
    assert again.statistics() == whole  # bit for bit, intervals included
    assert again.games == 400 and again.last_id == max(g.id for g in games)
    assert whole.tables["x"][4].head_to_head["a"]["b"].interval is not None


def test_a_deal_weighs_the_same_whatever_else_is_there():
    deals = [("g", 2, seed) for seed in range(300)]
    alone = deal_weights(deals[7:8])
    among = deal_weights(deals)
    assert alone.shape == (1, 1000) and (among[7] == alone[0]).all()
    assert not (among[7] == among[8]).all()  # another deal, other weights
    assert not (deal_weights(deals[7:8], seed=1) == alone).all()
    # Poisson(1): mean and variance 1, a share e**-1 of zeros (300,000 draws)
    assert among.mean() == pytest.approx(1.0, abs=0.01)
    assert among.var() == pytest.approx(1.0, abs=0.02)
    assert (among == 0).mean() == pytest.approx(0.3679, abs=0.004)


def test_a_resample_without_any_of_the_deals_says_nothing():
    sums = np.array([[0.0, 5.0, 10.0, 5.0], [1.0, 2.0, 3.0, 4.0]])
    counts = np.array([[0.0, 1.0, 2.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
    assert intervals(sums, counts) == [(5.0, 5.0), pytest.approx((1.075, 3.925))]


def test_the_interval_is_as_wide_as_the_spread_of_the_deals_says():
    # 400 independent deals, values of spread 1: a 95% interval of their
    # mean is about 2 * 1.96 / sqrt(400) = 0.196 wide around it
    values = np.random.default_rng(3).normal(0.0, 1.0, 400)
    values = (values - values.mean()) / values.std()
    low, high = bootstrap([(float(v), 1) for v in values])
    assert low < 0.0 < high
    assert high - low == pytest.approx(0.196, rel=0.12)
    # the same deals each played twice with the same value: no narrower
    low2, high2 = bootstrap([(2 * float(v), 2) for v in values])
    assert (low2, high2) == pytest.approx((low, high))


def test_the_order_the_games_were_stored_in_changes_nothing():
    # parallel workers commit a tournament's games in another order each run:
    # the same games must give the same figures, to the last bit
    from dataclasses import replace

    games = varied(300)
    ids = [g.id for g in games]
    stored_otherwise = [replace(g, id=i) for g, i in zip(games, reversed(ids))]
    assert compute(stored_otherwise) == compute(games)


def test_the_fitted_payoff_counts_whom_a_bot_met():
    """Issue 31: 'low' met only the strong 'top' (losing 1 a game) and 'mid'
    only the weak 'floor' (winning 1 a game), 'top' beat 'floor' by 4: by
    mean score 'mid' is ahead of 'low', by the fitted payoff (every mean
    difference at once) 'low' is 2 points a game better than 'mid'."""
    from arena.results.store import StoredGame

    def played(a, b, diff, k):
        ranks = [1, 2] if diff > 0 else [2, 1]
        seats = [SeatRecord(a, diff / 2, ranks[0], 0), SeatRecord(b, -diff / 2, ranks[1], 1)]
        record = GameRecord("stakes", "1", {}, k, 2, seats)
        return StoredGame(record, k, f"{k}/0", "i", k, 0, "t", 0.0)

    games = [played("low", "top", -1.0, k) for k in range(10)]
    games += [played("mid", "floor", 1.0, 10 + k) for k in range(10)]
    games += [played("top", "floor", 4.0, 20 + k) for k in range(10)]
    figures = compute(games).games["stakes"]
    assert figures["mid"].mean_score > figures["low"].mean_score
    assert figures["low"].payoff - figures["mid"].payoff == pytest.approx(2.0)
    assert figures["top"].payoff - figures["floor"].payoff == pytest.approx(4.0)
    assert sum(f.payoff for f in figures.values()) == pytest.approx(0.0, abs=1e-9)
    low, high = figures["low"].payoff_interval
    assert low <= figures["low"].payoff <= high
    # the same games in another order: the same payoffs to the last digit
    again = compute(games[::-1]).games["stakes"]
    assert {n: f.payoff for n, f in again.items()} == {n: f.payoff for n, f in figures.items()}
