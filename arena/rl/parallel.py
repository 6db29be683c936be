"""The PettingZoo parallel environment of an arena game.

Each step takes an action for every live agent, as the API asks, and plays
those of the seats the engine has to act (all of them on a simultaneous move,
one on a trick or a turn-based move); the others' actions are ignored, and
their ``action_mask`` is all zeros.  Rewards are the final scores, as in the
AEC environment.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pettingzoo import ParallelEnv

from arena.rl.table import TableEnvironment


class ArenaParallelEnv(TableEnvironment, ParallelEnv):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"]}

    def __init__(self, engine, players, options, render_mode=None):
        self._set_table(engine, players, options, render_mode)
        self.metadata = dict(self.metadata, name=f"arena-{engine.info.id}")
        self.agents = []

    def _observations(self):
        acting = self.table.state.to_act()
        return {
            agent: self.table.observe(
                self.table.seat_of[agent], self.table.seat_of[agent] in acting
            )
            for agent in self.agents
        }

    def reset(self, seed=None, options=None):
        self.table.new_game(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions):
        if not self.agents:
            return {}, {}, {}, {}, {}
        acting = self.table.state.to_act()
        missing = [
            self.table.agents[seat] for seat in acting if self.table.agents[seat] not in actions
        ]
        if missing:
            raise ValueError(f"{self.table.engine.info.id}: no action for {', '.join(missing)}")
        self.table.apply(
            {
                seat: self.table.engine_action(seat, actions[self.table.agents[seat]])
                for seat in acting
            }
        )
        over = self.table.state.is_over()
        observations = self._observations()
        rewards = self.table.final_scores() if over else dict.fromkeys(self.agents, 0.0)
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        infos = {agent: {} for agent in self.agents}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos
