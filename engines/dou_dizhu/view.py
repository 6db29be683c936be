"""How ``arena play`` draws Dou Dizhu for a person (the ``view`` part of the
game's unit; :mod:`arena.cli.views` has the base and the fallback)."""

from __future__ import annotations

from arena.cli.views import View

DOU_RANKS = "3456789TJQKA2BR"


def _dou_cards(ranks: str) -> str:
    jokers = {"B": "[bold]Black joker[/]", "R": "[bold red]Red joker[/]"}
    return " ".join(jokers.get(r, f"[bold]{'10' if r == 'T' else r}[/]") for r in ranks) or "-"


class DouDizhuView(View):
    def label(self, action):
        if action.startswith("bid:"):
            return "pass (no bid)" if action == "bid:0" else f"bid {action[4:]}"
        return "pass" if action == "pass" else _dou_cards(action)

    def show(self, observation):
        me, lord = observation["seat"], observation["landlord"]
        role = lambda s: " (landlord)" if s == lord else ""  # noqa: E731
        lines = [
            f"[bold]Dou Dizhu[/] — {observation['phase']}, bid {observation['bid']}, "
            f"multiplier {observation['multiplier']}"
            + (f", redeal {observation['redeals']}" if observation["redeals"] else "")
        ]
        lines.append(
            "Cards left: "
            + ", ".join(
                f"{self.seat_name(s, me)}{role(s)} {n}"
                for s, n in enumerate(observation["hand_sizes"])
            )
        )
        if lord is None and observation["bids"]:
            first = observation["first_bidder"]
            lines.append(
                "Bids: "
                + ", ".join(
                    f"{self.seat_name((first + i) % 3, me)} {b or 'pass'}"
                    for i, b in enumerate(observation["bids"])
                )
            )
        if observation["bottom"]:
            lines.append(f"Bottom cards: {_dou_cards(observation['bottom'])}")
        if lord is not None and observation["plays"]:
            recent = list(enumerate(observation["plays"]))[-6:]
            lines.append(
                "Recent plays: "
                + ", ".join(
                    f"{self.seat_name((lord + i) % 3, me)} {self.label(p)}" for i, p in recent
                )
            )
        if observation["to_beat"]:
            lines.append(
                f"To beat: {_dou_cards(observation['to_beat'])} "
                f"by {self.seat_name(observation['to_beat_seat'], me)}"
            )
        lines.append(f"Your hand: {_dou_cards(observation['hand'])}")
        return lines

    def normalize(self, text):
        text = text.strip().upper().replace(" ", "").replace("10", "T")
        if text in ("PASS", "P"):
            return "pass"
        if text.startswith("BID"):
            return "bid:" + text[3:].lstrip(":")
        return "".join(sorted(text, key=lambda r: DOU_RANKS.find(r)))
