"""The compiled writer of movetexts holding runs kept as text (text/_lines.c) writes what the
writer writes from the pieces of the movetext (writer._atoms, writer.wrap): issue 28's dedupe,
filter and split pass games on through it."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.text import writer
from pdn_tools.text.model import (Comment, Game, MoveNumber, MoveRun, Nag, NotatedMove, Placeholder, Variation,
                                  keep_runs)
from fuzz import at_length
from test_grammar import plain_runs

_scan = pytest.importorskip("pdn_tools.text._scan")

WORDS = st.text(st.sampled_from("ab é–♔ -()x.0123"), max_size=30)


# The parts of elements() and games(), made once (a strategy made anew at each draw is validated anew).
_KINDS = [st.sampled_from(["comment", "line", "nag", "number", "move", "placeholder"]
                         + (["variation"] if depth < 2 else [])) for depth in range(3)]
_LINE_MARKS = st.sampled_from("%;")
_NAGS = st.integers(0, 300)
_NUMBERS = st.integers(0, 200)
_SQUARE_LISTS = st.lists(st.integers(1, 50).map(str), min_size=2, max_size=4)
_SUFFIXES = st.sampled_from(["", "!", "?!"])
_VARIATION_RESULTS = st.sampled_from([None, "*", "1-0"])


@st.composite
def elements(draw: st.DrawFn, depth: int = 0) -> object:
    """A movetext element of any kind, a variation holding some (not in a variation: a run)."""
    kind = draw(_KINDS[depth])
    if kind == "comment":
        return Comment(draw(WORDS))
    if kind == "line":
        return Comment(draw(WORDS), draw(_LINE_MARKS))
    if kind == "nag":
        return Nag(draw(_NAGS))
    if kind == "number":
        return MoveNumber(draw(_NUMBERS), draw(st.booleans()))
    if kind == "move":
        squares = tuple(draw(_SQUARE_LISTS))
        capture = draw(st.booleans())
        return NotatedMove(("x" if capture else "-").join(squares), squares, capture, draw(_SUFFIXES))
    if kind == "placeholder":
        return Placeholder()
    return Variation(draw(_INNER[depth]), draw(_VARIATION_RESULTS))


_INNER = [st.lists(elements(depth + 1), max_size=5) for depth in range(2)]
_MOVETEXTS = st.lists(st.one_of(plain_runs(padded=True).map(lambda text: MoveRun(text, 1, 1)), elements()),
                      min_size=1, max_size=8)
_RUNS = plain_runs()
_RESULTS = st.sampled_from([None, "*", "2-0", "1/2-1/2"])
_AFTER = st.lists(st.builds(Comment, WORDS, st.sampled_from("{%")), max_size=2)


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game whose movetext holds runs kept as text among any other elements."""
    movetext = draw(_MOVETEXTS)
    if not any(type(element) is MoveRun for element in movetext):
        movetext.append(MoveRun(draw(_RUNS), 1, 1))
    game = Game(result=draw(_RESULTS), after=draw(_AFTER))
    keep_runs(game, movetext)
    return game


@settings(max_examples=200, deadline=None)
@given(games(), st.integers(1, 100))
def test_the_compiled_movetext_is_the_one_written_from_its_pieces(game, width):
    """A movetext with runs, comments (line comments too, non-ASCII), NAGs, numbers, moves,
    placeholders and variations, in lines of any width, is written as wrap() writes _atoms()."""
    movetext = game._runs
    expected = writer.wrap([*writer._atoms(movetext), writer.tail(game)], width)
    assert writer._movetext(game, width) == expected
    pieces: list[tuple[str, int]] = []
    for element in movetext:
        pieces += [(element.text, 0)] if type(element) is MoveRun else \
            [(text, writer._KINDS[kind]) for text, kind in writer._pieces([element])]
    assert _scan.movetext_lines(pieces, writer.tail(game), width) == expected      # the compiled path was taken


test_the_compiled_movetext_is_the_one_written_from_its_pieces_at_length = at_length(
    test_the_compiled_movetext_is_the_one_written_from_its_pieces, 500, game=games(), width=st.integers(1, 100))


@settings(max_examples=300, deadline=None)
@given(st.one_of(plain_runs(), plain_runs(padded=True)), st.integers(1, 100))
def test_a_run_is_written_as_its_items_are(text, width):
    """A run alone: its words (MoveRun.texts) numbered as _run_number writes them, glued, wrapped."""
    expected = writer.wrap([*writer._atoms([MoveRun(text, 1, 1)]), "*"], width)
    assert _scan.movetext_lines([(text, 0)], "*", width) == expected


def test_a_number_that_is_not_digits_and_dots_is_left_to_the_writer():
    """A number the writer would read with int() (not digits alone) is not written: None."""
    assert _scan.movetext_lines([("1.2. 11-15", 0)], "*", 80) is None
    assert _scan.movetext_lines([("007. 11-15 ... 23-19 0.", 0)], "*", 80) == "7. 11-15 ... 23-19 0. *"


def test_a_kind_that_is_not_an_int_is_refused_before_any_python_code_runs():
    """A piece's kind must be an int: an object's __index__ could drop the piece from the list while
    its text is read (a use after free, seen by AddressSanitizer, before the check)."""
    class Dropping:
        def __init__(self, pieces: list[tuple[str, object]]) -> None:
            self.pieces = pieces

        def __index__(self) -> int:
            self.pieces.clear()
            return 3

    pieces: list[tuple[str, object]] = []
    pieces.append(("".join(["x"] * 5000), Dropping(pieces)))
    with pytest.raises(TypeError):
        _scan.movetext_lines(pieces, "*", 80)
    assert pieces        # the piece was left alone


@pytest.mark.parametrize("pieces, tail", [([], ""), ([("", 3)], ""), ([("", 0), ("", 1), ("", 2)], ""),
                                          ([("1.", 1)], ""), ([("\n", 3)], "\n")])
def test_empty_pieces_are_written_as_the_writer_writes_them(pieces, tail):
    """Empty texts (no character copied from or into a buffer not yet made: undefined behaviour
    under -fsanitize=undefined before) are joined as writer.wrap joins them."""
    atoms = [text for text, kind in pieces if kind]
    assert _scan.movetext_lines(pieces, tail, 80) == writer.wrap([*atoms, tail], 80)
