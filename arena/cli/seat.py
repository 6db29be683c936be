"""A person's seat at the referee's table: the process behind ``arena play``.

The referee starts this like any bot (``python -m arena.cli.seat TTY
COLOURS``) and speaks the wire protocol on its pipes, through the bot kit.
The person is reached on their terminal, the device named by ``TTY``: each
``act`` first shows the end of any trick, turn or round finished since the
person's last move (until Enter), then draws the table (the game's drawing,
:mod:`arena.cli.views`), numbers the legal moves
and reads a choice -- a number, or the move as written or as shown, in
any case and spacing (``blue 6``, ``blue6``) -- asking again, politely,
until it is one of them; then Enter sends it, or ``u`` takes it back.  The process lives in a session of its
own, so Ctrl-C reaches only ``arena play``, which ends the match.  End of
input (Ctrl-D) leaves the table: the referee then plays the seat out.
"""

from __future__ import annotations

import os
import sys
from typing import Literal

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape

from arena.botkit import Bot, run
from arena.cli.views import View, drawing_for, plain, render_table, view_for

#: the answers that take a chosen move back before it is sent
UNDO = ("u", "undo", "n", "no")
#: legal lists longer than this are shown in part (``?`` shows them all)
SHOWN = 60
#: a move limit at least this long is "no limit" and not mentioned
NO_LIMIT = 3600.0
#: the colour systems ``arena play`` may name (rich's ``Console().color_system``);
#: any other, such as "none", is no colour
COLOUR_SYSTEMS: dict[str, Literal["standard", "256", "truecolor", "windows"]] = {
    name: name for name in ("standard", "256", "truecolor", "windows")
}


class HumanSeat(Bot):
    name = "human"

    def __init__(self, tty_in, console: Console):
        self.tty_in = tty_in
        self.console = console
        self.view = View(0)
        self.drawing = None
        self.ended: list[str] = []  # the last trick or round end the person has seen

    def new_match(self, hello):
        self.game = hello["game"]
        self.view = view_for(self.game, hello["players"])

    def new_game(self, game):
        self.seat = game["seat"]
        self.drawing = drawing_for(self.game, game["players"], self.seat)
        self.ended = []
        self.console.rule(
            f"[bold]{escape(self.game)}[/] — game {game['index'] + 1}, "
            f"you are seat {self.seat} of {game['players']}"
        )

    def act(self, observation, legal, clock):
        self._fit()
        self._pause_on_end(observation)
        self.console.print()
        self._show(observation)
        self._menu(legal, SHOWN)
        if clock["move"] < NO_LIMIT:
            self.console.print(f"[dim]You have {clock['move']:g}s (+{clock['bank']:g}s bank).[/]")
        while True:
            text = self._ask(legal)
            if text == "?":
                self._menu(legal, len(legal))
                continue
            choice = self._choose(text, legal)
            if choice is not None and self._confirm(choice):
                return choice
            if choice is not None:
                self.console.print("Taken back: choose again.")
                continue
            self.console.print(
                f"Sorry, [bold]{escape(text)}[/] is not one of your moves: type a "
                f"number from 1 to {len(legal)}, or the move as written."
            )

    def game_over(self, result):
        self._fit()
        self.console.print()
        self._show(result["observation"])
        seat = result["seat"]
        scores = ", ".join(
            f"{self.view.seat_name(s, seat)} {score:g} (#{rank})"
            for s, (score, rank) in enumerate(zip(result["scores"], result["ranks"]))
        )
        self.console.print(f"[bold]Game over[/]: {scores}")

    # -- the terminal ----------------------------------------------------
    def _show(self, observation) -> None:
        """The table as the game's drawing draws it (else the view's lines)."""
        if self.drawing is not None:
            lines = render_table(self.drawing.draw({self.seat: observation}), self.seat)
        else:
            lines = self.view.show(observation)
        for line in lines:
            self.console.print(line)

    def _pause_on_end(self, observation) -> None:
        """A trick, turn or round finished since the person's last move: its
        end (who won it, the score) on a screen of its own, until Enter."""
        ended: list[str] = self.drawing.ended(observation) if self.drawing is not None else []
        if not ended or ended == self.ended:
            return
        self.ended = ended
        self.console.print()
        for line in ended:
            self.console.print(f"[bold green]{escape(line)}[/]")
        self.console.print("[bold]Enter[/] goes on: ", end="")
        self.console.file.flush()
        if not self.tty_in.readline():
            raise SystemExit(0)  # Ctrl-D: the person left the table

    def _confirm(self, choice) -> bool:
        """Enter sends the chosen move; ``u`` takes it back (a mistyped move
        is undone before the referee hears of it)."""
        self.console.print(
            f"You play {self.view.label(choice)} — [bold]Enter[/] sends it, [bold]u[/] takes "
            "it back: ",
            end="",
        )
        self.console.file.flush()
        line = self.tty_in.readline()
        if not line:
            raise SystemExit(0)  # Ctrl-D: the person left the table
        return line.strip().lower() not in UNDO

    def _fit(self) -> None:
        try:
            self.console.width = os.get_terminal_size(self.tty_in.fileno()).columns
        except OSError:
            pass

    def _menu(self, legal, shown: int) -> None:
        if all(isinstance(a, int) for a in legal):
            self.console.print(f"Bid from {min(legal)} to {max(legal)}.")
            return
        items = [f"[dim]{n:>3})[/] {self.view.label(a)}" for n, a in enumerate(legal[:shown], 1)]
        self.console.print(Columns(items, padding=(0, 3)))
        if len(legal) > shown:
            self.console.print(
                f"... and {len(legal) - shown} more: type ? to list them all, or type the move."
            )

    def _ask(self, legal) -> str:
        what = "Your bid" if all(isinstance(a, int) for a in legal) else "Your move"
        self.console.print(f"[bold]{what}[/] (number or move): ", end="")
        self.console.file.flush()
        line = self.tty_in.readline()
        if not line:
            raise SystemExit(0)  # Ctrl-D: the person left the table
        return line.strip()

    def _choose(self, text: str, legal: list):
        if not text:
            return None
        if all(isinstance(a, int) for a in legal):
            return int(text) if text.isdigit() and int(text) in legal else None
        if text.isdigit():
            number = int(text)
            return legal[number - 1] if 1 <= number <= len(legal) else None
        typed = self.view.normalize(text)
        exact = next((a for a in legal if str(a) == typed), None)
        if exact is not None:
            return exact
        # as shown (its label) or as written, in any case and spacing
        key = plain(text)
        if not key:
            return None
        return next(
            (a for a in legal if key in (plain(escape(str(a))), plain(self.view.label(a)))), None
        )


def main(argv: list[str]) -> None:
    tty, colours = argv
    fd = os.open(tty, os.O_RDWR | os.O_NOCTTY)  # never become its controlling terminal
    tty_in = os.fdopen(fd, "r", encoding="utf-8", errors="replace")
    tty_out = os.fdopen(os.dup(fd), "w", encoding="utf-8")
    console = Console(
        file=tty_out, force_terminal=True, highlight=False, color_system=COLOUR_SYSTEMS.get(colours)
    )
    wire = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the wire
    run(HumanSeat(tty_in, console), stdout=wire)


if __name__ == "__main__":
    main(sys.argv[1:])
