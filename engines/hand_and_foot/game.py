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
from bisect import bisect, bisect_left
from itertools import chain, compress, repeat
from typing import Any, cast

from arena.game import Engine, GameInfo, Observation, Option, OptionError, Outcome, State
from engines import built_in_unit
from engines.hand_and_foot.cards import (
    DECK,
    JOKER,
    NATURAL_RANKS,
    ORDER,
    PENALTY,
    RANK_VALUE,
    VALUE,
    books,
    can_go_out,
    max_meld_value,
    meld_value,
    set_wilds,
    shuffle,
    sort_cards,
    threshold,
)

PLAYERS = (2, 4, 6, 8, 9)
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
            f"{players} players evenly"
        )
    return teams


def _laid(sets: dict) -> int:
    """The points of the cards in ``sets`` (rank -> cards)."""
    return sum(map(VALUE.__getitem__, chain.from_iterable(sets.values())))


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
    moves: list[tuple[str, int, str | None]] = []
    if count >= needed:
        moves.append((kind + rank, needed, None))
    if two and count >= per_wild:
        moves.append((kind + rank + ":2", per_wild, "2"))
    if joker and count >= per_wild:
        moves.append((kind + rank + ":jk", per_wild, JOKER))
    return tuple(action for action, _, _ in moves), tuple(moves)


# What a hand can meld, counted: each seat's cards per *group* (the natural
# ranks in NATURAL_RANKS order, then 2s, jokers and 3s) and each team's wilds
# per set (NO_SET for a rank without one) are kept up to date by the moves, so
# the legal actions are table look-ups instead of scans of the cards.
TWOS, JOKERS, THREES, GROUPS = 11, 12, 13, 14
_GROUP = {
    card: (
        JOKERS
        if card == JOKER
        else TWOS
        if card[0] == "2"
        else THREES
        if card[0] == "3"
        else NATURAL_RANKS.index(card[0])
    )
    for card in ORDER
}
NO_SET = 3
_INDEX = {rank: NATURAL_RANKS.index(rank) for rank in NATURAL_RANKS}
_RANK_INDICES = range(len(NATURAL_RANKS))
#: the points of a move's wild (as _moves names it)
_WILD_VALUE = {None: 0, "2": VALUE["2c"], JOKER: VALUE[JOKER]}
#: the hand-order key of a rank's first card (its clubs)
_FIRST = {rank: ORDER[rank + "c"] for rank in NATURAL_RANKS}

#: the most cards of one rank a hand can hold: every suit of every deck
MOST_OF_A_RANK = 4 * (max(PLAYERS) + 1)
# wilds held (2 for a 2, plus 1 for a joker) -> rank index -> the set's wilds
# (0-2, NO_SET) -> naturals held -> what _moves says; indexed by the exact
# count (the entries from 3 on are the same) so a look-up needs no clamping
_SHAPES = [
    [
        [
            [
                _moves(
                    rank,
                    wilds != NO_SET,
                    min(count, 3),
                    bool(held & 2) and wilds != 2,
                    bool(held & 1) and wilds != 2,
                )
                for count in range(MOST_OF_A_RANK + 1)
            ]
            for wilds in range(4)
        ]
        for rank in NATURAL_RANKS
    ]
    for held in range(4)
]
#: the same, the actions only (what a player who has melded and is not in the
#: Foot may play: every shape is fine then)
_FREE_MELDS = [
    [[[actions for actions, _ in by_count] for by_count in by_wilds] for by_wilds in by_rank]
    for by_rank in _SHAPES
]
#: a meld action -> (its rank, the naturals it moves, its wild, whether it starts a set)
_MELDS = {
    action: (NATURAL_RANKS[index], naturals, wild, action[0] == "n")
    for by_rank in _SHAPES
    for index, by_wilds in enumerate(by_rank)
    for by_count in by_wilds
    for _, moves in by_count[:4]
    for action, naturals, wild in moves
}
_DISCARD = {card: "discard:" + card for card in ORDER}
_DISCARDED = {action: card for card, action in _DISCARD.items()}
#: the discard of each card in hand order (what _copies counts): a seat's
#: discards are these compressed by its copies
_DISCARDS = tuple(_DISCARD.values())
#: the index of _copies a discard action is of
_KIND = {action: index for index, action in enumerate(_DISCARDS)}.__getitem__
#: the draw phase's legal lists when the top discard cannot or can be taken
_DRAW_ONLY, _DRAW_OR_PILE = ("draw",), ("draw", "pile")
_PILE = {rank: "pile:" + rank for rank in NATURAL_RANKS}
_PILES = tuple(_PILE.values())
#: whether a set with this many wilds (or NO_SET) takes another wild
_ROOM = tuple(wilds < 2 for wilds in range(NO_SET + 1))
#: the copies of each card in one deck, in hand order
_IN_DECK = [DECK.count(card) for card in ORDER]
#: the cards in hand order (what an index of _copies counts), and each alone
#: in a tuple (to be repeated)
_CARDS = tuple(ORDER)
_ALONE = [(card,) for card in _CARDS]
#: the first 2 in hand order, and the joker's index (the last)
_TWO, _JOKER = ORDER["2c"], ORDER[JOKER]


class HandAndFoot(Engine):
    info = GameInfo(
        id="hand-and-foot",
        version="1.0",
        players=PLAYERS,
        options=(
            Option(
                "target",
                10000,
                "the game ends after a round in which a team has more than this many points",
                minimum=1,
            ),
            Option("hand_size", 10, "cards in each Hand and each Foot", minimum=2, maximum=20),
            Option("go_out_bonus", 0, "points for the team of the player who goes out", minimum=0),
            Option(
                "stock_exhausted",
                "end",
                "empty draw pile: end the round, or reshuffle the discards under the top card",
                choices=("end", "reshuffle"),
            ),
            Option("max_rounds", 20, "the game ends after this many rounds", minimum=1),
            Option(
                "teams",
                0,
                "number of teams (0: 2->2, 4->2, 6->3, 8->4, 9->3); must divide the player count",
                minimum=0,
            ),
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
        state._sets = [
            {rank: list(cards) for rank, cards in sets.items()} for sets in observation["sets"]
        ]
        state._discard = list(observation["discard"])
        # the cards not seen, in hand order: every copy of the decks less
        # those in the seat's hand, the discards and the sets
        left = [copies * (players + 1) for copies in _IN_DECK]
        for card in observation["hand"]:
            left[ORDER[card]] -= 1
        for card in state._discard:
            left[ORDER[card]] -= 1
        for sets in state._sets:
            for cards in sets.values():
                for card in cards:
                    left[ORDER[card]] -= 1
        unknown = list(chain.from_iterable(map(repeat, ORDER, left)))
        actor = state._turn
        # The acting player's hidden Hand must let it finish the turn (reach a
        # pending initial meld's threshold, or go out with a single Foot card):
        # deal again until it does, then fall back to swapping useful cards in.
        for _ in range(max(1, SAMPLE_TRIES)):
            shuffle(rng, unknown)
            state._deal_hidden(seat, observation, unknown)
            if (
                actor is None
                or actor == seat
                or state._phase != MELD
                or state._turn_finishable(actor)
            ):
                break
        else:
            state._repair_hand(actor, seat, rng)
        if len(state._stock) != observation["stock"]:
            raise ValueError("observation is inconsistent: card counts do not add up")
        return state


def _take_first(copies: list[int], kinds: list[int], discards: list, order: int) -> int:
    """Take one held card of the first kind from ``order`` on off the counts
    (and off the kinds held and their discards when it was the last): its kind."""
    while not copies[order]:
        order += 1
    copies[order] -= 1
    if not copies[order]:
        at = bisect_left(kinds, order)
        del kinds[at], discards[at]
    return order


class HandAndFootState(State):
    def __init__(self, players: int, options: dict[str, Any], rng: random.Random):
        self.players = players
        self._options = options
        self._rng = rng
        count = team_count(players, options["teams"])
        self._team_of = [seat % count for seat in range(players)]
        self._num_teams = count
        self._reshuffles = options["stock_exhausted"] == "reshuffle"
        self._scores = [0] * count
        self._history: list[list[int]] = []  # per round: each team's round score
        self._outs: list = []  # per round: seat that went out, or None
        self._round = 0
        self._first = -1
        self._phase = DRAW
        self._turn: int | None = 0
        # per seat: its Hand, or None while only the counts below say what
        # it holds (the moves keep the counts; see the _hands property)
        self._hand_lists: list[list[str] | None] = []
        self._feet: list[list[str]] = []
        self._in_foot: list[bool] = []
        self._sets: list[dict[str, list[str]]] = []
        self._melded: list[bool] = []
        self._discard: list[str] = []
        self._stock: list[str] = []
        # The legal actions of the seat to act; False once a move made them
        # outdated; None when the counts below must first be made from the
        # cards (a new round, or a state whose cards were set by hand).
        self._legal: list | bool | None = None
        self._held: list[list[int]] = []  # per seat: cards in hand per group
        self._copies: list[list[int]] = []  # per seat: copies held of each card, in ORDER
        # per seat: the cards it holds (ORDER indices, sorted) and their
        # discards, kept as its copies go from or to 0 (no scan of all 53)
        self._kinds: list[list[int]] = []
        self._discards: list[list[str]] = []
        self._set_wilds: list[list[int]] = []  # per team: wilds per set, NO_SET

    @property
    def _hands(self) -> list[list[str]]:
        """Each seat's Hand in hand order: the moves change only the counts
        of the cards (see _count), and a Hand is listed again from them when
        it is read.  Lists set here (a deal, a sampled state, a test's
        position) are the cards until _count has counted them."""
        if None in self._hand_lists:
            for seat, hand in enumerate(self._hand_lists):
                if hand is None:
                    self._hand(seat)
        return cast("list[list[str]]", self._hand_lists)  # every None listed just above

    @_hands.setter
    def _hands(self, hands: list[list[str]]) -> None:
        self._hand_lists = list(hands)

    def _hand(self, seat: int) -> list[str]:
        """The Hand of ``seat`` (see _hands), listed only if need be."""
        hand = self._hand_lists[seat]
        if hand is None:
            hand = []
            copies = self._copies[seat]
            for order in self._kinds[seat]:
                hand += _ALONE[order] * copies[order]
            self._hand_lists[seat] = hand
        return hand

    def _count(self) -> None:
        """Make the counts the moves keep up to date (cards per group of
        :data:`_GROUP`, copies per card, the kinds of card held and their
        discards, wilds per set) from the cards."""
        hands = self._hands
        self._held = [self._groups(hand) for hand in hands]
        self._copies = [self._copies_of(hand) for hand in hands]
        self._discards = [list(compress(_DISCARDS, copies)) for copies in self._copies]
        self._kinds = [list(map(_KIND, discards)) for discards in self._discards]
        self._set_wilds = [
            [min(set_wilds(sets[rank]), 2) if rank in sets else NO_SET for rank in NATURAL_RANKS]
            for sets in self._sets
        ]

    def _recount(self, seat: int) -> None:
        """The counts of ``seat`` made afresh from its new Hand (the Foot
        picked up)."""
        hand = self._hands[seat]
        self._held[seat] = self._groups(hand)
        self._copies[seat] = copies = self._copies_of(hand)
        self._discards[seat] = discards = list(compress(_DISCARDS, copies))
        self._kinds[seat] = list(map(_KIND, discards))

    @staticmethod
    def _groups(hand) -> list[int]:
        held = [0] * GROUPS
        for card in hand:
            held[_GROUP[card]] += 1
        return held

    @staticmethod
    def _copies_of(hand) -> list[int]:
        copies = [0] * len(ORDER)
        for card in hand:
            copies[ORDER[card]] += 1
        return copies

    # ------------------------------------------------------------- sampling
    def _deal_hidden(self, seat: int, observation: Observation, unknown: list[str]) -> None:
        size = self._options["hand_size"]
        hands: list[list[str] | None] = []
        feet: list[list[str]] = []
        at = 0
        for other in range(self.players):
            if other == seat:
                hands.append(list(observation["hand"]))
            else:
                count = observation["hand_counts"][other]
                hands.append(sort_cards(unknown[at : at + count]))
                at += count
            if self._in_foot[other]:
                feet.append([])
            else:
                feet.append(unknown[at : at + size])
                at += size
        self._hand_lists = hands
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
            out = min(
                range(len(hand)),
                key=lambda i: (max_meld_value(hand[:i] + hand[i + 1 :], sets) * -1, rng.random()),
            )
            hand[out], place[index] = place[index], hand[out]
            hand.sort(key=_KEY)
        for cards in self._hands:
            cards.sort(key=_KEY)

    # ----------------------------------------------------------------- rounds
    def _deal(self) -> None:
        """Start the next round: new decks, Hands and Feet, up-card."""
        self._round += 1
        self._first = (self._first + 1) % self.players
        cards = list(DECK * (self.players + 1))
        shuffle(self._rng, cards)
        size = self._options["hand_size"]
        self._hand_lists, self._feet = [], []
        for _ in range(self.players):
            self._hand_lists.append(sort_cards(cards[-size:]))
            del cards[-size:]
            self._feet.append(cards[-size:])
            del cards[-size:]
        self._discard = [cards.pop()]
        self._stock = cards
        self._in_foot = [False] * self.players
        self._sets = [{} for _ in range(self._num_teams)]
        self._melded = [False] * self._num_teams
        self._legal = None
        self._start_turn(self._first)

    def _start_turn(self, seat: int) -> None:
        self._turn = seat
        self._phase = DRAW
        if self._reshuffles:
            exhausted = len(self._stock) + len(self._discard) - 1 < 2
        else:
            exhausted = not self._stock
        if exhausted:
            self._end_round(None)

    def _reshuffle(self) -> bool:
        if not self._reshuffles or len(self._discard) < 2:
            return False
        self._stock = self._discard[:-1]
        self._discard = self._discard[-1:]
        shuffle(self._rng, self._stock)
        return True

    def round_scores(self, goer: int | None = None) -> list[int]:
        """Each team's score for the round as it stands (``goer`` went out)."""
        result = []
        for sets in self._sets:
            clean, dirty = books(sets)
            result.append(500 * clean + 250 * dirty + _laid(sets))
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
        if (
            max(self._scores) > self._options["target"]
            or self._round >= self._options["max_rounds"]
        ):
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
        legal = self._legal
        if not legal:
            if legal is None:
                self._count()
            team = self._team_of[seat]
            free = self._melded[team] and not self._in_foot[seat]
            if self._phase == DRAW:
                # "draw", and "pile" or "pile:R" if the top discard may be
                # taken; when free, every placement is fine (see
                # _placement_ok) and only the shape counts
                discard = self._discard
                if not discard or (rank := _RANK_OF[discard[-1]]) == "3":
                    legal = _DRAW_ONLY
                elif not free:
                    legal = ["draw"] + self._pile_options(seat)
                elif rank == "*":  # onto each set with room for a wild
                    legal = [
                        "draw",
                        *compress(_PILES, map(_ROOM.__getitem__, self._set_wilds[team])),
                    ]
                elif (
                    self._set_wilds[team][_INDEX[rank]] != NO_SET
                    or self._held[seat][_INDEX[rank]] >= 2
                ):
                    legal = _DRAW_OR_PILE
                else:
                    legal = _DRAW_ONLY
            else:
                # every shape of every rank (the hot path, inline):
                # _FREE_MELDS's entry per rank, then the discards -- or,
                # when not every shape is fine, those the checks keep
                held = self._held[seat]
                by_rank = _FREE_MELDS[(2 if held[TWOS] else 0) + (1 if held[JOKERS] else 0)]
                wilds_of = self._set_wilds[team]
                legal = []
                for index in _RANK_INDICES:  # (a zip costs more in this loop)
                    legal += by_rank[index][wilds_of[index]][held[index]]
                if free:
                    legal += self._discards[seat]
                else:
                    legal = self._meld_options(seat, legal) + self._discard_options(seat)
            self._legal = legal
        return list(legal)

    def _placement_ok(
        self, seat: int, hand: list[str], sets: dict, laid: int | None = None
    ) -> bool:
        """Whether a player left with ``hand`` and team ``sets`` after a meld
        or a pile pickup can still finish the turn legally (``laid``: the
        points in ``sets``, when the caller knows them)."""
        team = self._team_of[seat]
        if not self._melded[team]:
            need = self.threshold(team)
            if laid is None:
                laid = _laid(sets)
            if laid < need:
                return max_meld_value(hand, sets) >= need
        return self._foot_ok(seat, hand, sets)

    def _foot_ok(self, seat: int, hand: list[str], sets: dict) -> bool:
        """The Foot part of :meth:`_placement_ok`: a player in the Foot
        without the books may not be left with one card it cannot meld to
        go out, nor with none."""
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
        """The pile actions of a seat whose team has not melded or that is
        in its Foot (the top discard is not a 3): each that leaves the turn
        finishable."""
        top = self._discard[-1]
        rank = _RANK_OF[top]
        team = self._team_of[seat]
        sets = self._sets[team]
        hand = self._hand(seat)
        rest = self._discard[-PILE_TAKE:-1]
        options = []
        if rank == "*":
            if not self._melded[team]:
                return []
            for target, cards in sets.items():
                if set_wilds(cards) < 2 and self._placement_ok(
                    seat, hand + rest, {**sets, target: cards + [top]}
                ):
                    options.append("pile:" + target)
            return sorted(options, key=lambda a: NATURAL_RANKS.index(a[-1]))
        if rank in sets:
            if self._placement_ok(seat, hand + rest, {**sets, rank: sets[rank] + [top]}):
                options.append("pile")
            return options
        if self._held[seat][_INDEX[rank]] >= 2:
            pair, left = self._take(hand, rank, 2, None)
            if self._placement_ok(seat, left + rest, {**sets, rank: [top] + pair}):
                options.append("pile")
        return options

    def _meld_options(self, seat: int, shapes: list[str]) -> list[str]:
        """The meld actions of a seat whose team has not melded or that is
        in its Foot: each of ``shapes`` (the meld actions its cards and
        sets allow, in order) that leaves the turn finishable.

        While the initial meld is pending, the most the cards can still be
        worth (cards.meld_value) is worked out once: a move cannot raise it
        (it only uses up cards), so below the threshold no move is legal; a
        move of naturals alone leaves it as it was, so above it every such
        move is legal; only a move with a wild is counted again."""
        team = self._team_of[seat]
        sets = self._sets[team]
        held = self._held[seat]
        in_foot = self._in_foot[seat]
        need = None  # the initial meld's threshold, while it is pending
        if not self._melded[team]:
            need = self.threshold(team)
            laid = _laid(sets)
            # what cards.meld_value needs, from the counts; a move changes one rank
            slots = sum(2 - set_wilds(cards) for cards in sets.values())
            naturals = [
                (rank, count, wilds != NO_SET)
                for rank, count, wilds in zip(NATURAL_RANKS, held, self._set_wilds[team])
            ]
            if meld_value(laid, slots, naturals, held[JOKERS], held[TWOS]) < need:
                return []
        options = []
        for action in shapes:
            rank, natural_count, wild, new = _MELDS[action]
            points = natural_count * RANK_VALUE[rank] + _WILD_VALUE[wild]
            if need is not None and laid + points < need:
                if wild is None:
                    ok = True
                else:
                    index = _INDEX[rank]
                    after = list(naturals)
                    after[index] = (rank, held[index] - natural_count, True)
                    ok = (
                        meld_value(
                            laid + points,
                            slots + (2 if new else 0) - 1,
                            after,
                            held[JOKERS] - (wild == JOKER),
                            held[TWOS] - (wild == "2"),
                        )
                        >= need
                    )
            elif not in_foot or sum(held) - natural_count - bool(wild) >= 2:
                ok = True
            else:  # the last cards of the Foot: the rare case needs the cards
                moved, left = self._take(self._hand(seat), rank, natural_count, wild)
                ok = self._foot_ok(seat, left, {**sets, rank: sets.get(rank, []) + moved})
            if ok:
                options.append(action)
        return options

    @staticmethod
    def _take(hand, rank, naturals, wild):
        """(cards moved, cards left) for melding ``naturals`` of ``rank`` and
        optionally one ``wild`` ("2" or "jk") from the sorted ``hand``, which
        holds them (every caller has counted): the first cards in hand order,
        so the rank's first naturals, the first 2 (2s sort first) or a joker
        (jokers sort last)."""
        at = bisect_left(hand, _FIRST[rank], key=_KEY)
        moved = hand[at : at + naturals]
        left = hand[:at] + hand[at + naturals :]
        if wild == "2":
            moved.insert(0, left.pop(0))
        elif wild == JOKER:
            moved.append(left.pop())
        return moved, left

    def _discard_options(self, seat: int) -> list[str]:
        team = self._team_of[seat]
        if not self._melded[team] and self._sets[team]:
            return []  # an initial meld is pending below the threshold
        if self._in_foot[seat] and sum(self._held[seat]) == 1 and not can_go_out(self._sets[team]):
            return []
        return list(self._discards[seat])

    # ------------------------------------------------------------------ moves
    def is_legal(self, seat, action):
        if not self._legal:
            self.legal_actions(seat)
        return action in self._legal

    def _apply(self, actions):
        # the counts of the seat's cards (see _count) change with its hand,
        # inline: each move is on the hot path
        seat = self._turn
        action = actions[seat]
        self._legal = False
        held = self._held[seat]
        copies = self._copies[seat]
        self._hand_lists[seat] = None
        card = _DISCARDED.get(action)
        if card is not None:
            held[_GROUP[card]] -= 1
            order = ORDER[card]
            copies[order] -= 1
            if not copies[order]:
                kinds = self._kinds[seat]
                at = bisect_left(kinds, order)
                del kinds[at], self._discards[seat][at]
            self._discard.append(card)
            if not any(held):
                if self._in_foot[seat]:
                    self._end_round(seat)
                    return
                self._pick_up_foot(seat)
            self._start_turn((seat + 1) % self.players)
            return
        kinds = self._kinds[seat]
        discards = self._discards[seat]
        if action == "draw":
            drawn = []
            for _ in range(2):
                if not self._stock and not self._reshuffle():
                    break
                drawn.append(self._stock.pop())
            self._gain_counted(held, copies, kinds, discards, drawn)
            self._phase = MELD
            return
        team = self._team_of[seat]
        sets = self._sets[team]
        meld = _MELDS.get(action)
        if meld is None:  # pile, pile:R
            taken = self._discard[-PILE_TAKE:]
            del self._discard[-PILE_TAKE:]
            top = taken.pop()
            rank = action[5:] or top[0]
            index = _INDEX[rank]
            if rank in sets:
                sets[rank].append(top)
                if _RANK_OF[top] == "*":
                    self._set_wilds[team][index] += 1
            else:
                sets[rank] = [top] + self._take_counted(
                    held, copies, kinds, discards, rank, 2, None
                )
                self._set_wilds[team][index] = 0
            self._gain_counted(held, copies, kinds, discards, taken)
            self._phase = MELD
        else:
            rank, naturals, wild, new = meld
            moved = self._take_counted(held, copies, kinds, discards, rank, naturals, wild)
            wilds = self._set_wilds[team]
            index = _INDEX[rank]
            if new:
                sets[rank] = moved
                wilds[index] = 0
            else:
                sets[rank].extend(moved)
            if wild:
                wilds[index] += 1
        if not self._melded[team] or not any(held):
            self._after_meld(seat)

    @staticmethod
    def _gain_counted(held: list[int], copies: list[int], kinds, discards, cards) -> None:
        """Count ``cards`` into a hand (and into the kinds held and their
        discards, kept in hand order): one call for a draw's or a pile's
        cards, not one per card."""
        for card in cards:
            held[_GROUP[card]] += 1
            order = ORDER[card]
            if not copies[order]:
                at = bisect(kinds, order)
                kinds.insert(at, order)
                discards.insert(at, _DISCARDS[order])
            copies[order] += 1

    @staticmethod
    def _take_counted(
        held: list[int],
        copies: list[int],
        kinds,
        discards,
        rank: str,
        naturals: int,
        wild: str | None,
    ) -> list[str]:
        """The cards :meth:`_take` moves from a hand with these counts,
        taken off them (and off the kinds held and their discards): the
        rank's first naturals in hand order, the first 2 before them, a
        joker after them."""
        index = _INDEX[rank]
        held[index] -= naturals  # a natural rank's group is its index
        moved = []
        order = _FIRST[rank]
        for _ in range(naturals):
            order = _take_first(copies, kinds, discards, order)
            moved.append(_CARDS[order])
        if wild == "2":
            held[TWOS] -= 1
            moved.insert(0, _CARDS[_take_first(copies, kinds, discards, _TWO)])
        elif wild == JOKER:
            held[JOKERS] -= 1
            copies[_JOKER] -= 1
            if not copies[_JOKER]:
                kinds.pop()
                discards.pop()
            moved.append(JOKER)
        return moved

    def _after_meld(self, seat: int) -> None:
        team = self._team_of[seat]
        if not self._melded[team] and _laid(self._sets[team]) >= self.threshold(team):
            self._melded[team] = True
        if not any(self._held[seat]):
            if self._in_foot[seat]:
                self._end_round(seat)
            else:
                self._pick_up_foot(seat)

    def _pick_up_foot(self, seat: int) -> None:
        self._hand_lists[seat] = sort_cards(self._feet[seat])
        self._recount(seat)
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
            "sets": [{rank: list(cards) for rank, cards in sets.items()} for sets in self._sets],
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
        return Outcome.from_scores(
            [self._scores[team] for team in self._team_of], teams=list(self._team_of)
        )

    def clone(self):
        copy = object.__new__(HandAndFootState)
        copy.__dict__.update(self.__dict__)
        copy._rng = random.Random()
        copy._rng.setstate(self._rng.getstate())
        copy._scores = list(self._scores)
        copy._history = list(self._history)
        copy._outs = list(self._outs)
        copy._hand_lists = [None if hand is None else list(hand) for hand in self._hand_lists]
        copy._feet = [list(foot) for foot in self._feet]
        copy._in_foot = list(self._in_foot)
        copy._sets = [{rank: list(cards) for rank, cards in sets.items()} for sets in self._sets]
        copy._melded = list(self._melded)
        copy._held = [list(held) for held in self._held]
        copy._copies = [list(copies) for copies in self._copies]
        copy._kinds = [list(kinds) for kinds in self._kinds]
        copy._discards = [list(discards) for discards in self._discards]
        copy._set_wilds = [list(wilds) for wilds in self._set_wilds]
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


#: this game as one plugin unit (:class:`arena.game.GameUnit`)
UNIT = built_in_unit(HandAndFoot())
