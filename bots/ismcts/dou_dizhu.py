"""Dou Dizhu for the search: rewards that weigh the payoff, not only the win.

The arena's strength measure in Dou Dizhu is the mean payoff, and a payoff
doubles with every bomb, rocket and spring, so the reward blends the win with
the payoff itself (:func:`~bots.ismcts.knowledge.rank_rewards` with a score
scale of one doubled landlord stake).
"""

from __future__ import annotations

from functools import partial

from bots.ismcts.knowledge import Knowledge, rank_rewards

#: the landlord's payoff of a plain won game at bid 3 (6) squashes to ~0.76
SCORE_SCALE = 6.0

KNOWLEDGE = Knowledge(reward=partial(rank_rewards, score_scale=SCORE_SCALE))
