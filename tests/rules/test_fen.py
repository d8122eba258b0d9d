"""FEN reading and writing (reference §2.1)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corpus import CORPUS, needs_corpus
from pdn_tools.rules.fen import FenError, _common_fen, _scanned_fen, parse_fen, read_fen, to_fen
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import VARIANTS

INTL = VARIANTS["international"]
RUSSIAN = VARIANTS["russian"]


def test_initial_position_with_ranges():
    pos = parse_fen(INTL, "W:W31-50:B1-20")
    assert pos == Position.initial(INTL)
    assert pos.turn == "W"


def test_king_on_range_and_single_squares():
    pos = parse_fen(INTL, "W:W31-35,K12:B1,2")
    assert pos.pieces("W") == (frozenset(range(31, 36)), frozenset({12}))
    pos = parse_fen(INTL, "B:WK31-33,40:B1")
    assert pos.pieces("W") == (frozenset({40}), frozenset({31, 32, 33}))
    assert pos.turn == "B"


def test_black_section_first_and_k_after_colour():
    """Real-world forms (gem.pdn, DCTL tests): `BK17` and Black listed first."""
    pos = parse_fen(INTL, "B:BK17,K24:W6,9,K31")
    assert pos.piece_at(17) == "B"
    assert pos.piece_at(24) == "B"
    assert pos.piece_at(9) == "w"
    assert pos.piece_at(31) == "W"


@pytest.mark.parametrize("text", [
    "W:W31,32:B1,2.",  # trailing dot (Cat.A1.pdn)
    "  W:W31,32:B1,2  ",  # spaces around
    "W : W31 , 32 : B1 , 2",  # blanks between tokens
    "W:W31,32:B1,2:H0:F1",  # lidraughts clock fields
    "W:B1,2:W31,32",  # either section order
    "W:W32,31:B02,1",  # any order, zero-padded squares
])
def test_tolerated_forms(text):
    assert to_fen(parse_fen(INTL, text)) == "W:W31,32:B1,2"


def test_empty_side():
    pos = parse_fen(INTL, "W:W:B1")
    assert pos.counts("W") == (0, 0)
    assert pos.counts("B") == (1, 0)
    assert to_fen(pos) == "W:W:B1"


@pytest.mark.parametrize("text", ["W::", "W::.", "B::", "W::B1"])
def test_empty_sections_without_a_colour(text):
    """PDN 3.0 FEN: `W::` (bridges.pdn game 14, `W::.`) is a board with no pieces; the side to
    move has no move."""
    pos = parse_fen(INTL, text)
    assert pos.counts("W") == (0, 0) and not pos.has_move()
    assert to_fen(pos) == f"{text[0]}:W:B" + ("1" if text.endswith("B1") else "")


def test_unknown_side_to_move_is_the_first_player():
    assert parse_fen(INTL, "?:W29,13,11:B22,4,2").turn == "W"
    assert parse_fen(VARIANTS["english"], "?:W29:B2").turn == "B"


def test_algebraic_squares():
    pos = parse_fen(RUSSIAN, "W:Wc3,e3,Kd2:Bd6")
    assert pos.piece_at(22) == "w"  # c3 = 22 in the 1=b8 geometry (§3.2)
    assert pos.piece_at(RUSSIAN.parse_square("d2")) == "W"
    assert to_fen(pos, alpha=True) == "W:Wc3,e3,Kd2:Bd6"
    assert to_fen(pos, alpha=False) == "W:W22,23,K26:B10"
    assert to_fen(pos) == "W:Wc3,e3,Kd2:Bd6"          # the variant's own notation


def test_numeric_fen_for_alpha_variant():
    """ussr1947.pdn: a numeric Russian FEN puts White on 21-32 (ranks 1-3)."""
    pos = parse_fen(RUSSIAN, "W:W29,30,31,32,25,26,27,28,21,22,23,24:B9,10,11,12,5,6,7,8,1,2,3,4.")
    assert pos == Position.initial(RUSSIAN)


def test_canonical_output():
    pos = parse_fen(INTL, "W:B2,1:WK40,32,31")
    assert to_fen(pos) == "W:W31,32,K40:B1,2"


@pytest.mark.parametrize("text, column, message", [
    ("W:W31,31:B1", 6, "square 31 is given twice"),
    ("W:W31-33:B1,32", 12, "square 32 is given twice"),
    ("W:W51:B1", 3, "square 51 is not a playable square of international"),
    ("W:W0:B1", 3, "square 0 is not a playable square of international"),
    ("W:W3:B1", 3, "a white man cannot stand on its promotion row (square 3)"),
    ("W:W31:B47", 7, "a black man cannot stand on its promotion row (square 47)"),
    ("X:W31:B1", 0, "FEN must start with the side to move (W, B or ?)"),
    ("", 0, "FEN must start with the side to move (W, B or ?)"),
    ("W:W31;B1", 5, "unexpected ';' in the W section"),
    ("W:?31:B1", 2, "pieces of unknown colour '?' cannot be placed"),
    ("W:X31:B1", 2, "expected colour W or B, found 'X'"),
    ("W:W35-31:B1", 3, "range 35-31 runs backwards"),
    ("W:W31,:B1", 6, "expected a square, found ':'"),
    ("W W31", 2, "expected ':' before a colour section, found 'W'"),
])
def test_errors_name_the_problem_and_column(text, column, message):
    with pytest.raises(FenError) as info:
        parse_fen(INTL, text)
    assert info.value.message == message
    assert info.value.column == column
    assert isinstance(info.value, ValueError)


def test_range_of_algebraic_squares_is_refused():
    with pytest.raises(FenError) as info:
        parse_fen(RUSSIAN, "W:Wa1-c3:Bb8")
    assert (info.value.message, info.value.column) == ("a range needs numeric squares", 3)


@pytest.mark.parametrize("text, column, message", [
    ("W:Wc3,c3:Bd6", 6, "square c3 is given twice"),
    ("W:Wb8:Bd6", 3, "a white man cannot stand on its promotion row (square b8)"),
    ("W:W22,22:B10", 6, "square 22 is given twice"),
])
def test_errors_name_squares_as_the_fen_does(text, column, message):
    with pytest.raises(FenError) as info:
        parse_fen(RUSSIAN, text)
    assert (info.value.message, info.value.column) == (message, column)


def test_unplayable_algebraic_square():
    with pytest.raises(FenError) as info:
        parse_fen(RUSSIAN, "W:Wa2:Bb8")
    assert info.value.column == 3
    assert "a2" in info.value.message


def test_men_on_own_promotion_row_per_orientation():
    """Spanish White sits on 1-12 and is crowned on 29-32 (seed 003, rule 11)."""
    spanish = VARIANTS["spanish"]
    parse_fen(spanish, "W:W1:B32")
    with pytest.raises(FenError):
        parse_fen(spanish, "W:W29:B5")
    parse_fen(spanish, "W:WK29:B5")


@settings(max_examples=60, deadline=None)
@given(data=st.data(), name=st.sampled_from(sorted(VARIANTS)), alpha=st.booleans())
def test_round_trip(data, name, alpha):
    v = VARIANTS[name]
    squares = data.draw(st.sets(st.integers(1, v.num_squares), max_size=20))
    pieces = {}
    for sq in squares:
        piece = data.draw(st.sampled_from("wWbB"))
        row = v.coords(sq)[0]
        if piece == "w" and row == v.promotion_row("W") or piece == "b" and row == v.promotion_row("B"):
            piece = piece.upper()
        pieces[sq] = piece
    pos = Position(v, data.draw(st.sampled_from("WB")), pieces)
    text = to_fen(pos, alpha=alpha)
    assert parse_fen(v, text) == pos
    assert parse_fen(v, text) is not pos


# ---- the common FEN read by splitting (fen._common_fen) against the reader by characters -------------

def _read_or_error(read, variant, text):
    try:
        return read(variant, text)
    except FenError as error:
        return ("error", error.message, error.column)


_FEN_ITEM = st.tuples(st.sampled_from(["", "K", "K ", "k"]), st.integers(0, 75).map(str),
                      st.sampled_from(["", "-40", "-7"]))
_BLANK = st.sampled_from(["", "", " ", "\t", "\n", "\x1c", "\u3000"])


@st.composite
def _fen_like(draw):
    """A FEN as exports write them, with the slips they make: blanks anywhere, lower case, ranges,
    squares off the board or given twice, men on their promotion row, stray characters."""
    parts = [draw(_BLANK), draw(st.sampled_from("WWBBw?x")), draw(_BLANK)]
    for _ in range(draw(st.integers(0, 3))):
        parts += [":", draw(_BLANK), draw(st.sampled_from(["W", "B", "W", "B", "b", "", "H0", "?"]))]
        for index in range(draw(st.integers(0, 6))):
            king, square, rest = draw(_FEN_ITEM)
            parts += [("," if index else ""), draw(_BLANK), king, square, rest, draw(_BLANK)]
    parts += [draw(st.sampled_from(["", "", ".", ". ", "..", ":", ",", "x"]))]
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(sorted(VARIANTS)), text=st.one_of(_fen_like(), st.text("WBKk:,.-0123456789 \t\n\x1c")))
def test_the_common_fen_is_read_as_the_reader_by_characters_reads_it(name, text):
    """The split reading of a common FEN (an international one: `W:W31,32,K35:B1,2.`) gives what the
    reader by characters gives, and any other text, error or not, goes to that reader."""
    variant = VARIANTS[name]
    expected = _read_or_error(_scanned_fen, variant, text)
    assert _read_or_error(read_fen, variant, text) == expected
    common = _common_fen(variant, text)
    assert common is None or common == expected


@pytest.mark.slow
@needs_corpus
def test_the_corpus_fens_are_read_alike_both_ways():
    """Every [FEN] of the corpus's files, read as each variant, the split reading against the reader by
    characters (slow: the whole corpus is read)."""
    import re

    fens = {fen for path in CORPUS.rglob("*.pdn")
            for fen in re.findall(r'\[FEN "([^"]*)"\]', path.read_bytes().decode("utf-8", "replace"))}
    assert len(fens) > 200
    for variant in VARIANTS.values():
        for fen in fens:
            assert _read_or_error(read_fen, variant, fen) == _read_or_error(_scanned_fen, variant, fen), fen
