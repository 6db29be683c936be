"""``farm-hand-counter``: a Farm Hand bot that bids what it can make and plays
to make its bid exactly.

It counts cards the way a player does: its own hand, the suits on every other
card back (the numbers still possible in each suit), the dummies' hand order
and every card already played this round.  From that it deals the hidden
numbers at random many times (``engines.farm_hand.game.sample_hands``, which
keeps every known suit and the dummies' order) and plays the rest of the round
out in each deal:

* the dummies exactly as the engine plays them (their top-most card, or
  top-most of the led suit);
* other seated players at random (their style is unknown);
* itself with a target-seeking rule: while it still needs tricks it plays its
  highest card whose number is not already in the trick (a duplicate would
  cancel), and once it has enough it ducks -- a card that cancels with one
  already played if it has one, else its lowest.

Bidding: the bid with the best average round score (round number if exact,
-1 per trick off) over the same deals, each deal played out once per candidate
bid.  Card play: the card with the best average round score for the bid it
made, all cards judged on the same deals.  The bot never sees hidden state:
only its observation.
"""

from __future__ import annotations

import _random

from arena.botkit import Bot
from engines.farm_hand.cards import (
    CARD_CODE,
    CARD_ID,
    CARD_NUMBER,
    CARD_SUIT,
    round_score,
    trick_winner,
)
from engines.farm_hand.game import sample_hands


def seek(playable: list[int], trick: list[int], need: int) -> int:
    """The target-seeking rule: win while tricks are needed, duck otherwise."""
    numbers = [CARD_NUMBER[card] for card in trick]
    if need > 0:
        best = None
        for card in playable:
            number = CARD_NUMBER[card]
            if number not in numbers and (best is None or number > CARD_NUMBER[best]):
                best = card
        if best is not None:
            return best
        return max(playable, key=CARD_NUMBER.__getitem__)
    best = None
    for card in playable:
        number = CARD_NUMBER[card]
        if number in numbers and (best is None or number > CARD_NUMBER[best]):
            best = card
    if best is not None:
        return best
    return min(playable, key=CARD_NUMBER.__getitem__)


def rollout(hands, table, players, leader, trick, won, me, target, seed) -> int:
    """Play the round to its end (mutating the arguments); return the tricks
    ``me`` has won by then.  The other players' random choices come from a
    generator seeded with ``seed``, made at its first draw: never in
    solitaire, where seeding one per line would cost the bot time for
    nothing (docs/performance.md)."""
    suit_of = CARD_SUIT
    draw = None
    seat = (leader + len(trick)) % table
    while True:
        hand = hands[seat]
        if not hand:
            return won[me]
        if seat >= players:  # a dummy: its top-most card, of the led suit if it has one
            card = hand[0]
            if trick:
                led = suit_of[trick[0]]
                for held in hand:
                    if suit_of[held] == led:
                        card = held
                        break
        else:
            if trick:
                led = suit_of[trick[0]]
                playable = [c for c in hand if suit_of[c] == led] or hand
            else:
                playable = hand
            if seat == me:
                card = seek(playable, trick, target - won[me])
            elif len(playable) > 1:
                # rng.randrange(n) of a random.Random(seed), inline: the C
                # generator seeded once (random.Random seeds it twice) and
                # the same draws below n (seeding and randrange's two calls
                # were a fifth of the bot's time)
                if draw is None:
                    draw = _random.Random(seed).getrandbits
                count = len(playable)
                bits = count.bit_length()
                index = draw(bits)
                while index >= count:
                    index = draw(bits)
                card = playable[index]
            else:
                card = playable[0]
        hand.remove(card)
        trick.append(card)
        if len(trick) == table:
            leader, trick = _finish(leader, trick, table, won)
            seat = leader
        else:
            seat = seat + 1 if seat + 1 < table else 0


class CounterBot(Bot):
    name = "farm-hand-counter"
    version = "1.0"

    #: deals sampled for a bid and for a card decision
    bid_deals = 48
    play_deals = 40

    def act(self, observation, legal, clock):
        if len(legal) == 1:
            return legal[0]
        if observation["phase"] == "bid":
            return self.bid(observation, legal)
        return self.play(observation, legal)

    def _worlds(self, observation, count):
        rng = self.rng
        return [(sample_hands(observation, rng), rng.randrange(2**31)) for _ in range(count)]

    def bid(self, observation, legal):
        me = observation["seat"]
        table = observation["table"]
        players = observation["players"]
        points = observation["points"]
        leader = observation["leader"]
        totals = [0.0] * len(legal)
        for hands, seed in self._worlds(observation, self.bid_deals):
            for index, target in enumerate(legal):
                won = rollout(
                    [list(h) for h in hands],
                    table,
                    players,
                    leader,
                    [],
                    [0] * table,
                    me,
                    target,
                    seed,
                )
                totals[index] += round_score(target, won, points)
        best = max(range(len(legal)), key=lambda i: (totals[i], -abs(legal[i] - 1)))
        return legal[best]

    def play(self, observation, legal):
        me = observation["seat"]
        table = observation["table"]
        players = observation["players"]
        points = observation["points"]
        bid = observation["bids"][me]
        leader = observation["leader"]
        trick = [CARD_ID[code] for code in observation["trick"]]
        won = observation["won"]
        cards = [CARD_ID[code] for code in legal]
        totals = [0.0] * len(cards)
        for hands, seed in self._worlds(observation, self.play_deals):
            for index, card in enumerate(cards):
                copy = [list(h) for h in hands]
                copy[me].remove(card)
                played = trick + [card]
                wins = list(won)
                lead = leader
                if len(played) == table:
                    lead, played = _finish(lead, played, table, wins)
                result = rollout(copy, table, players, lead, played, wins, me, bid, seed)
                totals[index] += round_score(bid, result, points)
        best = max(range(len(cards)), key=lambda i: totals[i])
        return CARD_CODE[cards[best]]


def _finish(leader, trick, table, won):
    """Resolve a full trick: the next leader and an empty trick."""
    winner = trick_winner([CARD_NUMBER[c] for c in trick])
    if winner is not None:
        leader = (leader + winner) % table
        won[leader] += 1
    return leader, []
