"""Variant table: GameType numbers, names and square numbering (reference §2.2, §3)."""

import dataclasses
from pathlib import Path

import pytest

from pdn_tools.rules import laws
from pdn_tools.rules.draws import DrawRules
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import (VARIANTS, Hint, PerVariant, inferred_variants, lidraughts_variant, variant_by_gametype,
                                      variant_by_name)
from pdn_tools.text.results import RESULTS, Outcome

TESTS = Path(__file__).resolve().parent

GAMETYPES = {
    "international": 20, "english": 21, "italian": 22, "pool": 23, "spanish": 24, "russian": 25,
    "brazilian": 26, "canadian": 27, "portuguese": 28, "czech": 29, "turkish": 30, "thai": 31,
    "frisian": 40,
}


@pytest.mark.parametrize("name, number", GAMETYPES.items())
def test_gametype_lookup(name, number):
    assert VARIANTS[name].gametype == number
    assert variant_by_gametype(number) is VARIANTS[name]
    assert variant_by_name(str(number)) is VARIANTS[name]
    assert variant_by_name(name.upper()) is VARIANTS[name]


@pytest.mark.parametrize("alias, name", [
    ("american", "english"), ("Checkers", "english"), ("english draughts", "english"),
    ("American Pool", "pool"), ("russian draughts", "russian"), ("  20 ", "international"),
])
def test_aliases(alias, name):
    assert variant_by_name(alias) is VARIANTS[name]


def test_unknown_names():
    assert variant_by_name("chess") is None
    assert variant_by_name("99") is None
    assert variant_by_gametype(0) is None


def test_first_player_and_notation():
    """§2.2: English, pool and Thai start with Black; Russian, Brazilian, Czech, Turkish are A0."""
    firsts = {name: v.first for name, v in VARIANTS.items()}
    assert {n for n, f in firsts.items() if f == "B"} == {"english", "pool", "thai"}
    alpha = {name for name, v in VARIANTS.items() if v.alpha}
    assert alpha == {"russian", "brazilian", "czech", "turkish"}


# (variant, square number, algebraic name in the White-at-bottom view): reference §3.1 table.
NUMBERING = [
    ("international", 1, "b10"), ("international", 5, "j10"), ("international", 6, "a9"),
    ("international", 45, "j2"), ("international", 46, "a1"), ("international", 50, "i1"),
    ("frisian", 46, "a1"),
    ("canadian", 1, "b12"), ("canadian", 6, "l12"), ("canadian", 7, "a11"),
    ("canadian", 67, "a1"), ("canadian", 72, "k1"),
    ("english", 1, "b8"), ("english", 4, "h8"), ("english", 5, "a7"), ("english", 29, "a1"),
    ("english", 32, "g1"), ("pool", 22, "c3"),
    ("italian", 1, "a8"), ("italian", 2, "c8"), ("italian", 5, "b7"), ("italian", 29, "b1"),
    ("italian", 32, "h1"),
    ("spanish", 1, "h1"), ("spanish", 2, "f1"), ("spanish", 5, "g2"), ("spanish", 29, "g8"),
    ("spanish", 32, "a8"), ("portuguese", 1, "h1"),
    ("thai", 1, "g1"), ("thai", 4, "a1"), ("thai", 5, "h2"), ("thai", 32, "b8"),
    ("russian", 1, "b8"), ("russian", 22, "c3"), ("russian", 29, "a1"), ("russian", 32, "g1"),
    ("brazilian", 22, "c3"), ("czech", 18, "d4"),
    ("turkish", 1, "a8"), ("turkish", 8, "h8"), ("turkish", 57, "a1"), ("turkish", 64, "h1"),
]


def white_view(v, name: str) -> tuple[int, int]:
    """(row, col) of an algebraic name read with White at the bottom (row 0 = top)."""
    return v.rows - int(name[1:]), ord(name[0]) - ord("a")


@pytest.mark.parametrize("name, number, algebraic", NUMBERING)
def test_numbering(name, number, algebraic):
    v = VARIANTS[name]
    assert v.coords(number) == white_view(v, algebraic)
    assert v.square_text(number, alpha=False) == str(number)
    if v.first == "W":       # there the notation's a1 is White's near left
        assert v.parse_square(algebraic) == number
        assert v.parse_square(algebraic.upper()) == number
        assert v.square_text(number, alpha=True) == algebraic


@pytest.mark.parametrize("name", ["english", "pool", "thai"])
def test_algebraic_names_are_read_from_the_first_players_seat(name):
    # The GameType tester puts a1 at the starting player's near left (digit 0 of A0);
    # real files agree: playstrategy's English games open with Black's c3-d4 = 11-15.
    v = VARIANTS[name]
    for number in range(1, 33):
        row, col = v.coords(number)
        name_ = v.square_text(number, alpha=True)
        assert name_ == f"{chr(ord('a') + 7 - col)}{row + 1}"
        assert v.parse_square(name_) == number


def test_english_opening_in_algebraic():
    v = VARIANTS["english"]
    assert (v.parse_square("c3"), v.parse_square("d4")) == (11, 15)


def test_full_21_geometry_table():
    """§3.2: the 1=b8 ... 32=g1 table shared by English and numeric Russian."""
    table = ("b8 d8 f8 h8 a7 c7 e7 g7 b6 d6 f6 h6 a5 c5 e5 g5 b4 d4 f4 h4 "
             "a3 c3 e3 g3 b2 d2 f2 h2 a1 c1 e1 g1").split()
    assert [VARIANTS["russian"].square_text(n, alpha=True) for n in range(1, 33)] == table
    english = VARIANTS["english"]
    assert [english.coords(n) for n in range(1, 33)] == [white_view(english, t) for t in table]


def test_default_notation():
    assert VARIANTS["russian"].square_text(22) == "c3"
    assert VARIANTS["international"].square_text(22) == "22"


@pytest.mark.parametrize("name", VARIANTS)
def test_numbers_round_trip(name):
    v = VARIANTS[name]
    seen = set()
    for n in range(1, v.num_squares + 1):
        text = v.square_text(n, alpha=True)
        assert v.parse_square(text) == n
        assert v.parse_square(str(n)) == n
        seen.add(v.coords(n))
    assert len(seen) == v.num_squares


@pytest.mark.parametrize("text", ["0", "33", "a2", "b1", "i1", "a9", "a0", "a01", "", "x", "3a"])
def test_unplayable_squares_on_8x8(text):
    assert VARIANTS["russian"].parse_square(text) is None


def test_zero_padded_and_wide_boards():
    assert VARIANTS["english"].parse_square("07") == 7
    assert VARIANTS["international"].parse_square("j10") == 5
    assert VARIANTS["canadian"].parse_square("l12") == 6
    assert VARIANTS["international"].parse_square("k1") is None
    assert VARIANTS["spanish"].parse_square("a1") is None  # a1 is light in Spanish


START = {
    "international": (range(31, 51), range(1, 21)),
    "frisian": (range(31, 51), range(1, 21)),
    "canadian": (range(43, 73), range(1, 31)),
    "english": (range(21, 33), range(1, 13)),
    "pool": (range(21, 33), range(1, 13)),
    "italian": (range(21, 33), range(1, 13)),
    "russian": (range(21, 33), range(1, 13)),
    "brazilian": (range(21, 33), range(1, 13)),
    "czech": (range(21, 33), range(1, 13)),
    "spanish": (range(1, 13), range(21, 33)),
    "portuguese": (range(1, 13), range(21, 33)),
    "thai": (range(1, 9), range(25, 33)),
    "turkish": (range(41, 57), range(9, 25)),
}


@pytest.mark.parametrize("name, squares", START.items())
def test_start_squares(name, squares):
    """§3.1 start squares (Spanish: White on 1-12; Thai: 8 men each; Turkish ranks 2-3, 6-7)."""
    white, black = VARIANTS[name].initial_squares()
    assert white == frozenset(squares[0])
    assert black == frozenset(squares[1])


# ---- every table entry is complete ----------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=str)
def test_variant_entry_is_complete(variant):
    """Adding a variant is one entry in the table plus its rule tests: every field is set and
    consistent, and published perft counts check its move generator."""
    assert GAMETYPES[variant.name] == variant.gametype
    assert variant.first in ("W", "B") and variant.corner in (0, 1, 2, 3)
    squares = [variant.coords(n) for n in range(1, variant.num_squares + 1)]
    assert len(set(squares)) == variant.num_squares
    assert all(0 <= row < variant.rows and 0 <= col < variant.cols for row, col in squares)
    white, black = variant.initial_squares()
    assert len(white) == len(black) > 0 and not white & black
    assert Position.initial(variant).legal_moves()
    assert variant.law in laws.LAWS
    assert isinstance(variant.draws, DrawRules) and variant.draws.repetition.times == 3
    assert [RESULTS[text] for text in variant.results] == [Outcome.FIRST, Outcome.SECOND, Outcome.DRAW]
    for hint, rank in variant.inferred:
        assert inferred_variants(hint)[rank - 1] is variant
    for entry in variant.lidraughts:
        assert lidraughts_variant(entry.number) == (variant, entry)
    assert variant_by_name(variant.name) is variant
    assert all(variant_by_name(alias) is variant for alias in variant.aliases)
    assert f'"{variant.name}"' in (TESTS / "test_perft.py").read_text(encoding="utf-8")


def test_inference_orders():
    """Games without GameType (reference §2.3): the candidates in the order they are tried."""
    names = {hint: [v.name for v in inferred_variants(hint)] for hint in
             (Hint(32, False), Hint(32, True), Hint(50, False), Hint(72, False))}
    assert names == {Hint(32, False): ["english", "international", "italian", "spanish", "pool"],
                     Hint(32, True): ["russian", "brazilian", "czech", "pool"],
                     Hint(50, False): ["international", "frisian"], Hint(72, False): ["canadian"]}


def test_variant_is_keyword_only_and_derives_its_square_count():
    with pytest.raises(TypeError):
        type(VARIANTS["english"])("x", 99, 8, 8, "W", False, 2, False)     # type: ignore[misc]
    assert [v.num_squares for v in VARIANTS.values()] == [50, 32, 32, 32, 32, 32, 32, 72, 32, 32, 64, 32, 50]


def test_per_variant_makes_once_for_that_very_variant():
    """Kept by the variant's identity: the same variant and key are made once; a variant of the same name
    (a library user's, dataclasses.replace) gets its own; when `most` are kept, all are dropped."""
    made = []
    kept = PerVariant(lambda variant, key: made.append((variant.name, key)) or f"{variant.name}/{key}", most=3)
    english = VARIANTS["english"]
    own = dataclasses.replace(VARIANTS["international"], name="english")
    assert [kept.get(english, 1), kept.get(english, 1), kept.get(own, 1), kept.get(english, 2)] == \
        ["english/1", "english/1", "english/1", "english/2"]
    assert made == [("english", 1), ("english", 1), ("english", 2)]
    assert kept.get(own, 1) == "english/1" and len(made) == 3          # both kept: two makes of one name
    kept.get(english, 3)                                                  # a fourth: the three dropped first
    kept.get(english, 1)
    assert made[-2:] == [("english", 3), ("english", 1)]
