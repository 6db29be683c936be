"""Hand and Foot drawn as its table (the ``drawing`` part of the game's
unit): each seat with its team, the cards of its Hand (face up only where
the view may see them) and its Foot still face down; the melds of each
team by rank in words ("Team A: 7s ×5, Kings ×7 clean book"); the draw pile,
the discard pile with its top card, and the scores."""

from __future__ import annotations

from arena.game.drawing import Drawing, card, plural, seat, table, zone

from .cards import WILDS

SUITS = {"c": ("♣", "black"), "d": ("♦", "red"), "h": ("♥", "red"), "s": ("♠", "black")}
RANK_NAMES = {"t": "10s", "j": "Jacks", "q": "Queens", "k": "Kings", "a": "Aces"}
BOOK = 7  # cards in a complete book


def team_name(team: int) -> str:
    return f"Team {chr(ord('A') + team)}"


def meld_text(rank: str, cards: list[str]) -> str:
    """One team's set of ``rank`` in words: its size, and whether it is a
    complete book (clean: no wild card) yet."""
    wild = sum(1 for c in cards if c in WILDS)
    text = f"{RANK_NAMES.get(rank, rank + 's')} ×{len(cards)}"
    if len(cards) >= BOOK:
        return text + (" dirty book" if wild else " clean book")
    return text + (f" ({wild} wild)" if wild else " (clean)")


class HandAndFootDrawing(Drawing):
    title = "Hand and Foot"

    def face(self, code):
        if code == "jk":
            return card(code, "Joker", "purple")
        symbol, tone = SUITS[code[1]]
        rank = "10" if code[0] == "t" else code[0].upper()
        return card(code, rank + symbol, tone)

    def draw(self, views):
        shown = self.public(views)
        teams, foot = shown["teams"], shown["options"]["hand_size"]
        over = shown["phase"] == "over"
        seats = []
        for number in range(shown["players"]):
            count = shown["hand_counts"][number]
            where = "Foot" if shown["in_foot"][number] else "Hand"
            zones = [
                zone(f"in the {where}", self.cards(views[number]["hand"]))
                if number in views
                else zone(f"in the {where}", hidden=count)
            ]
            if not shown["in_foot"][number]:
                zones.append(zone("Foot, not yet picked up", hidden=foot))
            seats.append(
                seat(
                    number,
                    self.name(number),
                    role=team_name(teams[number]),
                    texts=[f"{plural(count, 'card')} in the {where}"],
                    zones=zones,
                    turn=not over and shown["to_act"] == number,
                )
            )
        middle = []
        for team, sets in enumerate(shown["sets"]):
            members = ", ".join(self.name(s) for s in range(len(teams)) if teams[s] == team)
            state = (
                "has melded"
                if shown["melded"][team]
                else f"not melded yet (first meld needs {shown['thresholds'][team]} points)"
            )
            melds = ", ".join(meld_text(rank, cards) for rank, cards in sets.items())
            middle.append(
                zone(
                    f"{team_name(team)} ({members}): {shown['scores'][team]} points, {state}",
                    text=f"{team_name(team)}: {melds or 'no melds'}",
                )
            )
        discard = shown["discard"]
        middle.append(
            zone(
                "discard pile",
                self.cards(discard[-1:]),
                text=f"{plural(len(discard), 'card')}, the top one shown" if discard else "empty",
            )
        )
        middle.append(zone("draw pile", text=plural(shown["stock"], "card") + " face down"))
        phase = {"draw": "draws", "meld": "melds or discards"}.get(shown["phase"], shown["phase"])
        texts = [
            f"Round {shown['round']}: "
            + ("the game is over" if over else f"{self.name(shown['to_act'])} {phase}"),
            "Scores: " + ", ".join(f"{team_name(t)} {s}" for t, s in enumerate(shown["scores"])),
        ]
        texts += self.ended(shown)
        return table(self.title, seats, texts=texts, middle=middle)

    def ended(self, observation):
        """The last finished round: who went out, what each team scored."""
        if not observation["history"]:
            return []
        goer = observation["outs"][-1]
        return [
            f"Round {len(observation['history'])} ended"
            + ("" if goer is None else f" ({self.name(goer)} went out)")
            + ": "
            + ", ".join(f"{team_name(t)} {s:+d}" for t, s in enumerate(observation["history"][-1]))
        ]
