"""Information-set Monte Carlo tree search, game-independent.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) over the engine
contract only: every iteration draws a *determinization* -- a full state that
agrees with the searching seat's observation, from
:meth:`arena.game.Engine.sample_state` or the game's own draw
(:attr:`~bots.ismcts.knowledge.Knowledge.determinize`) -- and walks one tree shared by all
determinizations.  A node is a sequence of actions from the root; chance (a
draw, a shuffle) is folded into the edges ("open loop"), so the tree never
needs to know the hidden cards.

Every seat that acts at a node keeps its own statistics there (decoupled
UCT): on a simultaneous move each acting seat picks its action by its own
bandit (mixed with some uniform choice, see SIMULTANEOUS_MIX), and the
child is the joint action.  One sequential move is simply a
joint action of one seat.  Because the legal actions differ between
determinizations, each action also counts how often it was *available*, and
the exploration term uses that count (the subset-armed bandit of ISMCTS).

Rewards are per seat in [0, 1] and come from the game's
:class:`~bots.ismcts.knowledge.Knowledge` (team members get their team's
result, so a seat maximises its team's result).  A game's horizon (the turn
or the round being played, or a few turns) may bound the tree and the
rollouts, the position there scored by the game's evaluation: that is what
makes the long game of Hand and Foot searchable at all.  Where the game has a
heuristic bot, its move may stand unless the search beats it clearly
(:meth:`Search.best`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from arena.game import Action, Engine, Observation, State
from bots.ismcts.knowledge import Knowledge

# per-action statistics, indexed for speed: visits, total reward, availability
VISITS, TOTAL, AVAILABLE = 0, 1, 2
#: on a simultaneous move, the chance a seat picks uniformly instead of by UCB:
#: deterministic UCB makes seats with mirrored statistics always pick alike
#: (and never learn what happens when they differ)
SIMULTANEOUS_MIX = 0.2


class Node:
    """One point of the tree: per acting seat, per action, its statistics;
    children by joint action (the acting seats' actions in to_act order)."""

    __slots__ = ("children", "stats")

    def __init__(self):
        self.stats: dict[int, dict[Action, list]] = {}
        self.children: dict[tuple, Node] = {}


class Search:
    """A search from one observation; call :meth:`run` then :meth:`best`."""

    def __init__(
        self,
        engine: Engine,
        knowledge: Knowledge,
        rng: random.Random,
        exploration: float = 0.7,
        depth: int = 0,
        rollout: Callable[[State, int, random.Random], Action] | None = None,
    ):
        self.engine = engine
        self.knowledge = knowledge
        self.rng = rng
        self.exploration = exploration
        self.depth = depth or knowledge.depth
        self.rollout_policy = rollout or knowledge.rollout
        self.root = Node()

    def run(
        self, observation: Observation, iterations: int | None = None, deadline: float | None = None
    ) -> int:
        """Iterate until ``iterations`` are done or the ``deadline`` is
        reached, whichever comes first; return how many iterations ran.  The
        deadline is in seconds of this process's CPU (:func:`time.process_time`):
        what the referee charges a computing bot, however loaded the machine."""
        done = 0
        determinization = self.knowledge.determinize(self.engine, observation, self.rng)
        while (iterations is None or done < iterations) and (
            deadline is None or time.process_time() < deadline
        ):
            self.iterate(determinization())
            done += 1
        return done

    def best(
        self, seat: int, legal: list[Action], advice: Action | None = None, margin: float = 0.0
    ) -> Action:
        """The most visited of ``legal`` at the root (ties: the first in
        ``legal``; nothing searched: the first legal action) -- or, given
        ``advice`` (a heuristic's move), that move unless the most visited
        one's mean reward beats it by more than ``margin``: the search
        overrides a good heuristic only where it is confident, not on the
        noise of a few hundred sampled lines."""
        table = self.root.stats.get(seat, {})
        chosen = max(legal, key=lambda action: table.get(action, (0,))[VISITS])
        if advice is None or advice == chosen or advice not in legal:
            return chosen
        kept = table.get(advice)
        if kept is None or not kept[VISITS]:
            return advice
        top = table[chosen]
        if top[TOTAL] / top[VISITS] - kept[TOTAL] / kept[VISITS] > margin:
            return chosen
        return advice

    def iterate(self, state: State) -> None:
        """One iteration on ``state`` (a determinization, consumed)."""
        rng, c = self.rng, self.exploration
        bound = _Horizon(self.knowledge, state)
        path: list[tuple[Node, dict[int, Action]]] = []
        node = self.root
        while acting := state.to_act():
            if bound.passed(state):
                break
            joint = {}
            for seat in acting:
                table = node.stats.setdefault(seat, {})
                untried = []
                for action in state.legal_actions(seat):
                    entry = table.get(action)
                    if entry is None:
                        untried.append(action)
                    else:
                        entry[AVAILABLE] += 1
                if untried:
                    action = untried[0] if len(untried) == 1 else rng.choice(untried)
                    table[action] = [0, 0.0, 1]
                elif len(acting) > 1 and rng.random() < SIMULTANEOUS_MIX:
                    action = rng.choice(state.legal_actions(seat))
                else:
                    action = _ucb_choice(table, state.legal_actions(seat), c, rng)
                joint[seat] = action
            path.append((node, joint))
            state.apply(joint)
            key = tuple(joint[seat] for seat in acting)
            child = node.children.get(key)
            if child is None:
                node.children[key] = Node()
                break
            node = child
        rewards = self.rollout(state, bound)
        for node, joint in path:
            for seat, action in joint.items():
                entry = node.stats[seat][action]
                entry[VISITS] += 1
                entry[TOTAL] += rewards[seat]

    def rollout(self, state: State, bound: _Horizon) -> list[float]:
        """Play on with the rollout policy; score the end, or with the game's
        evaluation the position after ``depth`` moves or where ``bound``
        (the game's horizon, counted from the root) is passed."""
        policy, rng, knowledge = self.rollout_policy, self.rng, self.knowledge
        limit = self.depth or math.inf  # depth 0: no limit
        steps = 0
        while acting := state.to_act():
            if steps >= limit or bound.passed(state):
                return knowledge.evaluate(state)
            state.apply({seat: policy(state, seat, rng) for seat in acting})
            steps += 1
        if knowledge.evaluate_end:
            return knowledge.evaluate(state)
        return knowledge.reward(state.outcome())


class _Horizon:
    """Where one iteration stops: after the game's horizon value (the turn,
    the round) has changed ``knowledge.turns`` times since the root -- the
    tree walk and the rollout of an iteration share one, so every line is
    scored at the same point of the game.  Without a horizon: never."""

    __slots__ = ("horizon", "last", "left")

    def __init__(self, knowledge: Knowledge, state: State):
        self.horizon = knowledge.horizon
        self.last = self.horizon(state) if self.horizon is not None else None
        self.left = knowledge.turns

    def passed(self, state: State) -> bool:
        if self.horizon is None:
            return False
        now = self.horizon(state)
        if now != self.last:
            self.last = now
            self.left -= 1
        return self.left <= 0


def _ucb_choice(
    table: dict[Action, list], legal: list[Action], c: float, rng: random.Random
) -> Action:
    """The action of highest upper confidence bound; exact ties broken at
    random (else two seats of a symmetric simultaneous move would always pick
    alike, and only ever learn about the joint actions where they agree)."""
    best, best_value = [], -math.inf
    for action in legal:
        visits, total, available = table[action]
        value = total / visits + c * math.sqrt(math.log(available) / visits)
        if value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)
