"""The shared pieces of the engine contract: options, ranks, outcomes, and
that the conformance check catches a broken engine."""

import pytest

from arena.game import (
    GameInfo,
    IllegalAction,
    Option,
    OptionError,
    Outcome,
    PlayerCountError,
    competition_ranks,
)
from arena.game.testing import check_engine
from engines.farm_and_furious import FarmAndFurious

INFO = GameInfo(
    "g",
    "1",
    (2, 3),
    options=(
        Option("target", 100, minimum=1),
        Option("fast", False),
        Option("mode", "end", choices=("end", "reshuffle")),
        Option("ratio", 0.5),
    ),
)


def test_options_resolve_defaults_and_parse_text():
    assert INFO.resolve_options({"target": "250", "fast": "yes", "ratio": 1}) == {
        "target": 250,
        "fast": True,
        "mode": "end",
        "ratio": 1.0,
    }


@pytest.mark.parametrize(
    "given, message",
    [
        ({"speed": 1}, "has no option 'speed' (known: target, fast, mode, ratio)"),
        ({"target": "many"}, "expected int, got 'many'"),
        ({"target": 0}, "below the minimum"),
        ({"mode": "loop"}, "'loop' is not one of end, reshuffle"),
        ({"fast": "perhaps"}, "expected true or false"),
        ({"target": 1.5}, "expected int"),
    ],
)
def test_bad_options_say_what_and_where(given, message):
    with pytest.raises(OptionError, match="game 'g'") as error:
        INFO.resolve_options(given)
    assert message in str(error.value)


def test_player_count_is_checked():
    INFO.check_players(3)
    with pytest.raises(PlayerCountError, match="for 2, 3 players, not 4"):
        INFO.check_players(4)


def test_competition_ranks_share_ties():
    assert competition_ranks([5, 9, 5, 1]) == [2, 1, 2, 4]


def test_outcome_ranks_dummies_with_the_seats():
    outcome = Outcome.from_scores([3, 7], dummies={"mac": 7})
    assert outcome.ranks == (3, 1)
    assert outcome.teams == (0, 1)
    assert [(d.name, d.rank) for d in outcome.dummies] == [("mac", 1)]


class BadRanks(FarmAndFurious):
    def new_game(self, players, seed, options=None):
        state = super().new_game(players, seed, options)
        state.outcome = lambda: Outcome(
            (1,) * players, tuple(range(1, players + 1)), tuple(range(players))
        )
        return state


class NonDeterministic(FarmAndFurious):
    """Each new game starts differently, whatever the seed."""

    started = 0

    def new_game(self, players, seed, options=None):
        state = super().new_game(players, seed, options)
        NonDeterministic.started += 1
        state._positions[0] = NonDeterministic.started
        return state


@pytest.mark.parametrize(
    "engine, complaint",
    [
        (BadRanks(), "inconsistent with scores"),
        (NonDeterministic(), "same seed, other game"),
    ],
)
def test_conformance_check_catches_broken_engines(engine, complaint):
    with pytest.raises(AssertionError, match=complaint):
        check_engine(engine, 50, hidden=False)


class _OnIllegal(FarmAndFurious):
    """Farm & Furious whose ``apply`` calls ``on_illegal(state)`` when the real
    one rejects an action: how a broken engine handles it."""

    @staticmethod
    def on_illegal(state):
        raise NotImplementedError

    def new_game(self, players, seed, options=None):
        state = super().new_game(players, seed, options)
        strict = state.apply

        def apply(actions):
            try:
                strict(actions)
            except IllegalAction:
                self.on_illegal(state)

        state.apply = apply
        return state


class Lenient(_OnIllegal):
    """Farm & Furious as it once was: ``apply`` plays whatever it is given."""

    @staticmethod
    def on_illegal(state):
        pass  # ignored instead of raised: the move is silently dropped


class ChangesThenRejects(_OnIllegal):
    """Raises IllegalAction, but only after moving the seat's token."""

    @staticmethod
    def on_illegal(state):
        state._positions[0] += 1
        raise IllegalAction("rejected after moving")


@pytest.mark.parametrize(
    "engine, complaint",
    [
        (Lenient(), "not in its legal list: apply.. accepted it"),
        (ChangesThenRejects(), "rejected, but the state changed"),
    ],
)
def test_conformance_check_demands_that_illegal_actions_are_rejected(engine, complaint):
    check_engine(FarmAndFurious(), 20, hidden=False)  # control: the real engine passes
    with pytest.raises(AssertionError, match=complaint):
        check_engine(engine, 20, hidden=False)


def test_conformance_check_rejects_moves_after_the_end():
    class PlaysOn(FarmAndFurious):
        def new_game(self, players, seed, options=None):
            state = super().new_game(players, seed, options)
            strict = state.apply
            state.apply = lambda actions: None if state.is_over() else strict(actions)
            return state

    with pytest.raises(AssertionError, match=r"a move after the game is over: apply.. accepted it"):
        check_engine(PlaysOn(), 5, hidden=False)


def test_conformance_check_demands_a_sampler_that_hides_something():
    with pytest.raises(AssertionError, match=r"never changed any other seat.s view or any secret"):
        check_engine(FarmAndFurious(), 20, hidden=True)


def test_option_values_within_their_bounds_pass():
    bounded = Option("hand_size", 10, minimum=2, maximum=20)
    assert [bounded.parse("g", value) for value in (2, 7, 20)] == [2, 7, 20]
    with pytest.raises(OptionError, match="above the maximum 20"):
        bounded.parse("g", 21)


def test_a_refused_move_names_the_seats_to_act():
    from engines.vegetables import Vegetables

    state = Vegetables().new_game(2, 1)
    (seat,) = state.to_act()
    with pytest.raises(IllegalAction, match=rf"seat {seat} is to act, got seats \[{1 - seat}\]"):
        state.apply({1 - seat: state.legal_actions(seat)[0]})
    race = FarmAndFurious().new_game(2, 1)  # simultaneous: every seat plays
    with pytest.raises(
        IllegalAction, match=r"every seat plays at once: \[0, 1\] are to act, got seats \[0\]"
    ):
        race.apply({0: race.legal_actions(0)[0]})


def test_a_state_must_say_its_legal_actions():
    from arena.game import State

    class Mute(State):  # every hook but legal_actions
        players = 1

        def to_act(self):
            return (0,)

        def observation(self, seat):
            return {"seat": seat}

        def _apply(self, actions):
            pass

        def outcome(self):
            return Outcome.from_scores([0])

        def clone(self):
            return self

    with pytest.raises(TypeError, match="legal_actions"):
        Mute()


def test_a_game_declares_whether_its_result_is_a_place_or_a_payoff():
    from arena.game import GameInfo, Result
    from engines.dou_dizhu.game import DouDizhu

    assert GameInfo("g", "1", (2,)).result == Result.PLACE == "place"
    assert GameInfo("g", "1", (2,), result="payoff").result is Result.PAYOFF
    assert DouDizhu.info.result == Result.PAYOFF  # its stakes are multiplied
    with pytest.raises(ValueError, match="result is 'place' or 'payoff', not 'points'"):
        GameInfo("g", "1", (2,), result="points")
