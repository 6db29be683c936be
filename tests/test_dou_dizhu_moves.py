"""Dou Dizhu move generation, readings and the beat rules, on hand-built hands."""

import itertools
import random
from collections import Counter

import pytest

from engines.dou_dizhu import moves as M
from engines.dou_dizhu.game import DouDizhu, state_from_hands


def lead(hand):
    return M.lead_moves(M.counts_of(hand))


def by_kind(moves):
    """Counter of (kind, length) over the moves."""
    return Counter((M.INFO[m][0] >> 5, M.INFO[m][0] & 31) for m in moves)


def canon(text):
    return M.string_of_counts(M.counts_of(text))


def follow(hand, prev):
    M.lead_moves(M.counts_of(prev))  # registers prev's Info
    return M.follow_moves(M.counts_of(hand), M.INFO[prev])


def test_airplane_333444555777_single_wings_only_allowed_forms():
    moves = lead("333444555777")
    kinds = by_kind(moves)
    # the three-trio airplane 333444555 would need three single wings from
    # ranks other than 3/4/5: only 777, and three of a rank is never a wing
    assert kinds[(M.PLANE1, 3)] == 0
    assert "333444555777" not in moves
    assert M.readings("333444555777") == []
    # two-trio airplanes with single wings: 333444 + {55, 57, 77}, 444555 + {33, 37, 77}
    plane1 = sorted(m for m in moves if M.INFO[m][0] == M.typekey(M.PLANE1, 2))
    assert plane1 == sorted(
        ["33344455", "33344457", "33344477", "33444555", "34445557", "44455577"]
    )
    assert kinds[(M.PLANE, 2)] == 2 and kinds[(M.PLANE, 3)] == 1
    # pair wings: 333444 + 55 77, 444555 + 33 77
    plane2 = sorted(m for m in moves if M.INFO[m][0] >> 5 == M.PLANE2)
    assert plane2 == sorted(["3334445577", "3344455577"])
    # everything else: 4 singles, 4 pairs, 4 trios, trio+single 4*3,
    # trio+pair 4*3 and the pair straight 334455
    assert kinds[(M.SOLO, 1)] == 4 and kinds[(M.PAIR, 1)] == 4 and kinds[(M.TRIO, 1)] == 4
    assert kinds[(M.TRIO1, 1)] == 12 and kinds[(M.TRIO2, 1)] == 12
    assert kinds[(M.PAIRS, 3)] == 1 and "334455" in moves
    assert len(moves) == 4 + 4 + 4 + 12 + 12 + 1 + 2 + 1 + 6 + 2
    assert len(set(moves)) == len(moves)


def test_airplane_single_wings_with_three_distinct_ranks():
    moves = lead("333444555789")
    plane1_3 = [m for m in moves if M.INFO[m][0] == M.typekey(M.PLANE1, 3)]
    assert plane1_3 == ["333444555789"]


def test_four_trio_airplane_reads_only_one_way():
    assert M.readings("333444555666") == [(M.PLANE, 4, 3)]
    moves = lead("333444555666")
    assert "333444555666" in moves
    assert M.INFO["333444555666"][:2] == (M.typekey(M.PLANE, 4), 3)
    assert by_kind(moves)[(M.PLANE1, 3)] == 0  # 333444555 + 666 is not allowed


def test_single_wings_never_both_jokers_but_one_joker_or_a_two_is_fine():
    moves = lead("333444BR")
    assert by_kind(moves)[(M.PLANE1, 2)] == 0
    assert M.readings("333444BR") == []
    moves = lead("3334442B")
    assert "3334442B" in moves and M.INFO["3334442B"][0] == M.typekey(M.PLANE1, 2)


def test_wings_may_not_use_the_airplanes_own_ranks():
    # 3333444 + 5: the fourth 3 may not be a wing
    moves = lead("33334445")
    plane1 = sorted(m for m in moves if M.INFO[m][0] >> 5 == M.PLANE1)
    assert plane1 == []
    assert M.readings("33334445") == []


def test_lone_four_offers_bomb_and_four_with_two_forms():
    moves = lead("33335577BR")
    kinds = by_kind(moves)
    four2 = sorted(m for m in moves if M.INFO[m][0] >> 5 == M.FOUR2)
    assert four2 == sorted(
        ["333355", "333357", "33335B", "33335R", "333377", "33337B", "33337R"]
    )  # never 3333BR
    four22 = [m for m in moves if M.INFO[m][0] >> 5 == M.FOUR22]
    assert four22 == ["33335577"]
    assert kinds[(M.BOMB, 1)] == 1 and "3333" in moves
    assert kinds[(M.ROCKET, 1)] == 1 and "BR" in moves
    assert kinds[(M.TRIO1, 1)] == 4  # 333 + 5/7/B/R, never 333+3
    assert kinds[(M.TRIO2, 1)] == 2
    assert kinds[(M.SOLO, 1)] == 5 and kinds[(M.PAIR, 1)] == 3 and kinds[(M.TRIO, 1)] == 1
    assert len(moves) == 5 + 3 + 1 + 4 + 2 + 7 + 1 + 1 + 1
    # four + two is not a bomb
    assert M.INFO["333357"][4] == 0 and M.INFO["3333"][4] == 1


def test_four_with_two_pairs_needs_two_different_ranks():
    assert M.readings("33335555") == []
    assert "33335555" not in lead("33335555")
    assert M.readings("33335566") == [(M.FOUR22, 1, 0)]
    # a lone four alone offers no four-with-two
    moves = lead("3333")
    assert sorted(moves) == sorted(["3", "33", "333", "3333"])


def test_chains_stop_at_ace_and_have_minimum_lengths():
    moves = lead("TJQKA2")
    assert by_kind(moves)[(M.STRAIGHT, 5)] == 1 and "TJQKA" in moves
    assert "JQKA2" not in moves and M.readings("JQKA2") == []
    assert M.readings("3456") == []
    assert M.readings("3344") == []
    assert M.readings("334455") == [(M.PAIRS, 3, 2)]
    assert M.readings("KKKAAA222") == []  # no 2 in an airplane
    moves = lead("3456789TJQKA")
    counts = by_kind(moves)
    assert [counts[(M.STRAIGHT, n)] for n in range(5, 13)] == [8, 7, 6, 5, 4, 3, 2, 1]


def test_trio_kickers():
    moves = lead("555BR2")
    trio1 = sorted(m for m in moves if M.INFO[m][0] >> 5 == M.TRIO1)
    assert trio1 == sorted(["5552", "555B", "555R"])
    assert by_kind(moves)[(M.TRIO2, 1)] == 0  # jokers are not a pair
    assert M.readings("22233") == [(M.TRIO2, 1, 12)]
    assert M.readings("222BR") == []


def test_follow_single_and_bombs_and_rocket():
    assert follow("3A2BR", "K") == ["A", "2", "B", "R", "BR"]
    assert follow("3A2BR", "R") == ["BR"]
    assert follow("4444BR", "BR") == []
    assert follow("44445555", "3333") == ["4444", "5555"]
    assert follow("44445555", "4444") == ["5555"]
    assert follow("33334", "KKKA") == ["3333"]  # a bomb beats trio+single
    assert follow("33334", "JJJJ") == []


def test_follow_same_kind_same_size_only():
    assert follow("456789", "34567") == ["45678", "56789"]
    assert follow("456789", "345678") == ["456789"]
    assert follow("456789T", "3456789") == ["456789T"]
    assert follow("45678", "345678") == []  # a shorter straight never follows
    assert follow("4455667788", "334455") == ["445566", "556677", "667788"]
    assert follow("4455667788", "445566") == ["556677", "667788"]
    # trio+single compares by the trio only
    assert follow("23444", "333A") == ["3444", "4442"]
    # four + two singles follows four + two singles, compared by the four
    assert follow("345555", "4444KA") == ["345555", "5555"]
    # an airplane with single wings follows one with the same number of trios
    assert follow("44455567", "33344489") == ["44455567"]
    got = follow("444555666789", "33344489")
    want = [canon("444555" + w) for w in ("66", "67", "68", "69", "78", "79", "89")]
    want += [canon("555666" + w) for w in ("44", "47", "48", "49", "78", "79", "89")]
    assert sorted(got) == sorted(want)


def test_beats_relation():
    for text in ("3", "33", "KKKA", "34567", "3333", "BR", "333444"):
        M.lead_moves(M.counts_of(text))
    info = M.INFO
    assert M.beats(info["3333"], info["34567"])
    assert not M.beats(info["34567"], info["3333"])
    assert M.beats(info["BR"], info["3333"])
    assert not M.beats(info["3333"], info["BR"])
    assert not M.beats(info["33"], info["3"])


def sub_multisets(counts):
    ranges = [range(n + 1) for n in counts]
    for pick in itertools.product(*ranges):
        if any(pick):
            yield M.string_of_counts(pick)


@pytest.mark.parametrize("seed", range(40))
def test_lead_moves_are_exactly_the_readable_sub_hands(seed):
    """Completeness and soundness against the reference classifier: on random
    small hands, the generated lead list is exactly the set of sub-multisets
    with a reading, and every one has exactly one reading matching its Info."""
    rng = random.Random(seed)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    # bias some hands towards trios and fours so wings get exercised
    size = rng.choice((8, 9, 10, 11))
    if seed % 2:
        base = rng.randrange(10)
        hand = [base] * 3 + [base + 1] * 3 + rng.sample(deck, size - 6)
        counts = [0] * 15
        for r in hand:
            counts[r] = min(4 if r < 13 else 1, counts[r] + 1)
    else:
        counts = [0] * 15
        for r in rng.sample(deck, size):
            counts[r] += 1
    moves = M.lead_moves(counts)
    assert len(set(moves)) == len(moves)
    expected = set()
    for text in sub_multisets(counts):
        found = M.readings(text)
        assert len(found) <= 1, (text, found)
        if found:
            expected.add(text)
    assert set(moves) == expected
    for m in moves:
        ((kind, length, rank),) = M.readings(m)
        tkey, r, packed, _, bomb, _ = M.INFO[m]
        assert (tkey, r) == (M.typekey(kind, length), rank)
        assert packed == M.pack(M.counts_of(m))
        assert bomb == (1 if kind == M.BOMB else 2 if kind == M.ROCKET else 0)


def test_every_move_in_random_games_has_one_reading():
    engine = DouDizhu()
    rng = random.Random(5)
    seen = set()
    for game in range(150):
        state = engine.new_game(3, 1000 + game)
        while state.to_act():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            seen.update(a for a in legal if not a.startswith("bid") and a != "pass")
            state.step(seat, rng.choice(legal))
    assert len(seen) > 2000
    for m in seen:
        found = M.readings(m)
        assert len(found) == 1, (m, found)
        kind, length, rank = found[0]
        assert M.INFO[m][:2] == (M.typekey(kind, length), rank)


def test_following_list_matches_beats_over_lead_list():
    """follow_moves == the lead moves of the hand that beat the play."""
    rng = random.Random(3)
    engine = DouDizhu()
    checked = 0
    for game in range(60):
        state = engine.new_game(3, 5000 + game)
        while state.to_act():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if legal[0] == "pass":
                obs = state.observation(seat)
                prev = M.INFO[obs["to_beat"]]
                hand = M.counts_of(obs["hand"])
                want = [m for m in M.lead_moves(hand) if M.beats(M.INFO[m], prev)]
                assert sorted(legal[1:]) == sorted(want)
                checked += 1
            state.step(seat, rng.choice(legal))
    assert checked > 500


def test_state_from_hands_legal_lists():
    state = state_from_hands(["33344455K", "66", "77"], landlord=0)
    assert "33344455" in state.legal_actions(0)
    assert "pass" not in state.legal_actions(0)
    state.step(0, "33344455")
    assert state.legal_actions(1) == ["pass"]


def test_fast_lead_generator_matches_the_plain_one():
    rng = random.Random(11)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    for i in range(4000):
        counts = [0] * 15
        for r in rng.sample(deck, rng.randrange(1, 21)):
            counts[r] += 1
        if i % 3 == 0:  # force an airplane core
            base = rng.randrange(11)
            counts[base] = max(counts[base], 3)
            counts[base + 1] = max(counts[base + 1], 3)
        assert M.lead_moves_fast(M.pack(counts), counts) == M.lead_moves(counts)


def test_follow_cache_shares_lists_only_between_equivalent_hands():
    """The follow cache keys hands by the bits that decide the answer; check
    the cached answer against a fresh computation on many random hands."""
    rng = random.Random(12)
    deck = [r for r in range(13) for _ in range(4)] + [13, 14]
    plays = [m for m in M.lead_moves([4] * 13 + [1, 1]) if len(m) <= 12]
    for _ in range(6000):
        counts = [0] * 15
        for r in rng.sample(deck, rng.randrange(1, 21)):
            counts[r] += 1
        prev = M.INFO[rng.choice(plays)]
        cached = M.cached_follow(M.pack(counts), counts, prev)
        assert cached == ["pass"] + M.follow_moves(counts, prev)


def test_airplanes_with_wings_follow_only_higher_airplanes():
    # the hand's 333444 airplanes are lower than the standing 555666 ones
    assert follow("33344456", "55566678") == []
    assert follow("3334445566", "5556667788") == []
    assert follow("66677789", "34555666") == ["66677789"]
    assert follow("6667778899", "3344555666") == ["6667778899"]


def test_follow_cache_tells_apart_hands_that_differ_in_a_pair_wing():
    # against a pair-wing airplane, 555666 + 33 + 99 follows but 555666 +
    # 3 + 99 does not: the pair of 3s (below the airplane) decides it, so the
    # cache must not give one hand's list to the other
    prev = "3334447788"
    M.lead_moves(M.counts_of(prev))
    for hand, want in (
        ("3355566699", ["pass", "3355566699"]),
        ("355566699", ["pass"]),
        ("3355566699", ["pass", "3355566699"]),
    ):
        counts = M.counts_of(hand)
        assert M.cached_follow(M.pack(counts), counts, M.INFO[prev]) == want, hand


def test_the_reference_classifier_knows_one_small_joker():
    # the deck has one small joker: "BB" is no pair, nor a pair wing
    assert M.readings("BB") == []
    assert M.readings("3333BB44") == []
    assert M.readings("333444BB55") == []


def test_info_of_reads_plays_of_twos_in_a_fresh_process():
    # info_of classifies a string it has not seen yet: in a fresh interpreter
    # (in this one the plays of earlier tests are already registered)
    import subprocess
    import sys

    code = (
        "from engines.dou_dizhu import moves as M\n"
        "for text in ('33442222', '342222', '3333BR', '22222', 'BB', '32222B'):\n"
        "    info = M.info_of(text)\n"
        "    print(None if info is None else (info[0] >> 5, info[1]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == [
        str((M.FOUR22, M.TWO)),
        str((M.FOUR2, M.TWO)),
        "None",
        "None",
        "None",
        str((M.FOUR2, M.TWO)),
    ]  # one joker is a kicker like any card


def test_the_follow_cache_answers_as_a_fresh_generation_does():
    """cached_follow keys its table by the parts of a hand that can matter
    for the play to beat (its select bits): hands that share a key must have
    the same answers.  Over many random hands and plays of every kind, the
    cached answer equals one generated afresh."""
    rng = random.Random(11)
    deck = [r for r in range(13) for _ in range(4)] + [M.SMALL_JOKER, M.BIG_JOKER]
    M._FOLLOW_CACHE.clear()
    kinds = set()
    for _ in range(400):
        rng.shuffle(deck)
        leader = [0] * M.NRANKS
        for r in deck[:20]:
            leader[r] += 1
        plays = [p for p in M.lead_moves(leader) if p != "pass"]
        for _ in range(6):
            play = rng.choice(plays)
            info = M.INFO[play]
            kinds.add(info[0] >> 5)
            hand = [0] * M.NRANKS
            for r in rng.sample(deck[20:], 17):
                hand[r] += 1
            packed = M.pack(hand)
            assert M.cached_follow(packed, hand, info) == ["pass"] + M.follow_moves(
                hand, info, packed
            )
    assert len(kinds) == len(M.KIND_NAMES)  # the plays covered every kind


@pytest.mark.parametrize(
    "play, able, unable",
    [
        ("33344456", "55566678", "555666"),  # an airplane with single wings needs two more cards
        ("33344", "4445899A", "467899JQ"),  # a trio with a pair needs a trio above it
    ],
)
def test_the_follow_cache_tells_apart_hands_that_answer_differently(play, able, unable):
    info = M.info_of(play)
    for order in ((able, unable), (unable, able)):
        M._FOLLOW_CACHE.clear()
        for text in order:
            hand = M.counts_of(text)
            packed = M.pack(hand)
            assert M.cached_follow(packed, hand, info) == ["pass"] + M.follow_moves(
                hand, info, packed
            )
    hand = M.counts_of(able)
    assert len(M.cached_follow(M.pack(hand), hand, info)) > 1  # it can beat the play


@pytest.fixture
def small_caches(monkeypatch):
    """The move caches and the lead memo bounded at three entries, empty."""
    monkeypatch.setattr(M, "CACHE_LIMIT", 3)
    monkeypatch.setattr(M, "MEMO_LIMIT", 3)
    tables = (M._LEAD_CACHE, M._FOLLOW_CACHE, *M._MEMO)
    for table in tables:
        table.clear()
    yield
    for table in tables:
        table.clear()


def test_the_move_caches_keep_their_answers_until_full_then_start_afresh(small_caches):
    """A bounded cache is cleared only when full: until then a position seen
    before is answered with the very tuple stored the first time."""
    hands = ["333456", "444567", "555678", "666789"]  # each leads a new trio piece
    prev = M.info_of("3")
    leads, follows = [], []
    for i, text in enumerate(hands):
        counts = M.counts_of(text)
        packed = M.pack(counts)
        leads.append(M.legal_lead(packed, counts))
        follows.append(M.legal_follow(packed, counts, prev))
        size = 1 if i == 3 else i + 1  # the fourth clears the full cache
        assert len(M._LEAD_CACHE) == len(M._FOLLOW_CACHE) == size, text
        assert len(M._MEMO[0]) == len(M._MEMO[1]) == size, text
        assert leads[-1] == tuple(M.lead_moves(counts))
        assert follows[-1] == ("pass", *M.follow_moves(counts, prev, packed))
        if i == 2:  # full, not yet cleared
            first = M.counts_of(hands[0])
            assert M.legal_lead(M.pack(first), first) is leads[0]
            assert M.legal_follow(M.pack(first), first, prev) is follows[0]
    first = M.counts_of(hands[0])  # cleared by the fourth: made again
    again = M.legal_lead(M.pack(first), first)
    assert again == leads[0] and again is not leads[0]


@pytest.mark.parametrize(
    "hand", ["3334445556BR", "33344455567BR", "3334445556677BR", "444555666777BR"]
)
def test_long_airplanes_with_both_jokers_are_exactly_the_readable_sub_hands(hand):
    """Airplanes of three or more trios take their single wings from the
    general wing generator, which must drop every wing set holding both
    jokers and keep every other: with both jokers in hand, the generated
    airplanes with single wings are exactly the readable ones."""
    counts = M.counts_of(hand)
    planes = {m for m in M.lead_moves(counts) if M.INFO[m][0] >> 5 == M.PLANE1}
    expected = {
        text
        for text in sub_multisets(counts)
        if [kind for kind, _, _ in M.readings(text)] == [M.PLANE1]
    }
    assert planes == expected
    assert any(len(m) >= 12 for m in planes) or hand == "3334445556BR"


@pytest.mark.parametrize("hand, rockets", [("BR", ["BR"]), ("3BR", ["BR"]), ("3R", []), ("B", [])])
def test_the_rocket_is_played_only_with_both_jokers(hand, rockets):
    assert M.plays_of_kind(M.counts_of(hand), M.ROCKET) == rockets
