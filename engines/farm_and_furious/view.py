"""How ``arena play`` draws Farm & Furious for a person (the ``view`` part of the
game's unit; :mod:`arena.cli.views` has the base and the fallback)."""

from __future__ import annotations

from arena.cli.views import View, grid

ANIMAL_STYLE = {
    "dog": "bold red",
    "hen": "bold yellow",
    "duckling": "bold bright_yellow",
    "rabbit": "bold white",
    "whistle": "bold cyan",
    "rooster": "bold magenta",
}


class FarmAndFuriousView(View):
    def label(self, card):
        return f"[{ANIMAL_STYLE.get(card, 'bold')}]{card.capitalize()}[/]"

    def show(self, observation):
        me, finish = observation["seat"], observation["finish"]
        table = grid("", "position", "face up")
        for seat, position in enumerate(observation["positions"]):
            bar = "█" * min(position, finish) + "·" * max(0, finish - position)
            face_up = " ".join(self.label(c) for c in observation["face_up"][seat]) or "-"
            table.add_row(self.seat_name(seat, me), f"{bar} {position}", face_up)
        lines = [
            f"[bold]Farm & Furious[/] — turn {observation['turn'] + 1}, finish at {finish}",
            table,
        ]
        if observation["history"]:
            last = observation["history"][-1]
            lines.append(
                "Last turn: "
                + ", ".join(f"{self.seat_name(s, me)} {self.label(c)}" for s, c in enumerate(last))
            )
        lines.append("Your hand: " + " ".join(self.label(c) for c in observation["hand"]))
        return lines
