"""Farm Hand for the search: rewards that count the points, not only the rank.

Farm Hand is scored over a series (and its solitaire challenge is a points
target: 21), so the reward blends the rank among players and dummies with the
game's score (:func:`~bots.ismcts.knowledge.rank_rewards` with a score scale).
"""

from __future__ import annotations

from functools import partial

from bots.ismcts.knowledge import Knowledge, rank_rewards

#: a score of this size squashes to ~0.76 of its half of the reward
SCORE_SCALE = 10.0

KNOWLEDGE = Knowledge(reward=partial(rank_rewards, score_scale=SCORE_SCALE))
