"""What both environment kinds share: one engine game, its spaces, seeding,
the move check and the text render.

A seed given to ``reset`` is the engine's game seed itself (the referee's
``Deal.seed``), so ``reset(seed=record.seed)`` replays a recorded game; the
resets after it without a seed draw their game seeds from a stream seeded by
it, so a seeded run of many games is reproducible too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from arena.game import Action, Engine, Seat, State
from arena.rl.encoding import encoding_for


def agent_name(seat: Seat) -> str:
    return f"player_{seat}"


class Table:
    #: the game being played (from :meth:`new_game`, the environments' reset, on)
    state: State

    def __init__(self, engine: Engine, players: int | None, options: Mapping[str, Any]):
        self.engine = engine
        self.players = engine.info.players[0] if players is None else players
        self.encoding = encoding_for(engine, self.players, options)
        self.options = self.encoding.options
        self.agents = [agent_name(seat) for seat in range(self.players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.agents)}
        size, count = self.encoding.size, len(self.encoding.actions)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (count,), np.int8),
                }
            )
            for agent in self.agents
        }
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.agents}
        self._seeds: random.Random | None = None
        self.last_actions: dict[Seat, Action] = {}

    def new_game(self, seed: int | None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            if self._seeds is None:
                self._seeds = random.Random(random.SystemRandom().randrange(2**63))
            game_seed = self._seeds.randrange(2**31)
        self.game_seed = game_seed
        self.state = self.engine.new_game(self.players, game_seed, self.options)
        self.last_actions = {}

    def observe(self, seat: Seat, may_act: bool) -> dict[str, np.ndarray]:
        legal = self.state.legal_actions(seat) if may_act else []
        return self.encoding.observe(self.state.observation(seat), legal)

    def engine_action(self, seat: Seat, index: Any) -> Action:
        """The engine action of ``index``, or ValueError if it is not legal now."""
        action = self.encoding.action(index)
        if action not in self.state.legal_actions(seat):
            raise ValueError(
                f"{self.engine.info.id}: action {int(index)} ({action!r}) is not "
                f"legal for {agent_name(seat)} now; see its action_mask"
            )
        return action

    def apply(self, actions: Mapping[Seat, Action]) -> None:
        self.state.apply(actions)
        self.last_actions = dict(actions)

    def final_scores(self) -> dict[str, float]:
        """Every agent's score (its team's score in team games)."""
        scores = self.state.outcome().scores
        return {agent: float(scores[seat]) for seat, agent in enumerate(self.agents)}

    def render_text(self) -> str:
        """The game as text: who acts, the last actions and, per seat, its
        observation's fields (the environment sees every seat)."""
        acting = self.state.to_act()
        lines = [
            f"{self.engine.info.id} seed {self.game_seed}: "
            + (
                "over, scores " + ", ".join(f"{a} {s:g}" for a, s in self.final_scores().items())
                if not acting
                else "to act: " + ", ".join(map(agent_name, acting))
            )
        ]
        if self.last_actions:
            lines.append(
                "last: " + ", ".join(f"{agent_name(s)} {a!r}" for s, a in self.last_actions.items())
            )
        for seat in acting or range(self.players):
            observation = self.state.observation(seat)
            fields = ", ".join(
                f"{key}={_short(value)}"
                for key, value in observation.items()
                if key not in ("seat", "options", "history")
            )
            lines.append(f"{agent_name(seat)}: {fields}")
        return "\n".join(lines)


def _short(value: Any, width: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


class TableEnvironment:
    """What both environment kinds share: the table they run (set up by
    :meth:`_set_table`; each kind names itself in its ``metadata``), each agent's spaces, ``render`` (the table as text,
    printed in ``render_mode="human"``) and ``close`` (nothing to release)."""

    table: Table
    render_mode: str | None

    def _set_table(
        self,
        engine: Engine,
        players: int | None,
        options: Mapping[str, Any],
        render_mode: str | None,
    ) -> None:
        self.table = Table(engine, players, options)
        self.possible_agents = list(self.table.agents)
        self.render_mode = render_mode
        self.encoding = self.table.encoding

    def observation_space(self, agent):
        return self.table.observation_spaces[agent]

    def action_space(self, agent):
        return self.table.action_spaces[agent]

    def render(self):
        text = self.table.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
