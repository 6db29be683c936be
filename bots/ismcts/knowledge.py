"""What the search may know about a game beyond the engine contract.

:class:`Knowledge` bundles the few per-game parts of :mod:`bots.ismcts.search`:
the rollout policy, how deep a rollout may go before it is cut off, how a
cut-off position is scored, and how a finished game's :class:`Outcome` turns
into one reward in [0, 1] per seat.  The defaults (uniformly random rollouts
to the end, rank-based rewards) work for any game; a game gets its own
module beside this one only where measurement said it pays, which the
game's unit names (:func:`for_game`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial

from arena.game import Action, Engine, Observation, Outcome, State


def random_rollout(state: State, seat: int, rng: random.Random) -> Action:
    """Any legal action, uniformly: the default rollout policy."""
    legal = state.legal_actions(seat)
    return legal[0] if len(legal) == 1 else rng.choice(legal)


def rank_rewards(outcome: Outcome, score_scale: float = 0.0) -> list[float]:
    """Per seat: the share of the other teams (and dummies) its team beat,
    ties counting half -- 1 for an outright win, 0 for last.  Teams, not
    seats, are compared, so partners get their team's result.

    ``score_scale`` > 0 blends in the score itself (half the weight, squashed
    by ``tanh(score / score_scale)``): for games whose results are scores
    that matter beyond the ranking (Dou Dizhu's payoff, Farm Hand's points).
    """
    team_score = dict(zip(outcome.teams, outcome.scores))
    rivals = list(team_score.values()) + [dummy.score for dummy in outcome.dummies]
    others = len(rivals) - 1
    share = {}
    for team, score in team_score.items():
        if others == 0:
            share[team] = 0.5
            continue
        below = sum(1 for rival in rivals if rival < score)
        tied = sum(1 for rival in rivals if rival == score) - 1
        share[team] = (below + 0.5 * tied) / others
    rewards = [share[team] for team in outcome.teams]
    if score_scale > 0:
        rewards = [
            0.5 * reward + 0.25 * (1 + math.tanh(score / score_scale))
            for reward, score in zip(rewards, outcome.scores)
        ]
    return rewards


def uniform_states(
    engine: Engine, observation: Observation, rng: random.Random
) -> Callable[[], State]:
    """Determinizations as the engine draws them: every state consistent
    with the observation alike (the default of :class:`Knowledge`)."""
    return partial(engine.sample_state, observation, rng)


def whose_turn(state: State) -> tuple:
    """A horizon for games of multi-action turns (Hand and Foot, VEGEtables):
    search the turn being played, up to where someone else's begins."""
    return state.to_act()


def _no_evaluation(state: State) -> list[float]:
    raise AssertionError("a rollout was cut off in a game without an evaluation")


@dataclass(frozen=True)
class Knowledge:
    """The per-game parts of the search (defaults: nothing game-specific).

    ``rollouts`` names the rollout policies a tournament file may choose by
    name (``random`` is always there); ``rollout`` is the default.  A rollout
    is cut off after ``depth`` moves (0: no limit); with a ``horizon``, the
    tree and the rollouts stop wherever ``horizon(state)`` differs from its
    value at the root (e.g. the turn or the round is over: every line is
    then scored at the same point of the game, not earlier for deeper tree
    paths) -- or, with ``turns`` > 1, where it has changed that many times
    (a horizon of several turns) -- and ``evaluate`` scores the cut-off
    position like
    ``reward`` scores an outcome (with ``evaluate_end``, ``evaluate``
    scores the finished game too, where the last stretch of play should be
    judged like every other).
    ``rule(observation, legal, rng, deadline, iterations)`` may answer a
    decision without the tree search (None: search it), where a heuristic
    or a game's own exhaustive search measured better; ``deadline`` is the
    time its answer is due by on this process's CPU clock (what the referee
    charges a computing bot), ``iterations`` the bot's fixed budget (0: by
    the clock), which a rule that searches turns into a fixed amount of work, so a fixed budget replays move for move.
    ``determinize(engine, observation, rng)`` returns, once per decision,
    what draws the search's determinizations (default: the engine's
    ``sample_state``, every consistent state alike), where a game knows
    which of them its rivals' choices make likelier.
    ``advice`` is a heuristic's move for the bot's own observation (and
    the bot's chance, for its tie-breaks): the
    search plays it unless its own choice scored clearly better
    (:meth:`~bots.ismcts.search.Search.best`); it is asked only when the
    move may take ``advice_seconds`` (its slowest answer measured on the
    loaded machine), so a short clock never waits for it.
    """

    rollout: Callable[[State, int, random.Random], Action] = random_rollout
    rollouts: tuple[tuple[str, Callable], ...] = ()
    depth: int = 0
    horizon: Callable[[State], Hashable] | None = None
    turns: int = 1
    rule: Callable[[Observation, list, random.Random, float, int], Action | None] | None = None
    determinize: Callable[[Engine, Observation, random.Random], Callable[[], State]] = (
        uniform_states
    )
    advice: Callable[[Observation, list, random.Random], Action] | None = None
    advice_seconds: float = 0.0
    evaluate: Callable[[State], list[float]] = _no_evaluation
    evaluate_end: bool = False
    reward: Callable[[Outcome], list[float]] = rank_rewards

    def policy(self, name: str) -> Callable[[State, int, random.Random], Action]:
        """The rollout policy called ``name`` ("default", "random" or one of
        ``rollouts``); ValueError naming the choices otherwise."""
        named = {"default": self.rollout, "random": random_rollout, **dict(self.rollouts)}
        if name not in named:
            raise ValueError(f"rollout {name!r} is not one of {', '.join(sorted(named))}")
        return named[name]


def for_game(game_id: str) -> Knowledge:
    """The knowledge for ``game_id``: its unit's ``knowledge`` part
    (:class:`arena.game.GameUnit`), else the defaults (all a game without
    one gets)."""
    from engines import unit_for

    return unit_for(game_id).part("knowledge") or Knowledge()
