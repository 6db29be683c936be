"""Farm Hand drawn as its table (the ``drawing`` part of the game's unit):
every seat (the Mac and Donald dummies too) with its bid, the tricks it has
won, its score and its hand -- face up where the view may see it, else the
coloured backs every seat sees -- the card it played to this trick, and the
last trick with its winner."""

from __future__ import annotations

from arena.game.drawing import Drawing, card, seat, table, zone


def suit_of(code: str) -> str:
    return code.rstrip("0123456789")


def tone(suit: str) -> str:
    """The drawing's tone of a suit (red cards are filled: crimson)."""
    return "crimson" if suit == "red" else suit


class FarmHandDrawing(Drawing):
    title = "Farm Hand"

    def face(self, code):
        suit = suit_of(code)
        return card(code, code[len(suit) :], tone(suit))

    def seat_name(self, shown, number: int) -> str:
        if number >= shown["players"]:
            return shown["dummies"][number - shown["players"]].capitalize() + " (dummy)"
        return self.name(number)

    def trick_cards(self, shown, leader: int, cards) -> dict[int, str]:
        return {(leader + i) % shown["table"]: c for i, c in enumerate(cards)}

    def draw(self, views):
        shown = self.public(views)
        size = shown["table"]
        playing = self.trick_cards(shown, shown["leader"], shown["trick"])
        over = shown["phase"] == "over"
        seats = []
        for number in range(size):
            bid = shown["bids"][number]
            texts = [
                "bid: ?" if bid is None else f"bid {bid}",
                f"won {shown['won'][number]}",
                f"score {shown['scores'][number]}",
            ]
            backs = [card("", "", tone(suit)) for suit in shown["hand_suits"][number]]
            hand = views[number]["hand"] if number in views else None
            zones = [zone("hand", backs if hand is None else self.cards(hand))]
            if number in playing:
                zones.append(zone("this trick", self.cards([playing[number]])))
            role = "leads" if number == shown["leader"] and not over else ""
            turn = not over and (
                (shown["phase"] == "bid" and bid is None)
                or (
                    shown["phase"] == "play" and number < shown["players"] and number not in playing
                )
            )
            seats.append(
                seat(
                    number,
                    self.seat_name(shown, number),
                    role=role,
                    texts=texts,
                    zones=zones,
                    turn=turn,
                )
            )
        middle = []
        if shown["phase"] == "bid":
            middle.append(
                zone("bidding", text="every seat bids at once the tricks it will win exactly")
            )
        if shown["tricks"]:
            middle.append(
                zone(
                    f"last trick ({len(shown['tricks'])} of {shown['hand_size']})",
                    self.cards(shown["tricks"][-1]["cards"]),
                    text=self.last_trick(shown),
                )
            )
        texts = [
            f"Round {shown['round']}"
            + (f" (tie-break replay {shown['replay']})" if shown["replay"] else "")
            + f": {shown['hand_size']} cards each; an exact bid scores {shown['points']}",
            "Phase: "
            + {"bid": "bidding", "play": "playing tricks"}.get(shown["phase"], shown["phase"]),
        ]
        if shown["history"]:
            texts.append(self.last_round(shown))
        return table(self.title, seats, texts=texts, middle=middle)

    def last_trick(self, shown) -> str:
        """The round's last finished trick: who played what, who won it."""
        last = shown["tricks"][-1]
        who = self.trick_cards(shown, last["leader"], last["cards"])
        winner = (
            "nobody (every card cancelled)"
            if last["winner"] is None
            else self.seat_name(shown, last["winner"])
        )
        played = ", ".join(
            f"{self.seat_name(shown, s)} {suit_of(c)} {c[len(suit_of(c)) :]}"
            for s, c in who.items()
        )
        return f"played {played}; won by {winner}"

    def last_round(self, shown) -> str:
        """The last finished round: each seat's bid, tricks won and points."""
        last_round = shown["history"][-1]
        rows = zip(last_round["bids"], last_round["won"], last_round["points"], strict=False)
        return f"Round {last_round['round']} ended: " + ", ".join(
            f"{self.seat_name(shown, s)} bid {b} won {w} ({p:+d})"
            for s, (b, w, p) in enumerate(rows)
        )

    def ended(self, observation):
        if observation["tricks"]:
            trick = len(observation["tricks"])
            return [f"Trick {trick} of {observation['hand_size']}: {self.last_trick(observation)}"]
        return [self.last_round(observation)] if observation["history"] else []
