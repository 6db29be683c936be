"""Fits the ismcts bot's VEGEtables evaluation to planner self-play outcomes.

    python -m bots.ismcts.vegetables_fit      # rewrites vegetables_weights.py (~3 min of CPU)

The search scores every line at the end of the turn it plays
(:func:`bots.ismcts.vegetables.evaluate`): the chance that the seat which
has just ended its turn goes on to win.  That chance is a logistic model of
both seats' :class:`~bots.vegetables.Terms` (:func:`~bots.ismcts.vegetables.features`),
fitted here to how games really ended: ``vegetables-planner`` against
itself, every turn's end a sample, labelled with the game's result for the
seat that had just moved (a draw counts half).  A third of the games play a
uniformly random action 5% of the time, so the model also sees the odd
positions a search's candidate lines reach (where the planner's own values,
tuned for its own play, are most wrong).  Games whose seed is a multiple of
5 are held out and the log-loss there is printed, for the planner's values
(their difference through the best logistic) and for the fit.

Same seeds, same weights: the games are seeded and the fit is Newton's
method from zero (L2-regularised on standardised features).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np

from bots.ismcts.vegetables import FEATURES, features, terms_of
from bots.vegetables import PlannerBot
from engines.vegetables.game import Vegetables

WEIGHTS_FILE = Path(__file__).with_name("vegetables_weights.py")
#: (first seed, games, chance of a random action)
GAMES = ((100_000, 3000, 0.0), (200_000, 1500, 0.05))
HELD_OUT = 5  # games with seed % HELD_OUT == 0 are not fitted on
L2 = 1e-3  # ridge, per sample, on standardised features
NEWTON_STEPS = 30


def positions(first: int, games: int, explore: float):
    """Per turn's end of each game (not the last): the features of the seat
    that just moved and of the one to move, that game's result for the
    former, the planner's value difference between the two, and the seed."""
    engine, planner = Vegetables(), PlannerBot()
    rows = []
    for seed in range(first, first + games):
        state, rng = engine.new_game(2, seed), random.Random(seed)
        ends = []
        while state.to_act():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if explore and rng.random() < explore:
                action = rng.choice(legal)
            else:
                action = planner.act(state.observation(seat), legal, {})
            state.apply({seat: action})
            if state.to_act() == (1 - seat,):  # the turn is over, the game is not
                just, mover = terms_of(state, seat), terms_of(state, 1 - seat)
                planned = planner.value(just) - planner.value(mover)
                ends.append((seat, features(just) + features(mover), planned))
        scores = state.outcome().scores
        for seat, row, planned in ends:
            won = (
                1.0
                if scores[seat] > scores[1 - seat]
                else 0.5
                if scores[seat] == scores[1 - seat]
                else 0.0
            )
            rows.append((row, won, planned, seed))
    return rows


def logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights (bias last) of the L2-regularised logistic regression of y on x."""
    x1 = np.hstack([x, np.ones((len(x), 1))])
    weights = np.zeros(x1.shape[1])
    ridge = L2 * len(x) * np.r_[np.ones(len(weights) - 1), 0]
    for _ in range(NEWTON_STEPS):
        p = 1 / (1 + np.exp(-x1 @ weights))
        gradient = x1.T @ (p - y) + ridge * weights
        hessian = (x1 * (p * (1 - p))[:, None]).T @ x1 + np.diag(ridge)
        weights -= np.linalg.solve(hessian, gradient)
    return weights


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def predict(weights: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(np.hstack([x, np.ones((len(x), 1))]) @ weights)))


def fit(rows) -> tuple[np.ndarray, dict[str, float]]:
    """Raw-scale weights (bias last) and the held-out log-losses."""
    x = np.array([row for row, _, _, _ in rows])
    y = np.array([won for _, won, _, _ in rows])
    planned = np.array([value for _, _, value, _ in rows])
    held = np.array([seed % HELD_OUT == 0 for _, _, _, seed in rows])
    mean, spread = x[~held].mean(0), x[~held].std(0) + 1e-9
    scaled = (x - mean) / spread
    weights = logistic(scaled[~held], y[~held])
    raw = np.r_[weights[:-1] / spread, weights[-1] - np.sum(weights[:-1] * mean / spread)]
    planner_fit = logistic(planned[~held, None], y[~held])
    losses = {
        "planner's values": log_loss(predict(planner_fit, planned[held, None]), y[held]),
        "learned": log_loss(predict(weights, scaled[held]), y[held]),
    }
    return raw, losses


def write(raw: np.ndarray, losses: dict[str, float], samples: int) -> None:
    lines = [
        f'"""Written by ``python -m bots.ismcts.vegetables_fit`` ({samples} turn ends);',
        "held-out log-loss: " + ", ".join(f"{k} {v:.4f}" for k, v in losses.items()) + '."""',
        "",
        "#: per feature (bots.ismcts.vegetables.FEATURES), the seat that has just",
        "#: moved first, then the seat to move",
        "WEIGHTS = (",
    ]
    for half, seat in enumerate(("just moved", "to move")):
        for index, name in enumerate(FEATURES):
            lines.append(f"    {float(raw[half * len(FEATURES) + index])!r},  # {seat}: {name}")
    lines += [")", f"BIAS = {float(raw[-1])!r}", ""]
    WEIGHTS_FILE.write_text("\n".join(lines))


def main() -> None:
    rows = [row for first, games, explore in GAMES for row in positions(first, games, explore)]
    raw, losses = fit(rows)
    write(raw, losses, len(rows))
    print(
        f"{len(rows)} turn ends; held-out log-loss: {losses}; wrote {WEIGHTS_FILE}", file=sys.stderr
    )


if __name__ == "__main__":
    main()
