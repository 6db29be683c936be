"""How ``arena play`` draws a game for a person: one view per game.

A view turns a seat's observation -- the same dict a bot receives -- into
rich renderables (cards as cards, suits in their colours, the table, the
last plays, scores), labels the legal moves, and reads a typed move the way
a person writes it.  Games without a view of their own get :class:`View`,
which lists the observation's fields.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

Action = Any


class View:
    """The fallback for any game: the observation as fields."""

    def __init__(self, players: int):
        self.players = players

    def seat_name(self, seat: int, me: int) -> str:
        return "you" if seat == me else f"seat {seat}"

    def show(self, observation: dict) -> list:
        return [f"[bold]{escape(key)}[/]: {escape(repr(value))}"
                for key, value in observation.items() if key not in ("options", "history")]

    def label(self, action: Action) -> str:
        return escape(str(action))

    def normalize(self, text: str) -> str:
        """A typed move written the way the engine writes it."""
        return text.strip().lower()


def _table(*columns: str) -> Table:
    table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False)
    for column in columns:
        table.add_column(column, style="bold" if column == "" else None)
    return table


# -- Farm & Furious ---------------------------------------------------------
ANIMAL_STYLE = {"dog": "bold red", "hen": "bold yellow", "duckling": "bold bright_yellow",
                "rabbit": "bold white", "whistle": "bold cyan", "rooster": "bold magenta"}


class FarmAndFuriousView(View):
    def label(self, card):
        return f"[{ANIMAL_STYLE.get(card, 'bold')}]{card.capitalize()}[/]"

    def show(self, observation):
        me, finish = observation["seat"], observation["finish"]
        table = _table("", "position", "face up")
        for seat, position in enumerate(observation["positions"]):
            bar = "█" * min(position, finish) + "·" * max(0, finish - position)
            face_up = " ".join(self.label(c) for c in observation["face_up"][seat]) or "-"
            table.add_row(self.seat_name(seat, me), f"{bar} {position}", face_up)
        lines = [f"[bold]Farm & Furious[/] — turn {observation['turn'] + 1}, finish at {finish}",
                 table]
        if observation["history"]:
            last = observation["history"][-1]
            lines.append("Last turn: " + ", ".join(f"{self.seat_name(s, me)} {self.label(c)}"
                                                   for s, c in enumerate(last)))
        lines.append("Your hand: " + " ".join(self.label(c) for c in observation["hand"]))
        return lines


# -- Farm Hand ----------------------------------------------------------------
SUIT_STYLE = {"blue": "bold blue", "green": "bold green", "orange": "bold dark_orange",
              "yellow": "bold yellow", "red": "bold red", "purple": "bold magenta"}


def _farm_card(code: str) -> str:
    suit = code.rstrip("0123456789")
    return f"[{SUIT_STYLE.get(suit, 'bold')}]{suit} {code[len(suit):]}[/]"


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
        head = (f"[bold]Farm Hand[/] — round {observation['round']}"
                + (f" (tie-break replay {observation['replay']})" if observation["replay"] else "")
                + f", {observation['hand_size']} cards each, an exact bid scores "
                  f"{observation['points']}")
        table = _table("", "bid", "won", "score", "holds")
        for seat in range(table_size):
            bid = observation["bids"][seat]
            suits = observation["hand_suits"][seat]
            table.add_row(name(seat) + (" (leads)" if seat == observation["leader"] else ""),
                          "?" if bid is None else str(bid), str(observation["won"][seat]),
                          str(observation["scores"][seat]),
                          " ".join(f"[{SUIT_STYLE[s]}]■[/]" for s in suits) or "-")
        lines = [head, table]
        if observation["tricks"]:
            last = observation["tricks"][-1]
            winner = "nobody (all cancelled)" if last["winner"] is None else name(last["winner"])
            played = ", ".join(f"{name((last['leader'] + i) % table_size)} {_farm_card(c)}"
                               for i, c in enumerate(last["cards"]))
            lines.append(f"Last trick: {played} — won by {winner}")
        if observation["trick"]:
            lines.append("This trick: " + ", ".join(
                f"{name((observation['leader'] + i) % table_size)} {_farm_card(c)}"
                for i, c in enumerate(observation["trick"])))
        lines.append("Your hand: " + (" ".join(_farm_card(c) for c in observation["hand"]) or "-"))
        return lines


# -- VEGEtables ---------------------------------------------------------------
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
        stacks = _table("", "1", "2", "3", "4")
        for colour_index, colour in enumerate("pgry"):
            row = [observation["stacks"][colour_index * 4 + base] for base in range(4)]
            stacks.add_row(_veg_card(colour), *[_veg_card(s[-1]) if s else "·" for s in row])
        silos = "  ".join(_veg_card(col[0]) if col else "·" for col in observation["silos"])
        lines = [f"[bold]VEGEtables[/] — turn {observation['turn'] + 1}, phase "
                 f"{observation['phase']}, scores: you {observation['scores'][me]}, "
                 f"opponent {observation['scores'][1 - me]}",
                 stacks,
                 f"Silo fronts: {silos}    Wells: {observation['wells']}"
                 + ("" if observation["third_well_open"] else " (third closed)"),
                 f"Opponent: {observation['hand_sizes'][1 - me]} cards in hand, grounds "
                 + (" ".join(_veg_card(c) for c in observation["grounds"][1 - me]) or "-")]
        if observation["opponent_known"]:
            lines.append("Opponent holds: " + " ".join(_veg_card(c)
                                                        for c in observation["opponent_known"]))
        if observation["last_turn"]:
            lines.append("Opponent's last turn: " + escape(" ".join(observation["last_turn"][1:])))
        if observation["this_turn"]:
            lines.append("This turn so far: " + escape(" ".join(observation["this_turn"])))
        lines.append(f"Your tractors: {observation['tractors'][me]}    Your grounds: "
                     + (" ".join(_veg_card(c) for c in observation["grounds"][me]) or "-"))
        lines.append("Your hand: " + (" ".join(_veg_card(c) for c in observation["hand"]) or "-"))
        return lines

    def normalize(self, text):
        text = text.strip().lower()
        return text.replace(" ", ":", 1) if " " in text and ":" not in text else text


# -- Dou Dizhu ----------------------------------------------------------------
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
        lines = [f"[bold]Dou Dizhu[/] — {observation['phase']}, bid {observation['bid']}, "
                 f"multiplier {observation['multiplier']}"
                 + (f", redeal {observation['redeals']}" if observation["redeals"] else "")]
        lines.append("Cards left: " + ", ".join(
            f"{self.seat_name(s, me)}{role(s)} {n}" for s, n in enumerate(observation["hand_sizes"])))
        if lord is None and observation["bids"]:
            first = observation["first_bidder"]
            lines.append("Bids: " + ", ".join(f"{self.seat_name((first + i) % 3, me)} {b or 'pass'}"
                                              for i, b in enumerate(observation["bids"])))
        if observation["bottom"]:
            lines.append(f"Bottom cards: {_dou_cards(observation['bottom'])}")
        if lord is not None and observation["plays"]:
            recent = list(enumerate(observation["plays"]))[-6:]
            lines.append("Recent plays: " + ", ".join(
                f"{self.seat_name((lord + i) % 3, me)} {self.label(p)}" for i, p in recent))
        if observation["to_beat"]:
            lines.append(f"To beat: {_dou_cards(observation['to_beat'])} "
                         f"by {self.seat_name(observation['to_beat_seat'], me)}")
        lines.append(f"Your hand: {_dou_cards(observation['hand'])}")
        return lines

    def normalize(self, text):
        text = text.strip().upper().replace(" ", "").replace("10", "T")
        if text in ("PASS", "P"):
            return "pass"
        if text.startswith("BID"):
            return "bid:" + text[3:].lstrip(":")
        return "".join(sorted(text, key=lambda r: DOU_RANKS.find(r)))


# -- Hand and Foot ------------------------------------------------------------
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
        lines = [f"[bold]Hand and Foot[/] — round {observation['round']}, phase "
                 f"{observation['phase']}, stock {observation['stock']}, scores "
                 + ", ".join(f"team {t}{' (yours)' if t == my_team else ''} {s}"
                             for t, s in enumerate(observation["scores"]))]
        for team, sets in enumerate(observation["sets"]):
            melded = "melded" if observation["melded"][team] else \
                f"not melded (needs {observation['thresholds'][team]})"
            books = "  ".join(f"{escape(rank.upper())}×{len(cards)}" + ("✔" if len(cards) >= 7 else "")
                              for rank, cards in sets.items()) or "-"
            lines.append(f"Team {team}: {melded}; sets {books}")
        lines.append("Players: " + ", ".join(
            f"{self.seat_name(s, me)} (team {observation['teams'][s]}) "
            f"{n} cards{' in the Foot' if observation['in_foot'][s] else ''}"
            for s, n in enumerate(observation["hand_counts"])))
        discard = observation["discard"]
        lines.append(f"Discard pile: {len(discard)} cards, top "
                     + (_hf_card(discard[-1]) if discard else "-"))
        lines.append("Your hand: " + (" ".join(_hf_card(c) for c in observation["hand"]) or "-"))
        return lines


VIEWS = {"farm-and-furious": FarmAndFuriousView, "farm-hand": FarmHandView,
         "vegetables": VegetablesView, "dou-dizhu": DouDizhuView,
         "hand-and-foot": HandAndFootView}


def view_for(game_id: str, players: int) -> View:
    return VIEWS.get(game_id, View)(players)
