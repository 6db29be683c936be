"""The template-method contract of arena/game/__init__.py: ``Engine.new_game`` and
``State.apply`` make the contract's checks once, for every engine, before the
engine's ``_new_game`` / ``_apply`` hooks; engines written to the old contract
(overriding ``new_game`` / ``apply``) keep working and are checked too."""

import random

import msgpack
import pytest

from arena.game import (
    Engine,
    GameInfo,
    IllegalAction,
    Option,
    OptionError,
    Outcome,
    PlayerCountError,
    State,
)
from arena.game.testing import check_engine
from engines.dou_dizhu import DouDizhu
from engines.farm_and_furious import FarmAndFurious
from engines.farm_and_furious.game import FarmAndFuriousState
from engines.farm_hand import FarmHand
from engines.hand_and_foot import HandAndFoot
from engines.vegetables import Vegetables

#: every built-in engine with a table it supports
ENGINES = [
    (DouDizhu(), 3),
    (FarmAndFurious(), 3),
    (FarmHand(), 3),
    (HandAndFoot(), 4),
    (Vegetables(), 2),
]


def views(state):
    return [msgpack.packb(state.observation(seat)) for seat in range(state.players)]


def refused(state, actions):
    """Whether ``apply(actions)`` raised IllegalAction and left every view as it was."""
    before = views(state)
    try:
        state.apply(actions)
    except IllegalAction:
        return views(state) == before
    return False


def wrong_moves(state, rng, seen):
    """A legal joint move for ``state`` and the (what, actions) variants of it
    the base must refuse; ``seen`` collects every action listed as legal so
    far, for any seat, so one legal earlier (a card already played) is tried."""
    acting = state.to_act()
    legal = {seat: state.legal_actions(seat) for seat in acting}
    chosen = {seat: rng.choice(legal[seat]) for seat in acting}
    seat = acting[0]
    idle = [other for other in range(state.players) if other not in acting]
    moves = [
        ("made-up action", {**chosen, seat: "\x00no-such-action"}),
        ("made-up number", {**chosen, seat: 2**31}),
        ("unhashable action", {**chosen, seat: ["a", "list"]}),
    ]
    earlier = [action for action in seen if action not in legal[seat]]
    if earlier:
        moves.append(("an action legal earlier", {**chosen, seat: earlier[-1]}))
    if type(chosen[seat]) is int:
        moves.append(("a float for an int", {**chosen, seat: float(chosen[seat])}))
    if len(acting) > 1:
        moves.append(("a missing seat", {other: chosen[other] for other in acting[1:]}))
    if idle:
        moves.append(("an idle seat beside", {**chosen, idle[0]: chosen[seat]}))
        moves.append(("an idle seat instead", {idle[0]: chosen[seat]}))
    for actions in legal.values():
        seen.update(dict.fromkeys(actions))
    return chosen, moves


@pytest.mark.parametrize("engine, players", ENGINES, ids=[e.info.id for e, _ in ENGINES])
def test_every_engine_refuses_illegal_idle_and_late_moves(engine, players):
    rng = random.Random(3)
    state = engine.new_game(players, 11)
    seen, checked = {}, set()
    steps = 0
    while state.to_act():
        chosen, moves = wrong_moves(state, rng, seen)
        if steps < 40 or rng.random() < 0.02:
            for what, actions in moves:
                assert refused(state, actions), f"{engine.info.id} step {steps}: {what} accepted"
                checked.add(what)
        state.apply(chosen)
        steps += 1
    assert {
        "made-up action",
        "made-up number",
        "unhashable action",
        "an action legal earlier",
    } <= checked
    assert "an idle seat instead" in checked or "a missing seat" in checked
    everyone = {seat: next(iter(chosen.values())) for seat in range(players)}
    for actions in (chosen, everyone):
        with pytest.raises(IllegalAction, match="the game is over"):
            state.apply(actions)


def test_player_count_and_options_are_checked_before_the_hook():
    calls = []

    class Recording(FarmAndFurious):
        def _new_game(self, players, seed, options):
            calls.append(options)
            return super()._new_game(players, seed, options)

    engine = Recording()
    with pytest.raises(PlayerCountError, match="not 6"):
        engine.new_game(6, 0)
    with pytest.raises(OptionError, match="no option 'speed'"):
        engine.new_game(2, 0, {"speed": 3})
    assert calls == []
    engine.new_game(2, 0, {"track_length": "7"})
    assert calls == [{"rooster": False, "track_length": 7, "max_turns": 200}]


class AcceptsAnything(FarmAndFurious):
    """Farm & Furious whose is_legal says yes to anything, even a card not in hand."""

    def _new_game(self, players, seed, options):
        state = super()._new_game(players, seed, options)
        state.is_legal = lambda seat, action: True
        return state


def test_a_hook_that_accepts_an_illegal_action_is_caught_by_the_base():
    state = FarmAndFurious().new_game(2, 0)
    state._apply({0: "tractor", 1: "hen"})  # control: the hook itself plays it
    assert state.observation(0)["face_up"][0] == ["tractor"]
    state = FarmAndFurious().new_game(2, 0)
    with pytest.raises(IllegalAction, match="seat 0 has no 'tractor' in hand"):
        state.apply({0: "tractor", 1: "hen"})
    assert state.observation(0)["face_up"] == [[], []]
    check_engine(FarmAndFurious(), 30, hidden=False)


def test_the_conformance_check_catches_an_is_legal_that_accepts_everything():
    # the base trusts is_legal; an engine whose is_legal lies is caught by check_engine
    with pytest.raises(AssertionError, match=r"not in its legal list: apply.. accepted it"):
        check_engine(AcceptsAnything(), 5, hidden=False)


# -------------------------------------------------- the old contract
class CountState(State):
    """Old contract: ``apply`` does the move and checks nothing at all."""

    def __init__(self, players, target):
        self.players, self.target, self.total, self.turn = players, target, 0, 0

    def to_act(self):
        return () if self.total >= self.target else (self.turn,)

    def legal_actions(self, seat):
        return [1, 2] if seat == self.turn and self.total < self.target else []

    def observation(self, seat):
        return {"seat": seat, "target": self.target, "total": self.total, "turn": self.turn}

    def apply(self, actions):
        self.total += actions[self.turn]
        self.turn = (self.turn + 1) % self.players

    def outcome(self):
        return Outcome.from_scores(
            [1 if seat == (self.turn - 1) % self.players else 0 for seat in range(self.players)]
        )

    def clone(self):
        copy = CountState(self.players, self.target)
        copy.__dict__.update(self.__dict__)
        return copy


class CountGame(Engine):
    """Old contract: ``new_game`` validates nothing."""

    info = GameInfo("count", "1", (2, 3), options=(Option("target", 10, minimum=1),))

    def new_game(self, players, seed, options=None):
        return CountState(players, (options or {}).get("target", 3))

    def sample_state(self, observation, rng):
        state = CountState(2, observation["target"])
        state.__dict__.update({k: v for k, v in observation.items() if k != "seat"})
        return state


def test_an_engine_written_to_the_old_contract_keeps_working_and_is_checked():
    engine = CountGame()
    state = engine.new_game(2, 0)
    assert state.target == 10  # the old new_game now receives resolved options
    with pytest.raises(PlayerCountError):
        engine.new_game(4, 0)
    with pytest.raises(OptionError, match="below the minimum"):
        engine.new_game(2, 0, {"target": 0})
    state = engine.new_game(2, 0, {"target": "3"})
    state._apply({0: 7})  # control: the old apply itself plays anything
    assert state.total == 7
    state = engine.new_game(2, 0, {"target": 3})
    assert refused(state, {0: 7}) and refused(state, {1: 1}) and refused(state, {0: True})
    state.step(0, 2)
    state.step(1, 1)
    assert state.is_over() and refused(state, {0: 1})
    check_engine(engine, 20, hidden=False, players=(2,))


def test_a_subclass_may_wrap_apply_around_the_checked_one():
    """A new-contract engine's subclass overriding ``apply`` and calling
    ``super()`` is not mistaken for the old contract (no recursion)."""
    played = []

    class Logging(FarmAndFuriousState):
        def apply(self, actions):
            played.append(dict(actions))
            super().apply(actions)

    state = Logging(2, FarmAndFurious.info.resolve_options())
    state.apply({0: "hen", 1: "dog"})
    with pytest.raises(IllegalAction):
        state.apply({0: "hen", 1: "dog"})
    assert played == [{0: "hen", 1: "dog"}] * 2
    assert state.observation(0)["positions"] == [0, 1]  # the dog caught one hen


class Unvalidated(FarmAndFurious):
    """Bypasses the base's new_game: any player count, any option."""

    def new_game(self, players, seed, options=None):
        return FarmAndFuriousState(players, {**self.info.resolve_options(), **(options or {})})


def test_the_conformance_check_catches_a_new_game_that_bypasses_the_checks():
    check_engine(FarmAndFurious(), 5, hidden=False)  # control: the real engine passes
    with pytest.raises(AssertionError, match="new_game accepted 0 players"):
        check_engine(Unvalidated(), 5, hidden=False)
