"""Bot text made inert: what a bot wrote, safe to store, log and print.

A bot's stderr, the fault details quoting it and any other string a bot
chose reach ``tournament.log``, the store, ``arena replay`` and ``arena
match`` output, and so an operator's terminal.  Control characters there
are commands to the terminal (ESC sequences that retitle the window or
write the clipboard with OSC 52, BEL, a carriage return that overwrites a
line), so they are removed where bot text enters the arena: every C0
control but tab and newline, DEL, and the C1 controls U+0080-U+009F.
"""

from __future__ import annotations

#: code points removed: C0 but tab and newline, DEL, C1
_CONTROLS = dict.fromkeys(
    [c for c in range(0x20) if chr(c) not in "\t\n"] + list(range(0x7F, 0xA0))
)


def inert(text: str) -> str:
    """``text`` without its control characters (tab and newline kept)."""
    return text.translate(_CONTROLS)


__all__ = ["inert"]
