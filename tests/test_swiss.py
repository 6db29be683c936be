"""Swiss as players know it: byes, split ties, tie-breaks, score groups,
no rematch while a pairing without one exists; and rated matchmaking's
sigma per group."""

import itertools
import random

import pytest

from arena.tournament import swiss
from arena.tournament.plan import Results, make_planner
from tests.test_tournament_plan import KEY, tournament


def table_round(lineups, winners, byes=()):
    """A round of one game per table: ``winners[i]`` is the order of table i
    (best first; a tuple inside is a tie)."""
    tables = []
    for lineup, order in zip(lineups, winners):
        ranks = {}
        place = 1
        for entry in order:
            tied = entry if isinstance(entry, tuple) else (entry,)
            for bot in tied:
                ranks[bot] = place
            place += len(tied)
        tables.append([(list(lineup), [ranks[b] for b in lineup], [])])
    return swiss.Round(tables=tables, lineups=[tuple(t) for t in lineups], byes=list(byes))


def test_ties_split_the_points_of_the_places_they_cover():
    assert swiss.place_points([1, 1]) == [0.5, 0.5]
    assert swiss.place_points([1, 2]) == [1.0, 0.0]
    assert swiss.place_points([1, 1, 3]) == [0.75, 0.75, 0.0]
    assert swiss.place_points([2, 1, 2, 2]) == pytest.approx([1 / 3, 1.0, 1 / 3, 1 / 3])


def test_standings_with_buchholz_and_sonneborn_berger():
    # round 1: a beat b, c beat d; round 2: a beat c, b and d drew
    rounds = [
        table_round([("a", "b"), ("c", "d")], [("a", "b"), ("c", "d")]),
        table_round([("a", "c"), ("b", "d")], [("a", "c"), (("b", "d"),)]),
    ]
    table = {s.name: s for s in swiss.standings("abcd", rounds)}
    assert table["a"].points == 2 and table["c"].points == 1
    assert table["b"].points == table["d"].points == 0.5
    # Buchholz: the opponents' final points
    assert table["b"].buchholz == table["a"].points + table["d"].points
    assert table["d"].buchholz == table["c"].points + table["b"].points
    # Sonneborn-Berger: the share won against each opponent times its points
    assert table["b"].sonneborn_berger == pytest.approx(0.5 * table["d"].points)
    assert table["a"].sonneborn_berger == table["b"].points + table["c"].points
    # b and d tie on points; Buchholz decides (b met the leader)
    assert [s.name for s in swiss.standings("abcd", rounds)] == ["a", "c", "b", "d"]


def test_sonneborn_berger_breaks_what_buchholz_leaves_tied():
    """Every result of a 4-bot, 3-round round robin: the standings are sorted
    by (points, Buchholz, Sonneborn-Berger), and Sonneborn-Berger decides some."""
    schedule = [[("a", "b"), ("c", "d")], [("a", "c"), ("b", "d")], [("a", "d"), ("b", "c")]]
    games = [pair for round_ in schedule for pair in round_]
    decided = 0
    for outcomes in itertools.product((0, 1, 2), repeat=len(games)):
        orders = iter([(x, y), (y, x), ((x, y),)][o] for (x, y), o in zip(games, outcomes))
        rounds = [table_round(lineups, [next(orders), next(orders)]) for lineups in schedule]
        ranked = swiss.standings("abcd", rounds)
        keys = [(s.points, s.buchholz, s.sonneborn_berger) for s in ranked]
        assert keys == sorted(keys, reverse=True)
        decided += any(a[:2] == b[:2] and a[2] != b[2] for a, b in itertools.pairwise(keys))
    assert decided > 0


def test_the_bye_goes_to_the_lowest_ranked_bot_without_one_and_scores_a_win():
    order = ["a", "b", "c", "d", "e"]
    assert swiss.choose_byes(order, {}, 1) == ["e"]
    assert swiss.choose_byes(order, {"e": 1}, 1) == ["d"]
    assert swiss.choose_byes(order, {"e": 1, "d": 1, "c": 1, "b": 1, "a": 1}, 1) == ["e"]
    assert swiss.choose_byes(order, {"e": 1}, 2) == ["d", "c"]
    table = {
        s.name: s
        for s in swiss.standings("abc", [table_round([("a", "b")], [("b", "a")], byes=["c"])])
    }
    assert table["c"].points == swiss.BYE == 1.0 and table["c"].byes == 1
    assert table["c"].buchholz == 0 and table["c"].rounds == 0


def _pairings(bots, players):
    """Every way to seat ``bots`` at tables of ``players``."""
    if not bots:
        yield []
        return
    head, rest = bots[0], bots[1:]
    for others in itertools.combinations(rest, players - 1):
        left = [b for b in rest if b not in others]
        for tail in _pairings(left, players):
            yield [(head, *others)] + tail


@pytest.mark.parametrize("players,count", [(2, 8), (2, 6), (3, 9), (4, 8)])
def test_no_rematch_while_a_pairing_without_one_exists(players, count):
    rng = random.Random(players * 100 + count)
    bots = [f"b{i}" for i in range(count)]
    checked_rematches = 0
    for trial in range(12):
        met = {}
        for pair in itertools.combinations(bots, 2):
            if rng.random() < 0.05 + 0.06 * trial:  # ever more met pairs
                met[frozenset(pair)] = 1
        points = {b: rng.choice([0.0, 0.5, 1.0, 1.5, 2.0]) for b in bots}
        order = sorted(bots, key=lambda b: (-points[b], b))
        tables = swiss.pair(order, players, points, met)
        assert sorted(b for t in tables for b in t) == sorted(bots)

        def rematches(pairing):
            return sum(
                met.get(frozenset(p), 0) for t in pairing for p in itertools.combinations(t, 2)
            )

        fewest = min(rematches(p) for p in _pairings(order, players))
        assert rematches(tables) == fewest
        checked_rematches += fewest > 0
    assert 0 < checked_rematches < 12  # trials with and without a rematch-free pairing


def test_pairing_keeps_score_groups_and_floats_down_only_when_needed():
    points = {"a": 2, "b": 2, "c": 2, "d": 2, "e": 1, "f": 1, "g": 0, "h": 0}
    order = list(points)
    # nobody met: the 2-point group pairs inside itself
    tables = swiss.pair(order, 2, points, {})
    assert {frozenset(t) for t in tables} == {
        frozenset(p) for p in [("a", "b"), ("c", "d"), ("e", "f"), ("g", "h")]
    }
    # a has met b, c and d: a floats down to the best of the next group
    met = {frozenset(("a", x)): 1 for x in "bcd"}
    tables = swiss.pair(order, 2, points, met)
    a_table = next(t for t in tables if "a" in t)
    assert a_table == ("a", "e")
    assert all(points[t[0]] - points[t[1]] <= 1 for t in tables)
    # at four seats the leaders sit together, not with the lowest
    tables = swiss.pair(order, 4, points, {})
    assert set(tables[0]) == {"a", "b", "c", "d"}


def play(batch, results, strength, rng):
    for item in batch:
        results.planned.setdefault((item.group, item.round), []).append(item)
        for k in range(len(item.deals)):
            bots = item.bots_at(k)
            perf = [strength[b] + rng.random() for b in bots]
            ranks = [1 + sum(o > p for o in perf) for p in perf]
            results.games.setdefault(item.id, []).append((bots, ranks, []))


def test_swiss_planner_byes_rotate_and_rematches_wait():
    """7 bots, 2 seats, 7 rounds: each bot sits out exactly once, never the
    leader first; 8 bots, 7 rounds: nobody meets twice."""
    bots = [f"b{i}" for i in range(7)]
    t = tournament(
        bots=bots,
        format="swiss",
        swiss={"rounds": 7},
        games=[{"id": "ffa", "players": [2], "seating": "none"}],
    )
    planner = make_planner(t, KEY)
    results = Results()
    rng = random.Random(1)
    strength = {b: i for i, b in enumerate(reversed(bots))}  # b0 strongest
    sat_out = []
    for _ in range(7):
        batch = planner.next_batch(results)
        seated = {b for i in batch for b in i.lineup}
        [bye] = set(bots) - seated
        sat_out.append(bye)
        play(batch, results, strength, rng)
    assert sorted(sat_out) == sorted(bots)
    table = planner.standings(t.games[0], "ffa/2p", results)
    assert {s.name: s.byes for s in table} == {b: 1 for b in bots}
    assert table[0].name == "b0"
    bots = [f"b{i}" for i in range(8)]
    t = tournament(
        bots=bots,
        format="swiss",
        swiss={"rounds": 7},
        games=[{"id": "ffa", "players": [2], "seating": "none"}],
    )
    planner = make_planner(t, KEY)
    results = Results()
    strength = {b: rng.random() for b in bots}
    pairs = []
    for _ in range(7):
        batch = planner.next_batch(results)
        pairs += [frozenset(i.lineup) for i in batch]
        play(batch, results, strength, rng)
    assert len(pairs) == 28
    rematches = len(pairs) - len(set(pairs))
    assert rematches <= 1, rematches


def test_rated_sigma_is_per_group_and_unreachable_targets_are_named():
    t = tournament(
        format="rated", rated={"budget": 40, "sigma": 0.5}, games=[{"id": "ffa", "players": [2, 3]}]
    )
    planner = make_planner(t, KEY)
    assert len(planner.notes) == 2 and all("out of reach" in n for n in planner.notes)
    assert "ffa/2p" in planner.notes[0] and "ffa/3p" in planner.notes[1]
    asked = []

    def ratings(group):
        asked.append(group)
        small = group == "ffa/2p"  # the 2-seat group is done, the 3-seat not
        return {b: (25.0, 0.1 if small else 3.0) for b in "abcd"}

    batch = planner.next_batch(Results(ratings=ratings))
    assert set(asked) == {"ffa/2p", "ffa/3p"}
    assert batch and {item.players for item in batch} == {3}
    reachable = make_planner(
        tournament(
            format="rated",
            rated={"budget": 4000, "sigma": 2.0},
            games=[{"id": "ffa", "players": [2]}],
        ),
        KEY,
    )
    assert reachable.notes == []


def test_a_game_of_fewer_than_two_seats_gives_no_points():
    from arena.tournament.swiss import place_points

    assert place_points([1]) == [0.0]
    assert place_points([]) == []
