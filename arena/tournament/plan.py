"""Plans: which tables play which deals, deterministic from the seed.

A plan is a list of :class:`MatchItem`: one match for the referee (one bot
process per entrant for all its games), i.e. one table of bots (the
*lineup*) playing a block of deals in one seating.  Each deal of a block is
replayed once per seating, every seating in a match of its own, so no bot
process ever plays the same deal twice (it would know the other hands the
second time).  Every item has a stable ``id`` built from the game, the
player count, the lineup, the round (adaptive formats), the first deal and
the seating, and every game in it the key ``"{item.id}/{index}"``; the store
records finished keys, so a resumed tournament skips exactly what is
already played.

Who plays whom, and in which order, follows from the tournament file (its
``seed`` breaks ties); the deals and every game's chance seed follow from
the tournament's secret :class:`~arena.match.seeds.SecretKey` (:mod:`arena.match.deals`),
so no bot can recompute them from the public file.

Formats:

* ``round-robin`` -- every combination of the bots entered in a game for each
  of its player counts (a bot takes several seats of one table only when
  there are fewer bots than seats, or when ``repeats = true``; a table of one
  bot alone is skipped unless it is the only bot -- which the tournament file
  allows only with ``repeats = true`` -- or the game is solitaire).
* ``gauntlet`` -- the challenger at every table, against every combination of
  the field for the remaining seats.
* ``swiss`` -- rounds; each round sorts the bots by points so far (rank-based
  points per game, ``(n - rank) / (n - 1)``) and seats neighbours together,
  avoiding bots that have already met where possible; the rest sit out (bye).
* ``rated`` -- matchmaking by expected information
  (:mod:`arena.ratings.matchmaking`): batch by batch, the tables expected to
  shrink most the sigmas still above the target, every pair met before any
  meets again, until every sigma is below the target or the game budget is
  spent.

Seating (duplicate deals): each deal seed is replayed with the lineup rotated
through all seats (``rotate``; the default except for fixed-team games), in all
distinct permutations (``permute``; the default for fixed-team games such as
Hand and Foot, so partnerships vary too), or once as listed (``none``).
Seatings that put the same bots in the same seats are played once.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.match.deals import chance_seed, deal_seed
from arena.match.seeds import SecretKey
from arena.results.items import MatchItem, PlannedDeal
from arena.tournament import swiss
from arena.tournament.config import GameEntry, Tournament
from arena.tournament.keys import Format


def plan_seed(seed: int, *parts: Any) -> int:
    """A seed for the plan's own choices (tie-breaks, candidate tables) from
    the tournament file's public seed: never for a deal."""
    text = "/".join(map(str, (seed, *parts)))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF


def seatings(lineup: Sequence[str], mode: str) -> list[tuple[int, ...]]:
    """The distinct seatings of a lineup: ``seating[seat]`` = lineup index."""
    players = len(lineup)
    if mode == "none" or players == 1:
        candidates = [tuple(range(players))]
    elif mode == "rotate":
        candidates = [
            tuple((seat + turn) % players for seat in range(players)) for turn in range(players)
        ]
    elif mode == "permute":
        candidates = list(itertools.permutations(range(players)))
    else:
        raise ValueError(f"unknown seating {mode!r}")
    seen, result = set(), []
    for seating in candidates:
        names = tuple(lineup[index] for index in seating)
        if names not in seen:
            seen.add(names)
            result.append(seating)
    return result


def lineups(bots: Sequence[str], players: int, repeats: bool | None) -> list[tuple[str, ...]]:
    """Every table of ``players`` seats from ``bots`` (order as given)."""
    if players == 1:
        return [(bot,) for bot in bots]
    if len(bots) == 1:
        return [tuple(bots) * players]
    if repeats is None:
        repeats = len(bots) < players
    if not repeats:
        return list(itertools.combinations(bots, players))
    return [
        table
        for table in itertools.combinations_with_replacement(bots, players)
        if len(set(table)) > 1
    ]


def _labels(tournament: Tournament) -> list[str]:
    counts: dict[str, int] = defaultdict(int)
    labels = []
    for entry in tournament.games:
        counts[entry.id] += 1
        labels.append(entry.id if counts[entry.id] == 1 else f"{entry.id}[{counts[entry.id]}]")
    return labels


#: a game entry of the tournament at one table size: the entry, its label, the seats
Group = tuple[GameEntry, str, int]


def table_item(
    key: SecretKey,
    item_id: str,
    game: str,
    options: dict[str, Any],
    lineup: Sequence[str],
    numbers: range,
    seatings: Sequence[tuple[int, tuple[int, ...]]],
    order: int = 0,
) -> MatchItem:
    """An item of a single table (``arena match``, ``arena sprt``): each
    deal of ``numbers`` in each ``(position, seating)`` of ``seatings``,
    deal by deal.  The deal seed comes from the deal's number alone and a
    game's chance from the number and the seating's position, so a deal
    keeps its seeds whichever of the seatings are played, and in which item."""
    deals = tuple(
        PlannedDeal(deal_seed(key, number), seating, chance_seed(key, number, position))
        for number in numbers
        for position, seating in seatings
    )
    return MatchItem(
        id=item_id,
        order=order,
        game=game,
        label=game,
        players=len(lineup),
        options=dict(options),
        lineup=tuple(lineup),
        deals=deals,
    )


# -- planners -----------------------------------------------------------------


@dataclass
class Results:
    """What a planner may look at: finished games' seats, grouped by item."""

    #: item id -> list of (bots by seat, ranks by seat, ranks of the dummies)
    games: dict[str, list[tuple[list[str], list[int], list[int]]]] = field(default_factory=dict)
    #: (group, round) -> items already planned (and stored) for that round
    planned: dict[tuple[str, int], list[MatchItem]] = field(default_factory=dict)
    #: per group (``label/Np``): bot -> (mu, sigma) from that group's stored games
    ratings: Callable[[str], Mapping[str, tuple[float, float]]] | None = None


class Planner:
    """Yields batches of items; an adaptive planner looks at results in between."""

    #: whether :meth:`next_batch` reads ``Results.games`` (Swiss pairs by the
    #: seats, rated counts the games); if not, the driver keeps none of them,
    #: so its memory does not grow with every game of a long tournament
    reads_games = False
    #: whether it reads ``Results.ratings`` (the rated planner): if not, the
    #: driver rates nothing while it plays
    reads_ratings = False

    def __init__(self, tournament: Tournament, key: SecretKey):
        self.tournament = tournament
        self.key = key
        self.labels = _labels(tournament)
        self.next_order = 0

    def groups(self) -> Iterator[Group]:
        for entry, label in zip(self.tournament.games, self.labels):
            for players in entry.players:
                yield entry, label, players

    def unplanned(
        self, results: Results, round_: int, batch: list[MatchItem]
    ) -> Iterator[tuple[Group, str]]:
        """Each group to plan round ``round_`` of, with its name: a group a
        resumed run planned that round of already gets its stored items
        added to ``batch`` instead (:meth:`reuse`)."""
        for where in self.groups():
            _, label, players = where
            group = f"{label}/{players}p"
            known = self.reuse(results, group, round_)
            if known:
                batch.extend(known)
            else:
                yield where, group

    def table_items(
        self, group: Group, table: tuple[str, ...], deals: range, round_: int, order: int
    ) -> list[MatchItem]:
        """For each block of ``match_deals`` of the deals numbered ``deals``, one
        item per seating playing every deal of the block in that seating: a bot
        process meets each deal once, and the block's items together replay each
        deal in every seating."""
        entry, label, players = group
        items: list[MatchItem] = []
        seating_list = seatings(table, entry.seating)
        tag = f"/r{round_}" if self.tournament.format in (Format.SWISS, Format.RATED) else ""
        chunk = self.tournament.match_deals
        for start in range(deals.start, deals.stop, chunk):
            block = range(start, min(deals.stop, start + chunk))
            for number, seating in enumerate(seating_list):
                item_id = f"{label}/{players}p/{'+'.join(table)}{tag}/d{start}/s{number}"
                planned = tuple(
                    PlannedDeal(
                        deal_seed(self.key, deal, label, players),
                        seating,
                        chance_seed(self.key, item_id, index),
                    )
                    for index, deal in enumerate(block)
                )
                items.append(
                    MatchItem(
                        id=item_id,
                        order=order + len(items),
                        game=entry.id,
                        label=label,
                        players=players,
                        options=dict(entry.options),
                        lineup=table,
                        deals=planned,
                        round=round_,
                    )
                )
        return items

    def next_batch(self, results: Results) -> list[MatchItem]:
        """The next items to play ([] when the plan is complete)."""
        raise NotImplementedError

    def reuse(self, results: Results, group: str, round_: int) -> list[MatchItem]:
        """The items a resumed adaptive tournament already planned (and
        stored) for ``group`` in ``round_``; [] if none."""
        known = results.planned.get((group, round_), [])
        if known:
            self.next_order = max(self.next_order, max(i.order for i in known) + 1)
        return known

    def estimate(self) -> int:
        """Games the whole plan is expected to play (for the progress bar)."""
        raise NotImplementedError


class ItemsPlanner:
    """A plan known in full at the start: its items, in one batch."""

    reads_games = False
    reads_ratings = False

    def __init__(self, items: list[MatchItem]):
        self.items = items
        self.done = False

    def next_batch(self, results: Results) -> list[MatchItem]:
        if self.done:
            return []
        self.done = True
        return list(self.items)

    def estimate(self) -> int:
        return sum(len(item.deals) for item in self.items)


class StaticPlanner(ItemsPlanner, Planner):
    """Round robin and gauntlet: the whole plan at once."""

    def __init__(self, tournament: Tournament, key: SecretKey):
        Planner.__init__(self, tournament, key)
        ItemsPlanner.__init__(self, self._build())

    def _tables(self, entry: GameEntry, players: int) -> list[tuple[str, ...]]:
        if self.tournament.format == Format.ROUND_ROBIN:
            return lineups(entry.bots, players, entry.repeats)
        challenger = self.tournament.challenger
        if challenger not in entry.bots:
            return []
        # (one seat: choosing no field bots leaves the challenger's table alone)
        field_bots = [bot for bot in entry.bots if bot != challenger]
        repeats = entry.repeats if entry.repeats is not None else len(field_bots) < players - 1
        pick = itertools.combinations_with_replacement if repeats else itertools.combinations
        return [(challenger, *others) for others in pick(field_bots, players - 1)]

    def _build(self) -> list[MatchItem]:
        items: list[MatchItem] = []
        for group in self.groups():
            entry, _, players = group
            for table in self._tables(entry, players):
                items += self.table_items(group, table, range(entry.deals), 0, len(items))
        return items


class SwissPlanner(Planner):
    """Swiss rounds per game and player count; all groups' round r in one batch."""

    reads_games = True

    def __init__(self, tournament: Tournament, key: SecretKey):
        super().__init__(tournament, key)
        self.round = 0

    def estimate(self) -> int:
        total = 0
        for entry, _label, players in self.groups():
            tables = max(1, len(entry.bots) // players)
            games = len(seatings(tuple(f"b{i}" for i in range(players)), entry.seating))
            total += tables * games * entry.deals * (self.tournament.rounds or 1)
        return total

    def next_batch(self, results: Results) -> list[MatchItem]:
        if self.round >= (self.tournament.rounds or 1):
            return []
        round_ = self.round
        self.round += 1
        batch: list[MatchItem] = []
        for where, _ in self.unplanned(results, round_, batch):
            entry, label, players = where
            deals = range(round_ * entry.deals, (round_ + 1) * entry.deals)
            for table in self.pair(entry, label, players, round_, results):
                items = self.table_items(where, table, deals, round_, self.next_order)
                self.next_order += len(items)
                batch.extend(items)
        return batch

    def history(
        self, entry: GameEntry, group: str, round_: int, results: Results
    ) -> list[swiss.Round]:
        """The group's rounds before ``round_``, as stored (byes: the bots
        entered but seated at none of the round's tables)."""
        rounds = []
        for r in range(round_):
            items = results.planned.get((group, r), [])
            lineups: dict[tuple[str, ...], list] = {}
            for item in items:
                lineups.setdefault(item.lineup, []).extend(results.games.get(item.id, []))
            seated = {bot for lineup in lineups for bot in lineup}
            rounds.append(
                swiss.Round(
                    tables=list(lineups.values()),
                    lineups=list(lineups),
                    byes=[bot for bot in entry.bots if bot not in seated],
                )
            )
        return rounds

    def standings(
        self, entry: GameEntry, group: str, results: Results, round_: int | None = None
    ) -> list[swiss.SwissStanding]:
        """The Swiss table of ``group`` after the rounds before ``round_`` (all)."""
        if round_ is None:
            round_ = 1 + max((r for g, r in results.planned if g == group), default=-1)
        return swiss.standings(entry.bots, self.history(entry, group, round_, results))

    def pair(
        self, entry: GameEntry, label: str, players: int, round_: int, results: Results
    ) -> list[tuple[str, ...]]:
        group = f"{label}/{players}p"
        rounds = self.history(entry, group, round_, results)
        table = swiss.standings(entry.bots, rounds)
        rng = random.Random(plan_seed(self.tournament.seed, "swiss", group, round_))
        tiebreak = {bot: rng.random() for bot in entry.bots}
        order = [
            s.name
            for s in sorted(
                table, key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, tiebreak[s.name])
            )
        ]
        byes = swiss.choose_byes(order, {s.name: s.byes for s in table}, len(order) % players)
        seated = [bot for bot in order if bot not in byes]
        points = {s.name: s.points for s in table}
        return swiss.pair(seated, players, points, swiss.met_counts(rounds))


class RatedPlanner(Planner):
    """Matchmaking by expected information: fill each batch with the tables
    expected to teach most about the bots still too uncertain, until every
    sigma of the group (game entry and table size, rated on its own games)
    is below the target or the group's game budget is spent."""

    reads_games = True
    reads_ratings = True

    CANDIDATES = 2000

    def __init__(self, tournament: Tournament, key: SecretKey):
        super().__init__(tournament, key)
        self.step = 0
        self.finished: set[str] = set()
        #: what a run should say on start: targets the budget cannot reach
        self.notes = [
            note
            for entry, label, players in self.groups()
            if (note := self._reach(entry, label, players))
        ]

    def _reach(self, entry: GameEntry, label: str, players: int) -> str | None:
        from arena.ratings.thurstone import reachable_sigma

        games = self.tournament.budget * players / max(1, len(entry.bots))
        best = reachable_sigma(games)
        if best <= self.tournament.sigma:
            return None
        return (
            f"rated: {label}/{players}p: sigma {self.tournament.sigma:g} is out of reach: "
            f"{self.tournament.budget} games give each of its {len(entry.bots)} bots "
            f"about {games:.0f}, so sigma gets to about {best:.2f} at best; "
            f"the group will play its whole budget"
        )

    def estimate(self) -> int:
        return sum(self.tournament.budget for _ in self.groups())

    def next_batch(self, results: Results) -> list[MatchItem]:
        """Each unfinished group's tables for this step (a resumed run's
        stored ones where it planned the step already)."""
        batch: list[MatchItem] = []
        step = self.step
        self.step += 1
        size = self.tournament.batch or max(2, 2 * max(1, self.tournament.workers))
        for where, group in self.unplanned(results, step, batch):
            if group in self.finished:
                continue
            entry, _, players = where
            for table in self._tables(entry, group, players, step, size, results):
                deal = step * 1000 + len(batch)
                items = self.table_items(where, table, range(deal, deal + 1), step, self.next_order)
                self.next_order += len(items)
                batch.extend(items)
        return batch

    def _tables(
        self, entry: GameEntry, group: str, players: int, step: int, size: int, results: Results
    ) -> list[tuple[str, ...]]:
        """Up to ``size`` tables of one group for this step, chosen by
        expected information (:func:`arena.ratings.matchmaking.choose`); []
        (and the group finished) once every sigma is below the target or
        the budget is spent."""
        from arena.ratings import matchmaking

        planned = [
            item for (g, _), items in results.planned.items() if g == group for item in items
        ]
        played = sum(len(results.games.get(item.id, [])) for item in planned)
        belief = matchmaking.Belief.of(
            entry.bots, results.ratings(group) if results.ratings else {}
        )
        if played >= self.tournament.budget or belief.settled(self.tournament.sigma):
            self.finished.add(group)
            return []
        candidates = lineups(entry.bots, players, entry.repeats)
        rng = random.Random(plan_seed(self.tournament.seed, "rated", group, step))
        if len(candidates) > self.CANDIDATES:
            candidates = rng.sample(candidates, self.CANDIDATES)
        per_table = len(seatings(candidates[0], entry.seating)) if candidates else 1
        tables = (self.tournament.budget - played) // per_table
        rules = matchmaking.Rules(self.tournament.sigma, games_per_table=per_table)
        met = matchmaking.meetings([item.lineup for item in planned for _ in item.deals])
        return matchmaking.choose(belief, candidates, min(size, tables), rules, met)


def make_planner(tournament: Tournament, key: SecretKey) -> Planner:
    if tournament.format == Format.SWISS:
        return SwissPlanner(tournament, key)
    if tournament.format == Format.RATED:
        return RatedPlanner(tournament, key)
    return StaticPlanner(tournament, key)


def plan(tournament: Tournament, key: SecretKey | None = None) -> list[MatchItem]:
    """The whole plan of a static format (round robin, gauntlet).  Without a
    key the deals come from the file's public seed: fine for a preview or a
    test, never for a tournament bots should not be able to foresee."""
    planner = make_planner(tournament, key or SecretKey.from_public_seed(tournament.seed))
    if not isinstance(planner, StaticPlanner):
        raise ValueError(f"format '{tournament.format}' is planned round by round")
    return planner.items
