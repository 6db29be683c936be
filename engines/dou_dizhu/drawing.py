"""Dou Dizhu drawn as its table (the ``drawing`` part of the game's unit):
the landlord and the two peasants round the table with their cards left,
each seat's bid, what each seat played in the current round of plays (or
that it passed), the landlord's three extra cards, the play to beat, and the
stake -- bid times the multiplier, which every bomb doubles."""

from __future__ import annotations

from arena.game.drawing import Drawing, card, plural, seat, table, zone

NAMES = {"T": "10", "B": "joker", "R": "JOKER"}


class DouDizhuDrawing(Drawing):
    title = "Dou Dizhu"

    def face(self, code):
        tone = "red" if code == "R" else "black"
        return card(code, NAMES.get(code, code), tone)

    def draw(self, views):
        shown = self.public(views)
        lord, plays = shown["landlord"], shown["plays"]
        first = shown["first_bidder"]
        bids = {(first + i) % 3: bid for i, bid in enumerate(shown["bids"])}
        # plays run in seat order from the landlord, who leads first
        recent = {}
        for index in range(max(0, len(plays) - 3), len(plays)):
            recent[(lord + index) % 3] = plays[index]
        seats = []
        for number in range(3):
            texts = [plural(shown["hand_sizes"][number], "card") + " left"]
            if number in bids:
                texts.append("bid: pass" if bids[number] == 0 else f"bid: {bids[number]}")
            if shown["payoffs"]:
                texts.append(f"result: {shown['payoffs'][number]:+g}")
            zones = []
            if number in views:
                zones.append(zone("hand", self.cards(views[number]["hand"])))
            else:
                zones.append(zone("hand", hidden=shown["hand_sizes"][number]))
            if number in recent:
                play = recent[number]
                zones.append(
                    zone(
                        "played",
                        [] if play == "pass" else self.cards(play),
                        text="passed" if play == "pass" else "",
                    )
                )
            role = "" if lord is None else ("landlord" if number == lord else "peasant")
            seats.append(
                seat(
                    number,
                    self.name(number),
                    role=role,
                    texts=texts,
                    zones=zones,
                    turn=shown["to_act"] == number and shown["winner"] is None,
                )
            )
        bombs = max(0, shown["multiplier"].bit_length() - 1)
        texts = []
        if lord is None:
            texts.append("Bidding for the landlord: the highest bid (1-3) plays alone against two")
        else:
            texts.append(
                f"Landlord: {self.name(lord)}; stake: bid {shown['bid']} × multiplier "
                f"{shown['multiplier']}"
                + (f" ({bombs} bomb{'s' if bombs != 1 else ''} doubled it)" if bombs else "")
            )
        if shown["redeals"]:
            texts.append(f"redealt {shown['redeals']} time(s): nobody bid")
        if shown["winner"] is not None:
            side = "the landlord" if shown["winner"] == lord else "the peasants"
            texts.append(f"Game over: {self.name(shown['winner'])} went out, {side} win")
        middle = []
        if shown["bottom"]:
            middle.append(zone("landlord's extra cards", self.cards(shown["bottom"])))
        elif lord is None:
            middle.append(zone("landlord's extra cards", hidden=3))
        if shown["to_beat"]:
            middle.append(
                zone(
                    "to beat",
                    self.cards(shown["to_beat"]),
                    text=f"played by {self.name(shown['to_beat_seat'])}",
                )
            )
        elif lord is not None and shown["winner"] is None:
            middle.append(zone("to beat", text=f"nothing: {self.name(shown['to_act'])} leads"))
        if lord is not None and plays:
            log = [
                f"{self.name((lord + i) % 3)}: {'pass' if p == 'pass' else ' '.join(NAMES.get(c, c) for c in p)}"
                for i, p in enumerate(plays)
            ][-6:]
            middle.append(zone("last plays, oldest first", text=" · ".join(log)))
        return table(self.title, seats, texts=texts, middle=middle)

    def ended(self, observation):
        """The last finished trick: a play the two others passed on, whose
        player led anew (plays run in seat order from the landlord)."""
        lord, plays = observation["landlord"], observation["plays"]
        if lord is None:
            return []
        stood = [
            index
            for index in range(len(plays) - 2)
            if plays[index] != "pass" and plays[index + 1] == plays[index + 2] == "pass"
        ]
        if not stood:
            return []
        name = self.name((lord + stood[-1]) % 3)
        cards = " ".join(NAMES.get(c, c) for c in plays[stood[-1]])
        return [f"Trick {len(stood)}: {name} played {cards} and nobody beat it; {name} leads"]
