"""The model builder: the inline Lark transformer that makes a Game as the parser reduces (no tree)."""
from __future__ import annotations

import re
import sys
from itertools import repeat
from typing import Any, Iterator, Union, cast

from lark import Token, Transformer

from pdn_tools.text.codes import Code
from pdn_tools.text.numbers import LONGEST, number
from pdn_tools.text.patterns import lazy
from pdn_tools.text.model import (Comment, Diagnostic, Element, Game, NotatedMove, MoveNumber, MoveRun, Nag,
                                  Placeholder, Setup, Variation, keep_runs)
from pdn_tools.text.plans import _recorded, _Recording
from pdn_tools.text.records import record
from pdn_tools.text.tokens import ESCAPE, FastTags, PlainRun, Reading, ScanToken

_SEPARATOR = lazy(r"[-xX:] ?")
_STRICT_TAG_NAME = lazy(r"[A-Z][A-Za-z0-9_]*\Z")

@record(slots=True)
class _Context:
    """Per-game state of the transformer: where diagnostics go, and whether the main line's
    plain runs stay text (tested by `plain`)."""

    warnings: list[Diagnostic]
    strict: bool
    runs: bool = False
    plain: PlainRun | None = None

    def __init__(self, warnings: list[Diagnostic], strict: bool, runs: bool = False,
                 plain: PlainRun | None = None) -> None:
        self.warnings, self.strict, self.runs, self.plain = warnings, strict, runs, plain


# What the movetext's reductions receive: tokens and the variations built below them.
Child = Union[ScanToken, Variation]
# One item of a piece of a move run, remembered: (offset, kind, text, value), the value being
# (squares, capture) for a MOVE, (number, black, read slowly) for a MOVENUMBER, else None.
PieceItem = tuple[int, str, str, Any]

class _Builder(Transformer[ScanToken, Game]):
    """Builds model objects as the LALR parser reduces (no tree is kept)."""

    # The items of a MOVES run; set by PdnParser from the terminals once Lark has compiled them.
    fine: re.Pattern[str]

    def __init__(self, tag: re.Pattern[str]) -> None:
        super().__init__()
        self.context = _Context([], False)
        self._tag = tag
        self._pieces: dict[str, tuple[PieceItem, ...]] = {}
        self.recording: _Recording | None = None

    def _quirk(self, line: int, column: int, code: Code, message: str) -> None:
        """A tolerated deviation: a warning, or an error in strict mode when the code is
        strict-fatal (the PDN 3.0 reading grammar rejects it).  Equal messages share one string
        (interned): a run of tokens that each warn does not copy the message a token."""
        diagnostic = Diagnostic(code, sys.intern(message), line, column)
        if self.context.strict and code.strict_fatal:
            raise _StrictError(diagnostic)
        self.context.warnings.append(diagnostic)

    @_recorded
    def start(self, children: list[ScanToken | list[Element | MoveRun] | _Terminator]) -> Game:
        game = Game()
        for child in children:
            if isinstance(child, Token):
                if _PLAIN_TAGS.fullmatch(child):        # one plain tag pair a line: nothing to report
                    pairs: list[tuple[str, str]] = _PLAIN_TAG.findall(child)
                    game.tags += pairs
                    game.tag_positions += [(child.line, child.column)] + \
                        [(line, 1) for line in range(child.line + 1, child.line + len(pairs))]
                    continue
                for name, value, position in self._tags(child):
                    game.tags.append((name, value))
                    game.tag_positions.append(position)
            elif isinstance(child, list):
                if self.context.runs and any(isinstance(element, MoveRun) for element in child):
                    keep_runs(game, child)
                else:
                    game.elements = cast(list[Element], child)
            else:
                game.result = child
        return game

    def _tags(self, token: ScanToken) -> Iterator[tuple[str, str, tuple[int, int]]]:
        end = 0
        line, counted, newline = token.line, 0, -1    # lines counted up to offset `counted`
        for match in self._tag.finditer(token):
            name, quoted, loose = match.group("name", "quoted", "loose")
            begin = match.start()
            newlines = token.count("\n", counted, begin)
            if newlines:
                line += newlines
                newline = token.rfind("\n", counted, begin)
            counted = begin
            column = begin - newline if newline >= 0 else token.column + begin
            if "\\" in token[end:begin]:
                self._quirk(line, column, Code.LITERAL_ESCAPE, "literal '\\r' or '\\n' text between tags")
            end = match.end()
            if quoted is None:
                name = match.group("word")
                self._quirk(line, column, Code.LOOSE_TAG, f"tag {name} has no quoted value")
                yield name, loose.strip().strip('"'), (line, column)
                continue
            if not _STRICT_TAG_NAME.match(name):
                self._quirk(line, column, Code.TAG_NAME, f"tag name {name!r} is not a PDN identifier")
            yield name, unescape(quoted), (line, column)

    @_recorded
    def terminator(self, children: list[ScanToken]) -> _Terminator:
        return _Terminator(children[0])

    @_recorded
    def body(self, children: list[Child]) -> list[Element | MoveRun]:
        return self._elements(children, runs=self.context.runs)

    @_recorded
    def variation(self, children: list[Child | _Terminator]) -> Variation:
        result = str(children.pop()) if children and isinstance(children[-1], _Terminator) else None
        elements = self._elements(cast(list[Child], children), runs=False)     # its result taken off
        return Variation(cast(list[Element], elements), result)

    def _elements(self, children: list[Child], runs: bool) -> list[Element | MoveRun]:
        """The model elements of `children`, which it empties (each token is freed once built:
        the main line's are all children of `body`); with `runs`, a run of plain moves is kept as
        a MoveRun (text) when nothing in it calls for a diagnostic."""
        out: list[Element | MoveRun] = []
        children.reverse()
        while children:
            child = children.pop()
            if not isinstance(child, ScanToken):
                out.append(child)
            elif child.type == "MOVES":
                if runs and (self.context.plain or _plain_by_regex)(child):
                    out.append(MoveRun(str(child), child.line, child.column))
                elif runs and _PADDED_RUN.fullmatch(child):
                    out.append(self._padded_run(child))
                else:
                    self._moves(child, out)
            elif child.type == "COMMENT":
                out.append(Comment(child[1:-1]))
            elif child.type == "LINE_COMMENT":
                out.append(Comment(child[1:], child[0]))
            else:
                out.append(self._setup(child))
        self._dangling_numbers(out)
        return out

    def _padded_run(self, token: ScanToken) -> MoveRun:
        """A run with zero padding kept as text, its warnings said as `_scanned_moves` says them."""
        run = MoveRun(str(token), token.line, token.column)
        for piece, line, column in run.pieces():
            if piece.endswith("."):
                self._padded_number(piece, line, column)
            else:
                self._padded_square(piece, line, column)
        return run

    def _dangling_numbers(self, elements: list[Element | MoveRun]) -> None:
        """A move number must be followed by a move (`1. 2-0` is not a game in PDN 3.0)."""
        last = len(elements) - 1
        for index, element in enumerate(elements):
            if type(element) is NotatedMove:
                continue
            if isinstance(element, MoveNumber):
                number: Element = element
            elif isinstance(element, MoveRun) and element.ends_with_number():   # only its last item can dangle
                number = element.expand()[-1]
            else:
                continue
            if isinstance(number, MoveNumber) and number.number and (
                    index == last or type(elements[index + 1]) not in _MOVE_LIKE):
                self._quirk(number.line, number.column, Code.DANGLING_NUMBER,
                            f"move number {number.text!r} without a move")

    def _moves(self, run: ScanToken, out: list[Element | MoveRun]) -> None:
        """Expand a MOVES run into moves, move numbers, strength marks and NAGs."""
        if out and isinstance(out[-1], MoveRun):     # a strength mark may belong to its last move
            out[-1:] = out[-1].expand()
        if "\\" in run:
            self._quirk(run.line, run.column, Code.LITERAL_ESCAPE, "literal '\\r' or '\\n' text in the movetext")
        odd = run != run.lower() or _ZERO_PADDED.search(run) is not None     # upper case, or 05
        if not odd and not ("-  " in run or "\t" in run or "\f" in run or "\\" in run):
            self._plain_moves(run, out, "- " in run or "x " in run or ": " in run)
        else:
            self._scanned_moves(run, out, odd)

    def _scanned_moves(self, run: ScanToken, out: list[Element | MoveRun], odd: bool) -> None:
        """`_moves` for any run: its items found by the fine scanner over the whole run; `odd`:
        it holds upper case or zero padding, which the moves it is in are warned about."""
        line, line_start = run.line, 1 - run.column       # offsets are within the run
        newline = run.find("\n")
        for match in self.fine.finditer(run):
            start = match.start()
            while 0 <= newline < start:
                line += 1
                line_start = newline + 1
                newline = run.find("\n", line_start)
            self._item(match.lastgroup, match.group(), line, start - line_start + 1, odd, out)

    def _plain_moves(self, run: ScanToken, out: list[Element | MoveRun], spaced: bool) -> None:
        """`_moves` for the common run (no upper case, zero padding, '-' before two spaces, tab,
        form feed or escape): the run is cut at spaces and line ends, and each piece is scanned
        once and remembered.  No item runs across a cut, but a separator and one space before
        the next square (`1- 7`, `28x 19`) or a placeholder `- -`: with `spaced` (the run holds
        such a space), a piece ending with a separator is read with the piece after it."""
        pieces = self._pieces
        line, column = run.line, run.column
        for text in run.split("\n"):
            cut = text.split(" ")
            if spaced:
                cut = _join_spaced(cut)
            for piece in cut:
                if piece:
                    items = pieces.get(piece)
                    if items is None:
                        items = self._piece(piece)
                    for offset, kind, item, value in items:
                        if kind == "MOVE":
                            out.append(NotatedMove(item, value[0], value[1], "", line, column + offset))
                        elif kind == "MOVENUMBER" and not value[2]:
                            out.append(MoveNumber(value[0], value[1], item, line, column + offset))
                        else:
                            self._item(kind, item, line, column + offset, False, out)
                column += len(piece) + 1
            line += 1
            column = 1

    def _piece(self, piece: str) -> tuple[PieceItem, ...]:
        """The items of a piece of a run (no white space): (offset, kind, text, parsed)."""
        items: list[PieceItem] = []
        for match in self.fine.finditer(piece):
            kind, text = match.lastgroup or "", match.group()
            value: Any = None
            if kind == "MOVE":
                move = self._move(text, 0, 0, False)
                value = move.squares, move.capture
            elif kind == "MOVENUMBER":
                digits = text.rstrip(".")
                count = number(digits)
                # a number too long to read goes the slow way, which reports it
                value = count, text.endswith("..."), count is None or (len(digits) > 1 and digits[0] == "0")
            items.append((match.start(), kind, text, value))
        if len(self._pieces) >= _PIECES_KEPT:
            self._pieces.clear()
        self._pieces[piece] = kept = tuple(items)
        return kept

    def _item(self, kind: str | None, text: str, line: int, column: int, odd: bool,
              out: list[Element | MoveRun]) -> None:
        """One item of a MOVES run as a model element."""
        if kind == "MOVE":
            out.append(self._move(text, line, column, odd))
        elif kind == "MOVENUMBER":
            out.append(self._move_number(text, line, column))
        elif kind == "STRENGTH":
            self._strength(out, text, line, column)
        elif kind == "NAG":
            out.append(Nag(_read_number(text[1:], "NAG", line, column)))
        elif kind == "ELLIPSIS":
            out.append(MoveNumber(0, True, text, line, column))
        else:
            self._quirk(line, column, Code.PLACEHOLDER, f"unknown move written as {text!r}")
            out.append(Placeholder(text, line, column))

    def _strength(self, out: list[Element | MoveRun], text: str, line: int, column: int) -> None:
        """Attach a strength mark to the move before it (white space may come between)."""
        previous = out[-1] if out else None
        if text == "*":
            self._quirk(line, column, Code.FORCED_MARK, "'*' glued to a move read as a forced-move mark")
        if isinstance(previous, NotatedMove) and not previous.strength:
            previous.strength = text
        else:
            self._quirk(line, column, Code.STRAY_STRENGTH, f"strength mark {text!r} without a move")
            out.append(Comment(text))

    def _move(self, text: str, line: int, column: int, odd: bool) -> NotatedMove:
        if odd:
            self._padded_square(text, line, column)
            if _UPPER.search(text):
                self._quirk(line, column, Code.UPPERCASE_SQUARE, f"upper-case square in {text!r}")
        if "-" in text:
            capture = False
            squares = tuple(text.replace(" ", "").split("-"))
        elif "x" in text:
            capture = True
            squares = tuple(text.replace(" ", "").split("x"))
        elif ":" in text or "X" in text:
            capture = True
            squares = tuple(_SEPARATOR.split(text))
        elif text[1].isalpha():          # Russian short algebraic: file, then square
            capture = False
            squares = (text[0], text[1:])
        else:
            capture = False
            squares = tuple(_ALPHA_SQUARE.findall(text))
        return NotatedMove(text, squares, capture, "", line, column)

    def _move_number(self, text: str, line: int, column: int) -> MoveNumber:
        digits = text.rstrip(".")
        count = _read_number(digits, "move number", line, column)
        self._padded_number(text, line, column)
        return MoveNumber(count, text.endswith("..."), text, line, column)

    def _padded_square(self, move: str, line: int, column: int) -> None:
        if _PADDED.search(move):
            self._quirk(line, column, Code.ZERO_PADDED, f"zero-padded square in {move!r}")

    def _padded_number(self, number: str, line: int, column: int) -> None:
        digits = number.rstrip(".")
        if len(digits) > 1 and digits[0] == "0":
            self._quirk(line, column, Code.ZERO_PADDED, f"zero-padded move number {number!r}")

    def _setup(self, token: ScanToken) -> Setup:
        inner = token[1:-1].strip()
        if inner.upper().startswith("FEN"):
            inner = inner[3:].strip()
        return Setup(inner.strip('"'), token.line, token.column)


def _join_spaced(pieces: list[str]) -> list[str]:
    """`pieces` (a line cut at each space) with each piece that ends with a separator joined to
    the next one when that is not empty (one space between): `['1-', '7']` -> `['1- 7']`."""
    out: list[str] = []
    for piece in pieces:
        if out and out[-1][-1:] in ("-", "x", ":") and piece:
            out[-1] += " " + piece
        else:
            out.append(piece)
    return out


# The messages of the literal escapes a game read at once may hold (PdnParser._recover's, `_tags`').
_AS_WHITE_SPACE = sys.intern("literal '\\r' or '\\n' text read as white space")
_BETWEEN_TAGS = sys.intern("literal '\\r' or '\\n' text between tags")


class _Terminator(str):
    """A result or '*' as reduced by the parser (told apart from other strings)."""


# Tag pairs `[Name "value"]` one a line with nothing between: a name PDN allows, a value with no
# escape; `_tags` would read them with no diagnostic, each at the start of its line.
_PLAIN_TAG = lazy(r'\[([A-Z][A-Za-z0-9_]*) "([^"\\\n]*)"\]')
_PLAIN_TAGS = lazy(r'\[[A-Z][A-Za-z0-9_]* "[^"\\\n]*"\](?:\n\[[A-Z][A-Za-z0-9_]* "[^"\\\n]*"\])*+')
_MOVE_LIKE = (NotatedMove, MoveNumber, Placeholder, MoveRun)      # what may follow a move number


def _run_pattern(square: str, number: str) -> re.Pattern[str]:
    """A run kept as text (MoveRun) of these squares and move numbers: move numbers, ellipses,
    and moves ('-' between two squares, 'x' between two to 25; a separator may have one space
    after it, as right-aligned columns write `1- 7`), a move number maybe glued to the move
    after it (`1.33-29`), apart by spaces, tabs and line ends."""
    move = rf"{square}(?:- ?{square}|(?:x ?{square}){{1,24}})"
    # atomic: an item (a number and its glued move are one here) is followed by white space or the end
    item = rf"(?>(?:{number}\.(?:\.\.)?|\.\.\.)(?:{move})?|{move})"
    return lazy(rf"{item}(?:[ \t\n]++{item})*+")


# The plain run: squares of one or two digits, numbers of up to six, no zero padding.
# Nothing in it calls for a diagnostic but a dangling last number.
_PLAIN_RUN = _run_pattern("[1-9][0-9]?", "[1-9][0-9]{0,5}")
# A run whose only other diagnostics are zero-padding warnings (`07-12`, `01.`): kept as text too.
_PADDED_RUN = _run_pattern("(?:0[1-9]|[1-9][0-9]?)", "(?:0[1-9]|[1-9][0-9]{0,5})")


def _plain_by_regex(text: str) -> bool:
    return _PLAIN_RUN.fullmatch(text) is not None


_ZERO_PADDED = lazy(r"0(?<![0-9]0)[0-9]")      # a 0 after no digit, then a digit
_PIECES_KEPT = 4096
_PADDED = lazy(r"(?:^|[-xX:] ?)0[0-9]")
_UPPER = lazy(r"[A-LX]")
_ALPHA_SQUARE = lazy(r"[a-lA-L](?:1[0-2]|[1-9])")


def _read_number(digits: str, what: str, line: int, column: int) -> int:
    """The value of a move number's or NAG's digits; too many digits make the game unreadable."""
    value = number(digits)
    if value is None:
        raise _StrictError(Diagnostic(Code.SYNTAX, f"{what} of {len(digits)} digits (at most {LONGEST})",
                                      line, column))
    return value


class _StrictError(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        self.diagnostic = diagnostic


def unescape(value: str) -> str:
    r"""Undo the tag-value escapes \" and \\; any other backslash is kept."""
    if "\\" not in value:
        return value
    return re.sub(r'\\(["\\])', r"\1", value)

# One tag pair: [Name "quoted value"], or leniently [Name loose value].  A name is made of
# the words of the grammar's LOOSE_TAG (no '{', '}', '(' or ')'): the name read is one the
# writer can write back.
TAG_PAIR = lazy(r'\[[ \t]*(?:(?P<name>[^\s"\[\]{}()]+(?:[ \t]+[^\s"\[\]{}()]+)*)[ \t]*'
                      r'"(?P<quoted>[^"\\]*(?:\\.[^"\\]*)*)"|(?P<word>[^\s"\[\]{}()]+)[ \t]*'
                      r'(?P<loose>[^\]\n]*))[ \t]*\]')

def _padding_warnings(tags: FastTags) -> list[Diagnostic]:
    """`_padded_run`'s warnings about the zero-padded items of a game read at once, located as
    MoveRun.pieces locates them."""
    line, column, start = tags.line, tags.column, tags.start_pos
    return [Diagnostic(Code.ZERO_PADDED, message, line + newlines,
                       at - newline_end + 1 if newline_end >= 0 else column + at - start)
            for message, newlines, newline_end, at in tags.padded]


def _fast_built(tags: FastTags, tokens: list[ScanToken], reading: Reading | None) -> Game:
    """The Game of a game's tokens `fast_game` made, as the builder would make it: the tags, the
    runs of moves (kept as text when `reading` keeps runs) and comments, the terminator; the warnings,
    in the builder's order: about white space holding a literal escape (PdnParser._recover's), its
    zero-padded move numbers and moves (`_padded_run`'s, as the body is reduced) and literal escapes
    between its tags (`_tags`', as the game is)."""
    pairs, line, padded, places = tags.pairs, tags.line, tags.padded, tags.places
    warnings = _padding_warnings(tags) if padded else []
    if tags.escapes:
        warnings += [Diagnostic(Code.LITERAL_ESCAPE, _BETWEEN_TAGS, at, where) for at, where in tags.escapes]
    game = Game(pairs, result=_Terminator(tokens[-1]), warnings=warnings)
    if places is None:                  # one pair a line, each after the first at its line's start
        positions = [(line, tags.column)]
        if len(pairs) > 1:
            positions += zip(range(line + 1, line + len(pairs)), repeat(1))
        game.tag_positions = positions
    else:
        game.tag_positions = list(places)
    movetext: list[Element | MoveRun] = []
    runs = False
    spaced: list[Diagnostic] = []       # the white space's warnings, which come first
    for token in tokens[1:-1]:
        if token.type == "MOVES":
            movetext.append(MoveRun(str(token), token.line, token.column))
            runs = True
        elif token.type == ESCAPE:
            spaced.append(Diagnostic(Code.LITERAL_ESCAPE, _AS_WHITE_SPACE, token.line, token.column))
        else:
            movetext.append(Comment(token[1:-1]))
    if spaced:                          # put in front at once: one insert each moved the others every time
        warnings[:0] = spaced
    if runs and reading is not None and reading.keeps_runs:
        keep_runs(game, movetext)
    elif runs:
        expanded: list[Element] = []
        for element in movetext:
            expanded += element.expand() if isinstance(element, MoveRun) else [element]
        game.elements = expanded
    elif movetext:
        game.elements = cast(list[Element], movetext)
    return game
