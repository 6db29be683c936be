"""Hand and Foot rules (``docs/games/hand-and-foot.md``).

2, 4, 6, 8 or 9 players in fixed teams (seat ``i`` is on team ``i % T``), with
``players + 1`` decks of 54 cards.  Card codes are described in
:mod:`engines.hand_and_foot.cards` (``"7h"``, ``"ts"``, ``"2s"``, ``"jk"``).

A turn is a sequence of actions by the same seat:

1. the draw, one of
   * ``"draw"`` -- two cards from the draw pile;
   * ``"pile"`` -- take the top 8 discards when the top card is a natural: the
     top card goes straight onto the team's set of its rank, or, if the team
     has none, into a new set together with two naturals of that rank from the
     Hand; the other taken cards join the Hand;
   * ``"pile:R"`` -- take the top 8 discards when the top card is wild: the
     wild goes onto the team's set of rank ``R`` (only onto an existing set);
2. any number of melds, one card or one new set per action:
   * ``"meld:R"`` -- one natural of rank ``R`` onto the team's set of ``R``;
   * ``"meld:R:2"`` / ``"meld:R:jk"`` -- one 2 / one joker onto that set;
   * ``"new:R"`` -- start the team's set of ``R`` with three naturals;
   * ``"new:R:2"`` / ``"new:R:jk"`` -- start it with two naturals and a 2 /
     a joker;
3. ``"discard:CARD"`` (e.g. ``"discard:7h"``) ends the turn.

Ranks ``R`` are ``4 5 6 7 8 9 t j q k a``.  When several cards fit an action
(two 2s of different suits, say) the engine moves the first one in hand order
(by rank then suit c, d, h, s); suits never matter to the rules except for 3s.

Initial meld (the "staging" scheme): while a team has not yet melded this
round, the sets its player starts this turn are laid on the table at once and
are *pending*: they show in ``sets`` while ``melded`` stays false for the team.
As soon as the cards laid this turn are worth the team's threshold the team
has melded (``melded`` turns true) and everything stays down.  While sets are
pending the player may not discard, and every meld action is legal only if
the threshold can still be reached from the cards in hand (computed exactly
by :func:`cards.max_meld_value`) -- so a legal action never strands the
player.  Taking the discard pile is legal only under the same condition.

Rulings beyond the rules page, as implemented here:

* the round ends at the start of a turn whose player would have to draw from
  an empty draw pile, even if the discard pile could be taken (a draw of two
  from a pile of one card takes just that card).  With
  ``stock_exhausted="reshuffle"``, whenever a card must be drawn from an empty
  draw pile the discards under the top card are shuffled into a new draw
  pile; the round ends at the start of a turn when the draw pile and the
  discards under the top card hold fewer than two cards together (otherwise
  the last cards could circulate for ever);
* taking the discard pile: the two naturals that start a new set with the top
  card must come from the Hand held before the pickup (the rules page), but
  the other picked-up cards may be used at once, also towards the initial
  meld threshold;
* cards of the Foot picked up in the middle of a turn do not count towards the
  initial meld of that turn: a player may not empty the Hand by melding
  before the threshold is met (the Foot is unknown until picked up);
* a move is illegal if it would leave the player unable to finish the turn:
  in the Foot a player without the two books may not meld down to one card
  (unless melding that card would complete the books and so go out) or to
  none, nor discard the last card;
* a player may go out by melding the last card of the Foot (no discard) or by
  discarding it; going out ends the round at once;
* ``hand_size`` is at least 2 (a Foot of one card could never be played);
* option ``teams``: 0 uses the table of the rules page (2 -> 2 teams of 1,
  4 -> 2x2, 6 -> 3x2, 8 -> 4x2, 9 -> 3x3); another value T must divide the
  player count (T teams of players/T), seat i on team i % T;
* a new round is started by the seat after the one that started the last;
  round 1 is started by seat 0;
* the final score of every seat is its team's total; ranks by team total.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from arena.game import (Engine, GameInfo, Observation, Option, OptionError,
                        Outcome, State)
from engines.hand_and_foot.cards import (DECK, JOKER, NATURAL_RANKS, ORDER, PENALTY, VALUE,
                                         books, can_go_out, max_meld_value,
                                         set_wilds, sort_cards, threshold)

DEFAULT_TEAMS = {2: 2, 4: 2, 6: 3, 8: 4, 9: 3}
PILE_TAKE = 8
SAMPLE_TRIES = 100
DRAW, MELD, OVER = "draw", "meld", "over"
_KEY = ORDER.__getitem__


def team_count(players: int, teams: int) -> int:
    """The number of teams for ``players`` with option ``teams`` (0 = table)."""
    if teams == 0:
        return DEFAULT_TEAMS[players]
    if teams < 2 or players % teams:
        raise OptionError(
            f"game 'hand-and-foot' option 'teams': {teams} teams cannot split "
            f"{players} players evenly")
    return teams


def _rank(card: str) -> str:
    """'*' for wilds, '3' for threes, else the natural rank."""
    if card == JOKER or card[0] == "2":
        return "*"
    return card[0]


# Tables built once, so the legal-move generation (the hot path of every
# playout) looks strings up instead of building them.
_RANK_OF = {card: _rank(card) for card in ORDER}


def _moves(rank: str, has_set: bool, count: int, two: bool, joker: bool) -> tuple:
    """(the actions, and for each the naturals it moves and its wild: None,
    "2" or "jk") of rank ``rank`` when the team has a set of it or not, the
    hand holds ``count`` naturals of it (3: three or more) and a 2 / a joker
    that may go in, in the order of the rules."""
    if has_set:
        kind, needed, per_wild = "meld:", 1, 0
    else:
        kind, needed, per_wild = "new:", 3, 2
    moves = []
    if count >= needed:
        moves.append((kind + rank, needed, None))
    if two and count >= per_wild:
        moves.append((kind + rank + ":2", per_wild, "2"))
    if joker and count >= per_wild:
        moves.append((kind + rank + ":jk", per_wild, JOKER))
    return tuple(action for action, _, _ in moves), tuple(moves)


# rank -> naturals held (0-3, 3: three or more) -> wilds held (2 for a 2, 1 for
# a joker) -> what _moves says, for a rank without a set / with a set
_NEW_MOVES = {rank: [[_moves(rank, False, count, bool(wild & 2), bool(wild & 1))
                      for wild in range(4)] for count in range(4)] for rank in NATURAL_RANKS}
_MELD_MOVES = {rank: [[_moves(rank, True, count, bool(wild & 2), bool(wild & 1))
                       for wild in range(4)] for count in range(2)] for rank in NATURAL_RANKS}
_DISCARD = {card: "discard:" + card for card in ORDER}
_PILE = {rank: "pile:" + rank for rank in NATURAL_RANKS}


class HandAndFoot(Engine):
    info = GameInfo(
        id="hand-and-foot",
        version="1.0",
        players=(2, 4, 6, 8, 9),
        options=(
            Option("target", 10000, "the game ends after a round in which a team "
                   "has more than this many points", minimum=1),
            Option("hand_size", 10, "cards in each Hand and each Foot", minimum=2,
                   maximum=20),
            Option("go_out_bonus", 0, "points for the team of the player who goes out",
                   minimum=0),
            Option("stock_exhausted", "end", "empty draw pile: end the round, or "
                   "reshuffle the discards under the top card", choices=("end", "reshuffle")),
            Option("max_rounds", 20, "the game ends after this many rounds", minimum=1),
            Option("teams", 0, "number of teams (0: 2->2, 4->2, 6->3, 8->4, 9->3); "
                   "must divide the player count", minimum=0),
        ),
        teams="fixed",
        summary="partnership canasta-like rummy: meld books from a Hand, then a Foot",
    )

    def _new_game(self, players: int, seed: int, options: dict[str, Any]):
        state = HandAndFootState(players, options, random.Random(seed))
        state._deal()
        return state

    def sample_state(self, observation: Observation, rng: random.Random):
        """Everything the seat cannot see -- the other Hands, every unpicked
        Foot (its own included) and the draw pile -- is dealt at random from
        the cards it has not seen."""
        seat = observation["seat"]
        players = observation["players"]
        options = dict(observation["options"])
        state = HandAndFootState(players, options, random.Random(rng.getrandbits(64)))
        state._scores = list(observation["scores"])
        state._history = [list(scores) for scores in observation["history"]]
        state._outs = list(observation["outs"])
        state._round = observation["round"]
        state._first = observation["first"]
        state._phase = observation["phase"]
        state._turn = observation["to_act"]
        state._in_foot = list(observation["in_foot"])
        state._melded = list(observation["melded"])
        state._sets = [{rank: list(cards) for rank, cards in sets.items()}
                       for sets in observation["sets"]]
        state._discard = list(observation["discard"])
        known = Counter(observation["hand"])
        known.update(state._discard)
        for sets in state._sets:
            for cards in sets.values():
                known.update(cards)
        pool = Counter(DECK * (players + 1))
        pool.subtract(known)
        unknown = sort_cards(pool.elements())
        actor = state._turn
        # The acting player's hidden Hand must let it finish the turn (reach a
        # pending initial meld's threshold, or go out with a single Foot card):
        # deal again until it does, then fall back to swapping useful cards in.
        for _ in range(max(1, SAMPLE_TRIES)):
            rng.shuffle(unknown)
            state._deal_hidden(seat, observation, unknown)
            if (actor is None or actor == seat or state._phase != MELD
                    or state._turn_finishable(actor)):
                break
        else:
            state._repair_hand(actor, seat, rng)
        if len(state._stock) != observation["stock"]:
            raise ValueError("observation is inconsistent: card counts do not add up")
        return state


class HandAndFootState(State):
    def __init__(self, players: int, options: dict[str, Any], rng: random.Random):
        self.players = players
        self._options = options
        self._rng = rng
        count = team_count(players, options["teams"])
        self._team_of = [seat % count for seat in range(players)]
        self._num_teams = count
        self._scores = [0] * count
        self._history: list[list[int]] = []   # per round: each team's round score
        self._outs: list = []                 # per round: seat that went out, or None
        self._round = 0
        self._first = -1
        self._phase = DRAW
        self._turn = 0
        self._hands: list[list[str]] = []
        self._feet: list[list[str]] = []
        self._in_foot: list[bool] = []
        self._sets: list[dict[str, list[str]]] = []
        self._melded: list[bool] = []
        self._discard: list[str] = []
        self._stock: list[str] = []
        self._legal: list | None = None  # cache of the current legal actions

    # ------------------------------------------------------------- sampling
    def _deal_hidden(self, seat: int, observation: Observation, unknown: list[str]) -> None:
        size = self._options["hand_size"]
        hands, feet = [], []
        at = 0
        for other in range(self.players):
            if other == seat:
                hands.append(list(observation["hand"]))
            else:
                count = observation["hand_counts"][other]
                hands.append(sort_cards(unknown[at:at + count]))
                at += count
            if self._in_foot[other]:
                feet.append([])
            else:
                feet.append(unknown[at:at + size])
                at += size
        self._hands = hands
        self._feet = feet
        self._stock = unknown[at:]

    def _turn_finishable(self, seat: int) -> bool:
        return self._placement_ok(seat, self._hands[seat], self._sets[self._team_of[seat]])

    def _repair_hand(self, seat: int, observer: int, rng: random.Random) -> None:
        """Swap hidden cards into ``seat``'s Hand until it can finish its turn:
        the best card for it from the other hidden places replaces its worst."""
        sets = self._sets[self._team_of[seat]]
        hand = self._hands[seat]
        places = [h for other, h in enumerate(self._hands) if other not in (seat, observer)]
        places += self._feet + [self._stock]
        for _ in range(len(hand) + 8):
            if self._turn_finishable(seat):
                break
            best = None
            for place in places:
                for index, card in enumerate(place):
                    trial = hand[1:] + [card] if len(hand) == 1 else None
                    if trial is not None:
                        gain = 1 if self._placement_ok(seat, trial, sets) else 0
                    else:
                        gain = max_meld_value(hand + [card], sets)
                    if best is None or gain > best[0]:
                        best = (gain, place, index)
            if best is None:
                break
            _, place, index = best
            out = min(range(len(hand)),
                      key=lambda i: (max_meld_value(hand[:i] + hand[i + 1:], sets) * -1,
                                     rng.random()))
            hand[out], place[index] = place[index], hand[out]
            hand.sort(key=_KEY)
        for other, cards in enumerate(self._hands):
            cards.sort(key=_KEY)

    # ----------------------------------------------------------------- rounds
    def _deal(self) -> None:
        """Start the next round: new decks, Hands and Feet, up-card."""
        self._round += 1
        self._first = (self._first + 1) % self.players
        cards = list(DECK * (self.players + 1))
        self._rng.shuffle(cards)
        size = self._options["hand_size"]
        self._hands, self._feet = [], []
        for _ in range(self.players):
            self._hands.append(sort_cards(cards[-size:]))
            del cards[-size:]
            self._feet.append(cards[-size:])
            del cards[-size:]
        self._discard = [cards.pop()]
        self._stock = cards
        self._in_foot = [False] * self.players
        self._sets = [{} for _ in range(self._num_teams)]
        self._melded = [False] * self._num_teams
        self._start_turn(self._first)

    def _start_turn(self, seat: int) -> None:
        self._turn = seat
        self._phase = DRAW
        if self._options["stock_exhausted"] == "reshuffle":
            exhausted = len(self._stock) + len(self._discard) - 1 < 2
        else:
            exhausted = not self._stock
        if exhausted:
            self._end_round(None)

    def _reshuffle(self) -> bool:
        if self._options["stock_exhausted"] != "reshuffle" or len(self._discard) < 2:
            return False
        self._stock = self._discard[:-1]
        self._discard = self._discard[-1:]
        self._rng.shuffle(self._stock)
        return True

    def round_scores(self, goer: int | None = None) -> list[int]:
        """Each team's score for the round as it stands (``goer`` went out)."""
        result = []
        for team, sets in enumerate(self._sets):
            clean, dirty = books(sets)
            score = 500 * clean + 250 * dirty
            for cards in sets.values():
                score += sum(VALUE[card] for card in cards)
            result.append(score)
        for seat in range(self.players):
            lost = sum(PENALTY[card] for card in self._hands[seat])
            lost += sum(PENALTY[card] for card in self._feet[seat])
            result[self._team_of[seat]] -= lost
        if goer is not None:
            result[self._team_of[goer]] += self._options["go_out_bonus"]
        return result

    def _end_round(self, goer: int | None) -> None:
        scores = self.round_scores(goer)
        self._history.append(scores)
        self._outs.append(goer)
        self._scores = [total + add for total, add in zip(self._scores, scores)]
        if (max(self._scores) > self._options["target"]
                or self._round >= self._options["max_rounds"]):
            self._phase = OVER
            self._turn = None
        else:
            self._deal()

    # ---------------------------------------------------------------- queries
    def team_of(self, seat: int) -> int:
        return self._team_of[seat]

    def threshold(self, team: int) -> int:
        return threshold(self._scores[team])

    def to_act(self):
        return () if self._phase == OVER else (self._turn,)

    def legal_actions(self, seat):
        if self._phase == OVER or seat != self._turn:
            return []
        if self._legal is None:
            if self._phase == DRAW:
                self._legal = ["draw"] + self._pile_options(seat)
            else:
                self._legal = self._meld_options(seat) + self._discard_options(seat)
        return list(self._legal)

    def _placement_ok(self, seat: int, hand: list[str], sets: dict,
                      laid: int | None = None) -> bool:
        """Whether a player left with ``hand`` and team ``sets`` after a meld
        or a pile pickup can still finish the turn legally (``laid``: the
        points in ``sets``, when the caller knows them)."""
        team = self._team_of[seat]
        if not self._melded[team]:
            need = self.threshold(team)
            if laid is None:
                laid = sum(VALUE[card] for cards in sets.values() for card in cards)
            if laid < need:
                return max_meld_value(hand, sets) >= need
        if not self._in_foot[seat] or len(hand) >= 2 or can_go_out(sets):
            return True  # (an empty Hand means picking up the Foot, >= 2 cards)
        if not hand:
            return False
        card = hand[0]  # the last card: only if melding it goes out
        rank = _rank(card)
        targets = (sets if rank == "*" else [rank]) if rank != "3" else []
        for target in targets:
            cards = sets.get(target)
            if cards is None or (rank == "*" and set_wilds(cards) >= 2):
                continue
            if can_go_out({**sets, target: cards + [card]}):
                return True
        return False

    def _pile_options(self, seat: int) -> list[str]:
        if not self._discard:
            return []
        top = self._discard[-1]
        rank = _rank(top)
        if rank == "3":
            return []
        team = self._team_of[seat]
        sets = self._sets[team]
        hand = self._hands[seat]
        if self._melded[team] and not self._in_foot[seat]:
            # every placement is fine then (see _placement_ok): only the shape counts
            if rank == "*":
                return [_PILE[target] for target in NATURAL_RANKS
                        if target in sets and set_wilds(sets[target]) < 2]
            if rank in sets or list(map(_RANK_OF.__getitem__, hand)).count(rank) >= 2:
                return ["pile"]
            return []
        rest = self._discard[-PILE_TAKE:-1]
        options = []
        if rank == "*":
            if not self._melded[team]:
                return []
            for target, cards in sets.items():
                if set_wilds(cards) < 2 and self._placement_ok(
                        seat, hand + rest, {**sets, target: cards + [top]}):
                    options.append("pile:" + target)
            return sorted(options, key=lambda a: NATURAL_RANKS.index(a[-1]))
        if rank in sets:
            if self._placement_ok(seat, hand + rest, {**sets, rank: sets[rank] + [top]}):
                options.append("pile")
            return options
        pair = [card for card in hand if card[0] == rank and card != JOKER][:2]
        if len(pair) == 2:
            left = list(hand)
            left.remove(pair[0])
            left.remove(pair[1])
            if self._placement_ok(seat, left + rest, {**sets, rank: [top] + pair}):
                options.append("pile")
        return options

    def _meld_options(self, seat: int) -> list[str]:
        team = self._team_of[seat]
        sets = self._sets[team]
        hand = self._hands[seat]
        ranks = "".join(map(_RANK_OF.__getitem__, hand))
        wilds = ranks.count("*")
        kind = 0  # which wilds are held: 2 for a 2, 1 for a joker
        two = None
        if wilds:
            jokers = hand.count(JOKER)
            if wilds > jokers:
                kind = 2
                two = next(card for card in hand if card[0] == "2")
            if jokers:
                kind += 1
        free = self._melded[team] and not self._in_foot[seat]
        laid = None
        options = []
        for rank in NATURAL_RANKS:
            cards = sets.get(rank)
            if cards is None:
                if rank not in ranks:
                    continue
                count = ranks.count(rank)
                if count >= 3:
                    actions, moves = _NEW_MOVES[rank][3][kind]
                elif count == 2 and kind:
                    actions, moves = _NEW_MOVES[rank][2][kind]
                else:
                    continue
            elif kind and set_wilds(cards) < 2:
                actions, moves = _MELD_MOVES[rank][rank in ranks][kind]
            elif rank in ranks:
                actions, moves = _MELD_MOVES[rank][1][0]
            else:
                continue
            if free:
                options += actions
                continue
            if laid is None:
                laid = sum(VALUE[card] for cards in sets.values() for card in cards)
            for action, natural_count, wild in moves:
                moved, left = self._take(hand, rank, natural_count,
                                         two if wild == "2" else wild, ranks)
                if self._placement_ok(seat, left, {**sets, rank: (cards or []) + moved},
                                      laid + sum(VALUE[card] for card in moved)):
                    options.append(action)
        return options

    @staticmethod
    def _take(hand, rank, naturals, wild, ranks=None):
        """(cards moved, cards left) for melding ``naturals`` of ``rank`` and
        optionally one ``wild`` from the sorted ``hand`` (``ranks``: its
        cards' ranks as :data:`_RANK_OF` gives them, when the caller has them)."""
        if ranks is None:
            ranks = "".join(map(_RANK_OF.__getitem__, hand))
        places = []
        at = -1
        for _ in range(naturals):
            at = ranks.find(rank, at + 1)
            if at < 0:
                break
            places.append(at)
        if wild is not None and wild in hand:
            places.append(hand.index(wild))
            places.sort()
        left = list(hand)
        for at in reversed(places):
            del left[at]
        return [hand[at] for at in places], left

    def _discard_options(self, seat: int) -> list[str]:
        team = self._team_of[seat]
        hand = self._hands[seat]
        if not self._melded[team] and self._sets[team]:
            return []  # an initial meld is pending below the threshold
        if self._in_foot[seat] and len(hand) == 1 and not can_go_out(self._sets[team]):
            return []
        return list(map(_DISCARD.__getitem__, dict.fromkeys(hand)))

    # ------------------------------------------------------------------ moves
    def is_legal(self, seat, action):
        if self._legal is None:
            self.legal_actions(seat)
        return action in self._legal

    def _apply(self, actions):
        seat = self._turn
        action = actions[seat]
        self._legal = None
        kind, _, arg = action.partition(":")
        hand = self._hands[seat]
        team = self._team_of[seat]
        sets = self._sets[team]
        if kind == "draw":
            for _ in range(2):
                if not self._stock and not self._reshuffle():
                    break
                hand.append(self._stock.pop())
            hand.sort(key=_KEY)
            self._phase = MELD
        elif kind == "pile":
            taken = self._discard[-PILE_TAKE:]
            del self._discard[-PILE_TAKE:]
            top = taken.pop()
            rank = arg or top[0]
            if rank in sets:
                sets[rank].append(top)
            else:
                moved, left = self._take(hand, rank, 2, None)
                sets[rank] = [top] + moved
                hand[:] = left
            hand.extend(taken)
            hand.sort(key=_KEY)
            self._phase = MELD
            self._after_meld(seat)
        elif kind == "meld" or kind == "new":
            rank, _, wild = arg.partition(":")
            if wild == "jk":
                wild_card = JOKER
            elif wild == "2":
                wild_card = next(card for card in hand if card[0] == "2")
            else:
                wild_card = None
            naturals = 0 if wild_card and kind == "meld" else (
                1 if kind == "meld" else (3 if wild_card is None else 2))
            moved, left = self._take(hand, rank, naturals, wild_card)
            sets.setdefault(rank, []).extend(moved)
            hand[:] = left
            self._after_meld(seat)
        else:  # discard
            hand.remove(arg)
            self._discard.append(arg)
            if not hand:
                if self._in_foot[seat]:
                    self._end_round(seat)
                    return
                self._pick_up_foot(seat)
            self._start_turn((seat + 1) % self.players)

    def _after_meld(self, seat: int) -> None:
        team = self._team_of[seat]
        if not self._melded[team]:
            laid = sum(VALUE[card] for cards in self._sets[team].values() for card in cards)
            if laid >= self.threshold(team):
                self._melded[team] = True
        if not self._hands[seat]:
            if self._in_foot[seat]:
                self._end_round(seat)
            else:
                self._pick_up_foot(seat)

    def _pick_up_foot(self, seat: int) -> None:
        self._hands[seat] = sort_cards(self._feet[seat])
        self._feet[seat] = []
        self._in_foot[seat] = True

    # ------------------------------------------------------------ observation
    def observation(self, seat) -> Observation:
        return {
            "seat": seat,
            "players": self.players,
            "team": self._team_of[seat],
            "teams": list(self._team_of),
            "options": dict(self._options),
            "round": self._round,
            "first": self._first,
            "scores": list(self._scores),
            "thresholds": [threshold(score) for score in self._scores],
            "history": [list(scores) for scores in self._history],
            "outs": list(self._outs),
            "phase": self._phase,
            "to_act": self._turn,
            "hand": list(self._hands[seat]),
            "hand_counts": [len(hand) for hand in self._hands],
            "in_foot": list(self._in_foot),
            "sets": [{rank: list(cards) for rank, cards in sets.items()}
                     for sets in self._sets],
            "melded": list(self._melded),
            "discard": list(self._discard),
            "stock": len(self._stock),
        }

    def secrets(self, seat):
        """For the referee's leak audit: the other hands, every unpicked
        Foot (the seat's own too: nobody looks before picking it up) and the
        draw pile."""
        hidden = [list(hand) for other, hand in enumerate(self._hands) if other != seat]
        hidden += [list(foot) for foot in self._feet if foot]
        return hidden + [list(self._stock)]

    def outcome(self):
        if self._phase != OVER:
            raise ValueError("the game is not over")
        return Outcome.from_scores([self._scores[team] for team in self._team_of],
                                   teams=list(self._team_of))

    def clone(self):
        copy = object.__new__(HandAndFootState)
        copy.__dict__.update(self.__dict__)
        copy._rng = random.Random()
        copy._rng.setstate(self._rng.getstate())
        copy._scores = list(self._scores)
        copy._history = list(self._history)
        copy._outs = list(self._outs)
        copy._hands = [list(hand) for hand in self._hands]
        copy._feet = [list(foot) for foot in self._feet]
        copy._in_foot = list(self._in_foot)
        copy._sets = [{rank: list(cards) for rank, cards in sets.items()}
                      for sets in self._sets]
        copy._melded = list(self._melded)
        copy._discard = list(self._discard)
        copy._stock = list(self._stock)
        return copy

    # ----------------------------------------------------------- for tests
    def all_cards(self) -> list[str]:
        """Every card of the round wherever it is (for conservation checks)."""
        cards = list(self._stock) + list(self._discard)
        for hand in self._hands:
            cards += hand
        for foot in self._feet:
            cards += foot
        for sets in self._sets:
            for set_cards in sets.values():
                cards += set_cards
        return cards
