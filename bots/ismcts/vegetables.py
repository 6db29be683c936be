"""VEGEtables for the search: one-turn rollouts scored by the planner's view.

VEGEtables is lost by being blocked (the opponent then scores 10 for every
unfinished stack, 160 early on), and whether a position is safe depends on
the reserves a player keeps -- which no random rollout to the end of the game
sees: searching that way (random or play-first rollouts) lost every game to
``vegetables-planner`` by about 160 points.  So a rollout only finishes the
turn it is in (ending it at once: draw to 12 where allowed, like the planner,
else pass; plays are the tree's business) and the position is scored by
``vegetables-planner``'s own evaluation (score difference, block chances,
reserves, runs) for each seat, turned into a reward by a logistic of the
difference between the two seats' values.
"""

from __future__ import annotations

import math
import random

from arena.game import Action, State

from bots.ismcts.knowledge import Knowledge, whose_turn
from bots.vegetables import PlannerBot, view_of

PLAYS = ("play:", "tractor:", "take:")
DRAW = "draw:"
#: a difference in the planner's values worth ~73% (logistic slope)
SCALE = 20.0
_PLANNER = PlannerBot()


def end_turn(state: State, seat: int, rng: random.Random) -> Action:
    """Draw if allowed (any Well), else pass if allowed, else a random play."""
    legal = state.legal_actions(seat)
    draws = [action for action in legal if action.startswith(DRAW)]
    if draws:
        return rng.choice(draws)
    return "pass" if "pass" in legal else rng.choice(legal)


def play_first(state: State, seat: int, rng: random.Random) -> Action:
    """A random play if there is one, else a random draw, else pass."""
    legal = state.legal_actions(seat)
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


def evaluate(state: State) -> list[float]:
    """Seat 0's chance by the planner's values of both seats' views."""
    mine, theirs = (_PLANNER.evaluate(view_of(state.observation(seat))) for seat in (0, 1))
    first = 1 / (1 + math.exp((theirs - mine) / SCALE))
    return [first, 1 - first]


KNOWLEDGE = Knowledge(rollout=end_turn, rollouts=(("end-turn", end_turn), ("play-first", play_first),
                                           ("planner", planner)),
                      advice=planner_move, advice_seconds=0.1,
                      horizon=whose_turn, evaluate=evaluate)
