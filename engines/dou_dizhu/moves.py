"""Dou Dizhu combinations: encoding, move generation and comparison.

Cards are ranks only (suits never matter in Dou Dizhu).  Rank indices 0..14
stand for ``RANKS = "3456789TJQKA2BR"``: 3 lowest, ``T`` ten, ``2`` the
deuce, ``B`` the small (black) joker, ``R`` the big (red) joker.

A hand is a *count vector* (15 ints, 0..4) and, for fast set arithmetic, a
*packed* int holding the same counts in 4-bit fields (rank ``r`` at bits
``4r..4r+3``).  ``hand >= move`` (per rank) is one subtraction:
``((hand | HIGH) - move) & HIGH == HIGH``.

A play is its canonical action string: the ranks of its cards sorted from
low to high (``"33344455"``, ``"BR"``).  Every valid play has exactly one
reading (the rules page), so the packed counts of a play identify it and its
:class:`Info`: ``(typekey, rank, packed, deltas, bomb, select)`` where ``typekey``
encodes kind and size (``kind * 32 + chain length``), ``rank`` the core rank
that decides comparisons, ``deltas`` the ``(rank, count)`` pairs to remove
from the hand, ``bomb`` 0 for plain plays, 1 for bombs, 2 for the rocket,
``select`` the hand bits that decide what can follow it (see below), with
the play's typekey and rank above them (bit 64 up): the follow cache's key
is then one int, ``(planes | ABOVE) & select``.

Legal-move lists are pure functions of (hand, play to beat) and are memoised
in bounded module-level caches (cleared wholesale when full); the cache never
changes a result, it only saves time when a position repeats (search bots,
duplicate deals).
"""

from __future__ import annotations

from itertools import combinations

RANKS = "3456789TJQKA2BR"
RANK_INDEX = {ch: i for i, ch in enumerate(RANKS)}
TWO, SMALL_JOKER, BIG_JOKER = 12, 13, 14
NRANKS = 15
HIGH = sum(8 << (4 * r) for r in range(NRANKS))
UNIT = [1 << (4 * r) for r in range(NRANKS)]
#: bit 2 of each of the 13 non-joker fields: set exactly where a count is 4
FOURS = sum(4 << (4 * r) for r in range(13))

# kinds
(
    SOLO,
    PAIR,
    TRIO,
    TRIO1,
    TRIO2,
    STRAIGHT,
    PAIRS,
    PLANE,
    PLANE1,
    PLANE2,
    FOUR2,
    FOUR22,
    BOMB,
    ROCKET,
) = range(14)
KIND_NAMES = (
    "single",
    "pair",
    "trio",
    "trio+single",
    "trio+pair",
    "straight",
    "pair straight",
    "airplane",
    "airplane+singles",
    "airplane+pairs",
    "four+two singles",
    "four+two pairs",
    "bomb",
    "rocket",
)
#: shortest chain per chain kind; longest follows from 12 ranks / 20 cards
MIN_CHAIN = {STRAIGHT: 5, PAIRS: 3, PLANE: 2, PLANE1: 2, PLANE2: 2}
MAX_CHAIN = {STRAIGHT: 12, PAIRS: 10, PLANE: 6, PLANE1: 5, PLANE2: 4}

#: packed counts -> canonical action string, and string -> Info tuple
STRING_OF: dict[int, str] = {}
INFO: dict[str, tuple] = {}


def typekey(kind: int, length: int = 1) -> int:
    return kind * 32 + length


def pack(counts) -> int:
    """Packed counts of the count vector ``counts``: the even ranks' counts
    are the low halves of its bytes, the odd ranks' the high halves (two
    ``bytes`` of the slices, not a shift per rank)."""
    return (
        int.from_bytes(bytes(counts[::2]), "little")
        | int.from_bytes(bytes(counts[1::2]), "little") << 4
    )


#: each byte's low and high 4-bit field, for :func:`counts_of_packed`
_LOW_FIELD = bytes(b & 15 for b in range(256))
_HIGH_FIELD = bytes(b >> 4 for b in range(256))


def counts_of_packed(packed: int) -> list[int]:
    """The count vector of packed counts (the inverse of :func:`pack`): two
    ``bytes.translate`` rather than a shift and a mask per rank, which is
    cheaper (a deal unpacks four hands; docs/performance.md)."""
    raw = packed.to_bytes(8, "little")
    counts = [0] * 16
    counts[::2] = raw.translate(_LOW_FIELD)
    counts[1::2] = raw.translate(_HIGH_FIELD)
    del counts[NRANKS]
    return counts


def counts_of(text: str) -> list[int]:
    counts = [0] * NRANKS
    for ch in text:
        counts[RANK_INDEX[ch]] += 1
    return counts


def string_of_counts(counts) -> str:
    return "".join(RANKS[r] * n for r, n in enumerate(counts) if n)


#: per byte of packed counts (two ranks), ``[index][byte]``, its text and
#: its ``(rank, count)`` deltas, filled as met: a play's string and deltas
#: are then one lookup per byte (random games meet thousands of new plays,
#: and building each rank by rank was a sixteenth of a fresh process's
#: time); the rank after the big joker (the top half of the last byte) is
#: always empty
_PIECES: list[list] = [[None] * 256 for _ in range(8)]


def _piece(i: int, b: int) -> tuple:
    low, high = b & 15, b >> 4
    text = RANKS[2 * i] * low
    deltas: tuple[tuple[int, int], ...] = ((2 * i, low),) if low else ()
    if high:
        text += RANKS[2 * i + 1] * high
        deltas += ((2 * i + 1, high),)
    piece = _PIECES[i][b] = (text, deltas)
    return piece


def string_of_packed(packed: int) -> str:
    """:func:`string_of_counts` of packed counts, a piece per byte (every
    observation shows its seat's hand)."""
    texts = []
    for i, b in enumerate(packed.to_bytes(8, "little")):
        if b:
            texts.append((_PIECES[i][b] or _piece(i, b))[0])
    return "".join(texts)


def text_and_deltas(packed: int) -> tuple[str, list]:
    """The string of packed counts (as :func:`string_of_counts`) and its
    ``(rank, count)`` pairs, rank by rank: a piece per byte."""
    texts = []
    deltas = []
    for i, b in enumerate(packed.to_bytes(8, "little")):
        if b:
            piece = _PIECES[i][b] or _piece(i, b)
            texts.append(piece[0])
            deltas += piece[1]
    return "".join(texts), deltas


def _register(packed: int, tkey: int, rank: int, bomb: int = 0) -> str:
    """The canonical string of a play, creating its Info on first sight."""
    text = STRING_OF.get(packed)
    if text is None:
        text, deltas = text_and_deltas(packed)
        STRING_OF[packed] = text
        select = _follow_select(tkey >> 5, rank) | (tkey << 4 | rank) << 64
        INFO[text] = (tkey, rank, packed, tuple(deltas), bomb, select)
    return text


# -------------------------------------------------------- follow-cache keys
# A hand re-encoded as four bit planes, bit ``4r + k`` set when rank ``r``
# has more than ``k`` cards: plane 0 "has one", 1 "has a pair", 2 "has a
# trio", 3 "has four".  Which answers to "what beats this play" can differ
# depends only on some planes (and, for simple plays, only on ranks above the
# play), so the follow cache is keyed by the play's kind, length and core
# rank (all that :func:`follow_moves` reads of it: a trio + single shares
# its entries with every other kicker) and the hand's planes masked to those
# bits: hands that differ elsewhere share one entry.
LOW = sum(1 << (4 * r) for r in range(NRANKS))
#: the bits of an Info's ``select`` above a hand's planes, where it holds
#: its play's typekey and rank (13 bits: typekeys are below 512)
ABOVE = ((1 << 13) - 1) << 64


def _plane(k, ranks):
    return sum(1 << (4 * r + k) for r in ranks)


_JOKERS0 = _plane(0, (SMALL_JOKER, BIG_JOKER))
_ALL3 = _plane(3, range(13))


def _follow_select(kind, rank):
    """The hand bits that decide the answers to a play of ``kind`` with core
    ``rank`` (computed once per pair: :func:`_register` asks for every new
    play, and random games meet thousands)."""
    key = (kind, rank)
    got = _SELECT.get(key)
    if got is None:
        got = _SELECT[key] = _select_bits(kind, rank)
    return got


def _select_bits(kind, rank):
    above = range(rank + 1, NRANKS)
    if kind == ROCKET:
        return 0
    if kind == BOMB:
        return _plane(3, above) | _JOKERS0
    if kind == SOLO:
        planes = _plane(0, above)
    elif kind == PAIR:
        planes = _plane(1, above)
    elif kind == TRIO:
        planes = _plane(2, above)
    elif kind == TRIO1:
        planes = _plane(2, above) | _plane(0, range(NRANKS))
    elif kind == TRIO2:
        planes = _plane(2, above) | _plane(1, range(NRANKS))
    elif kind == STRAIGHT:
        planes = _plane(0, range(12))
    elif kind == PAIRS:
        planes = _plane(1, range(12))
    elif kind == PLANE:
        planes = _plane(2, range(12))
    elif kind == PLANE1:
        planes = _plane(0, range(NRANKS)) | _plane(1, range(NRANKS)) | _plane(2, range(12))
    elif kind == PLANE2:
        planes = _plane(1, range(NRANKS)) | _plane(2, range(12))
    elif kind == FOUR2:
        planes = _plane(0, range(NRANKS)) | _plane(1, range(NRANKS))
    else:  # FOUR22
        planes = _plane(1, range(NRANKS))
    return planes | _JOKERS0 | _ALL3


_SELECT: dict[tuple[int, int], int] = {}


def _planes_formula(p: int) -> int:
    """The four bit planes of packed counts ``p`` (each 0..4), field by
    field: the bits of one 4-bit field only ever land in that field."""
    high = p >> 2
    return (
        ((p | p >> 1 | high) & LOW)
        | (((p >> 1 | high) & LOW) << 1)
        | ((((p & (p >> 1)) | high) & LOW) << 2)
        | ((high & LOW) << 3)
    )


#: the formula for every byte (two fields): a hand's planes are then one
#: ``bytes.translate`` of its 8 bytes, much faster than the formula's dozen
#: big-int operations (asked at every follow; docs/performance.md)
_PLANES_OF_BYTE = bytes(_planes_formula(b) for b in range(256))


def planes_of(p: int, _table=_PLANES_OF_BYTE, _from=int.from_bytes) -> int:
    """The four bit planes of packed hand ``p`` (counts 0..4, 15 ranks)."""
    return _from(p.to_bytes(8, "little").translate(_table), "little")


# ---------------------------------------------------------------- core tables
# Simple plays and chain cores, precomputed: (rank, packed, string).
SOLOS = [_register(UNIT[r], typekey(SOLO), r) for r in range(NRANKS)]
PAIRS_S = [_register(2 * UNIT[r], typekey(PAIR), r) for r in range(13)]
TRIOS_S = [_register(3 * UNIT[r], typekey(TRIO), r) for r in range(13)]
BOMBS_S = [_register(4 * UNIT[r], typekey(BOMB), r, 1) for r in range(13)]
ROCKET_S = _register(UNIT[SMALL_JOKER] + UNIT[BIG_JOKER], typekey(ROCKET), BIG_JOKER, 2)


def _chain_table(kind, width):
    """For each length: list of (start, top rank, mask, packed core, string)."""
    table = {}
    for length in range(MIN_CHAIN[kind], MAX_CHAIN[kind] + 1):
        rows = []
        for start in range(0, 12 - length + 1):
            top = start + length - 1
            mask = ((1 << length) - 1) << start
            packed = sum(width * UNIT[r] for r in range(start, top + 1))
            text = (
                _register(packed, typekey(kind, length), top)
                if kind in (STRAIGHT, PAIRS, PLANE)
                else None
            )
            rows.append((start, top, mask, packed, text))
        table[length] = rows
    return table


STRAIGHT_T = _chain_table(STRAIGHT, 1)
PAIRS_T = _chain_table(PAIRS, 2)
PLANE_T = _chain_table(PLANE, 3)
PLANE1_T = _chain_table(PLANE1, 3)
PLANE2_T = _chain_table(PLANE2, 3)

# ---------------------------------------------------------------- generation


def _masks(c):
    m1 = m2 = m3 = 0
    for r in range(12):
        n = c[r]
        if n:
            bit = 1 << r
            m1 |= bit
            if n >= 2:
                m2 |= bit
                if n >= 3:
                    m3 |= bit
    return m1, m2, m3


def _single_wings(c, excluded_lo, excluded_hi, k):
    """All multisets of k wing cards from ranks outside [lo, hi]: at most two
    of a rank, never both jokers.  Returns packed kicker counts."""
    items = []
    for r in range(NRANKS):
        if excluded_lo <= r <= excluded_hi:
            continue
        n = c[r]
        if n:
            items.append((UNIT[r], n >= 2))
    out = []
    _multiset(items, 0, k, 0, out)
    if c[SMALL_JOKER] and c[BIG_JOKER]:
        both = UNIT[SMALL_JOKER] + UNIT[BIG_JOKER]
        out = [p for p in out if (p & both) != both]
    return out


def _multiset(items, i, k, acc, out):
    if k == 1:  # the innermost level, most of the calls: one comprehension
        out += [acc + u for u, _ in items[i:]]
        return
    for j in range(i, len(items)):
        u, two = items[j]
        _multiset(items, j + 1, k - 1, acc + u, out)
        if two:
            if k == 2:
                out.append(acc + 2 * u)
            else:
                _multiset(items, j + 1, k - 2, acc + 2 * u, out)


def _emit(packs, tkey, rank, out):
    """Append the strings of the plays ``packs`` (packed counts), registering
    those not seen before.  One C-level lookup pass first: the wings of
    airplanes and of four + two come by the dozen, almost all already known."""
    texts = list(map(STRING_OF.get, packs))
    if None in texts:
        texts = [_register(p, tkey, rank) if t is None else t for t, p in zip(texts, packs)]
    out += texts


def _gen_solo(c, length, lo, out):
    out += [SOLOS[r] for r in range(lo + 1, NRANKS) if c[r]]


def _gen_pair(c, length, lo, out):
    out += [PAIRS_S[r] for r in range(lo + 1, 13) if c[r] >= 2]


def _gen_trio(c, length, lo, out):
    out += [TRIOS_S[r] for r in range(lo + 1, 13) if c[r] >= 3]


TRIO1_S = [
    [_register(3 * UNIT[t] + UNIT[k], typekey(TRIO1), t) if k != t else None for k in range(NRANKS)]
    for t in range(13)
]
TRIO2_S = [
    [_register(3 * UNIT[t] + 2 * UNIT[k], typekey(TRIO2), t) if k != t else None for k in range(13)]
    for t in range(13)
]


def _gen_trio1(c, length, lo, out):
    kickers = None  # the ranks present, found at the first trio
    for t in range(lo + 1, 13):
        if c[t] >= 3:
            if kickers is None:
                kickers = [k for k in range(NRANKS) if c[k]]
            row = TRIO1_S[t]
            out += [row[k] for k in kickers if k != t]


def _gen_trio2(c, length, lo, out):
    kickers = None  # the ranks with a pair, found at the first trio
    for t in range(lo + 1, 13):
        if c[t] >= 3:
            if kickers is None:
                kickers = [k for k in range(13) if c[k] >= 2]
            row = TRIO2_S[t]
            out += [row[k] for k in kickers if k != t]


def _gen_chain(table, which):
    def gen(c, length, lo, out):
        m = _masks(c)[which]
        out += [text for _, top, mask, _, text in table[length] if top > lo and m & mask == mask]

    return gen


#: per core (packed: a four, or two trios) and wing width (1: two singles,
#: 2: two pairs), a table of the strings of the core with wing ranks a <= b,
#: ``[a][b]``, filled as plays are met: two wings are the usual case of four
#: + two and of airplanes, dozens of plays per hand, and a table lookup is
#: several times cheaper than packing each play and looking it up
_TWO_WINGS: dict[tuple[int, int], list[list]] = {}


def _two_wings_table(base, width):
    table = _TWO_WINGS.get((base, width))
    if table is None:
        table = _TWO_WINGS[base, width] = [[None] * NRANKS for _ in range(NRANKS)]
    return table


def _wing_text(row, partial, b, width, tkey, rank):
    """``row[b]``, the play ``partial`` plus ``width`` cards of rank ``b``,
    registered and stored in ``row`` on first sight."""
    text = row[b] = _register(partial + width * UNIT[b], tkey, rank)
    return text


def _two_singles(c, others, base, tkey, rank, out):
    """Append the plays ``base`` + two single wings from the ranks ``others``
    of hand ``c`` (ascending): in :func:`_single_wings` order, at most two
    of a rank, never both jokers."""
    table = _two_wings_table(base, 1)
    for j, a in enumerate(others):
        if a == SMALL_JOKER:  # only the big joker can follow: never both
            break
        row = table[a]
        partial = base + UNIT[a]
        out += [row[b] or _wing_text(row, partial, b, 1, tkey, rank) for b in others[j + 1 :]]
        if c[a] >= 2:
            out.append(row[a] or _wing_text(row, partial, a, 1, tkey, rank))


def _two_pairs(pairs, base, tkey, rank, out):
    """Append the plays ``base`` + two pair wings of distinct ``pairs``
    (ascending), in ``combinations(pairs, 2)`` order."""
    table = _two_wings_table(base, 2)
    for j, a in enumerate(pairs):
        row = table[a]
        partial = base + 2 * UNIT[a]
        out += [row[b] or _wing_text(row, partial, b, 2, tkey, rank) for b in pairs[j + 1 :]]


def _plane_wings(kind, c, length, start, top, packed, out):
    """Every airplane of ``kind`` (single or pair wings) on the trios
    ``packed`` of ranks ``start..top`` in hand ``c``."""
    tkey = typekey(kind, length)
    if kind == PLANE1:
        if length == 2:
            others = [r for r in range(NRANKS) if c[r] and not start <= r <= top]
            return _two_singles(c, others, packed, tkey, top, out)
        wings = _single_wings(c, start, top, length)
    else:
        pairs = [r for r in range(13) if c[r] >= 2 and not start <= r <= top]
        if length == 2:
            return _two_pairs(pairs, packed, tkey, top, out)
        wings = [sum(2 * UNIT[r] for r in combo) for combo in combinations(pairs, length)]
    _emit([packed + w for w in wings], tkey, top, out)


def _gen_plane_wings(kind):
    table = PLANE1_T if kind == PLANE1 else PLANE2_T

    def gen(c, length, lo, out):
        m3 = _masks(c)[2]
        for start, top, mask, packed, _ in table[length]:
            if top > lo and m3 & mask == mask:
                _plane_wings(kind, c, length, start, top, packed, out)

    return gen


def _gen_four2(c, length, lo, out):
    tk = typekey(FOUR2)
    for f in range(lo + 1, 13):
        if c[f] == 4:
            others = [r for r in range(NRANKS) if c[r] and r != f]
            _two_singles(c, others, 4 * UNIT[f], tk, f, out)


def _gen_four22(c, length, lo, out):
    tk = typekey(FOUR22)
    for f in range(lo + 1, 13):
        if c[f] == 4:
            pairs = [r for r in range(13) if c[r] >= 2 and r != f]
            _two_pairs(pairs, 4 * UNIT[f], tk, f, out)


def _gen_bomb(c, length, lo, out):
    out += [BOMBS_S[r] for r in range(lo + 1, 13) if c[r] == 4]


def _gen_rocket(c, length, lo, out):
    if c[SMALL_JOKER] and c[BIG_JOKER]:
        out.append(ROCKET_S)


GENERATORS = {
    SOLO: _gen_solo,
    PAIR: _gen_pair,
    TRIO: _gen_trio,
    TRIO1: _gen_trio1,
    TRIO2: _gen_trio2,
    STRAIGHT: _gen_chain(STRAIGHT_T, 0),
    PAIRS: _gen_chain(PAIRS_T, 1),
    PLANE: _gen_chain(PLANE_T, 2),
    PLANE1: _gen_plane_wings(PLANE1),
    PLANE2: _gen_plane_wings(PLANE2),
    FOUR2: _gen_four2,
    FOUR22: _gen_four22,
    BOMB: _gen_bomb,
    ROCKET: _gen_rocket,
}


def plays_of_kind(c, kind: int, length: int = 1, lo: int = -1) -> list[str]:
    """Every play of ``kind``/``length`` in hand ``c`` whose core rank is above ``lo``."""
    out: list[str] = []
    GENERATORS[kind](c, length, lo, out)
    return out


_CHAINS_BY_START: tuple[dict, dict, dict] = ({}, {}, {})
_SHORTEST = (MIN_CHAIN[STRAIGHT], MIN_CHAIN[PAIRS], MIN_CHAIN[PLANE])


#: ``_chains`` by its ``bits`` (a plane of the ranks 3..A: at most 4,096 keys
#: each), in front of the memo by chain starts, which shares the tuples
_CHAINS_OF_BITS: tuple[dict, dict, dict] = ({}, {}, {})


def _chains(which, table, bits):
    """Straights (0), pair straights (1) or plain airplanes (2) present in
    ``bits``, bit plane ``which`` of a hand (see :func:`planes_of`) masked to
    the ranks 3..A (asked at every lead: one lookup when seen before)."""
    memo = _CHAINS_OF_BITS[which]
    got = memo.get(bits)
    if got is None:
        got = memo[bits] = _chains_by_start(which, table, bits)
    return got


def _chains_by_start(which, table, bits):
    """:func:`_chains` computed.  The answer depends only on where the
    shortest chains start (a chain of length L at s is there iff the
    shortest ones at s..s+L-shortest are), so that is this memo's key:
    hands that differ elsewhere share one entry, and most hands have none."""
    if which == 0:  # 5 in a row
        starts = bits & bits >> 4 & bits >> 8 & bits >> 12 & bits >> 16
    elif which == 1:  # 3 in a row
        starts = bits & bits >> 4 & bits >> 8
    else:  # 2 in a row
        starts = bits & bits >> 4
    if not starts:
        return ()
    memo = _CHAINS_BY_START[which]
    got = memo.get(starts)
    if got is None:
        m = 0
        for r in range(12):
            if starts >> (4 * r + which) & 1:
                m |= ((1 << _SHORTEST[which]) - 1) << r
        got = memo[starts] = tuple(
            text for rows in table.values() for _, _, mask, _, text in rows if m & mask == mask
        )
    return got


def lead_moves(c) -> list[str]:
    """Every valid play from hand counts ``c`` (no pass: the leader must play).

    Order: singles, pairs, trios, trio+single, trio+pair, straights,
    pair straights, airplanes (plain, single wings, pair wings),
    four+two singles, four+two pairs, bombs, rocket."""
    out: list[str] = []
    pairs = []
    trios = []
    fours = False
    m1 = m2 = m3 = 0
    for r in range(12):
        n = c[r]
        if n:
            out.append(SOLOS[r])
            bit = 1 << (4 * r)
            m1 |= bit
            if n >= 2:
                m2 |= bit << 1
                pairs.append(r)
                if n >= 3:
                    m3 |= bit << 2
                    trios.append(r)
                    if n == 4:
                        fours = True
    n = c[TWO]
    if n:
        out.append(SOLOS[TWO])
        if n >= 2:
            pairs.append(TWO)
            if n >= 3:
                trios.append(TWO)
                if n == 4:
                    fours = True
    jokers = c[SMALL_JOKER] + c[BIG_JOKER]
    if c[SMALL_JOKER]:
        out.append(SOLOS[SMALL_JOKER])
    if c[BIG_JOKER]:
        out.append(SOLOS[BIG_JOKER])
    for r in pairs:
        out.append(PAIRS_S[r])
    if trios:
        for t in trios:
            out.append(TRIOS_S[t])
        _gen_trio1(c, 1, -1, out)
        _gen_trio2(c, 1, -1, out)
    if m1:
        out.extend(_chains(0, STRAIGHT_T, m1))
        if m2:
            out.extend(_chains(1, PAIRS_T, m2))
            if m3 & (m3 >> 4):  # two adjacent trios somewhere
                out.extend(_chains(2, PLANE_T, m3))
                for kind in (PLANE1, PLANE2):
                    gen = GENERATORS[kind]
                    for length in range(2, min(MAX_CHAIN[kind], len(trios)) + 1):
                        gen(c, length, -1, out)
    if fours:
        _gen_four2(c, 1, -1, out)
        _gen_four22(c, 1, -1, out)
        _gen_bomb(c, 1, -1, out)
    if jokers == 2:
        out.append(ROCKET_S)
    return out


_P0 = _plane(0, range(NRANKS))
_P1 = _plane(1, range(13))
_P2 = _plane(2, range(13))
_P0_CHAIN = _plane(0, range(12))
_P1_CHAIN = _plane(1, range(12))
_P2_CHAIN = _plane(2, range(12))
_P3 = _plane(3, range(13))


def _by_halves(k: int, strings: list[str]) -> tuple[dict, dict]:
    """For the ranks 3..T and J.. separately: bit plane ``k`` of a set of
    those ranks -> the set's ``strings`` (by rank) in rank order.  A hand's
    singles (k=0) or pairs (k=1) are then two lookups and a concatenation;
    256 + 128 entries, built at import rank by rank (each rank doubles
    the table: every set so far, with and without it), a fifth of the cost
    of building each set from its ranks."""
    halves = []
    for ranks in (range(0, 8), range(8, len(strings))):
        table: dict[int, tuple[str, ...]] = {0: ()}
        for r in ranks:
            bit = 1 << (4 * r + k)
            text = strings[r]
            table.update([(key | bit, got + (text,)) for key, got in table.items()])
        halves.append(table)
    return halves[0], halves[1]


_SOLO_LOW, _SOLO_HIGH = _by_halves(0, SOLOS)
_PAIR_LOW, _PAIR_HIGH = _by_halves(1, PAIRS_S)
_P0_LOW = _plane(0, range(8))
_P0_HIGH = _plane(0, range(8, NRANKS))
_P1_LOW = _plane(1, range(8))
_P1_HIGH = _plane(1, range(8, 13))
_MEMO: tuple[dict, ...] = ({}, {})
#: entries per ``_MEMO`` table before it is cleared (as the move caches
#: below are)
MEMO_LIMIT = 50_000


def _memo_put(table: dict, key: int, value: tuple) -> tuple:
    """Store ``value`` in one ``_MEMO`` table, clearing it first when full."""
    if len(table) >= MEMO_LIMIT:
        table.clear()
    table[key] = value
    return value


def _bits(plane_bits, k):
    """Ranks whose bit is set in plane ``k`` of ``plane_bits``."""
    return [r for r in range(NRANKS) if plane_bits >> (4 * r + k) & 1]


_PLANE_CORES: dict[int, tuple] = {}


def _plane_cores(bits):
    """The airplane cores ``(length, start, top, packed trios)`` present in
    ``bits`` (plane 2 of the ranks 3..A), by length then start: the order
    in which the wing generators walk their tables.  Memoised by ``bits``
    (at most 4,096 keys), so a lead with an airplane scans no table."""
    got = _PLANE_CORES.get(bits)
    if got is None:
        m = sum(1 << r for r in range(12) if bits >> (4 * r + 2) & 1)
        got = _PLANE_CORES[bits] = tuple(
            (length, start, top, packed)
            for length, rows in PLANE_T.items()
            for start, top, mask, packed, _ in rows
            if m & mask == mask
        )
    return got


def lead_moves_fast(packed: int, c) -> list[str]:
    """:func:`lead_moves` (same list, same order) assembled from pieces
    memoised by the bit planes that decide them: the singles depend only on
    which ranks are present, the trio + single forms only on the trios and
    the present ranks, and so on -- pieces that random hands share often."""
    planes = planes_of(packed)
    p0 = planes & _P0
    p1 = planes & _P1
    p2 = planes & _P2
    memo = _MEMO
    out = [*_SOLO_LOW[p0 & _P0_LOW], *_SOLO_HIGH[p0 & _P0_HIGH]]
    if p1:
        out += _PAIR_LOW[p1 & _P1_LOW]
        out += _PAIR_HIGH[p1 & _P1_HIGH]
        if p2:
            key = p2 | p0
            got = memo[0].get(key)
            if got is None:
                piece = [TRIOS_S[r] for r in _bits(p2, 2)]
                _gen_trio1(c, 1, -1, piece)
                got = _memo_put(memo[0], key, tuple(piece))
            out.extend(got)
            key = p2 | p1
            got = memo[1].get(key)
            if got is None:
                piece = []
                _gen_trio2(c, 1, -1, piece)
                got = _memo_put(memo[1], key, tuple(piece))
            out.extend(got)
    out.extend(_chains(0, STRAIGHT_T, p0 & _P0_CHAIN))
    out.extend(_chains(1, PAIRS_T, p1 & _P1_CHAIN))
    p2c = p2 & _P2_CHAIN
    if p2c & (p2c >> 4):  # two adjacent trios: airplanes
        out.extend(_chains(2, PLANE_T, p2c))
        cores = _plane_cores(p2c)
        for kind in (PLANE1, PLANE2):
            longest = MAX_CHAIN[kind]
            for length, start, top, trios in cores:
                if length > longest:
                    break
                _plane_wings(kind, c, length, start, top, trios, out)
    if planes & _P3:
        _gen_four2(c, 1, -1, out)
        _gen_four22(c, 1, -1, out)
        _gen_bomb(c, 1, -1, out)
    if c[SMALL_JOKER] and c[BIG_JOKER]:
        out.append(ROCKET_S)
    return out


def follow_moves(c, info, packed: int = -1) -> list[str]:
    """Plays from ``c`` that beat the play ``info`` (pass not included);
    ``packed`` (the same hand packed) lets it skip looking for bombs."""
    tkey, rank, _, _, bomb, _ = info
    out: list[str] = []
    if bomb == 2:
        return out
    if bomb == 1:
        _gen_bomb(c, 1, rank, out)
    else:
        GENERATORS[tkey >> 5](c, tkey & 31, rank, out)
        if packed & FOURS:
            _gen_bomb(c, 1, -1, out)
    if c[SMALL_JOKER] and c[BIG_JOKER]:
        out.append(ROCKET_S)
    return out


def beats(info, prev) -> bool:
    """Whether play ``info`` may follow play ``prev``."""
    if info[4] == 2:
        return True
    if prev[4] == 2:
        return False
    if info[4] == 1:
        return prev[4] == 0 or info[1] > prev[1]
    if prev[4] == 1:
        return False
    return info[0] == prev[0] and info[1] > prev[1]


# ---------------------------------------------------------------- caches
# The cached answers are tuples: a tuple of strings is untracked by the
# garbage collector once it has seen it, where hundreds of thousands of
# cached lists were traversed again by every full collection (a seventh of
# a random game's time, against a twentieth with tuples).
_LEAD_CACHE: dict[int, tuple[str, ...]] = {}
_FOLLOW_CACHE: dict[int, tuple[str, ...]] = {}
CACHE_LIMIT = 200_000


def legal_lead(packed: int, c) -> tuple[str, ...]:
    """:func:`lead_moves_fast` of the hand, from the cache (shared: never
    change it)."""
    moves = _LEAD_CACHE.get(packed)
    if moves is None:
        if len(_LEAD_CACHE) >= CACHE_LIMIT:
            _LEAD_CACHE.clear()
        moves = _LEAD_CACHE[packed] = tuple(lead_moves_fast(packed, c))
    return moves


def legal_follow(packed: int, c, info, planes: int | None = None) -> tuple[str, ...]:
    """``"pass"`` and the :func:`follow_moves` of the hand against ``info``,
    from the cache (shared: never change it).  ``planes``, the hand's
    :func:`planes_of` when the caller keeps them (the game does, per seat:
    a hand faces three follows on average between changes, and the planes
    were most of the cost of a cached answer)."""
    if planes is None:
        planes = planes_of(packed)
    # an int key, which is cheaper to build and to hash than a tuple and
    # never tracked by the garbage collector
    key = (planes | ABOVE) & info[5]
    moves = _FOLLOW_CACHE.get(key)
    if moves is None:
        if len(_FOLLOW_CACHE) >= CACHE_LIMIT:
            _FOLLOW_CACHE.clear()
        moves = _FOLLOW_CACHE[key] = ("pass", *follow_moves(c, info, packed))
    return moves


def cached_follow(packed: int, c, info) -> list[str]:
    """:func:`legal_follow` as a list of the caller's own."""
    return list(legal_follow(packed, c, info))


# ---------------------------------------------------------------- classify


def readings(text: str) -> list[tuple]:
    """Every (kind, length, rank) reading of a card string under the rules:
    a reference classifier, independent of the generator (used by tests and to
    explain illegal strings).  Valid plays have exactly one reading."""
    c = counts_of(text)
    n = len(text)
    found = []
    ranks = [r for r in range(NRANKS) if c[r]]
    if n == 1:
        found.append((SOLO, 1, ranks[0]))
    if n == 2 and len(ranks) == 1 and ranks[0] < 13:
        found.append((PAIR, 1, ranks[0]))
    if n == 2 and c[SMALL_JOKER] and c[BIG_JOKER]:
        found.append((ROCKET, 1, BIG_JOKER))
    if n == 3 and len(ranks) == 1:
        found.append((TRIO, 1, ranks[0]))
    if n == 4 and len(ranks) == 1:
        found.append((BOMB, 1, ranks[0]))
    for t in range(13):
        if c[t] >= 3:
            rest = c[:]
            rest[t] -= 3
            if n == 4 and rest[t] == 0:
                found.append((TRIO1, 1, t))
            if n == 5 and rest[t] == 0 and any(rest[k] == 2 and k < 13 for k in range(NRANKS)):
                found.append((TRIO2, 1, t))
        if c[t] == 4:
            rest = c[:]
            rest[t] = 0
            kick = [r for r in range(NRANKS) if rest[r]]
            if n == 6 and not (rest[SMALL_JOKER] and rest[BIG_JOKER]):
                found.append((FOUR2, 1, t))
            if n == 8 and len(kick) == 2 and all(rest[r] == 2 and r < 13 for r in kick):
                found.append((FOUR22, 1, t))
    # chains: every window of consecutive ranks in 3..A
    for start in range(12):
        for top in range(start, 12):
            length = top - start + 1
            window = range(start, top + 1)
            if (
                all(c[r] >= 1 for r in window)
                and length >= 5
                and n == length
                and all(c[r] == 1 for r in window)
            ):
                found.append((STRAIGHT, length, top))
            if length >= 3 and n == 2 * length and all(c[r] == 2 for r in window):
                found.append((PAIRS, length, top))
            if length >= 2 and all(c[r] >= 3 for r in window):
                rest = c[:]
                for r in window:
                    rest[r] -= 3
                wing_n = n - 3 * length
                if wing_n == 0:
                    found.append((PLANE, length, top))
                elif wing_n == length:
                    ok = (
                        all(rest[r] == 0 for r in window)
                        and all(v <= 2 for v in rest)
                        and not (rest[SMALL_JOKER] and rest[BIG_JOKER])
                    )
                    if ok:
                        found.append((PLANE1, length, top))
                elif wing_n == 2 * length:
                    wing_ranks = [r for r in range(NRANKS) if rest[r]]
                    ok = (
                        all(rest[r] == 0 for r in window)
                        and len(wing_ranks) == length
                        and all(rest[r] == 2 and r < 13 for r in wing_ranks)
                    )
                    if ok:
                        found.append((PLANE2, length, top))
    return found


def info_of(text: str):
    """The Info tuple of a valid play string (registering it on first sight),
    or None for a string that is not exactly one valid combination."""
    info = INFO.get(text)
    if info is None:
        if not isinstance(text, str) or not text or any(ch not in RANK_INDEX for ch in text):
            return None
        counts = counts_of(text)
        if sum(counts) != len(text) or any(n > (4 if r < 13 else 1) for r, n in enumerate(counts)):
            return None
        if text in lead_moves(counts):
            info = INFO[text]
    return info
