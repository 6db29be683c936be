"""One deal path: every seed from the key through :mod:`arena.match.deals`,
and every plan (a tournament's, ``arena match``'s, ``arena sprt``'s) played
as jobs of one seating each by the tournament's runner."""

from arena.cli.match import match_item
from arena.game.teams import Teams
from arena.match.deals import Deal, chance_seed, deal_seed
from arena.match.referee import Entrant
from arena.match.seeds import SecretKey, child
from arena.ratings.sequential import SPRT
from arena.tournament.plan import Results
from arena.tournament.runner import Seats, jobs_for
from arena.tournament.sprt import Duel

KEY = SecretKey(bytes(range(32)))


def test_a_deal_derives_every_seed_of_its_game_from_its_chance():
    deal = Deal(deal_seed(KEY, 3), (1, 0), chance_seed(KEY, 3, 1))
    assert deal.seed == KEY.derive("deal", 3) and deal.chance == KEY.derive("chance", 3, 1)
    seeds = {
        deal.seat_seed(0),
        deal.seat_seed(1),
        deal.hello_seed(0),
        deal.fallback_seed,
        deal.audit_seed,
    }
    assert len(seeds) == 5 and deal.seed not in seeds
    assert deal.fallback_seed == child(deal.chance, "fallback")
    # without a chance of its own, the deal seed stands for it (as secret)
    assert Deal(7, (0,)).seat_seed(0) == child(child(7, "chance"), "seat", 0)
    # a tournament group's deals differ from a single table's of the same number
    assert deal_seed(KEY, 3, "farm-and-furious", 2) != deal_seed(KEY, 3)


def test_match_and_sprt_deal_the_same_games_from_one_key():
    names = ["racer", "random"]
    match = match_item(KEY, "farm-and-furious", {}, names, names, 4, True, Teams.NONE)
    duel = Duel(
        KEY,
        "farm-and-furious",
        {},
        names,
        "racer",
        "random",
        SPRT(),
        max_deals=4,
        batch=4,
        on_deal=None,
    )
    items = duel.next_batch(Results())
    assert [item.id for item in items] == ["sprt/d0/s0", "sprt/d0/s1"]
    games = sorted((d.seed, d.seating, d.chance) for item in items for d in item.deals)
    assert games == sorted((d.seed, d.seating, d.chance) for d in match.deals)
    assert [d.seating for d in match.deals] == [(0, 1), (1, 0)] * 4


def test_an_item_of_several_seatings_is_a_job_per_seating_of_its_unplayed_games():
    names = ["racer", "random"]
    item = match_item(KEY, "farm-and-furious", {}, names, names, 3, True, Teams.NONE)
    seats = Seats(lambda name: Entrant(name, None), sandbox="none", audit=True)
    jobs = jobs_for(seats, [item], {"match/0", "match/3"})
    assert [(job.indices, job.deals[0][1]) for job in jobs] == [((2, 4), (0, 1)), ((1, 5), (1, 0))]
    assert [job.name for job in jobs] == ["match/2", "match/1"]
    assert all(job.audit and [e.name for e in job.entrants] == names for job in jobs)
    assert [d[0] for d in jobs[0].deals] == [item.deals[2].seed, item.deals[4].seed]
    assert jobs_for(seats, [item], set(item.keys())) == []
