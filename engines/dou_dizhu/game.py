"""Dou Dizhu rules (``docs/games/dou-dizhu.md``), engine id ``dou-dizhu``.

Three players, a 54-card deck, an auction for the landlord, then shedding
combinations; the landlord plays alone against the two peasants.

Encoding (see ``docs/games/dou-dizhu.md``):

* Cards are ranks only -- suits never matter -- written with one character
  each from ``"3456789TJQKA2BR"`` (``T`` ten, ``B`` small/black joker, ``R``
  big/red joker).  Hands and plays are strings sorted low to high.
* Auction actions: ``"bid:0"`` (pass), ``"bid:1"``, ``"bid:2"``, ``"bid:3"``.
* Play actions: the canonical string of the cards played, e.g. ``"3"``,
  ``"33344455"``, ``"BR"``; and ``"pass"`` when following.

Rulings from the rules page, as implemented here:

* a player who passed in the auction may bid again on a later turn;
* three consecutive all-pass auctions (three redeals) end the game as a
  draw, every payoff 0, everyone rank 1 -- the deal after the third all-pass
  auction is never played;
* single wings may include a pair used as two singles, never three or four
  cards of one rank, never both jokers, never a rank of the airplane's trios;
  pair wings are of distinct ranks, no jokers; four + two singles may take a
  pair but not both jokers; four + two pairs need two different ranks.

Rulings chosen here where the page is silent:

* after a redeal the first bidder is drawn at random again (each deal is a
  fresh start); the redeal count is public;
* a lone four of a kind may be played as a bomb, a trio + single, pairs,
  singles, or inside four + two; it only doubles the multiplier when played
  as a bomb (four + two is never a bomb, as the page says);
* scores are the zero-sum payoffs: each peasant +/- bid x multiplier, the
  landlord -/+ twice that.  Teams: the landlord is team 0, the peasants
  team 1 (both peasants always have the same score).  A drawn game puts every
  seat in its own team with score 0.
"""

from __future__ import annotations

import _random
import random

from arena.game import TYPE_CHECKING, Engine, GameInfo, Outcome, State
from engines import built_in_unit

if TYPE_CHECKING:  # annotations only: typing is not imported in a fresh process
    from typing import Any

    from arena.game import Observation
from engines.dou_dizhu import moves as M
from engines.dou_dizhu.moves import NRANKS, UNIT as RANK_UNIT

DECK = tuple([r for r in range(13) for _ in range(4)] + [M.SMALL_JOKER, M.BIG_JOKER])
DECK_COUNTS = tuple([4] * 13 + [1, 1])
MAX_REDEALS = 3
AUCTION, PLAY, OVER = "auction", "play", "over"
BIDS = ("bid:0", "bid:1", "bid:2", "bid:3")
_BID_VALUE = {b: i for i, b in enumerate(BIDS)}
_BID_LEGAL = (BIDS, ("bid:0", "bid:2", "bid:3"), ("bid:0", "bid:3"))
_SEATS = ((0,), (1,), (2,))
_NEXT = (1, 2, 0)
PASS = "pass"
_PHASES = {AUCTION: AUCTION, PLAY: PLAY, OVER: OVER}
_INFO = M.INFO
#: the Outcome of each (landlord, *payoffs), None for a drawn game: an
#: Outcome is immutable, and building one (ranks, a frozen value) was a
#: thirtieth of a random game; the payoffs are bid x a power of two, so the
#: table stays small (a few hundred entries at most)
_OUTCOMES: dict = {}


#: (place, bits drawn for it) of each step of random.shuffle over the deck
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(len(DECK) - 1, 0, -1))


#: the deck as packed units (``moves.UNIT[rank]``): a hand dealt from it packs by
#: one ``sum`` of its slice
_DECK_UNITS = tuple(RANK_UNIT[r] for r in DECK)


def shuffled_deck(rng: random.Random, deck=DECK) -> list:
    """``rng.shuffle(list(deck))``: CPython's algorithm (for each place from
    the top, one ``getrandbits`` draw below it, drawn again while out of
    range), so the same permutation from the same draws, without two method
    calls per card (the deal was a sixth of a random game's time)."""
    deck = list(deck)
    draw = rng.getrandbits
    for i, bits in _SHUFFLE_STEPS:
        j = draw(bits)
        while j > i:
            j = draw(bits)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def hand_string(counts) -> str:
    return M.string_of_counts(counts)


class DouDizhu(Engine):
    info = GameInfo(
        id="dou-dizhu",
        version="1.0",
        players=(3,),
        teams="in-play",
        summary="Fight the Landlord: auction, then the landlord sheds cards against two peasants",
        result="payoff",
    )

    def _new_game(self, players: int, seed: int, options: dict[str, Any]):
        state = DouDizhuState(seed)
        state._deal()
        return state

    def sample_state(self, observation: Observation, rng: random.Random):
        """Fill the two other hands (and the bottom cards during the auction)
        at random from the cards the seat has not seen, keeping everything it
        knows: its own hand, the hand sizes, the revealed bottom cards (which
        must still be in the landlord's hand unless he played that rank)."""
        return _sample(observation, rng)


class DouDizhuState(State):
    players = 3

    def __init__(self, seed: int):
        # All chance is in the deals; each deal draws from random.Random of
        # this seed and leaves the seed of the next one, so a state carries
        # its future chance as one int (cheap to clone).
        self._seed = seed
        self._redeals = 0

    # ------------------------------------------------------------ setup
    def _deal(self):
        # random.Random(seed) seeds twice (its __new__, then its __init__);
        # the C generator below is the same Mersenne Twister seeded once, so
        # the same draws at half the cost (seeding was about half of a deal)
        rng = _random.Random(self._seed)
        deck = shuffled_deck(rng, _DECK_UNITS)  # the same permutation, of units
        packs = [sum(deck[0:17]), sum(deck[17:34]), sum(deck[34:51])]
        counts = [M.counts_of_packed(p) for p in packs]
        bottom = M.counts_of_packed(sum(deck[51:]))
        first = rng.getrandbits(2)  # rng.randrange(3): two bits, drawn again while 3
        while first == 3:
            first = rng.getrandbits(2)
        self._seed = rng.getrandbits(64)
        self._start_auction(counts, bottom, first, packs)

    def _start_auction(self, counts, bottom, first, packs=None):
        self._phase = AUCTION
        self._counts = counts
        self._packed = packs if packs is not None else [M.pack(c) for c in counts]
        self._bottom = bottom
        self._bottom_text = ""  # its string once an observation has shown it
        self._first = first
        self._bids: list[int] = []
        self._high = 0
        self._high_seat = -1
        self._turn = first
        self._landlord = -1
        self._plays: list[str] = []
        self._last = None  # Info of the play to beat, None when leading
        self._last_seat = -1
        self._passes = 0
        self._bombs = 0
        self._made = [0, 0, 0]  # non-pass plays per seat
        self._winner = -1
        self._payoffs = [0, 0, 0]
        self._legal = None  # legal tuple of the seat to act, once computed
        self._planes = [None, None, None]  # each hand's moves.planes_of, once asked

    # ------------------------------------------------------------ contract
    def to_act(self):
        return () if self._phase is OVER else _SEATS[self._turn]

    def legal_actions(self, seat):
        if self._phase is PLAY:
            if seat != self._turn:
                return []
            legal = self._legal
            if legal is None:
                c = self._counts[seat]
                if self._last is None:
                    legal = M.legal_lead(self._packed[seat], c)
                else:
                    planes = self._planes[seat]
                    if planes is None:  # the hand changed since its last follow
                        planes = self._planes[seat] = M.planes_of(self._packed[seat])
                    legal = M.legal_follow(self._packed[seat], c, self._last, planes)
                self._legal = legal  # the shared cached tuple
            return list(legal)
        if self._phase is AUCTION and seat == self._turn:
            return list(_BID_LEGAL[self._high])
        return []

    def is_legal(self, seat, action):
        if self._phase is PLAY:
            if self._legal is None:  # callers have usually asked legal_actions
                self.legal_actions(seat)
            return action in self._legal
        return action in _BID_LEGAL[self._high]

    def apply(self, actions):
        """The contract's :meth:`State.apply`, with the usual turn of a
        playout checked and played here in one call: a play-phase move of
        the one seat to act, a ``str`` in the legal tuple already listed
        (so nothing the base refuses: not over, the one seat, a legal
        action of an allowed type).  Anything else -- the auction, a
        refusal, a move asked before its list -- goes through the base,
        whose :meth:`_apply` comes back here for a play.  The base's three
        calls (``to_act``, ``is_legal``, ``_apply``) and one more for the
        move were a twelfth of a random game."""
        if self._phase is PLAY and len(actions) == 1:
            seat = self._turn
            action = actions.get(seat)
            legal = self._legal
            if legal is not None and type(action) is str and action in legal:
                self._legal = None
                self._plays.append(action)
                self._turn = _NEXT[seat]
                if action == PASS:
                    self._passes += 1
                    if self._passes == 2:
                        self._last = None
                    return None
                info = _INFO[action]
                c = self._counts[seat]
                for r, n in info[3]:
                    c[r] -= n
                packed = self._packed[seat] - info[2]
                self._packed[seat] = packed
                self._planes[seat] = None
                self._made[seat] += 1
                if info[4]:
                    self._bombs += 1
                self._last = info
                self._last_seat = seat
                self._passes = 0
                if not packed:
                    self._finish(seat)
                return None
        return State.apply(self, actions)

    def _apply(self, actions):
        """A move :meth:`State.apply` has checked: a bid here, a play by
        :meth:`apply`'s own path (its legal tuple is listed by then, since
        the base's check asked :meth:`is_legal`)."""
        if self._phase is AUCTION:
            seat = self._turn
            return self._bid(seat, actions[seat])
        return self.apply(actions)

    def _bid(self, seat, action):
        value = _BID_VALUE[action]
        bids = self._bids
        bids.append(value)
        if value:
            self._high = value
            self._high_seat = seat
            if value == 3:
                return self._start_play()
        elif self._high:
            if bids[-2] == 0:  # two consecutive passes after a bid
                return self._start_play()
        elif len(bids) == 3:  # all three passed: redeal
            self._redeals += 1
            if self._redeals >= MAX_REDEALS:
                self._phase = OVER
                return None
            return self._deal()
        self._turn = (seat + 1) % 3
        return None

    def _start_play(self):
        lord = self._high_seat
        self._landlord = lord
        self._counts[lord] = [n + b for n, b in zip(self._counts[lord], self._bottom)]
        self._packed[lord] += M.pack(self._bottom)
        self._phase = PLAY
        self._turn = lord

    def _finish(self, winner):
        self._phase = OVER
        self._winner = winner
        lord = self._landlord
        mult = 1 << self._bombs
        peasants = [s for s in range(3) if s != lord]
        if winner == lord:
            if all(self._made[p] == 0 for p in peasants):
                mult *= 2  # spring
            sign = -1
        else:
            if self._made[lord] == 1:
                mult *= 2  # anti-spring
            sign = 1
        unit = self._high * mult
        pay = [0, 0, 0]
        for p in peasants:
            pay[p] = sign * unit
        pay[lord] = -2 * sign * unit
        self._payoffs = pay

    def multiplier(self) -> int:
        """The current multiplier (bombs and rocket so far; spring included at the end)."""
        if self._phase is OVER and self._winner >= 0 and self._high:
            return abs(self._payoffs[self._landlord]) // (2 * self._high)
        return 1 << self._bombs

    def outcome(self):
        if self._phase is not OVER:
            raise RuntimeError("dou-dizhu: the game is not over")
        if self._landlord < 0 or self._winner < 0:
            key = None
        else:
            key = (self._landlord, *self._payoffs)
        outcome = _OUTCOMES.get(key)
        if outcome is None:
            if key is None:
                outcome = Outcome.from_scores([0, 0, 0])
            else:
                teams = [1, 1, 1]
                teams[self._landlord] = 0
                outcome = Outcome.from_scores(list(self._payoffs), teams=teams)
            _OUTCOMES[key] = outcome
        return outcome

    def observation(self, seat) -> Observation:
        lord = self._landlord
        over = self._phase is OVER
        return {
            "seat": seat,
            "phase": self._phase,
            "hand": M.string_of_packed(self._packed[seat]),
            "hand_sizes": [sum(c) for c in self._counts],
            "redeals": self._redeals,
            "first_bidder": self._first,
            "bids": list(self._bids),
            "bid": self._high,
            "landlord": lord if lord >= 0 else None,
            "bottom": (self._bottom_text or self._bottom_string()) if lord >= 0 else None,
            "plays": list(self._plays),
            "to_act": None if over else self._turn,
            "to_beat": self._plays[-1 - self._passes] if self._last is not None else None,
            "to_beat_seat": self._last_seat if self._last is not None else None,
            "multiplier": self.multiplier() if over else 1 << self._bombs,
            "winner": self._winner if self._winner >= 0 else None,
            "payoffs": list(self._payoffs) if over else None,
        }

    def _bottom_string(self) -> str:
        """The bottom cards' string, kept: they never change once dealt, and
        every observation after the auction shows them."""
        self._bottom_text = hand_string(self._bottom)
        return self._bottom_text

    def clone(self):
        copy = object.__new__(DouDizhuState)
        copy.__dict__.update(self.__dict__)
        copy._counts = [list(c) for c in self._counts]
        copy._packed = list(self._packed)
        copy._planes = list(self._planes)
        copy._bids = list(self._bids)
        copy._plays = list(self._plays)
        copy._made = list(self._made)
        copy._payoffs = list(self._payoffs)
        return copy

    def secrets(self, seat) -> list[list]:
        """For the referee's leak audit: the other hands and, before the
        auction ends, the bottom cards, as lists of rank characters."""
        hidden = [list(hand_string(self._counts[s])) for s in range(3) if s != seat]
        if self._landlord < 0:
            hidden.append(list(hand_string(self._bottom)))
        return hidden

    # ------------------------------------------------------------ helpers
    @property
    def landlord(self) -> int | None:
        return self._landlord if self._landlord >= 0 else None

    def hand(self, seat: int) -> str:
        return hand_string(self._counts[seat])


def state_from_hands(
    hands, landlord: int | None = None, bottom: str = "", bid: int = 1, seed: int = 0
) -> DouDizhuState:
    """A play-phase state from explicit hands (for tests and analysis).

    ``hands`` are three rank strings; with ``landlord`` given, play starts
    with that seat to lead (its hand should already include ``bottom``)."""
    state = DouDizhuState(seed)
    counts = [M.counts_of(h) for h in hands]
    state._start_auction(counts, M.counts_of(bottom), landlord or 0)
    if landlord is not None:
        state._bids = [bid]
        state._high = bid
        state._high_seat = landlord
        state._landlord = landlord
        state._phase = PLAY
        state._turn = landlord
    return state


# ---------------------------------------------------------------- sampling
def _sample(obs: Observation, rng: random.Random) -> DouDizhuState:
    seat = obs["seat"]
    state = DouDizhuState(rng.getrandbits(64))
    state._redeals = obs["redeals"]
    own = M.counts_of(obs["hand"])
    sizes = list(obs["hand_sizes"])
    lord = obs["landlord"]
    phase = _PHASES[obs["phase"]]  # the module's own str objects: compared with `is`
    # cards whose place the seat cannot see
    unseen = [DECK_COUNTS[r] - own[r] for r in range(NRANKS)]
    forced = [0] * NRANKS  # must be in the landlord's hand
    bottom = [0] * NRANKS
    if lord is not None:
        bottom = M.counts_of(obs["bottom"])
        played_by = [[0] * NRANKS for _ in range(3)]
        for i, action in enumerate(obs["plays"]):
            if action != PASS:
                who = (lord + i) % 3
                for ch in action:
                    played_by[who][M.RANK_INDEX[ch]] += 1
        for who in range(3):
            for r in range(NRANKS):
                unseen[r] -= played_by[who][r]
        if lord != seat:
            for r in range(NRANKS):
                forced[r] = max(0, bottom[r] - played_by[lord][r])
                unseen[r] -= forced[r]
    counts = [[0] * NRANKS for _ in range(3)]
    counts[seat] = own
    others = [s for s in range(3) if s != seat]
    need = {s: sizes[s] - (sum(forced) if s == lord else 0) for s in others}
    pool = [r for r in range(NRANKS) for _ in range(unseen[r])]
    rng.shuffle(pool)
    at = 0
    for s in others:
        c = counts[s]
        for r in pool[at : at + need[s]]:
            c[r] += 1
        at += need[s]
        if s == lord:
            for r in range(NRANKS):
                c[r] += forced[r]
    if lord is None:
        for r in pool[at : at + 3]:
            bottom[r] += 1
    state._start_auction(counts, bottom, obs["first_bidder"])
    state._bids = list(obs["bids"])
    state._high = obs["bid"]
    if state._high:
        # the highest bid is the last non-zero bid
        for i in range(len(state._bids) - 1, -1, -1):
            if state._bids[i]:
                state._high_seat = (state._first + i) % 3
                break
    state._phase = phase
    if phase == AUCTION:
        state._turn = obs["to_act"]
        return state
    if lord is None:  # drawn game
        state._phase = OVER
        return state
    state._landlord = lord
    state._plays = list(obs["plays"])
    last = None
    last_seat = -1
    passes = 0
    for i, action in enumerate(state._plays):
        who = (lord + i) % 3
        if action == PASS:
            passes += 1
            if passes == 2:
                last = None
        else:
            info = M.info_of(action)
            last = info
            last_seat = who
            passes = 0
            state._made[who] += 1
            if info[4]:
                state._bombs += 1
    state._last = last
    state._last_seat = last_seat
    state._passes = passes
    if phase == OVER:
        state._phase = OVER
        state._winner = obs["winner"]
        state._payoffs = list(obs["payoffs"])
        state._turn = (lord + len(state._plays)) % 3
    else:
        state._phase = PLAY
        state._turn = obs["to_act"]
    return state


#: this game as one plugin unit (:class:`arena.game.GameUnit`)
UNIT = built_in_unit(DouDizhu())
