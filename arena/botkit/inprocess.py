"""Play bot objects against each other in this process, without a referee.

For engine benchmarks and bot evaluation only (thousands of games a minute):
it sends each bot exactly the messages the referee would, but there is no
sandbox, no clock and no fault handling.  Tournaments always go through the
referee.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.botkit import Bot, answer, handle, protocol
from arena.botkit.messages import Limits
from arena.game import Engine, Outcome

#: the time control reported to bots that are not timed (``hello``'s limits, ``act``'s clock)
UNTIMED: Limits = {"startup": 1.0, "move": 1.0, "bank": 0.0}


def play_game(
    engine: Engine,
    bots: Sequence[Bot],
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> Outcome:
    """One game with ``bots[i]`` in seat ``i``, each bot told through the bot
    kit's own dispatch (so ``bot.rng`` is seeded as in a real match)."""
    players = len(bots)
    state = engine.new_game(players, seed, options)
    resolved = engine.info.resolve_options(options)
    for seat, bot in enumerate(bots):
        handle(bot, protocol.hello(engine.info.id, resolved, players, seed * 31 + seat, UNTIMED))
        handle(bot, protocol.new_game(0, seat, players, seed * 31 + seat))
    while acting := state.to_act():
        chosen = {}
        for seat in acting:
            legal = state.legal_actions(seat)
            reply = answer(
                bots[seat],
                protocol.act(state.observation(seat), legal, UNTIMED["move"], UNTIMED["bank"]),
            )
            chosen[seat] = reply["action"]
            if chosen[seat] not in legal:
                raise ValueError(f"{type(bots[seat]).__name__} played {chosen[seat]!r}, not legal")
        state.apply(chosen)
    outcome = state.outcome()
    for seat, bot in enumerate(bots):
        handle(
            bot,
            protocol.game_over(
                seat, list(outcome.scores), list(outcome.ranks), state.observation(seat)
            ),
        )
    return outcome
