"""VEGEtables for the search: one-turn rollouts scored by a learned evaluation.

VEGEtables is lost by being blocked (the opponent then scores 10 for every
unfinished stack, 160 early on), and whether a position is safe depends on
the reserves a player keeps -- which no random rollout to the end of the game
sees: searching that way (random or play-first rollouts) lost every game to
``vegetables-planner`` by about 160 points.  So a rollout only finishes the
turn it is in (ending it at once: draw to 12 where allowed, like the planner,
else pass; plays are the tree's business) and the position there is scored
by the chance that the seat which has just moved wins: a logistic model of
both seats' parts of ``vegetables-planner``'s evaluation (score, block
chances, reserves, runs, ... as each seat sees them), fitted to the outcomes
of planner self-play (:mod:`.vegetables_fit`).  The planner's own weighted
sum of those parts, turned into a reward, was only level with the planner:
it is tuned for choosing the planner's next play, not for telling who will
win (it even counts a chance that the opponent is blocked where the sampled
opponent demonstrably is not).
"""

from __future__ import annotations

import math
import random
from typing import cast

from arena.game import Action, State
from bots.ismcts.knowledge import Knowledge, whose_turn
from bots.ismcts.vegetables_weights import BIAS, WEIGHTS
from bots.vegetables import PlannerBot, Terms, view_of

PLAYS = ("play:", "tractor:", "take:")
DRAW = "draw:"
_PLANNER = PlannerBot()
#: what the learned evaluation reads of each seat's Terms (see features)
FEATURES = (
    "score",
    "unfinished x opp_block",
    "unfinished x no_reserve",
    "reserve (capped)",
    "tractors",
    "opp_options",
    "secured",
    "runs (capped)",
    "runs",
    "held (Wells low)",
    "reserve",
    "hand",
    "grounds",
    "unfinished",
    "wells",
    "opp_locked",
    "opp_tractors",
    "opp_none",
)


def end_turn(state: State, seat: int, rng: random.Random) -> Action:
    """Draw if allowed (any Well), else pass if allowed, else a random play."""
    legal = cast("list[str]", state.legal_actions(seat))  # VEGEtables' actions are strings
    draws = [action for action in legal if action.startswith(DRAW)]
    if draws:
        return rng.choice(draws)
    return "pass" if "pass" in legal else rng.choice(legal)


def play_first(state: State, seat: int, rng: random.Random) -> Action:
    """A random play if there is one, else a random draw, else pass."""
    legal = cast("list[str]", state.legal_actions(seat))  # VEGEtables' actions are strings
    plays = [action for action in legal if action.startswith(PLAYS)]
    if plays:
        return rng.choice(plays)
    draws = [action for action in legal if action.startswith(DRAW)]
    return rng.choice(draws or legal)


def planner(state: State, seat: int, rng: random.Random) -> Action:
    """The seat's move as ``vegetables-planner`` makes it."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    return _PLANNER.act(state.observation(seat), legal, {})


def planner_move(observation, legal: list, rng: random.Random) -> Action:
    """``vegetables-planner``'s move: the search's advice."""
    return _PLANNER.act(observation, legal, {})


def terms_of(state: State, seat: int) -> Terms:
    """The parts of the planner's evaluation as ``seat`` sees ``state``."""
    return _PLANNER.terms(view_of(state.observation(seat)))


def features(terms: Terms) -> list[float]:
    """One seat's inputs of the learned evaluation, in FEATURES order: the
    planner's parts, its caps and the end-game Hand count kept as it
    weighs them, block chances as stacks at stake."""
    late = 1.0 if terms.wells <= 4 else 0.0
    return [
        terms.score,
        terms.unfinished * terms.opp_block,
        terms.unfinished * terms.no_reserve,
        min(terms.reserve, _PLANNER.reserve_cap),
        terms.tractors,
        terms.opp_options,
        terms.secured,
        min(terms.runs, _PLANNER.run_cap),
        terms.runs,
        late * terms.held,
        terms.reserve,
        terms.hand,
        terms.grounds,
        terms.unfinished,
        terms.wells,
        terms.opp_locked,
        terms.opp_tractors,
        terms.opp_none,
    ]


def evaluate(state: State) -> list[float]:
    """Both seats' chances at a turn's end: the learned chance that the seat
    which has just moved wins against the one to move (WEIGHTS over both
    seats' features)."""
    mover = state.to_act()[0]
    just = 1 - mover
    inputs = features(terms_of(state, just)) + features(terms_of(state, mover))
    chance = 1 / (1 + math.exp(-(BIAS + sum(w * x for w, x in zip(WEIGHTS, inputs)))))
    return [chance, 1 - chance] if just == 0 else [1 - chance, chance]


KNOWLEDGE = Knowledge(
    rollout=end_turn,
    rollouts=(("end-turn", end_turn), ("play-first", play_first), ("planner", planner)),
    advice=planner_move,
    advice_seconds=0.1,
    horizon=whose_turn,
    evaluate=evaluate,
)
