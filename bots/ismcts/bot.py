"""``ismcts``: the information-set MCTS bot for every game (:mod:`.search`).

It takes its settings from the hello message's ``settings`` (a tournament
file's per-bot ``settings`` table, see ``docs/bots.md``) and thinks either for
a fixed number of iterations per move or for as long as the clock allows.
All its chance comes from one ``random.Random``: seeded from the match seed,
and reseeded from the game's seed when the referee sends one, so a fixed
seed and iteration count replay move for move.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, fields, replace
from typing import Any

from arena.botkit import Bot
from bots.ismcts.knowledge import for_game
from bots.ismcts.search import Search
from engines import unit_for


@dataclass(frozen=True)
class Settings:
    """The bot's settings and their defaults (``docs/bots.md`` explains them)."""

    iterations: int = 0  # > 0: exactly this many per move; 0: search by the clock
    time_fraction: float = 0.5  # share of the move time to think
    bank_fraction: float = 0.05  # share of the time bank left to add per move
    margin: float = 0.05  # seconds always left unused of move + bank
    exploration: float = 0.7  # UCB exploration constant (rewards are in [0, 1])
    rollout: str = "default"  # rollout policy: default, random, or a game's own
    depth: int = 0  # rollout cut-off in moves (0: the game's default)
    turns: int = 0  # horizon changes before the evaluation (0: the game's default)
    advice: bool = True  # play the game's heuristic move unless the search beats it clearly
    advice_margin: float = 0.03  # by more than this mean reward

    @classmethod
    def parse(cls, given: dict[str, Any]) -> Settings:
        """Settings from a table; ValueError naming the first bad key."""
        known = {field.name: field for field in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in (given or {}).items():
            if key not in known:
                raise ValueError(f"unknown setting '{key}' (known: {', '.join(known)})")
            kind: type[Any] = type(known[key].default)
            if kind is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if type(value) is not kind:
                raise ValueError(f"setting '{key}': expected {kind.__name__}, got {value!r}")
            if kind is not str and value < 0:
                raise ValueError(f"setting '{key}': must not be negative, got {value!r}")
            values[key] = value
        return cls(**values)

    def think_time(self, clock: dict) -> float:
        """Seconds to search for this move: a share of the move time plus a
        share of what is left in the bank, never within ``margin`` of the
        deadline."""
        move, bank = clock.get("move", 1.0), clock.get("bank", 0.0)
        wanted = self.time_fraction * move + self.bank_fraction * bank
        return max(0.0, min(wanted, move + bank - self.margin))


class IsmctsBot(Bot):
    name = "ismcts"
    version = "1.0"

    def new_match(self, hello):
        try:
            self.settings = Settings.parse(hello.get("settings") or {})
            self.engine = unit_for(hello["game"]).engine
            self.knowledge = for_game(hello["game"])
            if self.settings.turns:
                self.knowledge = replace(self.knowledge, turns=self.settings.turns)
            self.rollout = self.knowledge.policy(self.settings.rollout)
        except (ValueError, LookupError) as error:
            sys.exit(f"ismcts: {error}")
        self.rng = random.Random(hello["seed"])

    def new_game(self, game):
        if game.get("seed") is not None:
            self.rng = random.Random(game["seed"])

    def act(self, observation, legal, clock):
        started = time.process_time()
        if len(legal) == 1:
            return legal[0]
        settings, knowledge = self.settings, self.knowledge
        budget = max(0.0, clock.get("move", 1.0) + clock.get("bank", 0.0) - settings.margin)
        hard = started + budget
        thinking = budget if settings.iterations else settings.think_time(clock)
        if knowledge.rule is not None:
            ruled = knowledge.rule(
                observation, legal, self.rng, started + thinking, settings.iterations
            )
            if ruled is not None:
                return ruled
        advice = None  # asked first, so its time counts against the move's
        left = thinking - (time.process_time() - started)
        if settings.advice and knowledge.advice is not None and left >= knowledge.advice_seconds:
            advice = knowledge.advice(observation, legal, self.rng)
        search = Search(
            self.engine, knowledge, self.rng, settings.exploration, settings.depth, self.rollout
        )
        if settings.iterations:
            search.run(observation, settings.iterations, deadline=hard)
        else:
            search.run(observation, deadline=started + thinking)
        return search.best(observation["seat"], legal, advice, settings.advice_margin)
