"""The wire messages' TypedDicts in arena/botkit/protocol.py say what
docs/protocol.md says, key for key; the message constructors build exactly
those keys; the fault kinds are the documented ones, and their values are
the strings stored records have always held."""

import json
import re
from pathlib import Path

import pytest

from arena.botkit import messages, protocol
from arena.records import FAULTS, GameRecord, SeatRecord
from arena.records.faults import FaultKind, Stage

DOC = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text()


def section(kind: str) -> str:
    """The text under the ``### `kind` ...`` heading, up to the next heading."""
    match = re.search(rf"^### `{kind}` .*?\n(.*?)(?=^#)", DOC, re.S | re.M)
    assert match, f"no section for {kind}"
    return match.group(1)


def documented_keys(kind: str) -> tuple[set[str], set[str]]:
    """(required, optional) keys of a message, from its table's first column
    or, for a message written out inline, from its ``{"key": ...}`` and the
    "optional keys `a` and `b`" it mentions."""
    text = section(kind)
    rows = re.findall(r"^\| `(\w+)`", text, re.M)
    if rows:
        return set(rows), set()
    inline = re.search(r"`(\{.*?\})`", text).group(1)
    optional = re.search(r"optional keys ((?:`\w+`(?: and |, )?)+)", text)
    return (
        set(re.findall(r'"(\w+)":', inline)),
        set(re.findall(r"`(\w+)`", optional.group(1))) if optional else set(),
    )


@pytest.mark.parametrize("kind, typed", sorted({**messages.TO_BOT, **messages.FROM_BOT}.items()))
def test_each_message_type_has_the_documented_keys(kind, typed):
    required, optional = documented_keys(kind)
    assert set(typed.__required_keys__) == required
    assert set(typed.__optional_keys__) == optional


def test_the_reader_finds_what_is_there():
    # a control: the reader sees the table of hello and ready's optional keys
    assert "seed" in documented_keys("hello")[0]
    assert documented_keys("ready") == ({"type"}, {"name", "version"})
    assert documented_keys("action")[0] == {"type", "action"}


def test_every_message_of_the_conversation_is_typed():
    conversation = re.search(r"## The conversation\n\n```\n(.*?)```", DOC, re.S).group(1)
    mentioned = set(
        re.findall(r"\b(hello|ready|new_game|act|action|game_over|goodbye)\b", conversation)
    )
    assert mentioned == set(messages.TO_BOT) | set(messages.FROM_BOT)


def test_the_time_controls_have_the_documented_keys():
    limits = next(row for row in section("hello").splitlines() if row.startswith("| `limits`"))
    clock = next(row for row in section("act").splitlines() if row.startswith("| `clock`"))
    for row, typed in ((limits, messages.Limits), (clock, messages.Clock)):
        assert set(re.findall(r"`(\w+)`", row.split("|")[3])) == set(typed.__required_keys__)


def test_the_constructors_build_exactly_the_typed_keys():
    built = {
        protocol.HELLO: protocol.hello("g", {}, 2, 1, {"startup": 1.0, "move": 1.0, "bank": 0.0}),
        protocol.NEW_GAME: protocol.new_game(0, 1, 2, 3),
        protocol.ACT: protocol.act({"seat": 0}, ["a"], 1.0, 0.0),
        protocol.GAME_OVER: protocol.game_over(0, [1, 2], [2, 1], {"seat": 0}),
        protocol.GOODBYE: protocol.goodbye(),
    }
    assert set(built) == set(messages.TO_BOT)
    for kind, message in built.items():
        assert message["type"] == kind
        assert set(message) == set(messages.TO_BOT[kind].__required_keys__), kind


def test_the_fault_kinds_are_the_documented_ones_in_order():
    table = re.search(r"## Faults\n\n(.*?)\n\n", DOC, re.S).group(1)
    assert re.findall(r"^\| `(\w+)`", table, re.M) == [kind.value for kind in FaultKind]
    assert tuple(FaultKind) == FAULTS
    assert {stage.value for stage in Stage} <= set(messages.TO_BOT)


def test_a_fault_kind_is_stored_as_the_same_string():
    record = GameRecord(
        "g",
        "1",
        {},
        1,
        2,
        [SeatRecord("a", 0, 2, 0, FaultKind.ILLEGAL, "x"), SeatRecord("b", 1, 1, 1)],
    )
    text = json.dumps(record.to_dict())
    assert '"fault": "illegal"' in text
    again = GameRecord.from_dict(json.loads(text))
    assert again.seats[0].fault == FaultKind.ILLEGAL and again.faults() == ["illegal"]
