"""``vegetables-planner``: a heuristic VEGEtables bot.

It rebuilds its own view of the table from the observation (never the hidden
state) and hill-climbs through its turn: each decision it compares "end the
turn now" with every play, a play's value looking one step further along the
same stack (chains) and, for a Ground card, over the Silo take that follows.
A position is worth

* the score difference (finished stacks, rows, going out), plus
* the end-game swing ``10 x unfinished stacks`` times the chance the opponent
  is blocked at the start of their turn (no live Ground card, no Tractor, and
  no open stack whose next card they may hold -- the chance a hidden card is
  theirs is the share of hidden cards of that range in their Hand), minus the
  same for being blocked itself (no Tractor and nothing playable in reserve),
* a reserve bonus for playable cards and Tractors kept for later turns, and
  for runs (own cards next on a stack, one after another: turns of play
  nobody can take away),
* minus the expected number of stacks the opponent can play on (cards it
  must not be handed), plus a bonus for stacks whose remaining cards are all
  its own (finishing them later is safe),
* minus a small weight per Hand card once the Wells run low (going out).

It draws to 12 whenever it may (cards drawn are cards the opponent cannot
have), from the Well whose range holds the most cards playable now, and takes
from the Silos the card that improves its position most (often one the
opponent needs).
"""

from __future__ import annotations

from typing import NamedTuple

from arena.botkit import Bot
from engines.vegetables.game import CARD, NAMES, NEEDS, NUMBER, STACK

MINE, OPP, UNKNOWN, ELSEWHERE = 0, 1, 2, 3


class View:
    """What the bot knows, as small mutable arrays (cheap to copy)."""

    __slots__ = (
        "grounds",
        "grounds_played",
        "hand",
        "loc",
        "opp_grounds",
        "opp_locked",
        "opp_score",
        "opp_tractors",
        "q_high",
        "q_mid",
        "score",
        "silos",
        "tops",
        "tractors",
        "wells",
    )
    tops: list[int]  # per stack, the number on top (0: empty)
    hand: list[int]  # cards as indices (engines.vegetables.game.CARD)
    grounds: list[int]
    opp_grounds: list[int]
    silos: list[list[int]]  # front first
    tractors: int
    opp_tractors: int
    opp_locked: int
    loc: list[int]  # per card: MINE, OPP, UNKNOWN or ELSEWHERE
    score: int
    opp_score: int
    q_mid: float  # the chance a hidden card of 5-12 is the opponent's
    q_high: float  # ... of 13-20
    wells: list[int]
    grounds_played: int

    def copy(self) -> View:
        other = View.__new__(View)
        other.tops = list(self.tops)
        other.hand = list(self.hand)
        other.grounds = list(self.grounds)
        other.opp_grounds = self.opp_grounds
        other.silos = [list(col) for col in self.silos]
        other.tractors = self.tractors
        other.opp_tractors = self.opp_tractors
        other.opp_locked = self.opp_locked
        other.loc = self.loc  # copied on write
        other.score = self.score
        other.opp_score = self.opp_score
        other.q_mid = self.q_mid
        other.q_high = self.q_high
        other.wells = self.wells
        other.grounds_played = self.grounds_played
        return other


class Terms(NamedTuple):
    """A position's parts as :meth:`PlannerBot.evaluate` weighs them."""

    score: int
    opp_score: int
    unfinished: int  # stacks not finished
    opp_block: float  # chance the opponent is blocked at the start of its turn
    no_reserve: float  # 1.0 with nothing playable and no Tractor (blocked unless helped)
    reserve: int  # playable cards and Tractors
    tractors: int
    opp_options: float  # expected open stacks whose next card the opponent holds
    opp_none: float  # chance it holds none of them
    secured: int  # stacks whose remaining cards are all ours
    runs: int  # cards of our runs, Tractors included
    held: int  # Hand, Tractors and Grounds
    hand: int
    grounds: int
    wells: int  # cards left in the Wells
    opp_tractors: int
    opp_locked: int


def view_of(obs) -> View:
    seat = obs["seat"]
    other = 1 - seat
    view = View()
    view.tops = list(obs["tops"])
    view.hand = [CARD[c] for c in obs["hand"]]
    view.grounds = [CARD[c] for c in obs["grounds"][seat]]
    view.opp_grounds = [CARD[c] for c in obs["grounds"][other]]
    view.silos = [[CARD[c] for c in col] for col in obs["silos"]]  # front first
    view.tractors = obs["tractors"][seat]
    view.opp_tractors = obs["tractors"][other]
    view.opp_locked = obs["tractors_locked"][other]
    view.score = obs["scores"][seat]
    view.opp_score = obs["scores"][other]
    view.wells = list(obs["wells"])
    view.grounds_played = 8 - len(view.grounds)
    loc = [UNKNOWN] * 80
    for card in view.hand:
        loc[card] = MINE
    for card in view.grounds:
        loc[card] = MINE
    for card in view.opp_grounds:
        loc[card] = OPP
    for name in obs["opponent_known"]:
        loc[CARD[name]] = OPP
    for col in view.silos:
        for card in col:
            loc[card] = ELSEWHERE
    for stack, top in enumerate(view.tops):
        colour, base = divmod(stack, 4)
        for number in range(base + 1, top + 1, 4):
            card = colour * 20 + number - 1
            if loc[card] == UNKNOWN:
                loc[card] = ELSEWHERE
    if any(view.tops[STACK[c]] != NEEDS[c] for c in view.opp_grounds):
        view.opp_locked = max(0, view.opp_locked - 2)  # a dead Ground card: never all played
    view.loc = loc
    unknown_mid = sum(1 for c in range(80) if loc[c] == UNKNOWN and 5 <= NUMBER[c] <= 12)
    unknown_high = sum(1 for c in range(80) if loc[c] == UNKNOWN and NUMBER[c] >= 13)
    wells = obs["wells"]
    opp_mid = max(0, unknown_mid - wells[2])
    opp_high = max(0, unknown_high - wells[0] - wells[1])
    view.q_mid = opp_mid / unknown_mid if unknown_mid else 0.0
    view.q_high = opp_high / unknown_high if unknown_high else 0.0
    return view


def next_card(stack: int, top: int) -> int:
    colour, base = divmod(stack, 4)
    number = top + 4 if top else base + 1
    return colour * 20 + number - 1


class PlannerBot(Bot):
    name = "vegetables-planner"
    version = "1.0"

    # Weights, tuned in self-play (paired seeds, 400-600 games per variant,
    # seats swapped); every one is a class attribute so variants are easy.
    block_risk = 0.6  # chance of being blocked with nothing in reserve
    reserve_weight = 3.0  # per playable card / Tractor kept, up to reserve_cap
    reserve_cap = 3
    run_weight = 2.0  # per card of our runs (our cards next on a stack, in
    run_cap = 6  # a row, Tractors included), up to run_cap ...
    run_extra = 1.0  # ... and per run card beyond that
    tractor_weight = 2.0  # a Tractor beyond its reserve value
    opp_option_weight = 2.0  # per open stack whose next card the opponent may hold
    secured_weight = 6.0  # a stack whose remaining cards are all ours
    hand_weight = 1.0  # per Hand card when the Wells are (nearly) empty
    opp_tractor_weight = 0.0  # per Tractor the opponent has or will unlock (3 lost 11 points)
    draw_mode = 1  # 1: draw to 12 whenever allowed; 0: pass when allowed;
    #                        n >= 2: draw only with fewer than n plays in reserve
    well_mode = 0  # 0: Well with most playable hidden cards; 1: 13-20; 2: third

    def new_game(self, game):
        self.seat = game["seat"]

    # -------------------------------------------------------------- evaluation
    def evaluate(self, view: View) -> float:
        return self.value(self.terms(view))

    def value(self, terms: Terms) -> float:
        """The weighted sum of a position's :meth:`terms`."""
        value: float = terms.score - terms.opp_score
        value += 10.0 * terms.unfinished * (terms.opp_block - self.block_risk * terms.no_reserve)
        value += self.reserve_weight * min(terms.reserve, self.reserve_cap)
        value += self.tractor_weight * terms.tractors
        value -= self.opp_option_weight * terms.opp_options
        value += self.secured_weight * terms.secured
        value += self.run_weight * min(terms.runs, self.run_cap)
        value += self.run_extra * terms.runs
        value -= self.opp_tractor_weight * (terms.opp_tractors + terms.opp_locked)
        if terms.wells <= 4:
            value -= self.hand_weight * terms.held
        return value

    def terms(self, view: View) -> Terms:
        """The parts of a position's value, before they are weighted (also
        the features of the ismcts bot's learned evaluation)."""
        tops = view.tops
        loc = view.loc
        unfinished = 0
        opp_sum = 0.0
        opp_none = 1.0
        secured = 0
        runs = 0
        for stack in range(16):
            top = tops[stack]
            if top >= 17:
                continue
            unfinished += 1
            card = next_card(stack, top)
            where = loc[card]
            if where == OPP:
                p = 1.0
            elif where == UNKNOWN:
                p = view.q_mid if NUMBER[card] <= 12 else view.q_high
            else:
                p = 0.0
            opp_sum += p
            opp_none *= 1.0 - p
            number = NUMBER[card]
            if where == MINE:
                run = 1
                for higher in range(number + 4, 21, 4):
                    if loc[card + higher - number] != MINE:
                        break
                    run += 1
                else:
                    secured += 1
                runs += run
        playable = 0
        for card in view.hand:
            if tops[STACK[card]] == NEEDS[card]:
                playable += 1
        for card in view.grounds:
            if tops[STACK[card]] == NEEDS[card]:
                playable += 1
        opp_live_ground = any(tops[STACK[c]] == NEEDS[c] for c in view.opp_grounds)
        if view.opp_tractors or opp_live_ground:
            opp_block = 0.0
        else:
            opp_block = opp_none
        reserve = playable + view.tractors
        return Terms(
            score=view.score,
            opp_score=view.opp_score,
            unfinished=unfinished,
            opp_block=opp_block,
            no_reserve=1.0 if reserve == 0 else 0.0,
            reserve=reserve,
            tractors=view.tractors,
            opp_options=opp_sum,
            opp_none=opp_none,
            secured=secured,
            runs=runs + view.tractors,
            held=len(view.hand) + view.tractors + len(view.grounds),
            hand=len(view.hand),
            grounds=len(view.grounds),
            wells=sum(view.wells),
            opp_tractors=view.opp_tractors,
            opp_locked=view.opp_locked,
        )

    # -------------------------------------------------------------- simulation
    def place(self, view: View, card: int) -> None:
        stack = STACK[card]
        view.tops[stack] = NUMBER[card]
        if NUMBER[card] >= 17:
            view.score += 10
            colour = stack // 4
            if all(view.tops[colour * 4 + b] >= 17 for b in range(4)):
                view.score += 30

    def gone_out(self, view: View) -> None:
        if not view.hand and not view.tractors and not view.grounds and not any(view.wells):
            view.score += 10 * sum(1 for top in view.tops if top < 17)

    def after(self, view: View, action: str) -> View:
        """The view after one of our own actions (a take is chosen later)."""
        new = view.copy()
        kind, _, arg = action.partition(":")
        if kind == "play":
            card = CARD[arg]
            loc = list(new.loc)
            loc[card] = ELSEWHERE
            new.loc = loc
            if card in new.grounds:
                new.grounds.remove(card)
                new.grounds_played += 1
                if new.grounds_played in (4, 8):
                    new.tractors += 2
            else:
                new.hand.remove(card)
            self.place(new, card)
        elif kind == "tractor":
            card = CARD[arg]
            below = card - 4
            loc = list(new.loc)
            loc[card] = ELSEWHERE
            loc[below] = ELSEWHERE  # dead with the opponent
            new.loc = loc
            if below in new.opp_grounds:
                new.opp_grounds = [c for c in new.opp_grounds if c != below]
                # they can never play their last Ground card now
                new.opp_locked = max(0, new.opp_locked - 2)
            new.tractors -= 1
            new.hand.remove(card)
            new.tops[STACK[below]] = NUMBER[below]
            self.place(new, card)
        elif kind == "take":
            column = new.silos[int(arg)]
            card = column.pop(0)
            new.hand.append(card)
            loc = list(new.loc)
            loc[card] = MINE
            new.loc = loc
        elif action == "discard-tractor":
            new.tractors -= 1
        self.gone_out(new)
        return new

    def best_take(self, view: View) -> float:
        values = [self.evaluate(self.after(view, f"take:{c}")) for c in range(4) if view.silos[c]]
        if not values:
            self.gone_out(view)
            return self.evaluate(view)
        return max(values)

    def play_value(self, view: View, action: str) -> float:
        card = CARD[action.partition(":")[2]] if ":" in action else None
        new = self.after(view, action)
        if action.startswith("play:") and card in view.grounds and any(new.silos):
            return self.best_take(new)
        value = self.evaluate(new)
        if card is not None and NUMBER[card] <= 16:
            follow = card + 4
            if new.loc[follow] == MINE and follow in new.hand:
                value = max(value, self.play_value(new, "play:" + NAMES[follow]))
        return value

    # -------------------------------------------------------------- acting
    def act(self, observation, legal, clock):
        if len(legal) == 1:
            return legal[0]
        phase = observation["phase"]
        view = view_of(observation)
        if phase == "take":
            return max(legal, key=lambda a: self.evaluate(self.after(view, a)))
        if phase == "draw":
            if "pass" in legal and not self.want_twelve(view):
                return "pass"
            return self.choose_well(view, [a for a in legal if a.startswith("draw")])
        plays = [a for a in legal if a != "pass" and not a.startswith("draw")]
        best, best_value = None, None
        for action in plays:
            value = self.play_value(view, action)
            if best_value is None or value > best_value:
                best, best_value = action, value
        if observation["played_this_turn"] == 0:
            return best
        stay = self.evaluate(view)
        if best is not None and best_value > stay + 1e-9:
            return best
        draws = [a for a in legal if a.startswith("draw")]
        if "pass" in legal and (not draws or not self.want_twelve(view)):
            return "pass"
        return self.choose_well(view, draws) if draws else legal[0]

    def want_twelve(self, view: View) -> bool:
        if self.draw_mode == 1:
            return True
        if self.draw_mode == 0:
            return False
        playable = sum(1 for c in view.hand + view.grounds if view.tops[STACK[c]] == NEEDS[c])
        return playable + view.tractors < self.draw_mode

    def choose_well(self, view: View, draws: list[str]) -> str:
        """The Well whose range has the largest share of hidden cards that are
        playable now (ours once drawn, not theirs)."""
        tops = view.tops
        open_mid = open_high = 0
        for stack in range(16):
            top = tops[stack]
            if top >= 17:
                continue
            card = next_card(stack, top)
            if view.loc[card] == UNKNOWN:
                if NUMBER[card] <= 12:
                    open_mid += 1
                else:
                    open_high += 1
        unknown_mid = sum(1 for c in range(80) if view.loc[c] == UNKNOWN and 5 <= NUMBER[c] <= 12)
        unknown_high = sum(1 for c in range(80) if view.loc[c] == UNKNOWN and NUMBER[c] >= 13)
        share_mid = open_mid / unknown_mid if unknown_mid else 0.0
        share_high = open_high / unknown_high if unknown_high else 0.0

        def worth(action):
            well = int(action[-1])
            if self.well_mode == 1:
                return (well != 2, view.wells[well])
            if self.well_mode == 2:
                return (well == 2, view.wells[well])
            return (share_mid if well == 2 else share_high, view.wells[well])

        return max(draws, key=worth)
