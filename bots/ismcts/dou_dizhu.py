"""Dou Dizhu for the search: ``dou-dizhu-greedy`` as rollout and advice,
payoff-weighted rewards.

The arena's strength measure in Dou Dizhu is the mean payoff, and a payoff
doubles with every bomb, rocket and spring, so the reward blends the win with
the payoff itself (:func:`~bots.ismcts.knowledge.rank_rewards` with a score
scale of one doubled landlord stake).

Uniformly random play passes, splits and bombs at random, so a rollout says
little about who holds the stronger hand.  The ``shed`` rollout plays like a
beginner instead: it leads the longest of a few random plays (more cards
gone per turn), follows with its lowest beating play that is not a bomb,
and keeps bombs and the rocket for when nothing else beats.  It bids, and
so does the bot itself (``rule``), as ``dou-dizhu-greedy`` does: searched
bids with random-bidding rollouts almost never took the landlord (1 game of
36, losing 1.7 a game as a peasant at 200 iterations a move).

The default rollout plays every seat as ``dou-dizhu-greedy`` (``greedy``,
about three times the cost of ``shed``), and the greedy bot's move is the
search's advice, kept unless the search finds clearly better: searched with
``shed`` rollouts (a model of beginners) the bot lost 0.57 a game per seat
to the greedy bot; with the advice, level; with greedy rollouts and the
advice it wins (docs/bots.md has the figures).
"""

from __future__ import annotations

import random
from functools import partial
from typing import cast

from arena.game import Action, Observation, State
from bots.dou_dizhu import GreedyBot
from bots.ismcts.knowledge import Knowledge, rank_rewards

#: the landlord's payoff of a plain won game at bid 3 (6) squashes to ~0.76
SCORE_SCALE = 6.0
#: random plays compared when leading
LEAD_CHOICES = 3
#: chance of passing although a plain play beats (holding back, as people do)
HOLD_BACK = 0.15
#: chance of bombing when only a bomb beats
BOMB = 0.3
PASS = "pass"
_GREEDY = GreedyBot()


def _is_bomb(play: str) -> bool:
    return play == "BR" or (len(play) == 4 and play.count(play[0]) == 4)


def greedy_bid(
    observation: Observation,
    legal: list,
    rng: random.Random | None = None,
    deadline: float = 0.0,
    iterations: int = 0,
) -> Action | None:
    """``dou-dizhu-greedy``'s bid by hand strength (None: not an auction;
    the bot's chance, deadline and budget are not needed)."""
    if not legal[0].startswith("bid:"):
        return None
    return _GREEDY.act(observation, legal, {})


def shed(state: State, seat: int, rng: random.Random) -> Action:
    """Lead long plays, follow low, bomb rarely (bids: as the greedy bot)."""
    legal = cast("list[str]", state.legal_actions(seat))  # Dou Dizhu's actions are strings
    if len(legal) == 1:
        return legal[0]
    bid = greedy_bid(state.observation(seat), legal)
    if bid is not None:
        return bid
    if legal[0] != PASS:  # leading: the longest of a few random plays
        picks = [legal[rng.randrange(len(legal))] for _ in range(LEAD_CHOICES)]
        return max(picks, key=len)
    plain = [play for play in legal[1:] if not _is_bomb(play)]
    if plain:
        return PASS if rng.random() < HOLD_BACK else plain[0]
    return legal[1] if rng.random() < BOMB else PASS


def greedy(state: State, seat: int, rng: random.Random) -> Action:
    """Every seat as ``dou-dizhu-greedy`` plays it (about four times the cost
    of ``shed`` a rollout, but plays that a real opponent makes)."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    return _GREEDY.act(state.observation(seat), legal, {})


def greedy_play(observation: Observation, legal: list, rng: random.Random) -> Action:
    """``dou-dizhu-greedy``'s move: the search's advice."""
    return _GREEDY.act(observation, legal, {})


KNOWLEDGE = Knowledge(
    rollout=greedy,
    rollouts=(("shed", shed), ("greedy", greedy)),
    rule=greedy_bid,
    advice=greedy_play,
    advice_seconds=0.15,
    reward=partial(rank_rewards, score_scale=SCORE_SCALE),
)
