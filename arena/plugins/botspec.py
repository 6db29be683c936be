"""What a bot is to the arena: a launch spec, never its code.

A plugin registers :class:`BotSpec` values; the referee turns one into a
command line and runs it in a sandboxed subprocess.  Python bots name a
``module:Class`` that the bot kit (:mod:`arena.botkit`) loads *in the bot's own
process*; any other program is a plain command.  ``cmd:COMMAND LINE`` on the
command line or in a tournament file makes a spec on the fly.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass

ANY_GAME = "*"
COMMAND_PREFIX = "cmd:"
#: programs whose first non-option argument is a script file to run
INTERPRETERS = re.compile(
    r"(python|pypy|node|nodejs|deno|bun|ruby|perl|php|lua|bash|sh|dash)"
    r"[0-9.]*$"
)
#: interpreter options after which the code is inline or a module, not a file
INLINE_CODE = {"-c", "-m", "-e", "--eval", "-p", "--print", "-E", "eval"}
#: what makes an argument look like a script file (``dev`` in ``python -X dev``
#: does not): a folder separator or a file extension
SCRIPT = re.compile(r"[/\\]|\.[A-Za-z]{1,4}$")


class BotSpecError(ValueError):
    """A bot spec that cannot be launched as written."""


@dataclass(frozen=True)
class BotSpec:
    """How to start a bot and which games it plays.

    Exactly one of ``entry`` (``"package.module:Class"``, run by the bot kit)
    and ``command`` (an argv list) is set.  ``games`` holds game ids, or ``"*"``
    for a bot that plays any game.
    """

    name: str
    games: tuple[str, ...] = (ANY_GAME,)
    entry: str | None = None
    command: tuple[str, ...] | None = None
    version: str = "0"
    description: str = ""
    #: host paths the bot may read besides its own distribution or its
    #: command's files (the tournament file's ``files``; strict sandbox)
    files: tuple[str, ...] = ()
    #: False: when the bot has a single legal action the referee plays it
    #: without asking (no ``act``, no round trip; docs/protocol.md), for a
    #: bot whose ``act`` returns the only action at once, drawing no chance
    #: and keeping nothing, so its games are the same either way
    ask_forced: bool = True

    def __post_init__(self):
        if (self.entry is None) == (self.command is None):
            raise BotSpecError(f"bot '{self.name}': give exactly one of entry or command")
        if self.entry is not None and ":" not in self.entry:
            raise BotSpecError(
                f"bot '{self.name}': entry must be 'module:Class', got {self.entry!r}"
            )
        if self.command is not None and not self.command:
            raise BotSpecError(f"bot '{self.name}': empty command")

    def plays(self, game_id: str) -> bool:
        return ANY_GAME in self.games or game_id in self.games

    def argv(self) -> list[str]:
        """The command line that starts this bot."""
        if self.entry is not None:
            return [sys.executable, "-m", "arena.botkit", self.entry]
        assert self.command is not None, "a spec has an entry or a command"
        return list(self.command)

    @classmethod
    def from_command(
        cls, text: str, name: str | None = None, files: tuple[str, ...] = ()
    ) -> BotSpec:
        """A spec for ``cmd:COMMAND LINE`` (the prefix is optional here).

        A bot runs in a private working folder, so every argument naming an
        existing file relative to the current folder is made absolute:
        ``cmd:python mybot.py`` works from where the user typed it."""
        line = text[len(COMMAND_PREFIX) :] if text.startswith(COMMAND_PREFIX) else text
        try:
            argv = tuple(
                os.path.abspath(arg) if os.path.exists(arg) and not os.path.isabs(arg) else arg
                for arg in shlex.split(line)
            )
        except ValueError as error:
            raise BotSpecError(f"bot {text!r}: {error}") from None
        if not argv:
            raise BotSpecError(f"bot {text!r}: empty command")
        problem = launch_problem(argv)
        if problem:
            raise BotSpecError(f"bot {text!r}: {problem}")
        return cls(
            name=name or text,
            command=argv,
            version="cmd",
            description=line,
            files=tuple(os.path.abspath(f) for f in files),
        )


def launch_problem(argv: tuple[str, ...]) -> str | None:
    """Why ``argv`` cannot start, checked before any game runs (else every
    game of a match or tournament would end in the same ``crash``): the
    program exists and is executable, a bare name is found on the bot's own
    PATH (:func:`arena.sandbox.process.bot_path`, not the user's), and an
    interpreter's script file exists.  None when it can start.

    Files the command names are made visible to the strict sandbox by
    :func:`arena.sandbox.bubblewrap.readonly_paths`, and the bot's PATH holds
    only system folders and the arena's interpreter, so a program that passes
    here is also one the sandbox can see."""
    from arena.sandbox.process import bot_path  # not at import: the plugin host has no sandbox

    program = argv[0]
    if os.sep in program:
        if not os.path.exists(program):
            return f"{program} does not exist"
        if not os.path.isfile(program) or not os.access(program, os.X_OK):
            return f"{program} is not an executable file (chmod +x it, or name its interpreter)"
    elif shutil.which(program, path=bot_path()) is None:
        return f"'{program}' is not found on the bot's PATH ({bot_path()})"
    if INTERPRETERS.match(os.path.basename(program)):
        for arg in argv[1:]:
            if arg in INLINE_CODE:
                break
            if arg.startswith("-"):
                continue
            if SCRIPT.search(arg) and not os.path.isfile(arg):
                return f"script {arg} does not exist (relative paths are from {os.getcwd()})"
            break
    return None
