"""How ``arena play`` draws VEGEtables for a person (the ``view`` part of the
game's unit; :mod:`arena.cli.views` has the base and the fallback)."""

from __future__ import annotations

from rich.markup import escape

from arena.cli.views import View, grid

COLOUR_STYLE = {"p": "bold magenta", "g": "bold green", "r": "bold red", "y": "bold yellow"}


def _veg_card(name: str) -> str:
    if name == "T":
        return "[bold cyan]Tractor[/]"
    return f"[{COLOUR_STYLE.get(name[0], 'bold')}]{escape(name)}[/]"


class VegetablesView(View):
    def label(self, action):
        kind, _, card = action.partition(":")
        if kind in ("play", "tractor") and card:
            return f"{kind} {_veg_card(card)}"
        return escape(action.replace(":", " "))

    def show(self, observation):
        me = observation["seat"]
        stacks = grid("", "1", "2", "3", "4")
        for colour_index, colour in enumerate("pgry"):
            row = [observation["stacks"][colour_index * 4 + base] for base in range(4)]
            stacks.add_row(_veg_card(colour), *[_veg_card(s[-1]) if s else "·" for s in row])
        silos = "  ".join(_veg_card(col[0]) if col else "·" for col in observation["silos"])
        lines = [
            f"[bold]VEGEtables[/] — turn {observation['turn'] + 1}, phase "
            f"{observation['phase']}, scores: you {observation['scores'][me]}, "
            f"opponent {observation['scores'][1 - me]}",
            stacks,
            f"Silo fronts: {silos}    Wells: {observation['wells']}"
            + ("" if observation["third_well_open"] else " (third closed)"),
            f"Opponent: {observation['hand_sizes'][1 - me]} cards in hand, grounds "
            + (" ".join(_veg_card(c) for c in observation["grounds"][1 - me]) or "-"),
        ]
        if observation["opponent_known"]:
            lines.append(
                "Opponent holds: " + " ".join(_veg_card(c) for c in observation["opponent_known"])
            )
        if observation["last_turn"]:
            lines.append("Opponent's last turn: " + escape(" ".join(observation["last_turn"][1:])))
        if observation["this_turn"]:
            lines.append("This turn so far: " + escape(" ".join(observation["this_turn"])))
        lines.append(
            f"Your tractors: {observation['tractors'][me]}    Your grounds: "
            + (" ".join(_veg_card(c) for c in observation["grounds"][me]) or "-")
        )
        lines.append("Your hand: " + (" ".join(_veg_card(c) for c in observation["hand"]) or "-"))
        return lines

    def normalize(self, text):
        text = text.strip().lower()
        return text.replace(" ", ":", 1) if " " in text and ":" not in text else text
