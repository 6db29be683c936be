"""The PettingZoo AEC environment of an arena game.

Agents are ``player_0 .. player_{N-1}``, one per bot seat (Farm Hand's
dummies are played by the engine, as in the referee).  On a simultaneous move
the acting agents choose one after another, and the engine applies their
choices together once the last has chosen -- nobody sees another's choice
before the reveal, exactly as at the referee.  Rewards are zero until the
game ends, then every agent's final score (team score in team games).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import AECEnv

from arena.rl.table import TableEnvironment


class ArenaAECEnv(TableEnvironment, AECEnv):
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(self, engine, players, options, render_mode=None):
        super().__init__()
        self._set_table(engine, players, options, render_mode)
        self.metadata = dict(self.metadata, name=f"arena-{engine.info.id}")

    def reset(self, seed=None, options=None):
        self.table.new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._chosen = {}
        self._queue = list(self.table.state.to_act())
        self.agent_selection = self.table.agents[self._queue[0]]

    def observe(self, agent):
        seat = self.table.seat_of[agent]
        return self.table.observe(seat, may_act=seat in self._queue)

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.table.seat_of[agent]
        self._chosen[seat] = self.table.engine_action(seat, action)
        self._queue.pop(0)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if not self._queue:
            self.table.apply(self._chosen)
            self._chosen = {}
            self._queue = list(self.table.state.to_act())
        if self._queue:
            self.agent_selection = self.table.agents[self._queue[0]]
        else:
            self.rewards = self.table.final_scores()
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()
