"""VEGEtables drawn as its table (the ``drawing`` part of the game's unit):
the sixteen stacks by colour, the silos' front cards and the wells in the
middle; each seat's hand (face up where the view may see it, else what is
known of it), grounds, tractors and score; this turn's and last turn's
moves."""

from __future__ import annotations

from arena.game.drawing import Drawing, card, seat, table, zone

COLOURS = {"p": "purple", "g": "green", "r": "red", "y": "yellow"}
TONES = {**COLOURS, "r": "crimson"}  # red cards are filled


class VegetablesDrawing(Drawing):
    title = "VEGEtables"

    def face(self, code):
        if code == "T":
            return card(code, "Tractor", "plain")
        return card(code, code[1:], TONES.get(code[0], "plain"))

    def draw(self, views):
        shown = self.public(views)
        viewer = min(views)
        seats = []
        for number in range(2):
            size = shown["hand_sizes"][number]
            if number in views:
                hand = zone("hand", self.cards(views[number]["hand"]))
            else:
                known = shown["opponent_known"] if number != viewer else []
                hand = zone(
                    "hand (known cards face up)", self.cards(known), hidden=size - len(known)
                )
            texts = [
                f"score {shown['scores'][number]}",
                f"{shown['tractors'][number]} tractors",
                f"{size} cards in hand",
            ]
            seats.append(
                seat(
                    number,
                    self.name(number),
                    texts=texts,
                    zones=[hand, zone("grounds", self.cards(shown["grounds"][number]))],
                    turn=not shown["over"] and shown["to_move"] == number,
                )
            )
        middle = []
        for index, colour in enumerate(COLOURS.values()):
            stacks = shown["stacks"][index * 4 : index * 4 + 4]
            middle.append(
                zone(
                    f"{colour} stacks (top cards)",
                    [self.face(s[-1]) for s in stacks if s],
                    text=f"{sum(1 for s in stacks if not s)} of 4 empty" if not all(stacks) else "",
                )
            )
        middle.append(
            zone(
                "silo fronts",
                [self.face(col[0]) for col in shown["silos"] if col],
                text="wells "
                + ", ".join(map(str, shown["wells"]))
                + ("" if shown["third_well_open"] else " (third closed)"),
            )
        )
        mover = shown["to_move"]
        texts = [
            f"Turn {shown['turn'] + 1}, phase {shown['phase']}"
            + ("" if mover is None else f": {self.name(mover)} moves")
        ]
        if shown["this_turn"]:
            texts.append("This turn: " + " ".join(shown["this_turn"]))
        texts += self.ended(shown)
        return table(self.title, seats, texts=texts, middle=middle)

    def ended(self, observation):
        """The last finished turn: every seat's move."""
        last = observation["last_turn"]
        return ["Last turn: " + " ".join(map(str, last))] if last else []
