"""Farm Hand for the search: rollouts to the end of the round, scored by points.

Every round is a fresh deal, so whatever a rollout plays in later rounds is
noise about the decision at hand: the search stops at the end of the round
(its horizon) and the position is scored by the scores as they stand.  The reward blends the rank among players and dummies with
the score itself (:func:`~bots.ismcts.knowledge.rank_rewards` with a score
scale), since Farm Hand is about points (its solitaire challenge: 21).
"""

from __future__ import annotations

from functools import partial

from arena.game import Outcome, State

from bots.ismcts.knowledge import Knowledge, rank_rewards

#: a score of this size squashes to ~0.76 of its half of the reward
SCORE_SCALE = 10.0


def this_round(state: State) -> tuple:
    """The round (and tie-break replay) being played: the search's horizon."""
    view = state.observation(0)
    return view["round"], view["replay"]


def evaluate(state: State) -> list[float]:
    """The reward the game would give if it ended with the scores as they are."""
    view = state.observation(0)
    players, scores = view["players"], view["scores"]
    standing = Outcome.from_scores(scores[:players],
                                   dummies=dict(zip(view["dummies"], scores[players:])) or None)
    return rank_rewards(standing, SCORE_SCALE)


KNOWLEDGE = Knowledge(horizon=this_round, evaluate=evaluate,
                      reward=partial(rank_rewards, score_scale=SCORE_SCALE))
