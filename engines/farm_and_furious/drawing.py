"""Farm & Furious drawn as its table (the ``drawing`` part of the game's
unit): each seat's place on the track to the finish, its face-up cards,
the card it showed last turn and its hand where the view may see it."""

from __future__ import annotations

from arena.game.drawing import Drawing, card, seat, table, zone

TONES = {
    "dog": "crimson",
    "hen": "yellow",
    "duckling": "orange",
    "rabbit": "plain",
    "whistle": "blue",
    "rooster": "purple",
}


class FarmAndFuriousDrawing(Drawing):
    title = "Farm & Furious"

    def face(self, code):
        return card(code, code.capitalize(), TONES.get(code, "plain"))

    def draw(self, views):
        shown = self.public(views)
        finish, history = shown["finish"], shown["history"]
        seats = []
        for number, position in enumerate(shown["positions"]):
            zones = []
            if number in views:
                zones.append(zone("hand", self.cards(views[number]["hand"])))
            zones.append(zone("face up", self.cards(shown["face_up"][number])))
            if history:
                zones.append(zone("showed last turn", self.cards([history[-1][number]])))
            track = "█" * min(position, finish) + "·" * max(0, finish - position)
            seats.append(
                seat(
                    number,
                    self.name(number),
                    role="finished" if position >= finish else "",
                    texts=[f"position {position} of {finish}", track],
                    zones=zones,
                    turn=not shown["over"],
                )
            )
        texts = [
            f"Turn {shown['turn'] + 1}: every seat shows a card at once; first to {finish} wins"
        ]
        if shown["over"]:
            texts.append("The race is over")
        return table(self.title, seats, texts=texts)
