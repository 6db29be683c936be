"""``hand-and-foot-builder``: a melding heuristic for Hand and Foot.

It sees only its observation and the legal actions.  Each decision:

* draw: take the discard pile when the cards under the top are worth more to
  it than they cost (naturals it can use, wilds; 3s count against), else draw;
* meld: make the initial meld as soon as it is legal (the engine only offers
  melds from which the threshold can still be reached), then lay every
  natural it can, start sets of three naturals, and spend wilds sparingly:
  on a set that is already dirty, on the set chosen to become the team's
  dirty book, to start a set from a pair only when the hand is nearly played
  out, and on anything when the round is about to end;
* discard: red 3s, then black 3s (they freeze the pile for the next player),
  then the least useful card that does not feed the next team (never a rank
  it has a set of, never a wild);
* go out (meld or discard the last Foot card) as soon as its team has the
  books: holding back while behind measured worse (see ``_want_out``).
"""

from __future__ import annotations

from arena.botkit import Bot
from engines.hand_and_foot.cards import JOKER, PENALTY, RANK_VALUE, VALUE, books


def _rank(card: str) -> str:
    if card == JOKER or card[0] == "2":
        return "*"
    return card[0]


def _wilds(cards) -> int:
    return sum(1 for card in cards if _rank(card) == "*")


class BuilderBot(Bot):
    name = "hand-and-foot-builder"
    version = "1.0"
    #: take the discard pile when its estimated worth is above this
    pile_margin = -3.0

    def act(self, observation, legal, clock):
        try:
            action = self._choose(observation, legal)
        except Exception:  # never forfeit on a heuristic bug
            action = None
        return action if action in legal else legal[0]

    # ----------------------------------------------------------- estimates
    def _estimate(self, obs, team) -> float:
        """A team's total if the round ended now (cards held cost ~7 each)."""
        sets = obs["sets"][team]
        clean, dirty = books(sets)
        total = obs["scores"][team] + 500 * clean + 250 * dirty
        total += sum(VALUE[card] for cards in sets.values() for card in cards)
        size = obs["options"]["hand_size"]
        for seat, member in enumerate(obs["teams"]):
            if member == team:
                total -= 7 * obs["hand_counts"][seat]
                if not obs["in_foot"][seat]:
                    total -= 7 * size
        if team == obs["team"]:
            total += 7 * len(obs["hand"]) - sum(PENALTY[c] for c in obs["hand"])
        return total

    def _want_out(self, obs) -> bool:
        """Whether to go out now that the team has its books: always.

        Every way of holding back tried lost to going out at once: when the
        team is behind on :meth:`_estimate`, behind by 600+, or only when
        the round would end the game with the team behind (docs/bots.md)."""
        return True

    # -------------------------------------------------------------- choose
    def _choose(self, obs, legal):
        if obs["phase"] == "draw":
            return self._draw(obs, legal)
        return self._meld_or_discard(obs, legal)

    def _draw(self, obs, legal):
        wild_takes = [a for a in legal if a.startswith("pile:")]
        if wild_takes:  # a wild goes onto the set closest to a book
            sets = obs["sets"][obs["team"]]
            return max(wild_takes, key=lambda a: len(sets[a[5:]]))
        if "pile" not in legal:
            return "draw"
        team = obs["team"]
        sets = obs["sets"][team]
        hand = obs["hand"]
        held = {}
        for card in hand:
            held[_rank(card)] = held.get(_rank(card), 0) + 1
        worth = 2.0  # the top card goes down at once
        for card in obs["discard"][-8:-1]:
            rank = _rank(card)
            if rank == "*":
                worth += 1.5
            elif rank == "3":
                worth -= 6 if card[1] in "dh" else 1
            elif rank in sets or held.get(rank, 0) >= 1:
                worth += 1
            else:
                worth -= 0.3
        if obs["in_foot"][obs["seat"]] and books(sets)[0] and books(sets)[1]:
            worth -= 1.5  # more cards only delay going out
        return "pile" if worth > self.pile_margin else "draw"

    def _meld_or_discard(self, obs, legal):
        seat = obs["seat"]
        team = obs["team"]
        sets = obs["sets"][team]
        hand = obs["hand"]
        in_foot = obs["in_foot"][seat]
        clean, dirty = books(sets)
        can_out = clean > 0 and dirty > 0
        hold_back = can_out and in_foot and not self._want_out(obs)
        ending = obs["stock"] <= 2 * obs["players"]
        left_after = {}
        for action in legal:
            if action.startswith("new:"):
                left_after[action] = len(hand) - 3
            elif action.startswith("meld:"):
                left_after[action] = len(hand) - 1

        def keeps(action):
            """When holding back in the Foot, keep two cards."""
            return not hold_back or left_after[action] >= 2

        melds = [a for a in legal if a in left_after and keeps(a)]
        if not obs["melded"][team]:
            if melds:
                return max(melds, key=lambda a: self._initial_priority(a))
        else:
            naturals = [a for a in melds if a.startswith("meld:") and a.count(":") == 1]
            if naturals:
                return max(naturals, key=lambda a: len(sets[a[5:]]))
            fresh = [a for a in melds if a.startswith("new:") and a.count(":") == 1]
            if fresh:
                return max(fresh, key=lambda a: RANK_VALUE[a[4]])
            wild = self._wild_meld(obs, melds, sets, clean, dirty, in_foot, ending)
            if wild:
                return wild
        discards = [a for a in legal if a.startswith("discard:")]
        if discards:
            return self._discard(obs, discards)
        return legal[0]

    @staticmethod
    def _initial_priority(action):
        parts = action.split(":")
        rank = parts[1]
        natural = len(parts) == 2
        # pure naturals first (new sets before additions), then wilds; 2s
        # before jokers
        return (natural, parts[0] == "new", parts[-1] != "jk", RANK_VALUE[rank])

    def _wild_meld(self, obs, melds, sets, clean, dirty, in_foot, ending):
        hand = obs["hand"]
        wild_adds = [a for a in melds if a.startswith("meld:") and a.count(":") == 2]
        wild_news = [a for a in melds if a.startswith("new:") and a.count(":") == 2]
        if ending:  # cards held will cost: lay everything
            pool = wild_adds + wild_news
            if pool:
                return max(
                    pool, key=lambda a: (a.endswith(":jk"), len(sets.get(a.split(":")[1], [])))
                )
            return None
        # the set to keep clean: the longest set without wilds, if no clean book yet
        clean_target = None
        if not clean:
            pure = [r for r, cards in sets.items() if not _wilds(cards)]
            if pure:
                clean_target = max(pure, key=lambda r: len(sets[r]))
        best = None
        for action in wild_adds:
            rank = action.split(":")[1]
            cards = sets[rank]
            if rank == clean_target:
                continue
            if len(cards) >= 7 and _wilds(cards):
                continue  # already a dirty book: wilds are better elsewhere
            useful = (
                (_wilds(cards) > 0 and len(cards) >= 4)
                or (not dirty and len(cards) >= 5)
                or (in_foot and len(hand) <= 3)
            )
            if useful:
                key = (len(cards), action.endswith(":2"))
                if best is None or key > best[0]:
                    best = (key, action)
        if best:
            return best[1]
        if wild_news and (len(hand) <= 4 or (in_foot and len(hand) <= 6)):
            return max(wild_news, key=lambda a: (a.endswith(":2"), RANK_VALUE[a.split(":")[1]]))
        return None

    def _discard(self, obs, discards):
        seat = obs["seat"]
        players = obs["players"]
        teams = obs["teams"]
        next_team = teams[(seat + 1) % players]
        next_sets = obs["sets"][next_team] if next_team != obs["team"] else {}
        my_sets = obs["sets"][obs["team"]]
        hand = obs["hand"]
        counts = {}
        for card in hand:
            counts[_rank(card)] = counts.get(_rank(card), 0) + 1
        seen = {}
        for card in obs["discard"]:
            seen[_rank(card)] = seen.get(_rank(card), 0) + 1
        for sets in obs["sets"]:
            for rank, cards in sets.items():
                seen[rank] = seen.get(rank, 0) + len(cards)

        def keep_score(action):
            card = action[8:]
            rank = _rank(card)
            if rank == "3":
                return -20 if card[1] in "dh" else -10
            if rank == "*":
                return 100 + VALUE[card]
            score = 10 * counts[rank]
            if rank in my_sets:
                score += 25
            if rank in next_sets:
                score += 40  # the next team would take the pile
            score -= 0.1 * seen.get(rank, 0)  # a pair is less likely out there
            score -= 0.05 * RANK_VALUE[rank]  # singles of high cards cost more if kept
            return score

        return min(discards, key=lambda a: (keep_score(a), self.rng.random()))
