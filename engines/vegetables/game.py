"""VEGEtables rules (``docs/games/vegetables.md``), two players.

Cards are written colour letter + number: ``p`` purple, ``g`` green, ``r``
red, ``y`` yellow, so ``"g7"`` is the green 7; a Tractor on the board is
``"T"``.  The 16 stacks are numbered ``colour * 4 + (base - 1)``: stack 0 is
purple 1-5-9-13-17, stack 5 green 2-6-10-14-18, and so on.

A turn is a sequence of decisions by the same seat.  Actions:

* ``"play:g7"`` -- play that card from Hand or Grounds onto its stack;
* ``"take:2"`` -- the forced Silo take after a Ground card: the front card of
  Silo column 2 (0-3) goes into the Hand; the only legal actions while a take
  is due;
* ``"tractor:r9"`` -- a Tractor stands in for r5 (held by the opponent) and the
  player's own r9 goes on top of it, as one action;
* ``"discard-tractor"`` -- remove one Tractor from the Hand (counts as a play);
* ``"pass"`` -- end the turn without drawing;
* ``"draw:0"``, ``"draw:1"``, ``"draw:2"`` -- draw ONE card from that Well.  The
  first draw ends the playing part of the turn; the same seat then keeps
  choosing ``draw:<well>`` (and, when allowed, ``pass``) until the turn ends.

Rulings beyond the rules page (see also docs/games/vegetables.md):

* **Tractor stand-in**: legal when the stack accepts N now (N in 1-4: its square
  is empty; N >= 5: the stack's top is N-4), the player has a Tractor and the
  card N+4 in Hand, and the opponent holds N in Hand or Grounds.  Whether the
  opponent holds N is revealed to the player by the offer itself (as the
  software does): the observation lists such N in ``tractor_targets`` and
  remembers them in ``opponent_known`` while still in that Hand.  The real N
  is a dead card: it stays in the opponent's Hand for good (public knowledge).
* **Draw**: drawing starts with a Hand under 12.  Once drawing, the player must
  continue to 12 (or until no Well has cards); the only stop is ``pass`` when
  the Hand was under 8 as drawing began and has now reached exactly 8.
* **Pass** needs at least one play this turn and 8+ Hand cards -- or, when no
  Well has a card left, any Hand size (else a short Hand with empty Wells could
  not end its turn).
* **Third Well**: drawable from the moment Well 0 or Well 1 is empty.  "The
  Wells are empty" (going out) means all three are empty.
* **Going out** is checked after every play or take: Hand (Tractors included)
  and Grounds empty while all Wells are empty ends the game at once.
* **Blocked** is checked when a turn starts: no play, stand-in or Tractor
  discard possible ends the game; the opponent scores +10 per unfinished stack.
* A stack with a Tractor in it counts like any other: finishing it (its
  17-20, possibly the N+4 of a stand-in) scores +10 and counts for the row.
* The game also ends when all 16 stacks are finished, or after ``max_turns``
  completed turns; the scores then stand as they are.
* Silo cards taken are public: the observation lists them as known in the
  taker's Hand until played.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping
from typing import Any

from arena.game import (
    Engine,
    GameInfo,
    IllegalAction,
    Observation,
    Option,
    Outcome,
    State,
)
from engines import built_in_unit

COLOURS = "pgry"
NAMES = [f"{COLOURS[c]}{n}" for c in range(4) for n in range(1, 21)]
CARD = {name: index for index, name in enumerate(NAMES)}
NUMBER = [index % 20 + 1 for index in range(80)]
STACK = [(index // 20) * 4 + (index % 20) % 4 for index in range(80)]
#: the top a stack must show for the card to be played on it (0: empty square)
NEEDS = [NUMBER[i] - 4 if NUMBER[i] > 4 else 0 for i in range(80)]
STACK_NAMES = [f"{COLOURS[s // 4]}{s % 4 + 1}" for s in range(16)]

PLAY = ["play:" + name for name in NAMES]
TRACTOR = ["tractor:" + name for name in NAMES]
TAKE = ["take:0", "take:1", "take:2", "take:3"]
DRAW = ["draw:0", "draw:1", "draw:2"]
DISCARD = "discard-tractor"
PASS = "pass"

LOW = [i for i in range(80) if NUMBER[i] <= 4]
MID = [i for i in range(80) if 5 <= NUMBER[i] <= 12]
HIGH = [i for i in range(80) if NUMBER[i] >= 13]

PLAYING, TAKING, DRAWING, OVER = "play", "take", "draw", "over"


def card_id(name: str) -> int:
    return CARD[name]


def stack_cards(stack: int, top: int, standins: Mapping[int, int]) -> list[str]:
    """The cards of one stack from bottom to top, a Tractor written ``"T"``."""
    colour, base = divmod(stack, 4)
    cards = []
    for number in range(base + 1, top + 1, 4):
        card = colour * 20 + number - 1
        cards.append("T" if card in standins else NAMES[card])
    return cards


class Vegetables(Engine):
    info = GameInfo(
        id="vegetables",
        version="1.0",
        players=(2,),
        options=(Option("max_turns", 300, "the game stops after this many turns", minimum=1),),
        summary="two-player step-of-four card shedding with Silos, Wells and Tractors",
    )

    def _new_game(self, players: int, seed: int, options: dict[str, Any]):
        rng = random.Random(seed)
        state = VegetablesState(options, rng)
        low, mid, high = list(LOW), list(MID), list(HIGH)
        rng.shuffle(low)
        rng.shuffle(mid)
        rng.shuffle(high)
        state._grounds = [sorted(low[:8]), sorted(low[8:])]
        state._hands = [sorted(mid[:12]), sorted(mid[12:24])]
        state._wells = [high[16:24], high[24:32], mid[24:32]]
        # silo columns: the front card (the one that may be taken) is last
        state._silos = [high[4 * c : 4 * c + 4] for c in range(4)]
        state._begin_turn_knowledge()
        return state

    def sample_state(self, observation: Observation, rng: random.Random):
        seat = observation["seat"]
        other = 1 - seat
        state = VegetablesState(dict(observation["options"]), random.Random(rng.randrange(2**63)))
        state._to_move = observation["to_move"] if observation["to_move"] is not None else 0
        state._phase = observation["phase"]
        state._played = observation["played_this_turn"]
        state._draw_start = observation["draw_start"]
        state._turn = observation["turn"]
        state._scores = list(observation["scores"])
        state._tractors = list(observation["tractors"])
        state._tractors_locked = list(observation["tractors_locked"])
        state._tractors_used = list(observation["tractors_used"])
        state._tractors_discarded = list(observation["tractors_discarded"])
        state._grounds = [sorted(CARD[c] for c in g) for g in observation["grounds"]]
        state._tops = list(observation["tops"])
        state._standins = {CARD[card]: by for card, by in observation["standins"]}
        state._silos = [[CARD[c] for c in reversed(col)] for col in observation["silos"]]
        state._this_turn = list(observation["this_turn"])
        state._last_turn = list(observation["last_turn"])
        state._end = observation["end"]
        own = [CARD[c] for c in observation["hand"]]
        known = {CARD[c] for c in observation["opponent_known"]}
        state._public[seat] = {CARD[c] for c in observation["hand_public"]}
        state._private[seat] = set(known)

        seen = set(own) | known
        for ground in state._grounds:
            seen.update(ground)
        for column in state._silos:
            seen.update(column)
        for stack, top in enumerate(state._tops):
            colour, base = divmod(stack, 4)
            for number in range(base + 1, top + 1, 4):
                card = colour * 20 + number - 1
                if card not in state._standins:
                    seen.add(card)
        # a stand-in's real card is in its victim's Hand: the own ones are in
        # ``own``, the opponent's are in ``known``
        # candidates of a Tractor offer that were NOT offered are not in the
        # opponent's Hand: they must be in the Wells
        forbidden = set()
        if state._phase == PLAYING and state._to_move == seat and state._tractors[seat]:
            for card in own:
                if NUMBER[card] >= 5:
                    below = card - 4
                    if state._tops[STACK[below]] == NEEDS[below] and below not in seen:
                        forbidden.add(below)
        unknown_mid = [c for c in MID if c not in seen]
        unknown_high = [c for c in HIGH if c not in seen]
        wells = observation["wells"]
        opp_mid = len(unknown_mid) - wells[2]
        opp_high = len(unknown_high) - wells[0] - wells[1]
        hand = sorted(known)

        def split(pool, count, first=None):
            free = [c for c in pool if c not in forbidden and c != first]
            rng.shuffle(free)
            if first is not None:
                free.insert(0, first)
            taken, rest = free[:count], free[count:]
            rest.extend(c for c in pool if c in forbidden)
            rng.shuffle(rest)
            return taken, rest

        # The game is not over, so an opponent about to start a turn can play:
        # redeal until the sampled Hand has a playable card (rejection), and
        # after many misses put one playable unknown card in it first.
        must_play = (
            state._phase == PLAYING
            and state._to_move == other
            and not state._played
            and not state._tractors[other]
            and not any(
                state._tops[STACK[c]] == NEEDS[c] for c in state._grounds[other] + list(known)
            )
        )
        tops = state._tops
        for attempt in range(40):
            first_mid = first_high = None
            if must_play and attempt == 39:
                pool = (unknown_mid if opp_mid else []) + (unknown_high if opp_high else [])
                playable = [c for c in pool if tops[STACK[c]] == NEEDS[c] and c not in forbidden]
                pick = rng.choice(playable)
                if NUMBER[pick] <= 12:
                    first_mid = pick
                else:
                    first_high = pick
            taken_mid, well_mid = split(unknown_mid, opp_mid, first_mid)
            taken_high, well_high = split(unknown_high, opp_high, first_high)
            if not must_play or any(tops[STACK[c]] == NEEDS[c] for c in taken_mid + taken_high):
                break
        hand.extend(taken_mid)
        hand.extend(taken_high)
        state._hands = [[], []]
        state._hands[seat] = sorted(own)
        state._hands[other] = sorted(hand)
        state._wells = [well_high[: wells[0]], well_high[wells[0] :], well_mid]
        return state


class VegetablesState(State):
    def __init__(self, options: dict[str, Any], rng: random.Random):
        self.players = 2
        self._options = options
        self._rng = rng
        self._to_move = 0
        self._phase = PLAYING
        self._played = 0
        self._draw_start = 0
        self._turn = 0
        self._scores = [0, 0]
        self._tractors = [1, 1]
        self._tractors_locked = [4, 4]
        self._tractors_used = [0, 0]
        self._tractors_discarded = [0, 0]
        self._grounds: list[list[int]] = [[], []]
        self._hands: list[list[int]] = [[], []]
        self._tops = [0] * 16
        self._standins: dict[int, int] = {}  # real card N -> seat who played the Tractor
        self._silos: list[list[int]] = [[], [], [], []]
        self._wells: list[list[int]] = [[], [], []]
        self._public: list[set[int]] = [set(), set()]  # cards of a Hand everyone knows
        self._private: list[set[int]] = [set(), set()]  # what a seat learned of the other Hand
        self._this_turn: list[str] = []
        self._last_turn: list[str] = []
        self._end: str | None = None
        self._legal: list[str] | None = None  # cached legal actions of _to_move

    # ------------------------------------------------------------ queries
    def to_act(self):
        return () if self._phase == OVER else (self._to_move,)

    def hand_size(self, seat: int) -> int:
        return len(self._hands[seat]) + self._tractors[seat]

    def drawable(self) -> list[int]:
        wells = self._wells
        out = [w for w in (0, 1) if wells[w]]
        if wells[2] and (not wells[0] or not wells[1]):
            out.append(2)
        return out

    def wells_empty(self) -> bool:
        return not (self._wells[0] or self._wells[1] or self._wells[2])

    def unfinished(self) -> int:
        return sum(1 for top in self._tops if top < 17)

    def _stand_in_ok(self, seat: int, card: int) -> bool:
        """Whether ``card`` (in ``seat``'s Hand) may follow a Tractor now."""
        if NUMBER[card] < 5:
            return False
        below = card - 4
        if self._tops[STACK[below]] != NEEDS[below]:
            return False
        other = 1 - seat
        return below in self._hands[other] or below in self._grounds[other]

    def plays(self, seat: int) -> list[str]:
        tops = self._tops
        out = []
        for card in sorted(self._grounds[seat] + self._hands[seat]):
            if tops[STACK[card]] == NEEDS[card]:
                out.append(PLAY[card])
        if self._tractors[seat]:
            for card in self._hands[seat]:
                if self._stand_in_ok(seat, card):
                    out.append(TRACTOR[card])
            out.append(DISCARD)
        return out

    def _has_play(self, seat: int) -> bool:
        if self._tractors[seat]:
            return True
        tops = self._tops
        for card in self._grounds[seat]:
            if tops[STACK[card]] == NEEDS[card]:
                return True
        for card in self._hands[seat]:  # noqa: SIM110 -- a loop: faster than any() here
            if tops[STACK[card]] == NEEDS[card]:
                return True
        return False

    def legal_actions(self, seat):
        if self._phase == OVER or seat != self._to_move:
            return []
        if self._legal is None:
            self._legal = self._compute_legal(seat)
        return list(self._legal)

    def _compute_legal(self, seat):
        if self._phase == TAKING:
            return [TAKE[c] for c in range(4) if self._silos[c]]
        size = self.hand_size(seat)
        drawable = self.drawable()
        if self._phase == DRAWING:
            out = [DRAW[w] for w in drawable]
            if self._draw_start < 8 and size == 8:
                out.append(PASS)
            return out
        out = self.plays(seat)
        if self._played:
            if size >= 8 or not drawable:
                out.append(PASS)
            if size < 12:
                out.extend(DRAW[w] for w in drawable)
        return out

    def tractor_targets(self, seat: int) -> list[int]:
        """The cards N a Tractor could stand in for right now (seat to play)."""
        if self._phase != PLAYING or seat != self._to_move or not self._tractors[seat]:
            return []
        return sorted(card - 4 for card in self._hands[seat] if self._stand_in_ok(seat, card))

    def observation(self, seat) -> Observation:
        other = 1 - seat
        over = self._phase == OVER
        targets = self.tractor_targets(seat)
        known = self._public[other] | self._private[seat]
        known.update(c for c in targets if c not in self._grounds[other])
        return {
            "seat": seat,
            "turn": self._turn,
            "to_move": None if over else self._to_move,
            "phase": self._phase,
            "played_this_turn": self._played,
            "draw_start": self._draw_start,
            "hand": [NAMES[c] for c in sorted(self._hands[seat])],
            "hand_sizes": [self.hand_size(0), self.hand_size(1)],
            "hand_public": [NAMES[c] for c in sorted(self._public[seat])],
            "opponent_known": [NAMES[c] for c in sorted(known)],
            "tractor_targets": [NAMES[c] for c in targets],
            "tractors": list(self._tractors),
            "tractors_locked": list(self._tractors_locked),
            "tractors_used": list(self._tractors_used),
            "tractors_discarded": list(self._tractors_discarded),
            "grounds": [[NAMES[c] for c in g] for g in self._grounds],
            "tops": list(self._tops),
            "stacks": [stack_cards(s, top, self._standins) for s, top in enumerate(self._tops)],
            "standins": [[NAMES[c], by] for c, by in sorted(self._standins.items())],
            "silos": [[NAMES[c] for c in reversed(col)] for col in self._silos],
            "wells": [len(w) for w in self._wells],
            "third_well_open": not self._wells[0] or not self._wells[1],
            "scores": list(self._scores),
            "this_turn": list(self._this_turn),
            "last_turn": list(self._last_turn),
            "options": dict(self._options),
            "over": over,
            "end": self._end,
        }

    def secrets(self, seat):
        """For the referee's leak audit: the opponent's Hand cards this seat
        has no way to know, and the content of every Well."""
        known = set(self.observation(seat)["opponent_known"])
        unknown = [NAMES[c] for c in sorted(self._hands[1 - seat]) if NAMES[c] not in known]
        return [unknown] + [[NAMES[c] for c in well] for well in self._wells]

    # ------------------------------------------------------------ moves
    def is_legal(self, seat, action):
        if self._legal is None:
            self._legal = self._compute_legal(seat)
        return action in self._legal

    def _apply(self, actions):
        seat = self._to_move
        self._do(seat, actions[seat])

    def _do(self, seat: int, action: str) -> None:
        self._legal = None
        other = 1 - seat
        kind, _, arg = action.partition(":")
        log = action
        if kind == "play":
            card = CARD[arg]
            if card in self._grounds[seat]:
                self._grounds[seat].remove(card)
                self._place(seat, card)
                played = 8 - len(self._grounds[seat])
                if played == 4 or played == 8:
                    self._tractors[seat] += 2
                    self._tractors_locked[seat] -= 2
                self._played += 1
                self._this_turn.append(log)
                if self._phase == OVER:
                    return
                if any(self._silos):
                    self._phase = TAKING
                    return
            else:
                self._play_from_hand(seat, card, log)
                if self._phase == OVER:
                    return
            self._after_play(seat)
        elif kind == "take":
            column = self._silos[int(arg)]
            card = column.pop()
            insort(self._hands[seat], card)
            self._public[seat].add(card)
            self._this_turn.append(f"{log}={NAMES[card]}")
            self._phase = PLAYING
            self._after_play(seat)
        elif kind == "tractor":
            card = CARD[arg]
            below = card - 4
            self._tractors[seat] -= 1
            self._tractors_used[seat] += 1
            self._standins[below] = seat
            if below in self._hands[other]:  # else it is a dead Ground card
                self._public[other].add(below)
            self._tops[STACK[below]] = NUMBER[below]
            self._play_from_hand(seat, card, log)
            if self._phase != OVER:
                self._after_play(seat)
        elif action == DISCARD:
            self._tractors[seat] -= 1
            self._tractors_discarded[seat] += 1
            self._played += 1
            self._this_turn.append(log)
            self._after_play(seat)
        elif action == PASS:
            self._this_turn.append(log)
            self._end_turn()
        elif kind == "draw":
            if self._phase == PLAYING:
                self._phase = DRAWING
                self._draw_start = self.hand_size(seat)
            insort(self._hands[seat], self._wells[int(arg)].pop())
            self._this_turn.append(log)
            if self.hand_size(seat) >= 12 or not self.drawable():
                self._end_turn()
        else:  # pragma: no cover - legal_actions guards this
            raise IllegalAction(f"vegetables: unknown action {action!r}")

    def _play_from_hand(self, seat: int, card: int, log: str) -> None:
        """``seat`` plays ``card`` from its hand (a play or a tractor): no
        longer known to either seat as held, placed, counted and logged."""
        self._hands[seat].remove(card)
        self._public[seat].discard(card)
        self._private[1 - seat].discard(card)
        self._place(seat, card)
        self._played += 1
        self._this_turn.append(log)

    def _place(self, seat: int, card: int) -> None:
        stack = STACK[card]
        number = NUMBER[card]
        self._tops[stack] = number
        if number >= 17:
            self._scores[seat] += 10
            colour = stack // 4
            if all(self._tops[colour * 4 + b] >= 17 for b in range(4)):
                self._scores[seat] += 30
            if all(top >= 17 for top in self._tops):
                self._finish("all-finished")

    def _after_play(self, seat: int) -> None:
        """Going out, and the Tractor offers the next decision reveals."""
        if (
            not self._hands[seat]
            and not self._tractors[seat]
            and not self._grounds[seat]
            and self.wells_empty()
        ):
            self._scores[seat] += 10 * self.unfinished()
            self._finish("out")
            return
        self._begin_turn_knowledge()

    def _begin_turn_knowledge(self) -> None:
        seat = self._to_move
        if self._tractors[seat]:
            other = 1 - seat
            for card in self._hands[seat]:
                if self._stand_in_ok(seat, card) and (card - 4) not in self._grounds[other]:
                    self._private[seat].add(card - 4)

    def _end_turn(self) -> None:
        seat = self._to_move
        self._last_turn = [f"{seat}"] + self._this_turn
        self._this_turn = []
        self._turn += 1
        self._played = 0
        self._draw_start = 0
        self._phase = PLAYING
        if self._turn >= self._options["max_turns"]:
            self._finish("max-turns")
            return
        self._to_move = 1 - seat
        if not self._has_play(self._to_move):
            self._scores[seat] += 10 * self.unfinished()
            self._finish("blocked")
            return
        self._begin_turn_knowledge()

    def _finish(self, reason: str) -> None:
        self._phase = OVER
        self._end = reason

    def outcome(self):
        return Outcome.from_scores(list(self._scores))

    def clone(self):
        copy = object.__new__(VegetablesState)
        copy.__dict__.update(self.__dict__)
        copy._scores = list(self._scores)
        copy._tractors = list(self._tractors)
        copy._tractors_locked = list(self._tractors_locked)
        copy._tractors_used = list(self._tractors_used)
        copy._tractors_discarded = list(self._tractors_discarded)
        copy._grounds = [list(g) for g in self._grounds]
        copy._hands = [list(h) for h in self._hands]
        copy._tops = list(self._tops)
        copy._standins = dict(self._standins)
        copy._silos = [list(c) for c in self._silos]
        copy._wells = [list(w) for w in self._wells]
        copy._public = [set(s) for s in self._public]
        copy._private = [set(s) for s in self._private]
        copy._this_turn = list(self._this_turn)
        copy._last_turn = list(self._last_turn)
        # all chance is spent at setup (shuffled piles), so the generator is
        # never drawn from again and may be shared
        return copy


#: this game as one plugin unit (:class:`arena.game.GameUnit`)
UNIT = built_in_unit(Vegetables())
