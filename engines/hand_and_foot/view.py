"""How ``arena play`` draws Hand and Foot for a person (the ``view`` part of the
game's unit; :mod:`arena.cli.views` has the base and the fallback)."""

from __future__ import annotations

from rich.markup import escape

from arena.cli.views import View

SUIT_SYMBOL = {"c": "[bold]♣[/]", "d": "[bold red]♦[/]", "h": "[bold red]♥[/]", "s": "[bold]♠[/]"}


def _hf_card(code: str) -> str:
    if code == "jk":
        return "[bold magenta]Joker[/]"
    rank = "10" if code[0] == "t" else code[0].upper()
    return f"[bold]{rank}[/]{SUIT_SYMBOL[code[1]]}"


class HandAndFootView(View):
    def label(self, action):
        kind, _, rest = action.partition(":")
        if kind == "discard":
            return f"discard {_hf_card(rest)}"
        return escape(action.replace(":", " "))

    def show(self, observation):
        me, my_team = observation["seat"], observation["team"]
        lines = [
            f"[bold]Hand and Foot[/] — round {observation['round']}, phase "
            f"{observation['phase']}, stock {observation['stock']}, scores "
            + ", ".join(
                f"team {t}{' (yours)' if t == my_team else ''} {s}"
                for t, s in enumerate(observation["scores"])
            )
        ]
        for team, sets in enumerate(observation["sets"]):
            melded = (
                "melded"
                if observation["melded"][team]
                else f"not melded (needs {observation['thresholds'][team]})"
            )
            books = (
                "  ".join(
                    f"{escape(rank.upper())}×{len(cards)}" + ("✔" if len(cards) >= 7 else "")
                    for rank, cards in sets.items()
                )
                or "-"
            )
            lines.append(f"Team {team}: {melded}; sets {books}")
        lines.append(
            "Players: "
            + ", ".join(
                f"{self.seat_name(s, me)} (team {observation['teams'][s]}) "
                f"{n} cards{' in the Foot' if observation['in_foot'][s] else ''}"
                for s, n in enumerate(observation["hand_counts"])
            )
        )
        discard = observation["discard"]
        lines.append(
            f"Discard pile: {len(discard)} cards, top "
            + (_hf_card(discard[-1]) if discard else "-")
        )
        lines.append("Your hand: " + (" ".join(_hf_card(c) for c in observation["hand"]) or "-"))
        return lines
