"""The information-leak audit: a debug mode of the referee.

With ``play_match(..., audit=True)`` every message about to go to a seat is
checked against what that seat may know before it is sent:

1. **Shape** -- an ``act`` carries exactly the observation, the legal
   actions and the clock; a ``game_over`` the results and the observation.
   Nothing else of the game leaves the referee.
2. **Indistinguishability** -- a state rebuilt from the observation alone
   (:meth:`arena.game.Engine.sample_state`, which re-deals everything the seat
   cannot see) must give the seat the very same observation and legal
   actions.  An observation that carried a hidden field would change when
   the hidden part is re-dealt.
3. **Secrets** -- engines that list what each seat may not see
   (:meth:`arena.game.State.secrets`: other hands, undealt cards, draw piles,
   unrevealed bottom cards) have every such value looked for in the message:
   none may appear, in any order, as any list (or string of card symbols)
   inside it.

A violation is a bug in the engine, not a fault of the bot: it raises
:class:`LeakError` and stops the match.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from arena.game import Engine, State

ACT_KEYS = {"type", "observation", "legal", "clock"}
#: shorter secrets are skipped: two or three cards left in a hand can equal a
#: public play by coincidence, a leaked hand of five or more cannot
SECRET_MIN = 5
GAME_OVER_KEYS = {"type", "seat", "scores", "ranks", "observation"}


class LeakError(AssertionError):
    """A message would have told a seat something it may not know."""


def audit_act(
    engine: Engine, state: State, seat: int, message: Mapping[str, Any], rng: random.Random
) -> None:
    where = f"{engine.info.id}: act for seat {seat}"
    _check_shape(message, ACT_KEYS, where)
    observation = message["observation"]
    rebuilt = engine.sample_state(observation, random.Random(rng.randrange(2**31)))
    if rebuilt.observation(seat) != observation:
        raise LeakError(f"{where}: the observation changes when hidden information is re-dealt")
    if rebuilt.legal_actions(seat) != message["legal"]:
        raise LeakError(f"{where}: the legal actions change when hidden information is re-dealt")
    _check_secrets(state, seat, message, where)


def audit_game_over(engine: Engine, state: State, seat: int, message: Mapping[str, Any]) -> None:
    where = f"{engine.info.id}: game_over for seat {seat}"
    _check_shape(message, GAME_OVER_KEYS, where)
    _check_secrets(state, seat, message, where)


def _check_shape(message: Mapping[str, Any], keys: set[str], where: str) -> None:
    if set(message) != keys:
        raise LeakError(f"{where}: unexpected keys {sorted(set(message) - keys)}")


def _check_secrets(state: State, seat: int, message: Mapping[str, Any], where: str) -> None:
    secrets = [
        _canonical(secret)
        for secret in state.secrets(seat)
        if isinstance(secret, (list, str)) and len(secret) >= SECRET_MIN
    ]
    if not secrets:
        return
    for found in _lists_in(message):
        if _canonical(found) in secrets:
            raise LeakError(f"{where}: a hidden value appears in the message: {found!r}"[:300])


def _canonical(values: list | str) -> list:
    """Order-free form; a string is its characters (engines that write a
    hand as one string of card symbols, like Dou Dizhu's ``"334455"``)."""
    return sorted(map(repr, list(values)))


def _lists_in(value: Any) -> Iterator[list | str]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _lists_in(item)
    elif isinstance(value, list):
        yield value
        for item in value:
            yield from _lists_in(item)
    elif isinstance(value, str) and len(value) >= SECRET_MIN:
        yield value
