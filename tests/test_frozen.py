"""arena/game/_frozen.py: the contract's value classes behave as the
``@dataclass(frozen=True)`` classes they replaced -- checked against a real
one with the same fields -- and importing an engine in a fresh process
loads neither ``dataclasses`` nor ``typing``."""

import copy
import dataclasses
import pickle
import subprocess
import sys

import pytest

from arena.game import DummyResult, GameInfo, Option, Outcome
from arena.game._frozen import frozen, init_fields


@frozen
class Point:
    """A value class of the kind arena.game declares."""

    x: int
    y: int = 0
    label: str = ""

    def __init__(self, x: int, y: int = 0, label: str = "") -> None:
        init_fields(self, x=x, y=y, label=label)


@dataclasses.dataclass(frozen=True)
class Point_:  # the reference: what @dataclass(frozen=True) makes of the same fields
    x: int
    y: int = 0
    label: str = ""


def same(make):
    """``make(cls)`` on the value class and on the reference, with the
    reference's class name written as the value class's."""

    def run(cls):
        try:
            result = make(cls)
        except Exception as error:  # the same refusal, of the same type
            result = (type(error), str(error))
        return repr(result).replace("Point_", "Point")

    return run(Point), run(Point_)


@pytest.mark.parametrize(
    "make",
    [
        lambda P: repr(P(1, 2, "a")),
        lambda P: P(1) == P(1, 0, ""),
        lambda P: P(1) == P(2),
        lambda P: P(2) == P(1),
        lambda P: P(1) != P(1, 1),
        lambda P: P(1, label="b") == (1, 0, "b"),
        lambda P: P(1).__eq__(P(1)),
        lambda P: P(1).__eq__((1, 0, "")),
        lambda P: hash(P(1, 2, "a")) == hash((1, 2, "a")),
        lambda P: len({P(1), P(1), P(2)}),
        lambda P: setattr(P(1), "x", 2),
        lambda P: setattr(P(1), "other", 2),
        lambda P: delattr(P(1), "x"),
        lambda P: delattr(P(1), "other"),
        lambda P: P.__match_args__,
        lambda P: (P.y, P.label),
        lambda P: dataclasses.is_dataclass(P) and dataclasses.is_dataclass(P(1)),
        lambda P: [(f.name, f.type, f.default) for f in dataclasses.fields(P)],
        lambda P: [f.name for f in dataclasses.fields(P(1))],
        lambda P: dataclasses.asdict(P(1, 2, "a")),
        lambda P: dataclasses.astuple(P(1, 2, "a")),
        lambda P: dataclasses.replace(P(1, 2, "a"), y=5),
        lambda P: pickle.loads(pickle.dumps(P(1, 2, "a"))) == P(1, 2, "a"),
        lambda P: copy.deepcopy(P(1, 2, "a")) == P(1, 2, "a"),
        lambda P: copy.copy(P(3)).x,
    ],
)
def test_a_value_class_behaves_as_the_frozen_dataclass(make):
    ours, reference = same(make)
    assert ours == reference


def test_frozen_refusals_are_dataclasses_own_error():
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
        Point(1).x = 2
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'y'"):
        del Point(1).y


def test_a_subclass_may_add_attributes_but_not_change_fields():
    """As with a dataclass: the frozen check is for the class itself and
    for the fields; a plain subclass's own attributes may be set and deleted."""

    class Sub(Point):
        pass

    class Sub_(Point_):
        pass

    for cls in (Sub, Sub_):
        point = cls(1)
        point.note = "kept"
        assert point.note == "kept"
        del point.note
        assert not hasattr(point, "note")
        with pytest.raises(dataclasses.FrozenInstanceError):
            point.x = 2
        with pytest.raises(dataclasses.FrozenInstanceError):
            del point.x
    assert (
        repr(Sub(1))
        == "test_a_subclass_may_add_attributes_but_not_change_fields.<locals>.Sub(x=1, y=0, label='')"
    )


def test_the_fields_of_a_value_class_are_made_once_and_kept():
    class Pair:
        a: int
        b: str = "z"

        def __init__(self, a, b="z"):
            init_fields(self, a=a, b=b)

    frozen(Pair)
    assert "__dataclass_fields__" in Pair.__dict__
    made = dataclasses.fields(Pair)
    assert [(f.name, f.default) for f in made] == [("a", dataclasses.MISSING), ("b", "z")]
    assert isinstance(Pair.__dict__["__dataclass_fields__"], dict)  # replaced by the real one
    assert dataclasses.fields(Pair) == made


def test_the_contract_classes_keep_their_dataclass_behaviour():
    option = Option("speed", 1, choices=(1, 2))
    assert (
        repr(option)
        == "Option(name='speed', default=1, help='', choices=(1, 2), minimum=None, maximum=None)"
    )
    info = GameInfo("g", "1", (2, 3), options=(option,))
    assert info == GameInfo("g", "1", (2, 3), (option,)) and hash(info) == hash(
        GameInfo("g", "1", (2, 3), (option,))
    )
    outcome = Outcome.from_scores([3, 1], dummies={"mac": 2})
    assert outcome == Outcome((3, 1), (1, 3), (0, 1), (DummyResult("mac", 2, 2),))
    assert dataclasses.asdict(outcome.dummies[0]) == {"name": "mac", "score": 2, "rank": 2}
    assert dataclasses.replace(info, version="2").version == "2"
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.scores = (0, 0)


@pytest.mark.parametrize("cls", [Option, GameInfo, DummyResult, Outcome])
def test_the_contract_classes_defaults_are_their_fields_defaults(cls):
    """Each class states a field's default twice, in its body (the class
    attribute, and the dataclass field) and in its __init__: they agree."""
    import inspect

    given = {name: p.default for name, p in inspect.signature(cls).parameters.items()}
    assert list(given) == [f.name for f in dataclasses.fields(cls)] == list(cls.__match_args__)
    for field in dataclasses.fields(cls):
        assert given[field.name] == field.default or (
            given[field.name] is inspect.Parameter.empty and field.default is dataclasses.MISSING
        )
        if field.default is not dataclasses.MISSING:
            assert getattr(cls, field.name) == field.default
    assert (GameInfo.simultaneous, GameInfo.teams, Option.help) == (False, "none", "")


def fresh_python(code: str) -> str:
    """What ``code`` prints in a fresh interpreter (nothing imported yet)."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_the_contract_type_names_import_without_typing():
    # what engines import for their annotations exists at run time, and
    # importing it loads no typing (type checkers see dict[str, Any])
    shown = fresh_python(
        "import sys\nfrom arena.game import Action, Observation, Seat\n"
        "print('typing' in sys.modules, Observation, Seat)\n"
    )
    assert shown == "False <class 'dict'> <class 'int'>"
    import arena.game as game

    assert game.Action == (str | int)
    assert isinstance({"seat": 0}, game.Observation)
    with pytest.raises(AttributeError, match=r"module 'arena.game' has no attribute 'Nothing'"):
        game.Nothing


def test_a_fresh_process_imports_the_engine_without_dataclasses_or_typing():
    """The cold figure of benchmarks/dou_dizhu.py counts the engine's import:
    dataclasses (with inspect, ast, dis) and typing were most of it."""
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import engines.dou_dizhu\n"
        "engine = engines.dou_dizhu.DouDizhu()\n"
        "state = engine.new_game(3, 1)\n"
        "while state.to_act():\n"
        "    seat = state.to_act()[0]\n"
        "    state.apply({seat: state.legal_actions(seat)[0]})\n"
        "state.outcome()\n"
        "print(sorted(m for m in ('dataclasses', 'inspect', 'typing') if m in set(sys.modules) - before))\n"
    )
    control = fresh_python(
        code.replace("import engines.dou_dizhu\n", "import engines.dou_dizhu, arena.records\n")
    )
    assert control == "['dataclasses', 'inspect', 'typing']"  # the check sees them when loaded
    assert fresh_python(code) == "[]"


def test_a_strict_bot_and_the_plugin_host_are_shown_what_the_contract_imports():
    """The strict sandbox mounts only the arena packages it lists for bots and
    for the plugin host: arena.game's own imports must be among them (a bot
    that plays through an engine imports arena.game, hence arena.game._frozen)."""
    from arena.sandbox import view

    loaded = fresh_python(
        "import sys, arena.game\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('arena.'))))"
    )
    assert "arena.game._frozen" in loaded.split()  # the control: it is imported
    for shown in (view.BOT_MODULES, view.HOST_MODULES):
        packages = {"arena." + name for name in shown}
        outside = {
            m for m in loaded.split() if not any(m == p or m.startswith(p + ".") for p in packages)
        }
        assert outside == set()
