"""Framing, the size cap checked before decoding, and the bot kit's loop."""

import io

import msgpack
import pytest

from arena import botkit
from arena.botkit import protocol


def test_frames_split_across_reads():
    data = protocol.encode({"type": "a", "x": 1}) + protocol.encode({"type": "b"})
    reader = protocol.FrameReader()
    got = []
    for i in range(len(data)):
        got += reader.feed(data[i : i + 1])
    assert got == [{"type": "a", "x": 1}, {"type": "b"}]


def test_oversized_header_is_refused_before_any_body_arrives():
    reader = protocol.FrameReader(cap=1000)
    with pytest.raises(protocol.ProtocolError, match="exceeds the cap"):
        reader.feed(protocol.HEADER.pack(2**31))


def test_a_stray_integer_key_is_read_like_any_unknown_key():
    # keys are strings (docs/protocol.md), but the referee reads a bot's map
    # whatever its keys and looks only at those it knows
    reply = {"type": "action", "action": "wheat", "debug": {0: 5, 1: 7}, 2: "x"}
    assert protocol.decode(msgpack.packb(reply)) == reply
    assert protocol.expect_action(protocol.decode(msgpack.packb(reply))) == "wheat"


def test_undecodable_or_typeless_frames_are_protocol_errors():
    with pytest.raises(protocol.ProtocolError, match="undecodable"):
        protocol.FrameReader().feed(protocol.HEADER.pack(1) + b"\xc1")
    body = msgpack.packb([1, 2])
    with pytest.raises(protocol.ProtocolError, match="not a map"):
        protocol.FrameReader().feed(protocol.HEADER.pack(len(body)) + body)


@pytest.mark.parametrize("action", [[1], 1.5, True, None, {"a": 1}])
def test_actions_must_be_strings_or_integers(action):
    with pytest.raises(protocol.ProtocolError):
        protocol.expect_action({"type": "action", "action": action})


def test_bot_kit_answers_hello_and_act_and_stops_at_goodbye():
    class First(botkit.Bot):
        def new_match(self, hello):
            self.seen = [hello["game"]]

        def new_game(self, game):
            self.seen.append(game["seat"])

        def act(self, observation, legal, clock):
            return legal[-1]

        def game_over(self, result):
            self.seen.append(result["ranks"])

    messages = [
        protocol.hello("g", {}, 2, 7, {"move": 1.0}),
        protocol.new_game(0, 1, 2, 11),
        protocol.act({"seat": 1}, ["a", "b"], 1.0, 0.0),
        protocol.game_over(1, [1, 0], [1, 2], {"seat": 1}),
        {"type": protocol.GOODBYE},
        protocol.act({"seat": 1}, ["never"], 1.0, 0.0),
    ]
    stdin = io.BytesIO(b"".join(map(protocol.encode, messages)))
    stdout = io.BytesIO()
    bot = First()
    botkit.run(bot, stdin, stdout)
    stdout.seek(0)
    assert protocol.read_message(stdout)["type"] == "ready"
    assert protocol.read_message(stdout) == {"type": "action", "action": "b"}
    assert protocol.read_message(stdout) is None
    assert bot.seen == ["g", 1, [1, 2]]


@pytest.mark.parametrize("kind", ["ready", "act", "abort", "actions"])
def test_a_reply_of_another_type_is_not_an_action_even_with_an_action_key(kind):
    with pytest.raises(
        protocol.ProtocolError, match=f"expected an 'action' message, got type '{kind}'"
    ):
        protocol.expect_action({"type": kind, "action": "wheat"})


def test_an_action_message_without_an_action_is_a_protocol_error_not_a_key_error():
    with pytest.raises(protocol.ProtocolError, match="expected an 'action' message"):
        protocol.expect_action({"type": "action"})


@pytest.mark.parametrize("action", ["wheat", 0, 7, -1])
def test_string_and_integer_actions_are_returned_as_sent(action):
    assert protocol.expect_action({"type": "action", "action": action}) == action


def test_messages_carry_their_fields_under_their_names():
    assert protocol.PROTOCOL_VERSION == 1  # docs/protocol.md: bots check it in hello
    assert protocol.hello("g", {"o": 1}, 3, 42, {"move": 1.0}) == {
        "type": "hello",
        "protocol": protocol.PROTOCOL_VERSION,
        "game": "g",
        "options": {"o": 1},
        "players": 3,
        "seed": 42,
        "limits": {"move": 1.0},
        "settings": {},
    }
    assert protocol.hello("g", {}, 2, 1, {}, {"iterations": 3})["settings"] == {"iterations": 3}
    assert protocol.new_game(5, 2, 3, 7) == {
        "type": "new_game",
        "index": 5,
        "seat": 2,
        "players": 3,
        "seed": 7,
    }
    assert protocol.act({"seat": 1}, ["a"], 0.5, 2.0) == {
        "type": "act",
        "observation": {"seat": 1},
        "legal": ["a"],
        "clock": {"move": 0.5, "bank": 2.0},
    }
    assert protocol.game_over(1, [3, 4], [2, 1], {"seat": 1}) == {
        "type": "game_over",
        "seat": 1,
        "scores": [3, 4],
        "ranks": [2, 1],
        "observation": {"seat": 1},
    }


def test_a_frame_is_a_four_byte_big_endian_length_then_the_body():
    body = msgpack.packb({"type": "ready"})
    assert protocol.encode({"type": "ready"}) == len(body).to_bytes(4, "big") + body


def test_a_frame_exactly_at_the_cap_is_accepted_and_one_byte_more_is_not():
    body = msgpack.packb({"type": "a", "pad": "x" * 20})
    reader = protocol.FrameReader(cap=len(body))
    assert reader.feed(protocol.encode({"type": "a", "pad": "x" * 20})) == [
        {"type": "a", "pad": "x" * 20}
    ]
    with pytest.raises(protocol.ProtocolError, match=f"exceeds the cap of {len(body) - 1}"):
        protocol.FrameReader(cap=len(body) - 1).feed(protocol.HEADER.pack(len(body)))


def test_a_header_waits_for_its_body_and_the_reader_keeps_what_follows():
    first, second = protocol.encode({"type": "a"}), protocol.encode({"type": "b"})
    reader = protocol.FrameReader()
    assert reader.feed(first[: protocol.HEADER.size]) == []
    assert reader.feed(first[protocol.HEADER.size :] + second[:2]) == [{"type": "a"}]
    assert reader.feed(second[2:]) == [{"type": "b"}]


def test_the_blocking_reader_returns_none_at_a_cut_stream():
    frame = protocol.encode({"type": "act", "legal": [1, 2]})
    assert protocol.read_message(io.BytesIO(frame)) == {"type": "act", "legal": [1, 2]}
    assert protocol.read_message(io.BytesIO(b"")) is None
    assert protocol.read_message(io.BytesIO(frame[:3])) is None
    assert protocol.read_message(io.BytesIO(frame[:-1])) is None
    stream = io.BytesIO()
    protocol.write_message(stream, {"type": "ready"})
    assert stream.getvalue() == protocol.encode({"type": "ready"})


def test_a_frame_in_progress_is_never_over_the_cap_whatever_the_cap():
    # 20 = 0b10100: a cap whose bits overlap the header's size
    body = msgpack.packb({"type": "a", "pad": "x" * 7})
    assert len(body) == 20
    frame = protocol.encode({"type": "a", "pad": "x" * 7})
    reader = protocol.FrameReader(cap=20)
    for end in range(1, len(frame)):
        assert protocol.FrameReader(cap=20).feed(frame[:end]) == []
    assert reader.feed(frame) == [{"type": "a", "pad": "x" * 7}]


def test_the_blocking_reader_reads_a_body_longer_than_small_integers():
    message = {"type": "act", "legal": list(range(300))}
    assert protocol.read_message(io.BytesIO(protocol.encode(message))) == message


def test_the_referee_takes_frames_of_up_to_1_mib_from_a_bot():
    # docs/protocol.md: a bot's frame longer than 1 MiB is refused unread
    assert protocol.FrameReader().feed(protocol.HEADER.pack(1 << 20)) == []
    with pytest.raises(protocol.ProtocolError, match="exceeds the cap of 1048576"):
        protocol.FrameReader().feed(protocol.HEADER.pack((1 << 20) + 1))
