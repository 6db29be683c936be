"""The bot kit helper for trained policies: the wire in, the encoding out.

A policy trained on :func:`arena.rl.aec_env` takes the environment's
``observation`` vector and ``action_mask`` and returns an action index.
:class:`PolicyBot` gives it exactly those, computed by the same
:class:`~arena.rl.encoding.Encoding` from the observation and legal list the
referee sends, and turns the index back into the engine action -- so the
policy plays through the referee unchanged::

    from arena.rl.policy_bot import PolicyBot

    class MyBot(PolicyBot):
        def choose(self, observation, action_mask):
            return int(np.argmax(my_net(observation) - 1e9 * (1 - action_mask)))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from arena.botkit import Bot
from arena.rl.encoding import Encoding, encoding_for
from engines import unit_for


def wire_encoding(hello: dict[str, Any]) -> Encoding:
    """The encoding of the match a ``hello`` message announces."""
    return encoding_for(unit_for(hello["game"]).engine, hello["players"], hello["options"])


class PolicyBot(Bot):
    """Override :meth:`choose`; everything else is the bot kit's."""

    encoding: Encoding

    def new_match(self, hello):
        self.encoding = wire_encoding(hello)

    def act(self, observation, legal, clock):
        encoded = self.encoding.observe(observation, legal)
        index = self.choose(encoded["observation"], encoded["action_mask"])
        return self.encoding.action(index)

    def choose(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The index of the action to play (``action_mask[index] == 1``)."""
        raise NotImplementedError
