"""Farm Hand as ``arena play`` draws it for a person: the game unit's ``view``
part (the base and the fallback are :mod:`arena.cli.views`')."""

from __future__ import annotations

from arena.cli.views import View, grid

SUIT_STYLE = {
    "blue": "bold blue",
    "green": "bold green",
    "orange": "bold dark_orange",
    "yellow": "bold yellow",
    "red": "bold red",
    "purple": "bold magenta",
}


def _farm_card(code: str) -> str:
    suit = code.rstrip("0123456789")
    return f"[{SUIT_STYLE.get(suit, 'bold')}]{suit} {code[len(suit) :]}[/]"


class FarmHandView(View):
    def seat_name(self, seat, me, observation=None):
        if observation is not None and seat >= observation["players"]:
            return observation["dummies"][seat - observation["players"]].capitalize()
        return super().seat_name(seat, me)

    def label(self, action):
        return f"bid {action}" if isinstance(action, int) else _farm_card(action)

    def show(self, observation):
        me, table_size = observation["seat"], observation["table"]
        name = lambda seat: self.seat_name(seat, me, observation)  # noqa: E731
        head = (
            f"[bold]Farm Hand[/] — round {observation['round']}"
            + (f" (tie-break replay {observation['replay']})" if observation["replay"] else "")
            + f", {observation['hand_size']} cards each, an exact bid scores "
            f"{observation['points']}"
        )
        table = grid("", "bid", "won", "score", "holds")
        for seat in range(table_size):
            bid = observation["bids"][seat]
            suits = observation["hand_suits"][seat]
            table.add_row(
                name(seat) + (" (leads)" if seat == observation["leader"] else ""),
                "?" if bid is None else str(bid),
                str(observation["won"][seat]),
                str(observation["scores"][seat]),
                " ".join(f"[{SUIT_STYLE[s]}]■[/]" for s in suits) or "-",
            )
        lines = [head, table]
        if observation["tricks"]:
            last = observation["tricks"][-1]
            winner = "nobody (all cancelled)" if last["winner"] is None else name(last["winner"])
            played = ", ".join(
                f"{name((last['leader'] + i) % table_size)} {_farm_card(c)}"
                for i, c in enumerate(last["cards"])
            )
            lines.append(f"Last trick: {played} — won by {winner}")
        if observation["trick"]:
            lines.append(
                "This trick: "
                + ", ".join(
                    f"{name((observation['leader'] + i) % table_size)} {_farm_card(c)}"
                    for i, c in enumerate(observation["trick"])
                )
            )
        lines.append("Your hand: " + (" ".join(_farm_card(c) for c in observation["hand"]) or "-"))
        return lines
