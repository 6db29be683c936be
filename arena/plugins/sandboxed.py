"""Discovering third-party bot plugins without running their code here.

A bot distribution's plugin module is code by the bot's author, and
importing it in the arena process would run it as the arena's user (root, on
a tournament host) before any sandbox exists.  So each such distribution's
plugins are loaded by :mod:`arena.plugins.host` in a child process inside the
bot sandbox (the same level the bots get), which answers with the launch
specs as plain JSON.  Here that answer is checked like any untrusted input:
a plugin that fails, hangs, floods or lies costs one warning line, never the
arena.

Children for several distributions run at the same time, so start-up grows
by about one sandboxed interpreter start, not one per distribution.
"""

from __future__ import annotations

import json
import os
import select
import sys
import time
from dataclasses import dataclass, fields

from arena.plugins.botspec import BotSpec, BotSpecError

#: how long a distribution's plugins may take to register, and answer at most
TIMEOUT = 10.0
MAX_ANSWER = 1 << 20
SPEC_FIELDS = {f.name for f in fields(BotSpec)}


def host_argv(distribution: str) -> list[str]:
    """The child's command: ``-I`` so the script's own folder (the arena
    package, whose ``bots.py`` would shadow a top-level ``bots``) is not on
    its path."""
    from arena.sandbox.view import PLUGIN_HOST

    return [sys.executable, "-I", PLUGIN_HOST, distribution]


@dataclass
class Discovery:
    """What one distribution's plugins registered: (plugin, spec) pairs, and
    one line per thing that went wrong."""

    bots: list[tuple[str, BotSpec]]
    errors: list[str]


def discover(distributions: list[str], level: str | None = None) -> dict[str, Discovery]:
    """Load each distribution's bot plugins in a sandboxed child of its own."""
    from arena.sandbox import BotProcess, ResourceLimits, SandboxError
    from arena.sandbox.layers import choose_level

    limits = ResourceLimits(
        memory=1 << 30, cpu_seconds=int(TIMEOUT) + 1, processes=16, disk=8 << 20, output=16 << 10
    )
    level = choose_level(level)
    started, found = {}, {}
    for name in distributions:
        try:
            started[name] = BotProcess(host_argv(name), limits, level)
        except SandboxError as error:
            found[name] = Discovery(
                [], [f"distribution '{name}': cannot start its plugin sandbox: {error}"]
            )
    deadline = time.monotonic() + TIMEOUT
    for name, process in started.items():
        try:
            answer = _read_line(process.pipes()[1].fileno(), deadline)
        finally:
            process.kill()
        found[name] = _parse(name, answer)
    return found


def _read_line(fd: int, deadline: float) -> bytes | None:
    """The child's first line, or None when it did not give one in time or
    within :data:`MAX_ANSWER` bytes."""
    data = b""
    while b"\n" not in data:
        # past the deadline, what is already there still counts: the children
        # run at once, and one that answered while another hung is not late
        left = max(0.0, deadline - time.monotonic())
        if len(data) > MAX_ANSWER or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        data += chunk
    return data.split(b"\n", 1)[0] if b"\n" in data else data


def _parse(dist: str, answer: bytes | None) -> Discovery:
    where = f"distribution '{dist}'"
    if answer is None:
        return Discovery(
            [],
            [
                f"{where}: its plugins gave no answer within {TIMEOUT:g}s "
                f"(or too long a one); its bots are not registered"
            ],
        )
    try:
        data = json.loads(answer)
        bots, games, errors = data["bots"], data["games"], data["errors"]
        if not (isinstance(bots, list) and isinstance(games, list) and isinstance(errors, list)):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        if not answer:
            return Discovery(
                [], [f"{where}: its plugins crashed before answering; its bots are not registered"]
            )
        return Discovery(
            [], [f"{where}: its plugins answered garbage; its bots are not registered"]
        )
    result = Discovery([], [_short(f"{where}: {error}") for error in errors])
    if games:
        result.errors.append(
            _short(
                f"{where}: a bot distribution may not add games ({', '.join(map(str, games))}): "
                "game engines load in the arena only through the "
                "'arena.engines' entry-point group; ignored"
            )
        )
    for item in bots:
        try:
            result.bots.append(_spec(dist, item))
        except (BotSpecError, TypeError, ValueError) as error:
            result.errors.append(_short(f"{where}: {error}"))
    return result


def _spec(dist: str, item) -> tuple[str, BotSpec]:
    """A launch spec from the child's plain data, every field type-checked,
    and a Python bot's module one of the distribution's own."""
    from arena.sandbox.view import owns, provides

    if not isinstance(item, dict) or not isinstance(item.get("plugin"), str):
        raise TypeError("a bot that is not a launch spec; ignored")
    plugin = item.pop("plugin")
    if set(item) - SPEC_FIELDS or not isinstance(item.get("name"), str):
        raise TypeError(f"plugin '{plugin}': a bot that is not a launch spec; ignored")
    values = {}
    for key, value in item.items():
        if key in ("games", "command", "files"):
            if not (value is None and key == "command") and not (
                isinstance(value, list) and all(isinstance(v, str) for v in value)
            ):
                raise TypeError(
                    f"plugin '{plugin}': bot '{item['name']}': {key} must be a list "
                    "of strings; ignored"
                )
            value = None if value is None else tuple(value)
        elif key == "ask_forced":
            if not isinstance(value, bool):
                raise TypeError(
                    f"plugin '{plugin}': bot '{item['name']}': {key} must be true or false; ignored"
                )
        elif not (isinstance(value, str) or (value is None and key == "entry")):
            raise TypeError(
                f"plugin '{plugin}': bot '{item['name']}': {key} must be a string; ignored"
            )
        values[key] = value
    spec = BotSpec(**values)
    where = f"plugin '{plugin}': bot '{spec.name}'"
    if spec.entry is not None and not provides(dist, spec.entry.split(":")[0].split(".")[0]):
        raise ValueError(f"{where}: entry {spec.entry!r} is not a module of '{dist}'; ignored")
    # what a bot may read beyond its own files is the operator's to say
    if spec.files:
        raise ValueError(
            f"{where}: a plugin may not list files (the tournament file's 'files' does); ignored"
        )
    # a path that does not exist yet (a results folder a run will make) is
    # refused too: at launch it would be bound into the bot's view
    foreign = [
        arg
        for arg in spec.command or ()
        if os.path.isabs(arg) and not (os.path.exists(arg) and owns(dist, arg))
    ]
    if foreign:
        raise ValueError(
            f"{where}: its command names {foreign[0]!r}, not a file of '{dist}'; ignored"
        )
    return plugin, spec


def _short(line: str, width: int = 300) -> str:
    """One line of at most ``width`` characters (texts from a plugin)."""
    line = " ".join(str(line).split())
    return line if len(line) <= width else line[: width - 3] + "..."
