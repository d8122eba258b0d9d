"""Reading with the compiled core's help against reading in pure Python.

`moves_end` (pdn_tools/text/_scan.c) finds where the scanner's MOVES terminal ends; it must
give the end Python's re gives for the terminal's own regular expression, at every position and
text end.  The scanner that uses it must give the same tokens as the one that does not, and a
game built from a remembered parse plan must be the game Lark builds.

These tests load the compiled module directly, so they also run under PDN_TOOLS_PURE=1.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark

from corpus import CORPUS, needs_corpus
from pdn_tools.rules import core
from pdn_tools.text import builder, grammar, reader, scanner, tokens
from pdn_tools.text.reader import read_text

COMPILED = core.compiled_scanner()

# Pieces of movetext and of what stops it: results, moves, numbers, marks, gaps, escapes.
FRAGMENTS = st.sampled_from(
    list("0123456789-xX:. \t\f\n\\rn$!?()*abklALz/[]{}%;") + [
        "1-0", "2-0", "0-1", "0-0", "1-1", "0-2", "1:0", "0:1", "1/2-1/2", "½-½", "1.", "12.", "3...", "...",
        "32-28", "12-16", "28x19", "19x28x37", "a3b4", "c3-d4", "ab3", "ed4", "- -", "-\t-", "\\r", "\\n",
        "(!)", "(?!)", "!?", "$12", "a10", "l12", "05-10", "1- 7", "33 - 28", "\n\n", "[Event \"x\"]\n",
        "{note}", "*", " 1-0 ", "1-01.", "2-0Z",
    ])
TEXTS = st.lists(FRAGMENTS, max_size=24).map("".join)


def moves_end() -> tokens.MovesEnd:
    assert COMPILED is not None, "the compiled scanner (pdn_tools/text/_scan.c) was not built"
    found: tokens.MovesEnd = COMPILED.moves_end
    return found


@cache
def moves_regex() -> re.Pattern[str]:
    """The MOVES terminal's regular expression, as the pure scanner has it."""
    text = grammar.grammar_text()
    probe = Lark(text, parser="lalr", lexer="basic", start=["start", "tags", "moves"])
    terminals = {t.name: t.pattern.to_regexp() for t in probe.terminals}
    return re.compile(scanner._possessive(terminals["MOVES"]))


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)     # the first example builds the terminal's expression (Lark)
@given(TEXTS, st.data())
def test_moves_end_is_where_the_terminal_s_expression_ends(text: str, data: st.DataObject) -> None:
    endpos = data.draw(st.integers(0, len(text)))
    pos = data.draw(st.integers(0, endpos))
    match = moves_regex().match(text, pos, endpos)
    assert moves_end()(text, pos, endpos) == (match.end() if match else -1)


@pytest.mark.parametrize("text, pos, end", [
    ("1. 32-28 17-22 2. 28x17 1-0", 0, 23),        # the run stops before the result
    ("1-10 1-0", 0, 4),                            # 1-10 is a move, 1-0 a result
    ("1-0 2. 32-28", 0, -1),                       # a result is not a move
    ("32-28 1.33-29", 0, 13),                      # a move number glued to its move
    ("12-16* 21-17", 0, 12),                       # '*' glued to a move is a mark
    ("a3b4 ed4 ab3", 0, 12),                       # alphanumeric and Russian short moves
    ("(!) 32-28", 0, 9),                           # a strength mark may start a run
    ("( 32-28", 0, -1),                            # a variation's '(' does not
    ("- - 32-28", 0, 9),                           # placeholders
    ("32-28\\r\\n17-22", 0, 14),                   # literal escapes are gaps
    ("32-28 17-22", 0, 5),                         # ... and the text end counts (endpos 5)
])
def test_moves_end_on_known_runs(text: str, pos: int, end: int) -> None:
    endpos = 5 if text == "32-28 17-22" else len(text)
    assert moves_end()(text, pos, endpos) == end
    match = moves_regex().match(text, pos, endpos)
    assert (match.end() if match else -1) == end


def test_moves_end_refuses_positions_outside_the_text() -> None:
    with pytest.raises(ValueError, match="positions out of the text"):
        moves_end()("32-28", 2, 9)
    with pytest.raises(ValueError, match="positions out of the text"):
        moves_end()("32-28", 3, 2)


def test_the_reading_helpers_refuse_what_is_not_text() -> None:
    assert COMPILED is not None, "the compiled scanner (pdn_tools/text/_scan.c) was not built"
    with pytest.raises(TypeError, match=r"moves_end\(text: str, pos: int, endpos: int\)"):
        COMPILED.moves_end(b"32-28", 0, 5)
    with pytest.raises(TypeError, match=r"plain_run\(text: str\)"):
        COMPILED.plain_run(b"32-28")


RUN_PIECES = st.sampled_from(
    list("0123456789-x. \t\n!X") + ["1.", "12.", "123456.", "1234567.", "...", "1...", "11-15", "9x18x27", "x5",
                                        "05", "1.33-29", "x1" * 25, "  ", "\t\n", "1- 7", "12x 5", "- ", "x ",
                                        "x 1" * 25])


def plain_by_regex(text: str) -> bool:
    return builder._PLAIN_RUN.fullmatch(text) is not None


@pytest.mark.slow
@settings(max_examples=3000)
@given(st.lists(RUN_PIECES, max_size=16).map("".join))
def test_plain_run_is_the_regular_expression_s_verdict(text: str) -> None:
    assert COMPILED is not None, "the compiled scanner (pdn_tools/text/_scan.c) was not built"
    assert COMPILED.plain_run(text) == plain_by_regex(text)


def test_real_runs_are_plain_or_not_as_the_regular_expression_says() -> None:
    assert COMPILED is not None, "the compiled scanner (pdn_tools/text/_scan.c) was not built"
    runs = ["1. 11-15 23-19 2. 8-11", "1.33-29 19-23\t2.35-30", "1. 05-10", "12-16 (!)", "1- 7", "9x18x27 $3",
            "14x 3x 12", "1-  7", "1- 7x 9"]
    assert [COMPILED.plain_run(run) for run in runs] == [plain_by_regex(run) for run in runs]


def scanned(text: str, more: bool, hold: bool, end: int | None,
            moves_end: tokens.MovesEnd | None = None) -> list[tuple[object, ...]]:
    result = grammar.parser().tokens(text, end=end, more=more, hold=hold, moves_end=moves_end)
    tokens = [(t.type, str(t), t.start_pos, t.line, t.column, t.end_pos, t.blank_before) for t in result.tokens]
    return tokens + [(result.consumed, result.line, result.column, result.waiting)]


@pytest.mark.slow
@settings(max_examples=1500)
@given(TEXTS, st.booleans(), st.booleans(), st.data())
def test_the_scanner_gives_the_same_tokens_with_moves_end(text: str, more: bool, hold: bool,
                                                          data: st.DataObject) -> None:
    end = data.draw(st.none() | st.integers(0, len(text)))
    assert scanned(text, more, hold, end, moves_end()) == scanned(text, more, hold, end)


def corpus_files() -> list[Path]:
    return sorted(CORPUS.rglob("*.pdn"))[::40]


@needs_corpus
def test_the_scanner_gives_the_same_tokens_on_real_files() -> None:
    files = corpus_files()
    assert len(files) > 20
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n")
        pure = scanned(text, False, False, None)
        assert scanned(text, False, False, None, moves_end()) == pure, path.name


def read_twice(text: str, strict: bool) -> list[tuple[object, object, object]]:
    games = read_text(text, strict)
    return [(game, getattr(game, "warnings", None), getattr(game, "tag_positions", None)) for game in games]


@settings(max_examples=500)
@given(TEXTS, st.booleans())
def test_a_game_built_from_a_parse_plan_is_the_game_lark_builds(text: str, strict: bool) -> None:
    pdn = grammar.parser()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pdn, "_parse", lambda tokens, shape, consume: pdn.lark.parse(tokens, start="start"))     # Lark for every game
        by_lark = read_twice(text, strict)
    pdn._plans.clear()
    assert read_twice(text, strict) == by_lark          # Lark for the first game of each shape
    assert read_twice(text, strict) == by_lark          # a plan for every game


@settings(max_examples=300)
@given(TEXTS, st.booleans())
def test_a_game_whose_tokens_are_freed_while_parsed_is_the_game_read_with_them_kept(text: str, strict: bool) -> None:
    """parse_raw frees a long game's tokens as Lark reads them, its text kept for the ReadError it
    may be: read so (every game, here), each game, its warnings and its error text are the same."""
    kept = read_twice(text, strict)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reader, "CONSUMED", 0)
        assert read_twice(text, strict) == kept
