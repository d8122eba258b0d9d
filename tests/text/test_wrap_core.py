"""The canonical movetext written by the compiled scanner against writing it in pure Python.

`numbered_text` (pdn_tools/text/_wrap.c) numbers the moves of a main line's pieces again and
wraps them into lines; it must give the text `writer.numbered_text` gives (the words of runs as
`MoveRun.texts` cuts them, the numbers as `_Numbering` makes them, the lines as `wrap` ends
them), for any pieces, ply and width.  Loads the compiled module directly, so it also runs under
PDN_TOOLS_PURE=1.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules import core
from pdn_tools.text import writer

COMPILED = core.compiled_scanner()

# Words of runs (numbers, moves, numbers glued to moves, moves cut after their separator) and
# the white space between them; str.split cuts at any white space, so some odd kinds are in.
RUN_WORDS = st.sampled_from(["1.", "12.", "3...", "...", "01.", "11-15", "22x15x8", "1- 7", "22x 15x 8", "1.33-29",
                             "12...9-14", "c3-d4", "e3xg5", "x", "-", "7.", "5x", "a.b", "1.2.3-4", "28x19"])
GAPS = st.sampled_from([" ", "  ", "\t", "\n", " \n ", "\u00a0", "\u3000", "\r\n"])
RUNS = st.lists(st.tuples(GAPS, RUN_WORDS), min_size=1, max_size=30).map(
    lambda items: "".join(gap + word for gap, word in items))
# Other pieces: comments (a line comment ends its line), NAGs, moves, odd pieces wrap must glue or part.
OTHERS = st.sampled_from(["{a note}", "{}", "{long " + "x" * 90 + "}", "%line\n", ";semi\n\n", "$3", "$12", "(", ")",
                          "-", "- -", "--", "{é ü 日本}", "\n", "", "x" * 81, "{(}"])
MOVES = st.sampled_from(["11-15", "11-15!", "c3xe5?!", "- ", "-", "32-28", "1x10x19x28"])
PIECES = st.lists(st.one_of(st.tuples(st.just(writer.RUN), RUNS), st.tuples(st.just(writer.MOVE), MOVES),
                            st.tuples(st.just(writer.OTHER), OTHERS)), max_size=12)
TAILS = st.sampled_from(["*", "1-0", "0-1 {after}", "1/2-1/2 %won\n", "", "-", ")", "2-0 {" + "y" * 100 + "}"])


def compiled() -> writer.NumberedText:
    assert COMPILED is not None, "the compiled scanner (pdn_tools/text/_scan.c, _wrap.c) was not built"
    found: writer.NumberedText = COMPILED.numbered_text
    return found


@settings(max_examples=600, deadline=None)
@given(PIECES, st.integers(0, 301), TAILS, st.integers(1, 120))
def test_the_compiled_numbered_text_is_the_writer_s(pieces: list[tuple[int, str]], ply: int, tail: str,
                                                    width: int) -> None:
    assert compiled()(pieces, ply, tail, width) == writer.numbered_text(pieces, ply, tail, width)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None)
@given(PIECES, st.integers(0, 10**12), TAILS, st.integers(1, 200))
def test_the_compiled_numbered_text_is_the_writer_s_at_length(pieces: list[tuple[int, str]], ply: int, tail: str,
                                                              width: int) -> None:
    assert compiled()(pieces, ply, tail, width) == writer.numbered_text(pieces, ply, tail, width)


def test_the_words_of_a_run_are_the_run_s_texts() -> None:
    """A run's moves are its texts() less its move numbers, numbered from the ply given."""
    pieces = [(writer.RUN, "1.11-15 23-19 2. 8-11 22x 17 3...9-13")]
    assert compiled()(pieces, 0, "*", 80) == "1. 11-15 23-19 2. 8-11 22x 17 3. 9-13 *"
    assert compiled()(pieces, 1, "*", 80) == "1... 11-15 2. 23-19 8-11 3. 22x 17 9-13 *"
    assert compiled()([(writer.OTHER, "{c}"), (writer.MOVE, "8-11")], 3, "*", 80) == "{c} 2... 8-11 *"


def test_bad_pieces_are_refused() -> None:
    with pytest.raises(TypeError):
        compiled()([("11-15", 0)], 0, "*", 80)          # type: ignore[list-item]
    with pytest.raises(ValueError):
        compiled()([(3, "11-15")], 0, "*", 80)
    with pytest.raises(ValueError):
        compiled()([], -1, "*", 80)
