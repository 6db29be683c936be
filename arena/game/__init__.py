"""The engine contract: what every game engine implements.

The referee, the conformance check, the tournament runner and search bots talk
to a game only through the two classes here:

* :class:`Engine` -- the game itself: declarative metadata (:class:`GameInfo`),
  a factory for fresh states, and :meth:`Engine.sample_state`, which rebuilds a
  full state that agrees with one seat's observation (what determinized search
  bots need, since they live in another process and see only observations).
* :class:`State` -- one game in progress.  The referee's loop only asks it who
  acts now (:meth:`State.to_act`, one seat or several at once for simultaneous
  moves), what each of them may do (:meth:`State.legal_actions`), what each seat
  sees (:meth:`State.observation`), to :meth:`State.apply` the chosen actions,
  and at the end for the :class:`Outcome`.

Rules are pure: no I/O, no clock, no globals.  All chance comes from the
state's own ``random.Random`` seeded by :meth:`Engine.new_game`, so the same seed
and the same actions unfold the same game on every machine.

Both entry points are template methods (as pgx's ``Env.step`` wraps ``_step``
and OpenSpiel's ``apply_action`` wraps ``_apply_action``): the base does the
contract's chores once, for every engine, and engines write only the rules.

* :meth:`Engine.new_game` checks the player count and resolves the options
  (defaults filled in, values validated), then calls the engine's
  :meth:`Engine._new_game` with the resolved options.
* :meth:`State.apply` raises :class:`IllegalAction` -- before the engine's
  :meth:`State._apply` runs, so the state is left unchanged -- for any move
  once the game is over, for a seat that is not to act or a missing seat of a
  simultaneous move, and for an action that is not in the seat's legal list
  (a card not in the hand, a made-up value, a ``bool`` or ``float``).  The
  referee checks a bot's action itself before applying, but a bot's own
  search, a replay of a tampered record or a test must not silently play on
  from an impossible position; :func:`arena.game.testing.check_engine` tests this
  for every engine.

An engine written to the old contract, overriding ``new_game`` or ``apply``
itself, keeps working: such an override becomes the class's hook and the
base's checks run before it (see :meth:`State.__init_subclass__`).

Wire values: actions are ``str`` or ``int`` (short, hashable and trivial for a
bot in any language to read back); observations are plain msgpack-able values
(dict with ``str`` keys, list, str, int, float, bool, None).  An observation
holds only what its seat may know, and enough of the public history that
:meth:`Engine.sample_state` can rebuild a consistent state from it alone.
"""

from __future__ import annotations

import os
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from enum import StrEnum

from arena.game._frozen import frozen, init_fields

#: ``typing.TYPE_CHECKING`` without importing :mod:`typing` (type checkers
#: read any ``TYPE_CHECKING`` as true): every engine imports this module,
#: and ``typing`` would be a large part of its import in a fresh process
#: (docs/performance.md), which only needs ``Any`` for annotations (never
#: evaluated here)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    Observation = dict[str, Any]
else:
    #: what an observation is at run time (a name engines import for their
    #: annotations; type checkers see ``dict[str, Any]`` above)
    Observation = dict

Seat = int
Action = str | int

#: stands for a seat absent from a move in State.apply's hot path
_MISSING = object()


class GameError(Exception):
    """Base class for errors a game raises about its configuration or use."""


class OptionError(GameError, ValueError):
    """An option name or value the game does not accept."""


class PlayerCountError(GameError, ValueError):
    """A player count the game does not support."""


class IllegalAction(GameError, ValueError):
    """An action not in the legal list (engines may raise it from ``apply``)."""


@frozen
class Option:
    """One game option: its name, default and, optionally, allowed values.

    The type of ``default`` is the option's type; values given as strings (from
    the command line) are converted to it.
    """

    name: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def __init__(
        self,
        name: str,
        default: Any,
        help: str = "",
        choices: tuple[Any, ...] | None = None,
        minimum: float | None = None,
        maximum: float | None = None,
    ) -> None:
        init_fields(
            self,
            name=name,
            default=default,
            help=help,
            choices=choices,
            minimum=minimum,
            maximum=maximum,
        )

    def parse(self, game_id: str, value: Any) -> Any:
        """Return ``value`` converted to this option's type, or raise OptionError."""
        kind = type(self.default)
        where = f"game '{game_id}' option '{self.name}'"
        if isinstance(value, str) and kind is not str:
            value = _from_text(value, kind, where)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not kind:
            raise OptionError(f"{where}: expected {kind.__name__}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"{where}: {value!r} is not one of {allowed}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"{where}: {value!r} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"{where}: {value!r} is above the maximum {self.maximum}")
        return value


def _from_text(text: str, kind: type, where: str) -> Any:
    if kind is bool:
        lowered = text.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise OptionError(f"{where}: expected true or false, got {text!r}")
    try:
        return kind(text)
    except ValueError:
        raise OptionError(f"{where}: expected {kind.__name__}, got {text!r}") from None


class Result(StrEnum):
    """What a game's outcome is worth: the values of ``GameInfo.result``
    (a :class:`~enum.StrEnum`: the plain string compares equal)."""

    #: the place: who finished above whom (most games)
    PLACE = "place"
    #: the payoff: the score itself, e.g. Dou Dizhu's multiplied stakes, where
    #: winning big and losing small beats winning often
    PAYOFF = "payoff"


@frozen
class GameInfo:
    """Declarative metadata of a game.

    ``teams`` says how seats group for ratings: ``"none"`` (everyone for
    themselves), ``"fixed"`` (known from the seating, e.g. Hand and Foot) or
    ``"in-play"`` (decided during the game, e.g. Dou Dizhu's landlord); the
    actual grouping of a finished game is in :attr:`Outcome.teams`.
    ``dummies`` names engine-played seats that may join a table (Farm Hand's
    Mac and Donald); they appear in :attr:`Outcome.dummies`.  ``result``
    says what a game's outcome is worth (:class:`Result`): its place, or
    its payoff, the score (Dou Dizhu's stakes, multiplied by bombs and
    spring), by which the leaderboard then ranks the game.
    """

    id: str
    version: str
    players: tuple[int, ...]
    options: tuple[Option, ...] = ()
    simultaneous: bool = False
    teams: str = "none"
    dummies: tuple[str, ...] = ()
    summary: str = ""
    result: str = "place"

    def __init__(
        self,
        id: str,
        version: str,
        players: tuple[int, ...],
        options: tuple[Option, ...] = (),
        simultaneous: bool = False,
        teams: str = "none",
        dummies: tuple[str, ...] = (),
        summary: str = "",
        result: str = "place",
    ) -> None:
        if result not in tuple(Result):
            raise ValueError(f"game '{id}': result is 'place' or 'payoff', not {result!r}")
        init_fields(
            self,
            id=id,
            version=version,
            players=players,
            options=options,
            simultaneous=simultaneous,
            teams=teams,
            dummies=dummies,
            summary=summary,
            result=Result(result),
        )

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(f"game '{self.id}' has no option '{name}' (known: {known})")

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every option with its default, overridden and validated by ``given``."""
        resolved = {option.name: option.default for option in self.options}
        for name, value in (given or {}).items():
            resolved[name] = self.option(name).parse(self.id, value)
        return resolved

    def check_players(self, players: int) -> None:
        if players not in self.players:
            counts = ", ".join(map(str, self.players))
            raise PlayerCountError(f"game '{self.id}' is for {counts} players, not {players}")


@frozen
class DummyResult:
    """An engine-played seat's result, ranked together with the bots."""

    name: str
    score: float
    rank: int

    def __init__(self, name: str, score: float, rank: int) -> None:
        init_fields(self, name=name, score=score, rank=rank)


@frozen
class Outcome:
    """The end of a game: per bot seat a score, a rank (1 is best; ties share
    a rank) and a team; engine-played dummies ranked alongside.

    Team games give every member of a team the same score.  Teams are numbered
    from 0; in a free-for-all each seat is its own team (``teams[i] == i``).
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    teams: tuple[int, ...]
    dummies: tuple[DummyResult, ...] = ()

    def __init__(
        self,
        scores: tuple[float, ...],
        ranks: tuple[int, ...],
        teams: tuple[int, ...],
        dummies: tuple[DummyResult, ...] = (),
    ) -> None:
        init_fields(self, scores=scores, ranks=ranks, teams=teams, dummies=dummies)

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[float],
        teams: Sequence[int] | None = None,
        dummies: Mapping[str, float] | None = None,
    ) -> Outcome:
        """Rank by score, higher is better, equal scores sharing a rank
        (standard competition ranking: 1, 1, 3), dummies included."""
        dummy_items = list((dummies or {}).items())
        everyone = list(scores) + [score for _, score in dummy_items]
        ranks = competition_ranks(everyone)
        seats = len(scores)
        return cls(
            scores=tuple(scores),
            ranks=tuple(ranks[:seats]),
            teams=tuple(teams) if teams is not None else tuple(range(seats)),
            dummies=tuple(
                DummyResult(name, score, rank)
                for (name, score), rank in zip(dummy_items, ranks[seats:])
            ),
        )


def competition_ranks(scores: Sequence[float]) -> list[int]:
    """1 + the number of strictly higher scores, for each score."""
    ordered = sorted(scores, reverse=True)
    first_index: dict[float, int] = {}
    for index, score in enumerate(ordered):
        first_index.setdefault(score, index)
    return [first_index[score] + 1 for score in scores]


class State(ABC):
    """One game in progress.  Subclasses keep hidden information in private
    attributes and expose it only through :meth:`observation`."""

    #: number of bot-controlled seats (dummies are not counted)
    players: int

    @abstractmethod
    def to_act(self) -> tuple[Seat, ...]:
        """The seats that must choose now: one, or several for a simultaneous
        move; empty exactly when the game is over."""

    @abstractmethod
    def legal_actions(self, seat: Seat) -> list[Action]:
        """What ``seat`` may play now (non-empty for every seat in to_act())."""

    @abstractmethod
    def observation(self, seat: Seat) -> Observation:
        """What ``seat`` knows, as plain msgpack-able values.  Must contain
        ``"seat"`` and enough public history to rebuild a consistent state."""

    def apply(self, actions: Mapping[Seat, Action]) -> None:
        """Play one action for every seat in to_act() at once.

        The contract's checks, made here once for every engine before its
        :meth:`_apply` hook runs (so a refused move leaves the state as it
        was): :class:`IllegalAction` once the game is over, for a seat
        missing or not to act, and for an action that is not a ``str`` or
        ``int`` (``True == 1`` and ``1.0 == 1`` must not pass as a bid) or
        that :meth:`is_legal` refuses.

        Cost (``benchmarks/engine_apply.py``): an engine makes no check of
        its own, and the engines' :meth:`is_legal` answer from their cached
        legal list or without a list, so the check adds little to a step
        (figures and method in docs/writing-an-engine.md and
        docs/performance.md).  Below, the single-seat turn
        is the hot path; :meth:`_check` handles simultaneous moves and every
        refusal.
        """
        acting = self.to_act()
        if len(acting) == 1 == len(actions):  # the hot path: one seat to act
            seat = acting[0]
            action = actions.get(seat, _MISSING)
            if (type(action) is str or type(action) is int) and self.is_legal(seat, action):
                return self._apply(actions)
        self._check(acting, actions)
        self._apply(actions)

    def _check(self, acting: tuple[Seat, ...], actions: Mapping[Seat, Action]) -> None:
        """Raise :class:`IllegalAction` for anything :meth:`apply` may not
        play: every refusal, and the general case of several seats acting."""
        if not acting:
            raise IllegalAction("the game is over")
        if len(actions) == len(acting):
            for seat in acting:
                action = actions.get(seat, _MISSING)
                if action is _MISSING:
                    break
                if (type(action) is not str and type(action) is not int) or not self.is_legal(
                    seat, action
                ):
                    raise IllegalAction(self._refusal(seat, action))
            else:
                return
        given = list(actions)
        if len(acting) == 1:
            raise IllegalAction(f"seat {acting[0]} is to act, got seats {given}")
        who = "every seat plays" if len(acting) == self.players else "several seats play"
        raise IllegalAction(f"{who} at once: {list(acting)} are to act, got seats {given}")

    @abstractmethod
    def _apply(self, actions: Mapping[Seat, Action]) -> None:
        """The engine's move: play ``actions``, one legal action for every
        seat in to_act(), already checked by :meth:`apply`."""

    def is_legal(self, seat: Seat, action: Action) -> bool:
        """Whether ``seat`` (one of to_act()) may play ``action`` (a ``str``
        or ``int``) now: membership in :meth:`legal_actions` by default.
        Engines whose legal list is costly to copy override it with a lookup
        in their cached list, or an exact test that needs no list at all."""
        return action in self.legal_actions(seat)

    def _refusal(self, seat: Seat, action: Any) -> str:
        """The one-line reason :meth:`apply` gives for refusing ``action``;
        engines may word it in their game's terms."""
        return f"seat {seat} cannot play {action!r} now: it is not in its legal list"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """The old contract: a class that overrides ``apply`` itself (and has
        no ``_apply``) wrote its checks and its move in one method.  That
        method becomes the class's ``_apply`` and the base's ``apply`` is put
        back in front of it, so such an engine keeps working and is checked
        like every other (its own checks are then merely redundant)."""
        super().__init_subclass__(**kwargs)
        _adopt_old_override(cls, State, "apply")

    @abstractmethod
    def outcome(self) -> Outcome:
        """Scores, ranks and teams; only valid once the game is over."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy, cheap enough to call thousands of times a
        second (search bots copy before every simulated move)."""

    def secrets(self, seat: Seat) -> list[list[Any]]:
        """Values ``seat`` may not see, for the referee's leak audit
        (:mod:`arena.match.audit`): each other hand, undealt cards, a draw pile,
        unrevealed bottom cards... as lists of card codes.  None by default."""
        return []

    def is_over(self) -> bool:
        return not self.to_act()

    def step(self, seat: Seat, action: Action) -> None:
        """Shorthand for ``apply({seat: action})`` on a one-seat turn."""
        self.apply({seat: action})


class Engine(ABC):
    """A game: its metadata and how to start and reconstruct states."""

    info: ClassVar[GameInfo]

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """A fresh game.  ``options`` may be partial: they are completed with
        their defaults and validated (:class:`OptionError`), the player count
        checked (:class:`PlayerCountError`), here once for every engine, before
        the engine's :meth:`_new_game` hook builds the state."""
        self.info.check_players(players)
        return self._new_game(players, seed, self.info.resolve_options(options))

    @abstractmethod
    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> State:
        """The engine's fresh game for a supported ``players`` count, every
        chance of it drawn from ``seed``, with ``options`` complete and valid
        (every option of :attr:`info`, defaults filled in)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """The old contract: a class that overrides ``new_game`` itself (and
        has no ``_new_game``) validated and built the state in one method.
        That method becomes the class's ``_new_game`` (same arguments, now
        given resolved options) behind the base's ``new_game``."""
        super().__init_subclass__(**kwargs)
        _adopt_old_override(cls, Engine, "new_game")

    @abstractmethod
    def sample_state(self, observation: Observation, rng: random.Random) -> State:
        """A full state in which ``observation["seat"]`` would see exactly
        ``observation``: everything hidden from that seat (other hands, draw
        piles, undealt cards) filled in at random from ``rng``, consistent with
        what the seat knows (e.g. suits seen on card backs).  The state's own
        future chance is seeded from ``rng`` too."""


#: a game unit's parts -> what each names (``module:Class``) and whether it
#: is a subclass or an instance of it: the RL encoding of the game's
#: environments and trained policies, what the search bot may know of the
#: game, how ``arena play`` labels and reads its moves, how its table is
#: drawn (replays and ``arena play``)
PARTS = {
    "encoding": ("arena.rl.encoding:Encoding", "subclass"),
    "knowledge": ("bots.ismcts.knowledge:Knowledge", "instance"),
    "view": ("arena.cli.views:View", "subclass"),
    "drawing": ("arena.game.drawing:Drawing", "subclass"),
}


@frozen
class GameUnit:
    """A game as one plugin unit: its engine and the optional parts the other
    layers plug in, registered together by the game's plugin
    (``register_games``), so that a new game is one package and one
    registration and :func:`arena.game.testing.check_unit` finds a missing or
    broken part at once.

    Each part is named as ``module:attribute`` and imported only by
    :meth:`part` when a layer asks for it: registering a game imports none of
    them (an encoding needs numpy, a view rich, the search knowledge the
    built-in bots), and the rules module never imports a layer above it.
    ``rules`` is the page of rules for bot authors: a URL, or a path relative
    to the folder of the engine's module.  What each part must be is
    :data:`PARTS`; an empty name means the game has no such part (a layer
    then falls back to its default, or says the game lacks it).
    """

    engine: Engine
    encoding: str = ""
    knowledge: str = ""
    view: str = ""
    rules: str = ""
    drawing: str = ""

    def __init__(
        self,
        engine: Engine,
        encoding: str = "",
        knowledge: str = "",
        view: str = "",
        rules: str = "",
        drawing: str = "",
    ) -> None:
        init_fields(
            self,
            engine=engine,
            encoding=encoding,
            knowledge=knowledge,
            view=view,
            rules=rules,
            drawing=drawing,
        )

    @property
    def id(self) -> str:
        return self.engine.info.id

    def part(self, name: str) -> Any:
        """The part ``name`` (a key of :data:`PARTS`), imported; None when the
        unit has none.  A name that does not import raises ImportError or
        AttributeError (:func:`arena.game.testing.check_unit` reports it)."""
        return resolve(getattr(self, name)) if getattr(self, name) else None

    def rules_page(self) -> str:
        """Where :attr:`rules` points: the URL, or the path made absolute."""
        if not self.rules or "://" in self.rules:
            return self.rules
        module = sys.modules.get(type(self.engine).__module__)
        folder = os.path.dirname(getattr(module, "__file__", None) or "")
        return os.path.normpath(os.path.join(folder, self.rules))


def resolve(target: str) -> Any:
    """The attribute a ``module:attribute`` name names, its module imported."""
    import importlib

    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def replay(
    engine: Engine,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None,
    steps: Sequence[Mapping[Seat, Action]],
) -> State:
    """Re-run a recorded game and return its final state."""
    state = engine.new_game(players, seed, options)
    for actions in steps:
        state.apply({int(seat): action for seat, action in actions.items()})
    return state


def _adopt_old_override(cls: type, base: type, name: str) -> None:
    """Make a subclass written to the old contract, which overrides the public
    method ``name`` itself (and not ``_name``), one of the new: its method
    becomes ``_name`` and the base's checking ``name`` goes back in front."""
    own = cls.__dict__.get(name)
    hook = "_" + name
    if own is not None and getattr(cls, hook) is getattr(base, hook):
        setattr(cls, hook, own)
        setattr(cls, name, getattr(base, name))


__all__ = [
    "PARTS",
    "Action",
    "DummyResult",
    "Engine",
    "GameError",
    "GameInfo",
    "GameUnit",
    "IllegalAction",
    "Observation",
    "Option",
    "OptionError",
    "Outcome",
    "PlayerCountError",
    "Result",
    "Seat",
    "State",
    "competition_ranks",
    "replay",
    "resolve",
]
