"""The stopping rules' error rates, measured by simulation.

Simulated bots play duplicate deals of a two-seat game: each deal has a seat
advantage (luck) and is played in both seatings, and a bot's result in a game
is its strength plus the seat's luck plus noise.  Equal bots, and bots of a
known strength difference, are watched after every deal, as the real
commands do."""

import math
import random

import pytest

from arena.ratings.sequential import H0, H1, SPRT, radius, separated

RUNS = 1500


def deal(rng, edge):
    """A's mean place minus B's over one deal in both seatings (places 1/0)."""
    luck = rng.gauss(0, 1.0)
    first = edge + luck + rng.gauss(0, 1.0)  # A in seat 0
    second = edge - luck + rng.gauss(0, 1.0)  # A in seat 1
    return ((first > 0) - (first < 0) + (second > 0) - (second < 0)) / 2


def pair_win_chance(edge, rng, deals=40_000):
    results = [deal(rng, edge) for _ in range(deals)]
    wins = sum(r > 0 for r in results)
    losses = sum(r < 0 for r in results)
    return wins / (wins + losses)


def run_sprt(rng, edge, **settings):
    test = SPRT(**settings)
    while True:
        verdict = test.add(deal(rng, edge))
        if verdict:
            return verdict, test.wins + test.losses + test.ties


def test_sprt_error_rates_by_simulation():
    rng = random.Random(2026)
    alpha = beta = 0.05
    delta = 0.15
    # equal bots: the chance of "A is better" is at most alpha
    equal = [run_sprt(rng, 0.0, delta=delta, alpha=alpha, beta=beta) for _ in range(RUNS)]
    false_positive = sum(v == H1 for v, _ in equal) / RUNS
    # a bot better by a known edge whose deal-win chance is just over 1/2 + delta
    edge = 0.2
    chance = pair_win_chance(edge, rng)
    assert chance >= 0.5 + delta
    better = [run_sprt(rng, edge, delta=delta, alpha=alpha, beta=beta) for _ in range(RUNS)]
    miss = sum(v == H0 for v, _ in better) / RUNS
    tolerance = 3 * math.sqrt(alpha * (1 - alpha) / RUNS)
    assert false_positive <= alpha + tolerance
    assert miss <= beta + tolerance
    print(
        f"\nSPRT delta {delta}, alpha = beta = {alpha}: false positives {false_positive:.3f}, "
        f"misses {miss:.3f} (A's deal-win chance {chance:.3f}); mean deals "
        f"{sum(n for _, n in equal) / RUNS:.0f} (equal), {sum(n for _, n in better) / RUNS:.0f}"
    )


def test_a_fixed_sample_test_watched_after_every_deal_is_not_valid():
    """The control: a 95% z-test checked after every deal ends wrong far more
    often than 5%, which is why the SPRT and the sequence are needed."""
    rng = random.Random(7)
    wrong = 0
    for _ in range(400):
        total = squares = 0.0
        for n in range(1, 301):
            d = deal(rng, 0.0)
            total += d
            squares += d * d
            if n >= 10:
                variance = max(squares / n - (total / n) ** 2, 1e-9)
                if abs(total / n) / math.sqrt(variance / n) > 1.96:
                    wrong += 1
                    break
    assert wrong / 400 > 0.2


def test_confidence_sequence_holds_under_optional_stopping():
    rng = random.Random(11)
    alpha = 0.05
    ever = 0
    for _ in range(RUNS):
        total = 0.0
        for n in range(1, 401):
            total += deal(rng, 0.0)
            if separated(total, n, alpha):
                ever += 1
                break
    assert ever / RUNS <= alpha
    # and it does separate bots that differ
    total, n = 0.0, 0
    while not separated(total, n, alpha):
        n += 1
        total += deal(rng, 1.0)
    assert n < 100 and total > 0


def test_bounds_and_bad_settings():
    test = SPRT(delta=0.1, alpha=0.05, beta=0.1)
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert radius(0, 0.05) > 0 and radius(100, 0.05) < radius(100, 0.01)
    for bad in ({"delta": 0}, {"delta": 0.6}, {"alpha": 0}, {"beta": 0.7}):
        with pytest.raises(ValueError):
            SPRT(**bad)


def test_arena_sprt_on_real_bots():
    import json

    from typer.testing import CliRunner

    from arena.cli import app

    runner = CliRunner()
    common = [
        "farm-and-furious",
        "--delta",
        "0.2",
        "--seed",
        "1",
        "-o",
        "track_length=10",
        "--sandbox",
        "none",
        "--json",
    ]
    strong = json.loads(
        runner.invoke(app, ["sprt", *common, "-b", "farm-and-furious-racer", "-b", "random"]).stdout
    )
    assert strong["decision"] == H1 and strong["llr"] >= strong["bounds"][1]
    assert strong["games"] == 2 * strong["deals"] and strong["deals"] < 40
    weak = json.loads(
        runner.invoke(app, ["sprt", *common, "-b", "random", "-b", "farm-and-furious-racer"]).stdout
    )
    assert weak["decision"] == H0 and weak["llr"] <= weak["bounds"][0]
    for bad, message in (
        (["-b", "random"], "two different bots"),
        (["-b", "random", "-b", "random"], "two different bots"),
        (["-b", "random", "-b", "dou-dizhu-greedy"], "does not play"),
        (["-b", "random", "-b", "farm-and-furious-racer", "--alpha", "0.7"], "alpha must be"),
    ):
        result = runner.invoke(app, ["sprt", *common, *bad])
        assert result.exit_code == 2 and message in result.output, result.output
