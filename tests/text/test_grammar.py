"""The PDN grammar: tokens, traps of the format, structure of the model."""
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pdn_tools import Comment, MoveNumber, Nag, NotatedMove, Placeholder, ReadError, Setup, Variation
from pdn_tools.text.reader import read_text       # the reader's own: runs kept as text only when asked


def one(text: str, strict: bool = False):
    games = read_text(text, strict=strict)
    assert len(games) == 1, games
    return games[0]


def moves(game) -> list[str]:
    return [m.text for m in game.main_line()]


def test_tags_keep_order_duplicates_and_escapes():
    game = one('[Event "A"]\n[Zeta "z"]\n[Event "B"]\n[White "Say \\"hi\\" C:\\\\x"]\n1. 32-28 *')
    assert game.tags == [("Event", "A"), ("Zeta", "z"), ("Event", "B"), ("White", 'Say "hi" C:\\x')]


def test_backslash_not_before_quote_or_backslash_is_kept():
    # PDN 3.0 documents only \" ; a Windows path keeps its backslashes.
    game = one('[Comment "C:\\nemesis\\games"]\n*')
    assert game.tag("Comment") == "C:\\nemesis\\games"


def test_move_numbers_in_every_form():
    game = one("1. 32-28 19-23 2.28x19 2... 14x23 3. ... 37-32 *")
    numbers = [e for e in game.elements if isinstance(e, MoveNumber)]
    assert [(n.number, n.black) for n in numbers] == [(1, False), (2, False), (2, True), (3, False), (0, True)]
    assert moves(game) == ["32-28", "19-23", "28x19", "14x23", "37-32"]


def test_one_dash_ten_is_a_move_not_a_draw():
    # PDN 3.0 issues: a greedy lexer reads `1-10` as the result `1-1` and `0`.
    game = one("1. 1-10 11-17 1-1")
    assert moves(game) == ["1-10", "11-17"]
    assert game.result == "1-1"


def test_every_result_token_ends_a_game():
    results = ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"]
    games = read_text(" ".join(f"1. 32-28 {r}" for r in results))
    assert [g.result for g in games] == results


def test_short_and_long_captures_and_separators():
    game = one("1. 28x19 26x17x10x1 d4:b6 c3xe5xg7 E3:G5 28X19 *")
    assert [m.squares for m in game.main_line()] == [
        ("28", "19"), ("26", "17", "10", "1"), ("d4", "b6"), ("c3", "e5", "g7"), ("E3", "G5"), ("28", "19")]
    assert all(m.capture for m in game.main_line())


def test_alphanumeric_moves_without_separator():
    game = one("1.a3b4 f6g5 *")
    assert [m.squares for m in game.main_line()] == [("a3", "b4"), ("f6", "g5")]
    assert not game.main_line()[0].capture


def test_russian_short_algebraic_gives_file_and_square():
    game = one("1. ed4 dc5 2. fe3 *")
    assert [m.squares for m in game.main_line()] == [("e", "d4"), ("d", "c5"), ("f", "e3")]


def test_strength_marks_glued_or_spaced_and_question_in_parentheses():
    # `(?)` is a strength mark, not a variation (PDN 3.0 issues).
    game = one("1.32-28!? 19-23(!?!!!) 2.28x19 (?) *")
    assert [m.strength for m in game.main_line()] == ["!?", "(!?!!!)", "(?)"]
    assert not any(isinstance(e, Variation) for e in game.elements)


def test_star_glued_to_move_is_a_forced_mark_not_a_terminator():
    game = one("1. 1-6* 32-28 2. 6-11 *")
    assert moves(game) == ["1-6", "32-28", "6-11"]
    assert game.main_line()[0].strength == "*"
    assert [w.code for w in game.warnings] == ["forced-mark"]
    error = one("1. 1-6* 32-28 *", strict=True)
    assert isinstance(error, ReadError) and (error.line, error.column) == (1, 7)


def test_results_and_stars_inside_comments_do_not_split_games():
    games = read_text("1. 32-28 {White wins 2-0 here * really} 19-23 *\n1. 33-29 *")
    assert len(games) == 2
    assert games[0].elements[2] == Comment("White wins 2-0 here * really")


def test_nags_setups_placeholders_and_line_comments():
    game = one('1. 32-28 $1 19-23 % to the end of line 2-0\n/FEN "W:W31:B1"/ 2. - - ; gone\n*')
    kinds = [type(e) for e in game.elements]
    assert kinds == [MoveNumber, NotatedMove, Nag, NotatedMove, Comment, Setup, MoveNumber, Placeholder, Comment]
    assert game.elements[4] == Comment(" to the end of line 2-0", "%")
    assert game.elements[5].fen == "W:W31:B1"


def test_nested_variations_keep_their_place():
    game = one("1. 32-28 19-23 (18-23 38-32 (37-32? 23-29! {Black wins}) 12-18) 28x19 *")
    variation = game.elements[3]
    assert isinstance(variation, Variation)
    inner = variation.elements[2]
    assert isinstance(inner, Variation) and [e.text for e in inner.elements if isinstance(e, NotatedMove)] == [
        "37-32", "23-29"]
    assert moves(game) == ["32-28", "19-23", "28x19"]


def test_variation_may_start_with_a_comment_and_end_with_a_result():
    game = one("1. 32-28 ({Charlie} 1. 33-29 19-23 2-0) 19-23 *")
    variation = game.elements[2]
    assert variation.elements[0] == Comment("Charlie") and variation.result == "2-0"


def test_nested_comment_is_rejected_with_its_location():
    # wiegerw fail set: comments do not nest.
    error = one("1. 33-29 19-23 2. 35-30 { nested { comment } }", strict=True)
    assert isinstance(error, ReadError)
    assert (error.line, error.column) == (1, 46)
    assert "'}'" in error.message


def test_unclosed_variation_is_a_located_syntax_error():
    error = one("1. 32-28 (19-23 2. 28x19 *")
    assert isinstance(error, ReadError) and error.code == "syntax"
    assert error.line == 1 and "unclosed" in error.message


def test_tag_after_movetext_on_same_game_is_an_error_when_not_a_new_game():
    games = read_text('1. 32-28 19-23 [Event "x"] 2. 28x19 *')
    assert len(games) == 2        # a tag section after movetext starts a new game


def expanded_now(text: str, engine=None) -> tuple[list, list]:
    """Elements (type, fields, line, column) and warnings of the one game of `text`."""
    games = read_text(text, engine=engine)
    assert len(games) == 1, games
    game = games[0]
    elements = [(type(e).__name__, repr(e), getattr(e, "line", 0), getattr(e, "column", 0)) for e in game.elements]
    return elements, [w.as_dict() for w in game.warnings], game.tags, game.tag_positions


RUNS = [
    "1. 11-15 23-19 2. 8-11\n  22-17 3... 9x18x27 ... 31x22 1-0",
    "1. 11-15 {c} 2. 8-11 (2. 9-13 22-18) 2... 24-20 3. *",
    "12. 11-15 23-19 $1 13. 8-11 ! 22-17 *",
    "1. 1-10 11-17 1-1",
    "1.32-28 19-23 2. 28x19 14x23 *",
    "1.33-29\t19-23\t2.35-30\n\t14-19 3...30-25 ...20-24 4. *",
    "1.\t33-29 ! 2.\t\t35-30 2...14-19 3. 30-25\t{c}\t4.29x20 *",
    "01.32-28 19-23 2.05-10 *",
    "5. {only a number} 6. 32-28 7. ; line\n*",
    "1. 11-15 2. 05-09 *",
    "1. 32-28  1- 7\n 2. 28x 19 14x 3 03.05-10 (3. 05-09) 06x17 *",
    '[Event "a]b {c}"]\n[Site "x"]\n[Round "1"]\n\n1. 11-15 *',
    '[Event "a"] [Site "x"]\n[round "1"]\n[White "say \\"hi\\""]\n\n1. 11-15 *',
]


class KeepingRuns:
    """How an engine that keeps runs as text reads them (rules.core.Engine's `Reading`), with
    the regular expressions: `plain_run` None."""

    keeps_runs = True
    moves_end = plain_run = fast_game = None


def test_runs_kept_as_text_read_back_as_the_elements_the_reader_makes(monkeypatch):
    """A run of plain moves is kept as text (MoveRun) and expanded when `elements` is first
    read: the same elements, located the same, and the same warnings (a dangling number
    at the end of a run) as the reader's element by element reading.  Plain tag pairs one a
    line are read at once: the same tags at the same places."""
    from pdn_tools.text import builder, grammar
    from pdn_tools.text.model import MoveRun, movetext_runs

    lazy = [expanded_now(text, KeepingRuns()) for text in RUNS]
    assert any(type(e) is MoveRun for e in movetext_runs(read_text(RUNS[0], engine=KeepingRuns())[0]))
    assert not any(type(e) is MoveRun for e in movetext_runs(one(RUNS[0])))     # none kept unless asked
    monkeypatch.setattr(builder, "_PADDED_RUN", __import__("re").compile(r"(?!)"))
    monkeypatch.setattr(builder, "_PLAIN_TAGS", __import__("re").compile(r"(?!)"))
    grammar.parser.cache_clear()
    try:
        assert [expanded_now(text) for text in RUNS] == lazy
    finally:
        grammar.parser.cache_clear()


def test_a_run_kept_as_text_is_expanded_once_and_elements_set_win():
    from pdn_tools.text.model import movetext_runs

    game = read_text("1. 11-15 23-19 *", engine=KeepingRuns())[0]
    first = game.elements
    assert game.elements is first and movetext_runs(game) is first
    other = read_text("1. 11-15 23-19 *", engine=KeepingRuns())[0]
    other.elements = [Comment("replaced")]
    assert movetext_runs(other) == [Comment("replaced")] and other.main_line() == []


# ---- runs kept as text: the wider forms (tabs, a number glued to its move) ----------------------

RUN_NUMBERS = st.one_of(st.integers(1, 999_999).map(str), st.just(""))
# plain_runs' parts, made once (a strategy made anew at each draw is validated anew: most of the drawing's time).
_SQUARES = st.integers(1, 99).map(str)
_PADDED_SQUARES = st.one_of(_SQUARES, st.integers(1, 9).map("0{}".format))
_PADDED_NUMBERS = st.one_of(RUN_NUMBERS, st.integers(1, 9).map("0{}".format))
_KINDS = st.sampled_from(["number", "move", "glued", "move"])
_LONGEST = st.sampled_from([2, 2, 5, 25])
_GAPS = st.sampled_from([" ", "\t", "\n", "  ", " \n\t", "\t\t", "\n\n "])
_SEPARATORS = {separator: st.sampled_from([separator, separator + " "]) for separator in "-x"}


@st.composite
def plain_runs(draw: st.DrawFn, padded: bool = False) -> str:
    """A run of the form kept as text: numbers (`12.`, `12...`, `...`), moves of one- or two-
    digit squares (one space after a separator now and then: `1- 7`, `12x 5`), a number glued
    to its move now and then, spaces, tabs and line ends; with `padded`, squares and numbers
    below 10 written `07` now and then."""
    square = _PADDED_SQUARES if padded else _SQUARES
    items = []
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(_KINDS)
        number = draw(_PADDED_NUMBERS if padded else RUN_NUMBERS)
        number += "..." if not number or draw(st.booleans()) else "."
        squares = draw(st.lists(square, min_size=2, max_size=draw(_LONGEST)))
        separator = "-" if len(squares) == 2 and draw(st.booleans()) else "x"
        move = squares[0] + "".join(draw(_SEPARATORS[separator]) + square for square in squares[1:])
        items.append(number if kind == "number" else move if kind == "move" else number + move)
    gaps = draw(st.lists(_GAPS, min_size=len(items), max_size=len(items)))
    return "".join(item + gap for item, gap in zip(items, gaps)).rstrip(" \t\n")


def located(elements) -> list[tuple]:
    """Each element's fields and place."""
    return [(type(e).__name__, e.text, getattr(e, "squares", None), getattr(e, "capture", None),
             getattr(e, "number", None), getattr(e, "black", None), e.line, e.column) for e in elements]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(plain_runs(), st.integers(1, 500), st.integers(1, 80))
def test_a_run_kept_as_text_expands_as_the_reader_reads_it(text, line, column):
    """For a run the scanner reads (one MOVES token) of the form kept as text, MoveRun.expand(),
    item_at(), items() and ends_with_number() give the elements the reader's element by
    element reading (`_moves`) makes of the same run, at the same lines
    and columns (a tab is one column), with no diagnostic; the compiled core's reading of the
    run (moves_hint) finds the same moves."""
    from pdn_tools.play.variant_choice import run_hint
    from pdn_tools.rules import core
    from pdn_tools.text import builder, grammar, tokens
    from pdn_tools.text.model import MoveRun

    assert builder._PLAIN_RUN.fullmatch(text)
    # what the scanner reads as one run (`1-1` alone is a result, never part of a run)
    assume([(token.type, str(token)) for token in grammar.parser().tokens(text).tokens] == [("MOVES", text)])
    made = grammar.parser()._builder
    made.context = builder._Context([], False)
    slow: list = []
    made._moves(tokens.ScanToken("MOVES", text, 0, line, column), slow)
    assert made.context.warnings == []
    run = MoveRun(text, line, column)
    expanded = run.expand()
    assert located(expanded) == located(slow)
    walked, offset = [], 0
    while True:
        item, offset = run.item_at(offset)
        if item is None:
            break
        walked.append(item)
    assert offset == len(text) and located(walked) == located(slow)
    assert run.items() == len(slow) and run.ends_with_number() == isinstance(slow[-1], MoveNumber)
    moves = [e for e in slow if isinstance(e, NotatedMove)]
    hint = len(moves), max((int(square) for move in moves for square in move.squares), default=-1)
    assert run_hint(text, 10_000) == hint
    compiled = core.compiled_module()
    assert compiled is not None and compiled.moves_hint(text, 10_000) == hint


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(plain_runs(padded=True), st.integers(1, 500), st.integers(1, 80))
def test_a_zero_padded_run_kept_as_text_warns_and_expands_as_the_reader_reads_it(text, line, column):
    """A run whose only quirk is zero padding (`01.31-27 07-12`) is kept as text when runs are:
    the same zero-padding warnings, in the same order and places, as the reader's element by
    element reading (`_moves`), and MoveRun.expand() gives its elements."""
    from pdn_tools.text import builder, grammar, tokens
    from pdn_tools.text.codes import Code
    from pdn_tools.text.model import MoveRun

    assert builder._PADDED_RUN.fullmatch(text)
    assume([(token.type, str(token)) for token in grammar.parser().tokens(text).tokens] == [("MOVES", text)])
    made = grammar.parser()._builder
    token = tokens.ScanToken("MOVES", text, 0, line, column)
    made.context = builder._Context([], False)
    slow: list = []
    made._moves(token, slow)
    made._dangling_numbers(slow)
    warned = made.context.warnings
    made.context = builder._Context([], False)
    kept = made._elements([token], runs=True)
    assert {w.code for w in warned} <= {Code.ZERO_PADDED, Code.DANGLING_NUMBER}
    assert made.context.warnings == warned
    assert [type(e) for e in kept] == [MoveRun] and located(kept[0].expand()) == located(slow)


def test_runs_that_call_for_a_diagnostic_are_not_kept_as_text():
    # zero padding, upper case, a separator before two spaces or a line end, a mark, a NAG:
    # the reader's element by element reading says what it has to say about them.  One space
    # after a separator (`1- 7`, `33.17x 28`) calls for nothing: such runs are kept.
    from pdn_tools.text.builder import _PLAIN_RUN

    for text in ("1.05-10", "01.32-28", "1. 33-29 2.35-", "1-  7", "1-\n7", "33.17x\t28", "11-15X", "1.33-29!",
                 "1.33-29 $1", "1..33-29", "1.\f33-29", "33-2918-23", "1.33-29 2", "1- 7 x 9", "12- 5. 6-1"):
        assert _PLAIN_RUN.fullmatch(text) is None, text
    for text in ("1- 7", "33.17x 28", "13. 1- 7 14.47-41 28x 19x 10"):
        assert _PLAIN_RUN.fullmatch(text), text


MOVETEXT_PIECES = st.sampled_from(
    ["1.", "12...", "...", "32-28", "1-", "7", "28x", "19", "28x19x10", "12:", "16", "-", "!", "?!", "(!)", "$3",
     "*", "a3b4", "ed4", "1-0", " ", " ", " ", "  ", "\n", "x", ":", "- -", "1- 7", "12x 5", "5"])


@pytest.mark.slow
@settings(max_examples=2000)
@given(st.lists(MOVETEXT_PIECES, min_size=1, max_size=14).map("".join))
def test_a_run_cut_at_its_spaces_reads_as_the_whole_run_does(text: str) -> None:
    """_plain_moves (pieces between spaces, a separator and one space read with the next piece)
    gives the elements, locations and warnings of the fine scanner over the whole run."""
    from pdn_tools.text import builder, grammar
    pdn = grammar.parser()
    runs = [t for t in pdn.tokens(text).tokens if t.type == "MOVES"]
    for run in runs:
        assume(run == run.lower() and "-  " not in run and builder._ZERO_PADDED.search(run) is None)
        read = []
        for cut in (True, False):
            pdn._builder.context = builder._Context([], False)
            out: list = []
            if cut:
                pdn._builder._plain_moves(run, out, True)
            else:
                pdn._builder._scanned_moves(run, out, False)
            read.append(([(type(e), vars(e) if hasattr(e, "__dict__") else
                           [getattr(e, f) for f in e.__slots__]) for e in out], pdn._builder.context.warnings))
        assert read[0] == read[1], run


# ---- the parser kept between runs ---------------------------------------------------------------

def parsed_with(parser, path):
    """Every game of `path` parsed by `parser`, as text (positions and warnings included)."""
    from pdn_tools.text.reader import read_raw
    return [repr(parser.parse_game(raw.tokens, False)) for raw, _ in read_raw(str(path))]


def test_the_parser_kept_in_the_cache_folder_parses_as_a_new_one(tmp_path, monkeypatch):
    from corpus import DATA
    from pdn_tools.text import grammar

    samples = sorted(DATA.rglob("*.pdn"))[:12]
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))       # no folder can be made there: none kept
    built = grammar.PdnParser()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    writing = grammar.PdnParser()
    [kept] = (tmp_path / "pdn-tools").iterdir()
    assert oct((tmp_path / "pdn-tools").stat().st_mode & 0o777) == "0o700"
    loaded = grammar.PdnParser()                    # from the file
    for path in samples:
        assert parsed_with(loaded, path) == parsed_with(writing, path) == parsed_with(built, path)
    kept.write_bytes(b"not a parser")               # damaged: built again, silently, and kept again
    again = grammar.PdnParser()
    assert parsed_with(again, samples[0]) == parsed_with(built, samples[0]) and kept.stat().st_size > 1000


def test_no_parser_is_kept_in_a_folder_others_can_write(tmp_path, monkeypatch):
    from pdn_tools.text import grammar

    (tmp_path / "pdn-tools").mkdir(mode=0o777)
    (tmp_path / "pdn-tools").chmod(0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert grammar._cache_file("grammar") is None
    (tmp_path / "pdn-tools").chmod(0o700)
    assert grammar._cache_file("grammar").startswith(str(tmp_path / "pdn-tools" / "parser-"))


def test_the_scanner_makes_its_tokens_as_lark_makes_them():
    """_scanned (the scanner's token maker) sets every field Token's constructor sets (value and end_pos
    follow from the text and start)."""
    from lark import Token

    from pdn_tools.text.tokens import ScanToken, _scanned

    made = _scanned("MOVES", "1. 11-15", 3, 4, 5, True)
    lark = ScanToken("MOVES", "1. 11-15", 3, 4, 5, None, None, 11)
    assert type(made) is ScanToken and made == lark and made.blank_before
    assert all(getattr(made, name) == getattr(lark, name) for name in Token.__slots__)
