"""arena.match.connection on its own: the referee's end of a bot's pipes, with the
test holding the bot's ends of real OS pipes, so every partial read, partial
write, stderr flood, end of stream and unasked frame is made on purpose."""

import fcntl
import os
import subprocess
import threading
import time
from types import SimpleNamespace

import pytest

from arena.botkit import protocol
from arena.match.connection import CRASH_CHARS, Channel, Fault, PollSet, exchange, stderr_tail


class FakeBot:
    """A bot process as Channel sees it: three pipes and a wait()."""

    def __init__(self, status=None, exits_after=0.0):
        self.stdin, stdin_w = os.pipe()  # the bot reads what the referee writes
        stdout_r, self.stdout = os.pipe()  # the bot writes its answers here
        stderr_r, self.stderr = os.pipe()
        self.status = status
        self.exits_after = exits_after  # seconds from its crash to its exit
        self.waited = []  # the timeout of every wait() for its status
        self.popen = SimpleNamespace(
            stdin=open(stdin_w, "wb", buffering=0),
            stdout=open(stdout_r, "rb", buffering=0),
            stderr=open(stderr_r, "rb", buffering=0),
            wait=self._wait,
        )

    def _wait(self, timeout=None):
        self.waited.append(timeout)
        if self.status is None or (timeout is not None and timeout < self.exits_after):
            raise subprocess.TimeoutExpired("bot", timeout)
        return self.status

    def say(self, message):
        os.write(self.stdout, protocol.encode(message))

    def read_frame(self):
        """One whole frame of what the referee sent (blocking)."""
        header = _read_exactly(self.stdin, protocol.HEADER.size)
        (length,) = protocol.HEADER.unpack(header)
        return header + _read_exactly(self.stdin, length)


def roomy(fd, size=1 << 20):
    """Let a pipe hold ``size`` bytes, so one write can put more in it than
    the referee takes in one read (64 KiB)."""
    fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size)
    assert fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ) >= size


def _read_exactly(fd, size):
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        assert chunk, "the referee closed the pipe early"
        data += chunk
    return data


def later(seconds, action):
    thread = threading.Thread(target=lambda: (time.sleep(seconds), action()))
    thread.start()
    return thread


def soon(seconds=2.0):
    return time.monotonic() + seconds


ACTION = {"type": "action", "action": "wheat"}


def test_send_writes_one_frame_exactly():
    bot = FakeBot()
    channel = Channel(bot)
    channel.send(protocol.new_game(3, 1, 2, 99))
    frame = bot.read_frame()
    assert frame == protocol.encode(protocol.new_game(3, 1, 2, 99))
    assert not channel.asked and channel.fault is None


def test_an_answer_split_across_reads_is_one_message():
    bot = FakeBot()
    channel = Channel(bot)
    channel.ask({"type": "act"})
    frame = protocol.encode(ACTION)
    os.write(bot.stdout, frame[:3])  # not even a whole header yet
    writer = later(0.05, lambda: os.write(bot.stdout, frame[3:]))
    result = exchange({"a": (channel, soon())})
    writer.join()
    assert result["a"][0] == ACTION
    assert not channel.asked  # the answer owed was given


def test_a_question_larger_than_the_pipe_is_written_in_parts_without_losing_a_byte():
    bot = FakeBot()
    channel = Channel(bot)
    question = protocol.act({"table": "x" * 300_000}, ["wheat"], 1.0, 0.0)
    received = []

    def bot_side():
        received.append(bot.read_frame())
        bot.say(ACTION)

    thread = threading.Thread(target=bot_side)
    channel.ask(question)  # more than a pipe holds: the rest waits
    assert channel._outbox, "the test needs a write the pipe cannot take at once"
    thread.start()
    result = exchange({"a": (channel, soon())})
    thread.join()
    assert received == [protocol.encode(question)]
    assert result["a"][0] == ACTION


def test_a_message_sent_while_an_earlier_one_waits_goes_after_it_whole():
    bot = FakeBot()
    channel = Channel(bot)
    first = protocol.game_over(0, [1], [1], {"table": "x" * 300_000})
    second = protocol.new_game(1, 0, 1, 7)
    channel.send(first)  # more than the pipe holds: its rest waits
    assert channel._outbox, "the test needs a write the pipe cannot take at once"
    head = _read_exactly(bot.stdin, 1 << 14)  # room in the pipe again
    channel.send(second)  # written at once, it would land inside the first
    whole = protocol.encode(first) + protocol.encode(second)
    received = []
    reader = threading.Thread(
        target=lambda: received.append(_read_exactly(bot.stdin, len(whole) - len(head)))
    )
    reader.start()
    while channel._outbox:
        PollSet().wait([channel], 1.0)
    reader.join()
    assert head + received[0] == whole


def test_stderr_is_kept_up_to_its_cap_and_drained_beyond():
    bot = FakeBot()
    channel = Channel(bot, stderr_cap=10)
    channel.ask({"type": "act"})
    os.write(bot.stderr, b"0123456")
    writer = later(
        0.05, lambda: (os.write(bot.stderr, b"789abcdef"), time.sleep(0.05), bot.say(ACTION))
    )
    result = exchange({"a": (channel, soon())})
    writer.join()
    assert result["a"][0] == ACTION
    assert channel.stderr_text() == "0123456789"


def test_stderr_below_its_cap_is_kept_whole():
    bot = FakeBot()
    channel = Channel(bot, stderr_cap=100)
    channel.ask({"type": "act"})
    os.write(bot.stderr, b"thinking...\n")
    writer = later(0.05, lambda: bot.say(ACTION))
    exchange({"a": (channel, soon())})
    writer.join()
    assert channel.stderr_text() == "thinking...\n"


def test_end_of_output_is_a_crash_with_exit_status_and_last_words():
    bot = FakeBot(status=3)
    channel = Channel(bot, stderr_cap=0)  # the tail is kept apart from the capped head
    channel.ask({"type": "act"})
    os.write(bot.stderr, b'Traceback (most recent call last):\n  File "bot.py"\nValueError: boom\n')
    os.close(bot.stdout)
    [(fault, _)] = exchange({"a": (channel, soon())}).values()
    assert fault.kind == "crash"
    assert fault.detail == (
        "closed its output, exit status 3: Traceback (most recent call "
        'last): | File "bot.py" | ValueError: boom'
    )
    assert channel.stderr_text() == ""


def test_a_crash_waits_a_moment_for_the_exit_status_and_never_long():
    dying = FakeBot(status=3, exits_after=0.1)  # exits a moment after closing its output
    channel = Channel(dying)
    channel.ask({"type": "act"})
    os.close(dying.stdout)
    [(fault, _)] = exchange({"a": (channel, soon())}).values()
    assert fault == Fault("crash", "closed its output, exit status 3")
    living = FakeBot(status=None)  # closed its output but lives on
    channel = Channel(living)
    channel.ask({"type": "act"})
    os.close(living.stdout)
    [(fault, _)] = exchange({"a": (channel, soon())}).values()
    assert fault == Fault("crash", "closed its output")
    [timeout] = living.waited  # the referee is held up once, briefly
    assert timeout is not None and 0.1 <= timeout <= 0.5


def test_by_default_the_first_64_kib_of_stderr_are_kept():
    bot = FakeBot()
    roomy(bot.stderr)
    channel = Channel(bot)
    channel.ask({"type": "act"})
    flood = bytes(range(256)) * 300  # 76800 bytes, more than one read takes
    assert os.write(bot.stderr, flood) == len(flood)
    os.close(bot.stderr)

    def answer_once_stderr_is_drained():
        while channel._stderr_open:
            time.sleep(0.005)
        bot.say(ACTION)

    writer = later(0, answer_once_stderr_is_drained)
    assert exchange({"a": (channel, soon())})["a"][0] == ACTION
    writer.join()
    assert bytes(channel.stderr) == flood[: 64 << 10]


def test_an_unasked_frame_longer_than_one_read_is_still_found_before_the_question():
    bot = FakeBot()
    roomy(bot.stdout)
    big = {"type": "action", "action": "x" * 100_000}
    bot.say(big)  # all of it in the pipe at once
    channel = Channel(bot)
    channel.ask({"type": "act"})
    assert channel.fault == Fault("protocol", "sent a 'action' message nobody asked for")
    assert not channel.asked


def test_a_bot_that_closed_its_input_is_a_crash():
    bot = FakeBot()
    channel = Channel(bot)
    os.close(bot.stdin)
    channel.send({"type": "goodbye"})
    assert channel.fault is not None and channel.fault.kind == "crash"
    assert channel.fault.detail.startswith("closed its input")


def test_silence_until_the_deadline_is_a_timeout():
    bot = FakeBot()
    channel = Channel(bot)
    channel.ask({"type": "act"})
    started = time.monotonic()
    [(fault, at)] = exchange({"a": (channel, started + 0.1)}).values()
    assert fault == Fault("timeout", "no answer before the deadline")
    assert at - started >= 0.1


def test_a_deadline_object_is_asked_when_it_has_passed():
    class TwoLooks:
        def __init__(self):
            self.looks = 0

        def expired(self, now):
            self.looks += 1
            return self.looks > 2

        def wake(self, now):
            return now + 0.01

    bot = FakeBot()
    channel = Channel(bot)
    channel.ask({"type": "act"})
    deadline = TwoLooks()
    [(fault, _)] = exchange({"a": (channel, deadline)}).values()
    assert fault.kind == "timeout" and deadline.looks == 3


def test_a_frame_sent_before_the_question_is_a_protocol_fault_and_the_question_is_not_sent():
    bot = FakeBot()
    channel = Channel(bot)
    bot.say(ACTION)  # an answer sent ahead
    time.sleep(0.01)
    channel.ask({"type": "act"})
    assert channel.fault == Fault("protocol", "sent a 'action' message nobody asked for")
    assert not channel.asked
    os.set_blocking(bot.stdin, False)
    with pytest.raises(BlockingIOError):
        os.read(bot.stdin, 1)


def test_two_answers_to_one_question_are_a_protocol_fault():
    bot = FakeBot()
    channel = Channel(bot)
    channel.ask({"type": "act"})
    os.write(bot.stdout, protocol.encode(ACTION) * 2)
    [(fault, _)] = exchange({"a": (channel, soon())}).values()
    assert fault == Fault("protocol", "sent more than one message")


def test_an_oversized_frame_is_a_protocol_fault():
    bot = FakeBot()
    channel = Channel(bot, frame_cap=16)
    channel.ask({"type": "act"})
    os.write(bot.stdout, protocol.HEADER.pack(17))
    [(fault, _)] = exchange({"a": (channel, soon())}).values()
    assert fault.kind == "protocol" and "exceeds the cap of 16" in fault.detail


def test_after_its_answer_a_further_frame_is_unasked():
    bot = FakeBot()
    channel = Channel(bot)
    channel.ask({"type": "act"})
    bot.say(ACTION)
    assert exchange({"a": (channel, soon())})["a"][0] == ACTION
    bot.say(ACTION)  # a late second answer
    time.sleep(0.01)
    channel.ask({"type": "act"})
    assert channel.fault is not None and "nobody asked for" in channel.fault.detail


def test_simultaneous_movers_each_get_their_own_answer():
    first, second = FakeBot(), FakeBot()
    a, b = Channel(first), Channel(second)
    a.ask({"type": "act"})
    b.ask({"type": "act"})
    writer = later(
        0.05,
        lambda: (
            second.say({"type": "action", "action": 2}),
            first.say({"type": "action", "action": 1}),
        ),
    )
    results = exchange({0: (a, soon()), 1: (b, soon())})
    writer.join()
    assert results[0][0]["action"] == 1 and results[1][0]["action"] == 2


class RecordedPolls(PollSet):
    """A PollSet that notes how long each wait may sleep, and runs the next
    of ``before_waits`` (what a bot does meanwhile) before each wait."""

    def __init__(self, before_waits=()):
        super().__init__()
        self.timeouts = []
        self._before = list(before_waits)

    def wait(self, channels, timeout):
        self.timeouts.append(timeout)
        if self._before:
            self._before.pop(0)()
        super().wait(channels, timeout)


def test_every_mover_gets_its_answer_or_its_timeout_and_no_wait_outlasts_the_nearest_deadline():
    bots = [FakeBot(), FakeBot(), FakeBot()]
    early, late, silent = channels = [Channel(bot) for bot in bots]
    for channel in channels:
        channel.ask({"type": "act"})
    bots[0].say({"type": "action", "action": 0})  # before the wait begins
    # the second mover answers during the second wait; the third never does
    polls = RecordedPolls([lambda: None, lambda: bots[1].say({"type": "action", "action": 1})])
    started = time.monotonic()
    results = exchange(
        {"early": (early, soon()), "late": (late, soon()), "silent": (silent, started + 0.3)},
        polls=polls,
    )
    assert {key: reply for key, (reply, _) in results.items()} == {
        "early": {"type": "action", "action": 0},
        "late": {"type": "action", "action": 1},
        "silent": Fault("timeout", "no answer before the deadline"),
    }
    assert len(polls.timeouts) >= 3 and all(0 <= t <= 0.3 for t in polls.timeouts)


def test_the_crash_detail_quotes_the_end_of_stderr_only():
    bot = FakeBot(status=1)
    roomy(bot.stderr)
    channel = Channel(bot, stderr_cap=0)
    channel.ask({"type": "act"})
    # words, then 10 KB of lines that say nothing, then the last words
    os.write(bot.stderr, b"early words\n" + b"}\n" * 5000 + b"Error: last\n")
    os.close(bot.stdout)
    [(fault, _)] = exchange({"a": (channel, soon())}).values()
    assert fault == Fault("crash", "closed its output, exit status 1: Error: last")


def test_a_bystander_that_speaks_is_faulted_and_its_stderr_is_drained():
    mover, bystander = FakeBot(), FakeBot()
    asked, other = Channel(mover), Channel(bystander, stderr_cap=100)
    asked.ask({"type": "act"})
    os.write(bystander.stderr, b"psst\n")
    bystander.say(ACTION)
    writer = later(0.1, lambda: mover.say(ACTION))
    results = exchange({"a": (asked, soon())}, [other])
    writer.join()
    assert results == {"a": (ACTION, results["a"][1])}
    assert other.fault == Fault("protocol", "sent a 'action' message nobody asked for")
    assert other.stderr_text() == "psst\n"
    assert asked.fault is None


def test_a_bystanders_pending_input_is_flushed_meanwhile():
    mover, bystander = FakeBot(), FakeBot()
    asked, other = Channel(mover), Channel(bystander)
    big = {"type": "game_over", "observation": {"log": "y" * 200_000}}
    other.send(big)
    assert other._outbox
    received = []
    reader = threading.Thread(target=lambda: received.append(bystander.read_frame()))
    reader.start()
    asked.ask({"type": "act"})
    writer = later(0.2, lambda: mover.say(ACTION))
    exchange({"a": (asked, soon())}, [other])
    writer.join()
    reader.join(2)
    assert received == [protocol.encode(big)]


def test_stderr_tail_keeps_the_last_lines_with_words():
    text = "\n".join(
        ["one", "two", "    at f (x.js:1:2)", "}", "three", "four", "five", "Error: six"]
    )
    assert stderr_tail(text) == "two | three | four | five | Error: six"
    assert stderr_tail(text, lines=2) == "five | Error: six"


def test_stderr_tail_is_cut_from_the_front():
    tail = stderr_tail("x" * 1000 + "END")
    assert len(tail) == CRASH_CHARS and tail.startswith("...") and tail.endswith("END")
    assert stderr_tail("y" * CRASH_CHARS) == "y" * CRASH_CHARS


def test_a_deadline_that_wakes_in_the_past_is_looked_at_again_at_once():
    class Late:
        """Passed on its second look; asks to be woken a second ago."""

        def __init__(self):
            self.looks = 0

        def expired(self, now):
            self.looks += 1
            return self.looks > 1

        def wake(self, now):
            return now - 1.0

    bot = FakeBot()
    channel = Channel(bot)
    channel.ask({"type": "act"})
    writer = later(0.5, lambda: bot.say(ACTION))  # what a blocking poll would wait for
    [(reply, _)] = exchange({"a": (channel, Late())}).values()
    writer.join()
    assert reply == Fault("timeout", "no answer before the deadline")
