"""RLCard's Dou Dizhu rule agent (``DouDizhuRuleAgentV1``) as a bot of this
arena: a rival written outside this code, for ``ismcts_strength.py``'s
``dou-dizhu-3-rlcard`` table (``pip install '.[bench]'`` installs RLCard).

The agent leads the first combination of its hand (RLCard's own split:
rocket, bombs, trios, chains, pairs, singles) that holds its lowest card,
and follows with the lowest play of the type to beat; where none is left it
passes a partner's play and otherwise plays any legal action at random.  It
reads RLCard's raw state, which is rebuilt here from the observation: every
play string of this engine is a key of RLCard's card-type table, in the same
rank order, and the plays are taken in turn from the landlord.  RLCard's
game has no auction, so this bot bids as ``dou-dizhu-greedy`` does (by hand
strength); a table of these bots, ``dou-dizhu-greedy`` and ``ismcts`` (which
bids the same way) then has the same landlord whoever sits where, and a bot's
games as landlord compare deal by deal.  The agent's random choice is drawn
from numpy's global generator, reseeded from the bot's own seeded ``rng``
before every move, so a game replays.
"""

from __future__ import annotations

from typing import Any

import numpy
from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

from arena.botkit import Bot
from bots.dou_dizhu import GreedyBot


class RuleAgentBot(Bot):
    name = "rlcard-rule"
    version = "1"

    def __init__(self) -> None:
        super().__init__()
        self.agent = DouDizhuRuleAgentV1()
        self.bidder = GreedyBot()

    def act(self, observation: dict[str, Any], legal: list[Any], clock: Any) -> Any:
        if len(legal) == 1:
            return legal[0]
        if legal[0].startswith("bid:"):
            return self.bidder.act(observation, legal, clock)
        landlord = observation["landlord"]
        trace = [((landlord + turn) % 3, play) for turn, play in enumerate(observation["plays"])]
        numpy.random.seed(self.rng.randrange(2**32))
        raw = {
            "trace": trace,
            "current_hand": observation["hand"],
            "actions": legal,
            "landlord": landlord,
            "self": observation["seat"],
        }
        action = self.agent.step({"raw_obs": raw})
        if action not in legal:
            raise ValueError(f"RLCard's rule agent chose {action!r}, not one of {legal}")
        return str(action)
