"""Perft against published leaf counts (reference §6: DCTL, Bik, Halbersma, kish).

Shallow depths only; benchmarks/bench_perft.py checks deeper counts.
"""

import pytest

from test_fast_plies import COMPILED, PURE

from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.movegen import MAX_PERFT_DEPTH, Position, divide, perft
from pdn_tools.rules.variants import VARIANTS

# (variant, keep duplicates, counts from depth 1) - the initial position of each variant.
INITIAL = [
    ("international", False, [9, 81, 658, 4265, 27117, 167140]),
    ("international", True, [9, 81, 658, 4265, 27117, 167140]),
    ("english", True, [7, 49, 302, 1469, 7361, 36768, 179740]),
    ("russian", True, [7, 49, 302, 1469, 7482, 37986, 190146]),
    ("brazilian", True, [7, 49, 302, 1469, 7473, 37628, 187302]),
    ("pool", True, [7, 49, 302, 1469, 7482, 37986, 190146]),
    ("czech", True, [7, 49, 302, 1469, 7361, 36768, 179740]),
    ("spanish", True, [7, 49, 302, 1469, 7361, 36473, 177532]),
    ("portuguese", True, [7, 49, 302, 1469, 7361, 36473]),  # same rules and layout as Spanish
    ("italian", True, [7, 49, 302, 1469, 7361, 36473, 177532]),
    ("canadian", False, [11, 121, 1222, 10053, 79049]),
    ("frisian", False, [9, 81, 658, 3874, 21265]),
    ("frisian", True, [9, 81, 658, 3880, 21345]),
    ("turkish", False, [8, 64, 708, 7538, 85090]),
]


@pytest.mark.parametrize("name, keep, counts", INITIAL, ids=lambda x: str(x)[:20])
def test_initial_positions(name, keep, counts):
    pos = Position.initial(VARIANTS[name])
    assert [perft(pos, d, keep) for d in range(1, len(counts) + 1)] == counts


# (variant, FEN, keep duplicates, counts from depth 1).
POSITIONS = [
    # DCTL international/fmjd.cpp (FMJD forum perft thread), drop.
    ("international", "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46", False,
     [14, 55, 1168, 5432]),
    ("international", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", False,
     [6, 12, 30, 73, 215, 590, 1944, 6269, 22369]),  # Woldouby
    ("international", "W:W" + ",".join(f"K{i}" for i in range(31, 51))
     + ":B" + ",".join(f"K{i}" for i in range(1, 21)), False, [17, 79, 352, 1399, 7062]),
    ("international", "W:W6,7,8,9,10:B41,42,43,44,45", False, [9, 81, 795, 7578, 86351]),
    # DCTL international/shashki.cpp, keep.
    ("international", "W:B16,17,18,19,20:W31,32,33,34,35", True,
     [9, 81, 534, 2538, 9052, 29999, 98971]),
    # Ed Gilbert's Italian positions (DCTL italian/gilbert.cpp), keep.
    ("italian", "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3", True,
     [5, 13, 42, 107, 360, 1099, 3736, 12495]),
    ("italian", "B:W30,21,22,17,20,K6:B25,28,9,5,1,3", True, [6, 47, 271, 1916, 10810]),
    ("italian", "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4", True,
     [13, 112, 828, 6756, 46241]),
    # DCTL's Thai perft starts from 12 men a side (reference §6 note); Thai numbers 1=g1.
    ("thai", "B:W1-12:B21-32", True, [7, 49, 302, 1469, 7361, 36768]),
]


@pytest.mark.parametrize("name, fen, keep, counts", POSITIONS, ids=lambda x: str(x)[:24])
def test_published_positions(name, fen, keep, counts):
    pos = parse_fen(VARIANTS[name], fen)
    assert [perft(pos, d, keep) for d in range(1, len(counts) + 1)] == counts


def test_thai_initial_position_moves():
    """Thai's real start (8 men each, Black first): 4 + 3 forward steps from the second row."""
    pos = Position.initial(VARIANTS["thai"])
    assert pos.turn == "B"
    assert perft(pos, 1) == 7


def test_depth_zero_and_divide():
    pos = Position.initial(VARIANTS["international"])
    assert perft(pos, 0) == 1
    parts = divide(pos, 3)
    assert len(parts) == 9
    assert sum(n for _, n in parts) == 658
    with pytest.raises(ValueError, match="divide: a depth of at least 1, not 0"):
        divide(pos, 0)                      # it counted the moves, as depth 1


def test_drop_and_keep_differ_on_circular_capture():
    """§5: the two orders of the same circular capture are one move under "drop"
    (both end on 38); the orders ending on 42, 47 and on 43, 49 differ in their end square."""
    pos = parse_fen(VARIANTS["international"], "W:WK38:B18,19,32,33")
    assert perft(pos, 1, keep_duplicates=True) == 6
    assert perft(pos, 1) == 5


def test_turkish_straight_stretch_is_one_move_where_kish_counts_two():
    """docs/commands/perft.md: a king going on in the same direction after a capture does so from the
    square directly behind the piece; kish (reference §6) also counts a1xa5xa7 and a1xa5xa8
    here, which is why its Turkish d7 is 10,782,382 and ours 10,782,308."""
    pos = parse_fen(VARIANTS["turkish"], "W:WKa1:Ba3,a6")
    assert sorted(VARIANTS["turkish"].square_text(m.path[0]) for m in pos.legal_moves()) == ["a4", "a4"]
    assert sorted(VARIANTS["turkish"].square_text(m.end) for m in pos.legal_moves()) == ["a7", "a8"]
    assert perft(pos, 1) == perft(pos, 1, keep_duplicates=True) == 2


@pytest.mark.parametrize("engine", [COMPILED, PURE], ids=["compiled", "pure"])
def test_a_depth_past_the_deepest_or_not_a_whole_number_is_refused_alike_on_both_engines(engine):
    """perft and divide count to MAX_PERFT_DEPTH plies on either engine (the compiled core's
    working room): deeper raised 'perft depth must be below 64' on the compiled engine (a traceback
    from `pdn perft`) and RecursionError on the pure one; a float recursed without end on the pure
    one.  Now the same ValueError or TypeError, naming the bound, on both."""
    stuck = Position.from_fen(VARIANTS["english"], "W:W:B", engine)        # no move: any depth is instant
    assert perft(stuck, MAX_PERFT_DEPTH) == 0
    for depth in (MAX_PERFT_DEPTH + 1, 2000, 10 ** 30):
        for count in (perft, divide):
            with pytest.raises(ValueError, match=f"a depth of at most {MAX_PERFT_DEPTH}, not {depth}"):
                count(stuck, depth)
    for depth in (2.5, "3", None):
        for count in (perft, divide):
            with pytest.raises(TypeError, match="depth must be an int"):
                count(stuck, depth)


# (variant, depth, keep, drop): the first depth where the two duplicate policies part (reference §6).
PARTING = [
    pytest.param("international", 8, 6483971, 6483961, marks=pytest.mark.slow),     # 15 s on the pure engine
    ("russian", 8, 929905, 929899),
    ("brazilian", 8, 907836, 907830),
    ("pool", 8, 929902, 929896),
]


@pytest.mark.parametrize("name, depth, keep, drop", PARTING, ids=lambda x: str(x))
def test_keep_and_drop_part_where_the_published_counts_do(name, depth, keep, drop):
    """INITIAL checks one policy a variant, at depths where both agree; here both, where they part."""
    position = Position.initial(VARIANTS[name])
    assert (perft(position, depth, True), perft(position, depth, False)) == (keep, drop)
