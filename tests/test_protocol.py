"""Framing, the size cap checked before decoding, and the bot kit's loop."""

import io

import msgpack
import pytest

from arena import botkit, protocol


def test_frames_split_across_reads():
    data = protocol.encode({"type": "a", "x": 1}) + protocol.encode({"type": "b"})
    reader = protocol.FrameReader()
    got = []
    for i in range(len(data)):
        got += reader.feed(data[i:i + 1])
    assert got == [{"type": "a", "x": 1}, {"type": "b"}]


def test_oversized_header_is_refused_before_any_body_arrives():
    reader = protocol.FrameReader(cap=1000)
    with pytest.raises(protocol.ProtocolError, match="exceeds the cap"):
        reader.feed(protocol.HEADER.pack(2**31))


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
