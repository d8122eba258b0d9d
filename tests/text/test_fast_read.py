"""The compiled reading of the common game against the Lark grammar's.

The compiled scanner reads a common game at once (`fast_game`: plain tag pairs, runs of plain
moves and comments, a result, a line end) and builds it without Lark; every other game goes through Lark
(scanner.Scanner.tokens, grammar.PdnParser.parse_game).  Both readings must give the same games,
warnings (codes, messages, lines and columns), records and positions, whatever the text: random games of
every variant in every writing style, games at the edges of what the fast reading takes, and the
fuzz inputs of test_robustness and test_round_trip (mutated and hostile text).

The fast reading exists on the compiled core only (the pure engine reads every game through
Lark); these tests load the compiled module directly, so they also run under PDN_TOOLS_PURE=1.
"""

from __future__ import annotations

import io
import pickle
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.play.check import check
from pdn_tools.rules import core
from pdn_tools.text import decoding, grammar, tokens
from pdn_tools.text.model import Game, ReadError
from pdn_tools.text.reader import parse_raw, read_games, read_raw, read_text
from test_robustness import FUZZ, damaged
from test_round_trip import pdn_soup, random_games

COMPILED = core.Engine(True)


@dataclass(frozen=True)
class LarkOnly:
    """The compiled engine's reading (runs kept as text, found by the core) without `fast_game`:
    every game through Lark."""

    keeps_runs: bool = True
    moves_end: Any = COMPILED.moves_end
    plain_run: Any = COMPILED.plain_run
    fast_game: Any = None


def seen(games: list[Game | ReadError]) -> list[tuple[object, ...]]:
    """What a reading gives, in full: each game (or error), its warnings, where its tags and moves
    stand, its record and the positions its replay goes through."""
    out: list[tuple[object, ...]] = []
    for game in games:
        checked = check(game, engine=COMPILED)
        if isinstance(game, ReadError):
            out.append((game, checked.record))
            continue
        replay = checked.replay
        assert replay is not None
        where = [(e.line, e.column) for e in game.elements if hasattr(e, "line")]
        positions = [(ply.before, ply.after) for ply in replay.plies]
        out.append((game, game.line, game.warnings, game.tag_positions, where, checked.record, positions,
                    replay.final))
    return out


def both(text: str, strict: bool = False) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """The fast reading's and Lark's of `text`."""
    return (seen(read_text(text, strict, engine=COMPILED)),
            seen(read_text(text, strict, engine=LarkOnly())))


def fast_count(text: str) -> int:
    """How many games the fast reading took at once in `text`."""
    return fast_taken(lambda: read_text(text, engine=COMPILED))


def fast_taken(read: Callable[[], object]) -> int:
    """How many games the fast reading took at once while `read()` ran."""
    taken = 0
    original = grammar._fast_built

    def counted(*args: Any) -> Game:
        nonlocal taken
        taken += 1
        return original(*args)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grammar, "_fast_built", counted)
        read()
    return taken


# Games at the edges of what the fast reading takes: each piece may or may not keep it common.
TAG_LINES = st.sampled_from(['[Event "x"]\n', '[Site "a]b {c}"]\n', '[Result "1-0"]\n', '[White "Ann"]\n',
                             '[Site "c:\\\\x\\q"]\n', '\t[Round "2"]\n', '[Black "B"] ', '[Date "?"]\t\n  ',
                             '[Event "x"]\f\n\f', '[A "\\"', '[A "x\\\n"]\n',
                             '[GameType "20"]\n', '[Event "x"]  \n', '[round "1"]\n', '[Event  "x"]\n',
                             '[Round 17]\n', '[A "x\\"y"]\n', '[Black "½"]\n', '[Date "2004-??-??"]\n',
                             '[FEN "W:W31,32:\nB1,2"]\n', '[Event "a\n\n[b"]\n', '[A "\\"\n"] ', '[A "x\n"]',
                             '[Result "1-0"] ', '[Event "x"]'])
GAPS = st.sampled_from(["", " ", "\n", "\n\n", "\t", "\f", "\\r", " \n \n", "\n  \n"])
RUNS = st.sampled_from(["", "1. 11-15 23-19 2. 8-11", "1. 11-15\n23-19 2.", "32-28 19-23", "1. 32-28 (1. 33-29) *",
                        "1. 11-15 {good} 23-19", "1.11-15 2...23-19", "1. 07-12", "1. 11-15!", "1. 11-15*",
                        "1. 28x19x10", "1. c3-d4 f6-g5", "1. 11-15 ; note\n22-18", "1. 11-15 $1 23-19",
                        "1. 11-15 1-", "1. 11-15 1-01. 22-18", "1. 32-28 33 - 28", "01. 05-10 10x 01x06",
                        "01.05-10 {c} 02... 07x18", "1. 00-05", "010. 05-10", "01. 5-10 03.", "1. 05-10 07-11!"])
RESULTS = st.sampled_from(["*", "1-0", "0-1", "1/2-1/2", "2-0", "1-1", "½-½", "0.5-0.5", "1:0", "", "1-0x"])
TAILS = st.sampled_from(["\n", " \n", "\t\n", " {after}\n", " % line\n", "", "\n\n", "\n{next}\n", " *\n"])


@st.composite
def edge_games(draw: st.DrawFn) -> str:
    """Several games written with the pieces that decide whether the fast reading takes one."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        tags = "".join(draw(st.lists(TAG_LINES, min_size=0, max_size=4)))
        out.append(tags + draw(GAPS) + draw(RUNS) + draw(GAPS) + draw(RESULTS) + draw(TAILS) + draw(GAPS))
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(edge_games(), st.booleans())
def test_games_at_the_edges_of_the_fast_reading_are_read_as_lark_reads_them(text: str, strict: bool) -> None:
    fast, lark = both(text, strict)
    assert fast == lark


@settings(FUZZ, deadline=None)
@given(st.lists(random_games(), min_size=1, max_size=4).map("\n".join))
def test_random_games_of_every_variant_and_style_are_read_as_lark_reads_them(text: str) -> None:
    fast, lark = both(text)
    assert fast == lark


@settings(FUZZ, deadline=None)
@given(pdn_soup())
def test_hostile_text_is_read_as_lark_reads_it(text: str) -> None:
    fast, lark = both(text)
    assert fast == lark


SQUARES = st.integers(1, 50).flatmap(lambda n: st.sampled_from([str(n), f"{n:02}"]))
NUMBERS = st.integers(1, 120).flatmap(lambda n: st.sampled_from([f"{n}.", f"{n:02}.", f"{n}...", f"{n:02}...", "..."]))
TAG_GAPS = st.sampled_from(["\n", "\n", "\n", " ", "", "\t", "\n\t", " \n ", "\f\n", "\n\n", "\\r\n"])
SPACES = st.sampled_from([" ", "  ", "\n", " \n", "\t", "\n\n", " \n \n", "\\r\n", " \\n "])


SEPARATORS = st.sampled_from(["-", "x", "- ", "x "])
PADDED_PAIRS = [st.lists(SQUARES, min_size=2, max_size=2 if separator[0] == "-" else 4) for separator in "-x"]


@st.composite
def padded_moves(draw: st.DrawFn) -> str:
    """A move of squares written with or without zero padding: `05-10`, `32x 03x14`, `1-07`."""
    separator = draw(SEPARATORS)
    squares = draw(PADDED_PAIRS[separator[0] == "x"])
    return separator.join(squares)


# The parts of padded_games(), made once (a strategy made anew at each draw is validated anew).
PADDED_MOVES = padded_moves()
PADDED_TAGS = st.lists(st.tuples(st.sampled_from(["Event", "Result", "White", "Site", "round"]),
                                 st.sampled_from(["x", "1-1", 'a\\"b', "c:\\\\d", "e\\q", "", "½"]), TAG_GAPS),
                       max_size=3)
TAG_INDENTS = st.sampled_from(["", "\t", "  "])
ITEM_KINDS = st.sampled_from(["number", "glued", "move", "move", "comment"] * 3 + ["odd"])
PADDED_COMMENTS = st.sampled_from(["{0}", "{-460}", "{a\nb}", "{}"])
ODD_ITEMS = st.sampled_from(["$1", "!", "00-05", "05-10x", "1.2", "0.", "07."])
PADDED_RESULTS = st.sampled_from(["1-1", "2-0", "0-2", "*", "1-0"])
PADDED_TAILS = st.sampled_from(["", "\n", " \n", "\n\n", "\\r\n", " \\r\n\n"])
BEFORE_MOVETEXT = st.sampled_from(["", "\n"])


@st.composite
def padded_games(draw: st.DrawFn) -> str:
    """Games whose runs zero-pad squares and move numbers here and there (the international set's
    exports: `01.32-28 {0} 17-21 02.33-29`), with comments between, results glued to the next game's
    tags or not, and now and then something the fast reading leaves to Lark (a NAG, a dangling number);
    their tag pairs one a line or not (on one line, after tabs), values with escapes, a literal `\\r` now
    and then."""
    out = []
    for _ in range(draw(st.integers(1, 3))):
        pairs = draw(PADDED_TAGS)
        tags = draw(TAG_INDENTS)
        tags += "".join(f'[{name} "{value}"]{gap}' for name, value, gap in pairs)
        items = []
        for _ in range(draw(st.integers(0, 12))):
            kind = draw(ITEM_KINDS)
            if kind == "number":
                items.append(draw(NUMBERS) + draw(SPACES) + draw(PADDED_MOVES))
            elif kind == "glued":
                items.append(draw(NUMBERS) + draw(PADDED_MOVES))
            elif kind == "move":
                items.append(draw(PADDED_MOVES))
            elif kind == "comment":
                items.append(draw(PADDED_COMMENTS))
            else:
                items.append(draw(ODD_ITEMS))
        movetext = "".join(item + draw(SPACES) for item in items)
        result = draw(PADDED_RESULTS)
        tail = draw(PADDED_TAILS)
        out.append(tags + draw(BEFORE_MOVETEXT) + movetext + result + tail)
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(padded_games(), st.booleans())
def test_zero_padded_games_are_read_as_lark_reads_them(text: str, strict: bool) -> None:
    fast, lark = both(text, strict)
    assert fast == lark


@settings(max_examples=200, deadline=None)
@given(st.one_of(edge_games(), padded_games()), st.booleans())
def test_a_games_move_count_and_move_texts_are_those_of_its_moves(text: str, compiled: bool) -> None:
    """Game.move_count (what a record of a game that does not replay reports as its plies) is the
    number of moves Game.moves() makes, Game.move_text(i) (a diagnostic's move label) the text of
    the i-th, and Game.move_texts() (many labels) the texts of all, runs kept as text or not."""
    for game in read_text(text, engine=COMPILED if compiled else LarkOnly()):
        if isinstance(game, Game):
            texts = [move.text for move in game.moves()]
            assert game.move_count() == len(texts)
            assert [game.move_text(index) for index in range(len(texts) + 2)] == [*texts, None, None]
            assert game.move_texts() == texts


def test_zero_padded_games_and_glued_results_are_read_at_once() -> None:
    """The property above compares nothing if the fast reading never takes such a game: zero-padded runs
    (their warnings, same as Lark's, said by the fast reading) with comments between, a result glued to the
    next game's tags, a game longer than 64 runs and comments, are read at once."""
    text = ('[Result "1-1"]\n01.33-29 {0} 20-25 02.32-28 {0} 17-21 \n03.39x33 {20} 19-23 04.28x 19 \n1-1'
            '[Result "0-2"]\n01.32-28 {0} 18-23\n0-2\n')
    assert fast_count(text) == 2
    games = read_text(text, engine=COMPILED)
    assert [(w.code, w.message, w.line, w.column) for w in games[0].warnings] == [
        ("glued-result", "result glued to the next game's tag", 4, 1),
        ("zero-padded", "zero-padded move number '01.'", 2, 1), ("zero-padded", "zero-padded move number '02.'", 2, 20),
        ("zero-padded", "zero-padded move number '03.'", 3, 1), ("zero-padded", "zero-padded move number '04.'", 3, 21)]
    long = '[Event "x"]\n' + " ".join(f"{n:02}. 32-28 {{c}}" for n in range(1, 80)) + " *\n"
    assert fast_count(long) == 1
    one_line = '\t[Event "x"] [Site "y"] 01. 05-10 *\n'     # padded items on the tags' line, after a tab
    assert fast_count(one_line) == 1
    for sample in (text, long, one_line):
        fast, lark = both(sample)
        assert fast == lark


def test_literal_escapes_are_read_at_once_and_warned_about_as_lark_does() -> None:
    """A broken export's literal `\\r` (two characters) between tags, before the movetext and after the
    result: the game is read at once, with Lark's warnings in Lark's order (the white space's, then the
    zero padding's, then the tags'); strict, Lark reads it (a literal escape is an error there)."""
    text = '[Event "x"]\n[Site ""]\\r\n[Result "0-2"]\\r\n1. 05-10 10-15 *\\r\n\n[Event "y"]\n*\n'
    assert fast_count(text) == 2
    games = read_text(text, engine=COMPILED)
    assert [(w.code, w.message, w.line, w.column) for w in games[0].warnings] == [
        ("literal-escape", "literal '\\r' or '\\n' text read as white space", 3, 15),
        ("zero-padded", "zero-padded square in '05-10'", 4, 4),
        ("literal-escape", "literal '\\r' or '\\n' text between tags", 3, 1)]
    for strict in (False, True):
        fast, lark = both(text, strict)
        assert fast == lark
    assert isinstance(read_text(text, strict=True, engine=COMPILED)[0], ReadError)


@pytest.mark.slow          # 200 damaged samples of corpus files, as test_robustness's damaged-game properties
@settings(FUZZ, deadline=None)
@given(damaged())
def test_damaged_real_games_are_read_as_lark_reads_them(sample: tuple[bytes, bytes]) -> None:
    text = b"".join(sample).decode("utf-8", "replace")
    fast, lark = both(text)
    assert fast == lark


def test_the_common_game_is_read_at_once_and_others_are_not() -> None:
    """The property tests above compare nothing if the fast reading never takes a game: the common
    game is taken, with its comments, and a game with anything more (a line comment, a variation, a
    loose tag, a comment after its result) is not."""
    common = '[Event "x"]\n[Result "1-0"]\n\n1. 11-15 23-19\n2. 8-11 1-0\n\n[Event "y"]\n*\n'
    assert fast_count(common) == 2
    assert fast_count(common.replace("23-19", "23-19 {c}")) == 2
    assert fast_count(common.replace("23-19", "23-19 ; c\n")) == 1
    assert fast_count(common.replace("23-19", "23-19 (23-18)")) == 1
    assert fast_count(common.replace('[Event "y"]', "[Event y]")) == 1
    assert fast_count(common.replace("1-0\n\n", "1-0 {after}\n\n")) == 1
    assert fast_count(common.replace("11-15", "11-05").replace("2. ", "02. ")) == 2      # zero padding
    assert fast_count(common.replace("1-0\n\n", "1-0")) == 2                           # glued to the next tags
    assert fast_count(common.replace("11-15", "11-15 $1")) == 1
    assert fast_count(common.replace('"]\n[Result', '"]  [Result')) == 2        # pairs on one line
    assert fast_count(common.replace('[Event "x"]', '\t[Event "x\\\\y"]')) == 2      # a tab before, an escape
    assert fast_count(common.replace('[Event "x"]', '[Event "x\ny"]')) == 2      # a value over two lines
    # A blank line inside a tag section: one game, its second section merged (it was read as a game of
    # its own, at once); a tag named again after it starts a new game, as before.
    blank = common.replace('[Event "x"]\n', '[Event "x"]\n\n')
    assert fast_count(blank) == 1 and len(read_text(blank, engine=COMPILED)) == 2
    again = common.replace('[Event "x"]\n', '[Event "x"]\n\n[Event "z"]\n')
    assert fast_count(again) == 2 and len(read_text(again, engine=COMPILED)) == 3
    assert all(fast == lark for fast, lark in (both(blank), both(again), both(blank, strict=True)))


@pytest.mark.parametrize("end", ["\n\n", "", "  ", "\n 1-0"])
def test_a_game_cut_by_a_block_end_is_read_as_lark_reads_it(monkeypatch: pytest.MonkeyPatch, end: str) -> None:
    """Blocks of 64 bytes cut games anywhere: a game the fast reading meets cut is left to the scanner;
    the text's last line, with no line end, comes joined to the block before it."""
    monkeypatch.setattr(decoding, "BLOCK", 64)
    game = '[Event "x"]\n[Result "1-0"]\n\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17x10 1-0\n\n'
    text = "".join(game.replace('"x"', f'"{n}"') for n in range(40)).rstrip("\n") + end

    def read(engine: Any) -> list[Game | ReadError]:
        return list(read_games(io.BytesIO(text.encode()), engine=engine))
    assert seen(read(COMPILED)) == seen(read(LarkOnly()))


@pytest.mark.parametrize("block", [1024, 3000])
def test_games_on_a_line_longer_than_a_block_are_located_as_lark_locates_them(monkeypatch: pytest.MonkeyPatch,
                                                                               block: int) -> None:
    """A line longer than a block (an export without line ends): the next block's scan starts within the
    line, whose start lies before that block's text.  The fast reading took such a start for none and
    placed the moves of a game read there from the block's start (a 310 KB line of 4,000 games put the
    last game's moves at column 48,703, not 310,843)."""
    monkeypatch.setattr(decoding, "BLOCK", block)
    game = '[Event "x"] [Result "1-0"] 1. 11-15 23-19 2. 8-11 22-17 3. 09-13 17x10 1-0 '
    text = "".join(game.replace('"x"', f'"{n}"') for n in range(200)) + "\n"     # past the sniffed bytes

    def read(engine: Any) -> list[Game | ReadError]:
        return list(read_games(io.BytesIO(text.encode()), engine=engine))
    assert fast_taken(lambda: read(COMPILED)) == 1       # the last game: a line end after it
    assert seen(read(COMPILED)) == seen(read(LarkOnly()))


def test_movetext_on_the_line_of_the_last_of_several_tag_pairs_is_located_on_it() -> None:
    """The fast reading located a run, comment or result on the line of the last of several tag pairs
    as if that line started where the first pair's does (columns too far right)."""
    for text in ('[Event "x"]\n[Result "1-0"] 1. 11-15 1-0\n', '[Event "x"]\n[Result "1-0"] {c} 11-15\n*\n'):
        assert fast_count(text) == 1
        fast, lark = both(text)
        assert fast == lark


@pytest.mark.parametrize("text", ['[FEN "W:W31,32:\nB1,2"]\n01. 05-10 10x 01x06 1-0\n',
                                  '[Event "a\nb"]\n[Site "c"] 1. 11-15 {x} 23-19 *\n',
                                  '[Event "a"]\n[FEN "W:W18:\n\nB14"]\n\n1. 18x9 02. 9-5 1-0\n'])
def test_a_tag_value_over_lines_is_read_at_once_as_lark_reads_it(text: str) -> None:
    """A tag value over lines (a FEN wrapped by an editor: 53 games of the international set): the
    game is read at once, its pairs, moves and warnings about zero-padded moves located on the lines
    after the value's line ends, as Lark locates them."""
    assert fast_count(text) == 1
    fast, lark = both(text)
    assert fast == lark


@pytest.mark.parametrize("tags", ['[Event "x"]\n', '[Event "x"]\n[Result "1-0"]\n\n'])
def test_a_last_game_with_no_line_end_after_it_is_read_at_once(tags: str) -> None:
    """A one-game file whose last line has no line end (a third of the international set): the
    decoder hands that line over as a block of its own, which is scanned with the one before it,
    so the game is read at once, as Lark reads it."""
    for text in (tags + "1. 32-28 19-23\n2. 28x19 14x23 1-0", tags + "1. 32-28 19-23\n*  ",
                 tags + "1. 32-28 {a\nb} 19-23 1-0", '[Event "y"]\n*\n\n' + tags + "1. 32-28 19-23\n1-0"):
        assert fast_count(text) == text.count("[Event"), text
        fast, lark = both(text)
        assert fast == lark


def test_a_game_read_at_once_is_the_same_game_once_pickled() -> None:
    """The games of stdin go to --jobs workers split, not parsed: pickled, a game read at once keeps
    what makes it one (its tag pairs, its other tokens), and is parsed into the same game."""
    text = '[Event "x"]\n[Result "1-0"]\n\n1. 11-15 {c} 23-19\n2. 8-11 1-0\n\n[Event "y"]\n*\n'
    raws = [raw for raw, _ in read_raw(io.BytesIO(text.encode()), engine=COMPILED)]
    again = [pickle.loads(pickle.dumps(raw)) for raw in raws]
    assert [type(raw.tokens[0]) for raw in again] == [tokens.FastTags, tokens.FastTags]
    assert [parse_raw(raw, 1, engine=COMPILED) for raw in again] == [parse_raw(raw, 1, engine=COMPILED) for raw in raws]


def test_what_fast_game_reads_is_what_the_scanner_scans() -> None:
    """fast_game's tokens are the scanner's, at the same places: the tags, the run, the result; each with
    its kind, the line ends before it (since the start of the token before) and after the last of them, and
    whether a blank line comes before it."""
    module = core.compiled_scanner()
    assert module is not None
    text = '[Event "x"]\n[Result "1-0"]\n\n1. 11-15 23-19\n1-0\n'
    assert module.fast_game(text, 0, len(text), False) == ([("Event", "x"), ("Result", "1-0")], 26,
                                                          ((28, 42, 0, 2, 28, True), (43, 46, 2, 1, 43, False)), [], None)
    assert module.fast_game(text, 0, len(text) - 1, False) is None      # no line end before the end
    assert module.fast_game(text, 0, len(text) - 1, True) == module.fast_game(text, 0, len(text), False)  # last
    assert module.fast_game('[Event "x"]\n*\n', 0, 14, False) == ([("Event", "x")], 11, ((12, 13, 3, 1, 12, False),), [], None)
    commented = '[Event "x"]\n{a\nb} 1. 11-15 {c}\n1-0\n'
    assert module.fast_game(commented, 0, len(commented), False) == ([("Event", "x")], 11, (
        (12, 17, 1, 1, 12, False), (18, 26, 0, 1, 15, False), (27, 30, 1, 0, -1, False), (31, 34, 2, 1, 31, False)), [], None)
    padded = '[Event "x"]\n01.05-10 7-11\n 02... 10x 04 2-0[Event "y"]'
    assert module.fast_game(padded, 0, len(padded), False) == ([("Event", "x")], 11, (
        (12, 39, 0, 1, 12, False), (40, 43, 2, 1, 26, False)), [      # the warning about each padded item, its place
        ("zero-padded move number '01.'", 1, 12, 12), ("zero-padded square in '05-10'", 1, 12, 15),
        ("zero-padded move number '02...'", 2, 26, 27), ("zero-padded square in '10x 04'", 2, 26, 33)], None)
    spaced = '\t[A "x"] [B "y\\"z"]\n  [C "w"]\n*\n'       # pairs not one a line: the place of each; escapes undone
    assert module.fast_game(spaced, 1, len(spaced), False) == ([("A", "x"), ("B", 'y"z'), ("C", "w")], 29, (
        (30, 31, 3, 1, 30, False),), [], ((1, 0, -1, False), (9, 0, -1, False), (22, 1, 20, False)))
    escaped = '[A "x"]\\r\n[B "y"]\\n\n1. 11-15 *\n'   # literal escapes: between tags, as white space (kind 4)
    assert module.fast_game(escaped, 0, len(escaped), False) == ([("A", "x"), ("B", "y")], 17, (
        (17, 20, 4, 0, -1, False), (20, 28, 0, 1, 20, False), (29, 30, 3, 0, -1, False)), [],
        ((0, 0, -1, False), (10, 1, 10, True)))
    assert module.fast_game(commented.replace("{a\n", "{a\n\n"), 0, len(commented) + 1, False) is None
    with pytest.raises(ValueError):
        module.fast_game(text, 0, len(text) + 1, False)
    with pytest.raises(TypeError):
        module.fast_game(b"[", 0, 1, False)
