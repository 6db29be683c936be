"""Farm Hand rules (``docs/games/farm-hand.md``), with the Mac and Donald dummies.

A trick-taking game without trumps for 1-5 seated players over six rounds:
everyone bids at once how many tricks they will win, then plays the tricks
(follow suit if able; numbers played more than once in a trick cancel, the
highest number left wins; if everything cancels nobody wins and the same
player leads again).  An exact bid scores the round number, a miss -1 per
trick off.

Seats and dummies
    Bot seats are ``0 .. players-1``.  With fewer than three players the engine
    adds dummies in the last table seats: 2 players -> Mac is table seat 2;
    solitaire -> the player is 0, Mac 1, Donald 2.  Dummies bid from the fixed
    table (Mac 0,1,0,2,0,3; Donald 1,0,1,0,2,0) and play their top-most card
    (earliest dealt), or their top-most card of the led suit when they must
    follow.  The engine plays them inside :meth:`FarmHandState.apply`, so
    ``to_act()`` only ever returns bot seats.  Observations list per-seat data
    (bids, tricks won, scores, hand suits) by *table* seat, dummies included.

Actions
    Bids are ints ``0 .. hand size``, made simultaneously by every bot seat
    (``to_act()`` returns all of them).  Cards are short codes, suit then
    number: ``"blue4"``, ``"purple7"``; trick play is one seat at a time.

Rulings beyond the rules page (all documented in ``docs/games/farm-hand.md``):

* The deal: all 21 cards are shuffled and each hand gets a consecutive block
  of the shuffled deck; a dummy's hand keeps that order (index 0 is its
  top-most card).  A bot's hand is kept sorted by (suit, number), so its
  suit list, which everyone sees, gives nothing else away.
* Dummy bids are fixed by the rules, so they are shown in the observation from
  the start of the round; seated players' bids are None until the reveal.
* Tie-break replays: when two or more hands (dummies included: a bot tied with
  Mac is a tie) share the top score after round 6, round 6 is replayed -- a
  fresh deal, the round-6 hand size, dummy bids and 6 points for an exact
  bid -- by the whole table, and every hand's replay score is added (so a
  hand that was not tied can overtake).  The deal keeps passing clockwise
  (replay k is dealt by the seat after the previous round's dealer).  At most
  3 replays; after the third the tied hands share first place.
* The game ends when the top score is unique after round 6 or a replay.
"""

from __future__ import annotations

import random
from typing import Any, cast

from arena.game import Engine, GameInfo, Observation, Outcome, State
from engines import built_in_unit
from engines.farm_hand.cards import (
    CARD_CODE,
    CARD_ID,
    CARD_NUMBER,
    CARD_SUIT,
    CARD_SUIT_NAME,
    DECK_SIZE,
    DUMMY_BIDS,
    HAND_SIZES,
    ROUNDS,
    SUIT_CARDS,
    SUIT_INDEX,
    round_score,
    trick_winner,
)

BID, PLAY, OVER = "bid", "play", "over"
#: at most this many replays of round 6 to break a tie for first
MAX_REPLAYS = 3


def dummy_names(players: int) -> list[str]:
    """Dummy names in table-seat order after the bot seats."""
    return {1: ["mac", "donald"], 2: ["mac"]}.get(players, [])


class FarmHand(Engine):
    info = GameInfo(
        id="farm-hand",
        version="1.0",
        players=(1, 2, 3, 4, 5),
        simultaneous=True,
        dummies=("mac", "donald"),
        summary="trick-taking with exact bids and cancelling numbers; Mac and Donald dummies",
    )

    def _new_game(self, players: int, seed: int, options: dict[str, Any]):
        state = FarmHandState(players, random.Random(seed))
        state._deal()
        return state

    def sample_state(self, observation: Observation, rng: random.Random) -> FarmHandState:
        """Rebuild the state from ``observation``; the numbers of every card
        hidden from the seat are drawn at random among the cards it cannot
        have seen, each keeping its known suit (and a dummy's hand its order)."""
        seed = rng.randrange(2**31)
        return state_from(observation, sample_hands(observation, rng), seed)


def state_from(observation: Observation, hands: list[list[int]], seed: int) -> FarmHandState:
    """The state ``observation`` sees with these hands (card ids per table
    seat, as :func:`sample_hands` draws them; the state owns the lists), its
    later rounds dealt from ``seed``: for a search that chooses its own
    hands among those ``sample_hands`` draws."""
    state = FarmHandState(observation["players"], random.Random(seed))
    state._round = observation["round"]
    state._replay = observation["replay"]
    state._dealer = observation["dealer"]
    state._phase = observation["phase"]
    state._hands = hands
    state._bids = list(observation["bids"])
    state._won = list(observation["won"])
    state._leader = observation["leader"]
    state._trick = [CARD_ID[code] for code in observation["trick"]]
    state._tricks = [
        (trick["leader"], tuple(CARD_ID[code] for code in trick["cards"]), trick["winner"])
        for trick in observation["tricks"]
    ]
    state._scores = list(observation["scores"])
    state._history = [
        (
            entry["round"],
            entry["replay"],
            tuple(entry["bids"]),
            tuple(entry["won"]),
            tuple(entry["points"]),
        )
        for entry in observation["history"]
    ]
    return state


def sample_hands(observation: Observation, rng: random.Random) -> list[list[int]]:
    """Every table seat's hand as card ids: the observer's own, the others
    filled in suit by suit from the cards of that suit not in the observer's
    hand and not played this round (dummy hands in their known order, bot
    hands sorted)."""
    seat = observation["seat"]
    own = [CARD_ID[code] for code in observation["hand"]]
    seen = set(own)
    for trick in observation["tricks"]:
        seen.update(CARD_ID[code] for code in trick["cards"])
    seen.update(CARD_ID[code] for code in observation["trick"])
    pools = []
    for cards in SUIT_CARDS:
        pool = [card for card in cards if card not in seen]
        rng.shuffle(pool)
        pools.append(pool)
    players = observation["players"]
    hands = []
    for other, suits in enumerate(observation["hand_suits"]):
        if other == seat:
            hands.append(own)
            continue
        hand = [pools[SUIT_INDEX[suit]].pop() for suit in suits]
        if other < players:
            hand.sort()
        hands.append(hand)
    return hands


class FarmHandState(State):
    def __init__(self, players: int, rng: random.Random):
        self.players = players
        self._rng = rng
        self._names = dummy_names(players)
        self._table = players + len(self._names)
        self._bidders = tuple(range(players))
        self._sizes = HAND_SIZES[self._table]
        self._round = 1
        self._replay = 0
        self._dealer = 0
        self._phase = BID
        self._hands: list[list[int]] = [[] for _ in range(self._table)]
        self._bids: list[int | None] = [None] * self._table
        self._won = [0] * self._table
        self._leader = 1 % self._table
        self._trick: list[int] = []
        #: finished tricks this round: (leader, cards in play order, winner or None)
        self._tricks: list[tuple[int, tuple[int, ...], int | None]] = []
        self._scores = [0] * self._table
        #: finished rounds: (round, replay, bids, won, round scores)
        self._history: list[tuple[int, int, tuple, tuple, tuple]] = []

    # -- queries ---------------------------------------------------------

    def to_act(self):
        if self._phase == BID:
            return self._bidders
        if self._phase == PLAY:
            return ((self._leader + len(self._trick)) % self._table,)
        return ()

    def hand_size(self) -> int:
        return self._sizes[self._round - 1]

    def legal_actions(self, seat):
        if self._phase == BID:
            return list(range(self.hand_size() + 1)) if seat < self.players else []
        if self._phase == PLAY and seat == self.to_act()[0]:
            return [CARD_CODE[card] for card in self._playable(seat)]
        return []

    def _playable(self, seat: int) -> list[int]:
        hand = self._hands[seat]
        if self._trick:
            suit = CARD_SUIT[self._trick[0]]
            following = [card for card in hand if CARD_SUIT[card] == suit]
            if following:
                return following
        return hand

    def observation(self, seat) -> Observation:
        return {
            "seat": seat,
            "players": self.players,
            "table": self._table,
            "dummies": list(self._names),
            "round": self._round,
            "replay": self._replay,
            "points": self._round,
            "hand_size": self.hand_size(),
            "dealer": self._dealer,
            "phase": self._phase,
            "hand": [CARD_CODE[card] for card in self._hands[seat]],
            "hand_suits": [[CARD_SUIT_NAME[card] for card in hand] for hand in self._hands],
            "bids": list(self._bids),
            "won": list(self._won),
            "leader": self._leader,
            "trick": [CARD_CODE[card] for card in self._trick],
            "tricks": [
                {"leader": leader, "cards": [CARD_CODE[card] for card in cards], "winner": winner}
                for leader, cards, winner in self._tricks
            ],
            "scores": list(self._scores),
            "history": [
                {
                    "round": rnd,
                    "replay": replay,
                    "bids": list(bids),
                    "won": list(won),
                    "points": list(points),
                }
                for rnd, replay, bids, won, points in self._history
            ],
        }

    def secrets(self, seat):
        """For the referee's leak audit: the numbers of every other hand
        (dummies included; their suits are public, their numbers are not)."""
        return [
            [CARD_CODE[card] for card in hand]
            for other, hand in enumerate(self._hands)
            if other != seat
        ]

    def outcome(self):
        if self._phase != OVER:
            raise ValueError("farm-hand: the game is not over")
        players = self.players
        dummies = {name: self._scores[players + index] for index, name in enumerate(self._names)}
        return Outcome.from_scores(self._scores[:players], dummies=dummies or None)

    def clone(self):
        copy = object.__new__(FarmHandState)
        copy.__dict__.update(self.__dict__)
        copy._rng = random.Random()
        copy._rng.setstate(self._rng.getstate())
        copy._hands = [list(hand) for hand in self._hands]
        copy._bids = list(self._bids)
        copy._won = list(self._won)
        copy._trick = list(self._trick)
        copy._tricks = list(self._tricks)
        copy._scores = list(self._scores)
        copy._history = list(self._history)
        return copy

    # -- moves -----------------------------------------------------------

    def is_legal(self, seat, action):
        """Exact, without building the legal list: a bid from 0 to the hand
        size (``apply`` lets only an ``int`` through), or a playable card."""
        if self._phase == BID:
            return type(action) is int and 0 <= action <= self._sizes[self._round - 1]
        return CARD_ID.get(action) in self._playable(seat)

    def _apply(self, actions):
        if self._phase == BID:
            self._bids[: self.players] = [actions[seat] for seat in self._bidders]
            self._phase = PLAY
        else:
            seat = (self._leader + len(self._trick)) % self._table
            self._play(seat, CARD_ID[actions[seat]])
        self._run_dummies()

    def _run_dummies(self) -> None:
        """Play dummy turns until a bot seat must act or the game is over."""
        players = self.players
        while self._phase == PLAY:
            seat = (self._leader + len(self._trick)) % self._table
            if seat < players:
                return
            self._play(seat, self._playable(seat)[0])

    def _play(self, seat: int, card: int) -> None:
        self._hands[seat].remove(card)
        trick = self._trick
        trick.append(card)
        if len(trick) < self._table:
            return
        place = trick_winner([CARD_NUMBER[c] for c in trick])
        winner = None if place is None else (self._leader + place) % self._table
        self._tricks.append((self._leader, tuple(trick), winner))
        self._trick = []
        if winner is not None:
            self._won[winner] += 1
            self._leader = winner
        if not self._hands[self._leader]:
            self._end_round()

    def _end_round(self) -> None:
        points = self._round
        bids = cast("list[int]", self._bids)  # every seat has bid by the end of a round
        won = self._won
        gained = tuple(round_score(bids[s], won[s], points) for s in range(self._table))
        for seat, score in enumerate(gained):
            self._scores[seat] += score
        self._history.append((self._round, self._replay, tuple(bids), tuple(won), gained))
        if self._round < ROUNDS:
            self._round += 1
        else:
            top = max(self._scores)
            if self._scores.count(top) == 1 or self._replay >= MAX_REPLAYS:
                self._phase = OVER
                return
            self._replay += 1
        self._dealer = (self._dealer + 1) % self._table
        self._deal()

    def _deal(self) -> None:
        """Shuffle all 21 cards and deal this round's hands (the dealer is set)."""
        size = self.hand_size()
        deck = list(range(DECK_SIZE))
        self._rng.shuffle(deck)
        table = self._table
        players = self.players
        hands = []
        for seat in range(table):
            hand = deck[seat * size : (seat + 1) * size]
            if seat < players:
                hand.sort()
            hands.append(hand)
        self._hands = hands
        bid_index = self._round - 1
        self._bids = [None] * players + [DUMMY_BIDS[name][bid_index] for name in self._names]
        self._won = [0] * table
        self._leader = (self._dealer + 1) % table
        self._trick = []
        self._tricks = []
        self._phase = BID

    # -- helpers for tests and tools -------------------------------------

    def set_hands(self, hands: list[list[str]]) -> None:
        """Replace this round's hands (before bidding) with the given codes,
        in table-seat order; bot hands are sorted, dummy hands keep the order
        given.  For hand-built positions in tests."""
        if self._phase != BID:
            raise ValueError("farm-hand: hands can only be set before bidding")
        size = self.hand_size()
        cards = [[CARD_ID[code] for code in hand] for hand in hands]
        flat = [card for hand in cards for card in hand]
        if len(cards) != self._table or any(len(hand) != size for hand in cards):
            raise ValueError(f"farm-hand: need {self._table} hands of {size} cards")
        if len(set(flat)) != len(flat):
            raise ValueError("farm-hand: a card is dealt twice")
        self._hands = [
            sorted(hand) if seat < self.players else hand for seat, hand in enumerate(cards)
        ]


#: this game as one plugin unit (:class:`arena.game.GameUnit`)
UNIT = built_in_unit(FarmHand())
