"""Game model: tags, movetext elements in written order, diagnostics.

Movetext is kept as a flat list of elements in the order they were written, with
variations holding their own lists.  A variation stands after the move it
replaces.  Keeping the written order makes reading then writing lossless.
Positions (line, column) are not part of equality, so a game read back from
written text compares equal to the original.
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, Union

from pdn_tools.text.codes import Code
from pdn_tools.text.patterns import lazy
from pdn_tools.text.records import record


@record(slots=True)
class NotatedMove:
    """A notated move: squares as written and the separators between them."""

    text: str                      # as written, e.g. '28x19', 'c3:e5', '07-12'
    squares: tuple[str, ...]       # ('28', '19')
    capture: bool                  # written with x, X or ':'
    strength: str = ""             # '!?', '(?)' glued or following the move
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    def __init__(self, text: str, squares: tuple[str, ...], capture: bool, strength: str = "", line: int = 0,
                 column: int = 0) -> None:
        self.text, self.squares, self.capture, self.strength = text, squares, capture, strength
        self.line, self.column = line, column


@record(slots=True)
class MoveNumber:
    """A move number: `12.`, `12...`."""

    number: int
    black: bool                    # '12...' or '12. ...': the second player's move
    text: str = field(default="", compare=False)   # as written, e.g. '01.'
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    def __init__(self, number: int, black: bool, text: str = "", line: int = 0, column: int = 0) -> None:
        self.number, self.black, self.text, self.line, self.column = number, black, text, line, column


@record(slots=True)
class Comment:
    """A comment: `{...}`, or a line comment after `%` or `;`."""

    text: str                      # without the braces or the leading '%'/';'
    kind: str = "{"                # '{' block comment, '%' or ';' line comment

    def __init__(self, text: str, kind: str = "{") -> None:
        self.text, self.kind = text, kind


@record(slots=True)
class Nag:
    """A numeric annotation glyph: `$12`."""

    number: int

    def __init__(self, number: int) -> None:
        self.number = number


@record(slots=True)
class Setup:
    """A `/FEN "..."/` setup inside the movetext."""

    fen: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    def __init__(self, fen: str, line: int = 0, column: int = 0) -> None:
        self.fen, self.line, self.column = fen, line, column


@record(slots=True)
class Placeholder:
    """An unknown move written as `-` or `- -`."""

    text: str = "-"
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    def __init__(self, text: str = "-", line: int = 0, column: int = 0) -> None:
        self.text, self.line, self.column = text, line, column


@record(slots=True)
class Variation:
    """A variation: `( ... )`, standing after the move it replaces."""

    elements: list["Element"]
    result: str | None = None      # a result written at the end of the variation
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    def __init__(self, elements: list[Element], result: str | None = None, line: int = 0, column: int = 0) -> None:
        self.elements, self.result, self.line, self.column = elements, result, line, column


Element = Union[NotatedMove, MoveNumber, Comment, Nag, Setup, Placeholder, Variation]


@record(slots=True)
class MoveRun:
    """A run of the main line's movetext kept as text: move numbers (`12.`, `12...`, `...`)
    and moves of square numbers (`11-15`, `22x15x8`, `1- 7`: one space may follow a
    separator), a number maybe glued to the move after it (`1.33-29`), apart by white space
    (spaces, tabs, line ends); squares and numbers may be zero-padded (`07-12`, `01.`), which
    the reader warns about as it keeps the text.

    A reader asked to (see tokens.Reading) leaves the common runs as text, kept inside the
    Game (`keep_runs`), and `Game.elements` expands them when first asked for, so checking a
    game builds no object per move: the compiled core reads the text.  `expand()` gives exactly the elements the reader would have made, at the
    same lines and columns (a tab is one column, as the reader counts)."""

    text: str
    line: int
    column: int
    # The offsets of the text's line ends, found when a move is first located by its offset (_located).
    _ends: list[int] | None = field(default=None, init=False, compare=False, repr=False)

    def __init__(self, text: str, line: int, column: int) -> None:
        self.text, self.line, self.column = text, line, column
        self._ends = None

    def expand(self) -> list[Element]:
        """The run's move numbers and moves, each located as the reader locates them."""
        return [_run_item(piece, line, column) for piece, line, column in self.pieces()]

    def moves(self) -> list[NotatedMove]:
        """The run's moves alone, as expand() makes and locates them (its move numbers are not
        made: the main line's plies need the moves only)."""
        out = []
        line, column = self.line, self.column
        for text in self.text.split("\n"):
            out += [_run_move(match.group(), line, column + match.start()) for match in _RUN_MOVE.finditer(text)]
            line += 1
            column = 1
        return out

    def pieces(self) -> Iterator[tuple[str, int, int]]:
        """The text of each item (a move number, a move), and its line and column."""
        line, column = self.line, self.column
        for text in self.text.split("\n"):
            for match in _RUN_PIECE.finditer(text):
                yield match.group(), line, column + match.start()
            line += 1
            column = 1

    def item_at(self, offset: int) -> tuple[NotatedMove | MoveNumber | None, int]:
        """The first item at or after text offset `offset`, located, and the offset after it
        (None and the text's length when only white space is left)."""
        text = self.text
        match = _RUN_PIECE.search(text, offset)
        if match is None:
            return None, len(text)
        return _run_item(match.group(), *self._located(match.start())), match.end()

    def move_at(self, start: int, end: int) -> NotatedMove:
        """The move whose text is text[start:end], located as item_at(start) locates it."""
        return _run_move(self.text[start:end], *self._located(start))

    def _located(self, offset: int) -> tuple[int, int]:
        """The line and column of text offset `offset`, from the offsets of the line ends (found once a run:
        counted from the start for each move, the moves of a long run a replay leaves to Python, a
        Frisian game's, cost the square of its length)."""
        ends = self._ends
        if ends is None:
            text, ends = self.text, []
            end = text.find("\n")
            while end >= 0:
                ends.append(end)
                end = text.find("\n", end + 1)
            self._ends = ends
        before = bisect_left(ends, offset)
        if not before:
            return self.line, self.column + offset
        return self.line + before, offset - ends[before - 1]

    def items(self) -> int:
        """How many elements the run expands to."""
        return len(_RUN_PIECE.findall(self.text))

    def texts(self) -> list[str]:
        """The text of each item, in order (expand()'s elements as written, not located): see
        run_texts."""
        return run_texts(self.text)

    def ends_with_number(self) -> bool:
        """Whether the last item is a move number (moves end with a digit)."""
        return self.text.endswith(".")


def run_texts(text: str) -> list[str]:
    """The text of each item of a run's text, in order: the words of the text, a number glued to
    its move cut after its dots, a separator's space kept in its move (`1- 7`)."""
    out: list[str] = []
    held = ""                        # a move cut by its separator's space
    for word in text.split():
        if held:
            word, held = held + " " + word, ""
        elif "." in word and word[-1] != ".":
            dots = word.rindex(".") + 1
            out.append(word[:dots])
            word = word[dots:]
        if word[-1] in "-x":
            held = word
        else:
            out.append(word)
    return out


# An item of a MoveRun's text: a move number (its dots end it, a move may follow at once), a move.
_RUN_PIECE = lazy(r"[0-9]*\.+|[0-9]+(?:[-x] ?[0-9]+)+")
# A move of a MoveRun's text: found alone, the same moves (a move number's digits end with a dot).
_RUN_MOVE = lazy(r"[0-9]+(?:[-x] ?[0-9]+)+")


def _run_item(piece: str, line: int, column: int) -> NotatedMove | MoveNumber:
    """One item of a MoveRun (a move number or a move) as the reader reads it."""
    if piece.endswith("."):
        digits = piece.rstrip(".")
        return MoveNumber(int(digits) if digits else 0, piece.endswith("..."), piece, line, column)
    return _run_move(piece, line, column)


def _run_move(piece: str, line: int, column: int) -> NotatedMove:
    """A move of a MoveRun as the reader reads it."""
    read = _RUN_MOVES.get(piece)
    if read is None:
        squares = piece.replace(" ", "")
        read = (tuple(squares.split("-")), False) if "-" in piece else (tuple(squares.split("x")), True)
        if len(_RUN_MOVES) < _RUN_MOVES_KEPT:
            _RUN_MOVES[piece] = read
    return NotatedMove(piece, read[0], read[1], "", line, column)


# A move's text -> its squares and whether it captures: the same few thousand moves fill games.
_RUN_MOVES: dict[str, tuple[tuple[str, ...], bool]] = {}
_RUN_MOVES_KEPT = 1 << 16


@record(slots=True)
class Diagnostic:
    """A problem found while reading or replaying, located in the input."""

    code: Code
    message: str
    line: int
    column: int
    ply: int | None = None

    def __init__(self, code: Code, message: str, line: int, column: int, ply: int | None = None) -> None:
        self.code, self.message, self.line, self.column, self.ply = code, message, line, column, ply

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "line": self.line,
                "column": self.column, "ply": self.ply}


@record(slots=True)
class Game:
    """One game: ordered tags (duplicates and unknown tags kept) and movetext."""

    tags: list[tuple[str, str]] = field(default_factory=list)
    elements: list[Element] = field(default_factory=list)
    result: str | None = None      # the terminator written after the movetext
    before: list[Comment] = field(default_factory=list)   # comments before the tags (with no tags: in elements)
    after: list[Comment] = field(default_factory=list)    # comments after the terminator
    tag_positions: list[tuple[int, int]] = field(default_factory=list, compare=False)  # (line, column)
    line: int = field(default=0, compare=False)           # first line of the game
    index: int = field(default=0, compare=False)          # 1-based within its file
    file: str = field(default="", compare=False)
    warnings: list[Diagnostic] = field(default_factory=list, compare=False)
    # The movetext as read with runs of plain moves still text (see keep_runs): `elements` is
    # then left unset until first read, when __getattr__ expands it from here.
    _runs: list[Element | MoveRun] | None = field(default=None, init=False, compare=False, repr=False)

    def __init__(self, tags: list[tuple[str, str]] | None = None, elements: list[Element] | None = None,
                 result: str | None = None, before: list[Comment] | None = None, after: list[Comment] | None = None,
                 tag_positions: list[tuple[int, int]] | None = None, line: int = 0, index: int = 0, file: str = "",
                 warnings: list[Diagnostic] | None = None) -> None:
        """Each list left out (or None) is a new empty one."""
        self.tags = [] if tags is None else tags
        _GAME_ELEMENTS.__set__(self, [] if elements is None else elements)     # the slot itself (see _Elements)
        self.result = result
        self.before = [] if before is None else before
        self.after = [] if after is None else after
        self.tag_positions = [] if tag_positions is None else tag_positions
        self.line, self.index, self.file = line, index, file
        self.warnings = [] if warnings is None else warnings
        self._runs = None

    def __getattr__(self, name: str) -> list[Element]:
        """`elements` expanded from the runs kept as text on first use (any other name:
        AttributeError)."""
        if name != "elements":
            raise AttributeError(name)
        movetext = self._runs
        if movetext is None:
            raise AttributeError(name)
        elements: list[Element] = []
        for element in movetext:
            if type(element) is MoveRun:
                elements += element.expand()
            else:
                elements.append(element)     # type: ignore[arg-type]
        self.elements = elements
        self._runs = None
        return elements

    @property
    def headers(self) -> Mapping[str, str]:
        """The tags as a read-only mapping, in written order, of each name's first value (as
        `tag()` reads it; `tags` keeps every pair, repeated names included).

        >>> game = Game([("White", "Sijbrands"), ("Black", "Baba Sy"), ("White", "again")])
        >>> dict(game.headers)
        {'White': 'Sijbrands', 'Black': 'Baba Sy'}
        """
        first: dict[str, str] = {}
        for name, value in self.tags:
            first.setdefault(name, value)
        return MappingProxyType(first)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The first value of tag `name` (case-sensitive), or `default`."""
        for key, value in self.tags:
            if key == name:
                return value
        return default

    def tag_position(self, name: str) -> tuple[int, int]:
        """(line, column) of the first tag called `name`, else of the game's start."""
        for (key, _), position in zip(self.tags, self.tag_positions):
            if key == name:
                return position
        return self.line, 1

    def set_tag(self, name: str, value: str) -> None:
        """Replace the first tag called `name`, or add it at the end."""
        for i, (key, _) in enumerate(self.tags):
            if key == name:
                self.tags[i] = (name, value)
                return
        self.tags.append((name, value))

    def main_line(self) -> list[NotatedMove]:
        """The moves of the main line, in order."""
        return [e for e in self.elements if isinstance(e, NotatedMove)]

    def moves(self) -> Iterator[NotatedMove]:
        """The moves of the main line, in order, made one run at a time from the runs kept as
        text (`elements` is not expanded: a long game's would weigh several times its text)."""
        for element in movetext_runs(self):
            if type(element) is MoveRun:
                yield from element.moves()
            elif isinstance(element, NotatedMove):
                yield element

    def move_text(self, index: int) -> str | None:
        """The text of the main line's move `index` (from 0) as moves() makes it, None past the last,
        found without making the moves before it (a diagnostic's move label, see play/check.py)."""
        for element in movetext_runs(self):
            if type(element) is MoveRun:
                texts = _RUN_MOVE.findall(element.text)
                if index < len(texts):
                    return texts[index]              # type: ignore[no-any-return]
                index -= len(texts)
            elif isinstance(element, NotatedMove):
                if index == 0:
                    return element.text
                index -= 1
        return None

    def move_texts(self) -> list[str]:
        """The text of every move of the main line, in order, as moves() makes them (without making them):
        the labels of many of a game's moves, each read from here, not found again from the start."""
        texts: list[str] = []
        for element in movetext_runs(self):
            if type(element) is MoveRun:
                texts += _RUN_MOVE.findall(element.text)
            elif isinstance(element, NotatedMove):
                texts.append(element.text)
        return texts

    def move_count(self) -> int:
        """How many moves the main line holds (`len(list(self.moves()))`), counted without making them:
        a game that does not replay reports the moves it read."""
        return len(self.move_texts())


_GAME_ELEMENTS = Game.__dict__["elements"]        # the slot's descriptor: raises while it is unset


class _Elements:
    """`Game.elements`, its slot's descriptor wrapped: setting it drops the runs kept as text, so that
    `_runs` alone tells whether `elements` is unset (movetext_runs: an unset slot is told by an exception,
    which took the replay of the common game some 2 µs)."""

    __slots__ = ()

    def __get__(self, game: Game | None, owner: type | None = None) -> Any:
        return self if game is None else _GAME_ELEMENTS.__get__(game, owner)

    def __set__(self, game: Game, elements: list[Element]) -> None:
        _GAME_ELEMENTS.__set__(game, elements)
        game._runs = None

    def __delete__(self, game: Game) -> None:
        _GAME_ELEMENTS.__delete__(game)


setattr(Game, "elements", _Elements())


def keep_runs(game: Game, movetext: list[Element | MoveRun]) -> None:
    """Give `game` the movetext `movetext`, whose runs of plain moves are still text: its
    `elements` are expanded from it when first read.  The reader's internal form, for the
    replayer (see movetext_runs); the Game is equal to one given the expanded elements."""
    game._runs = movetext
    del game.elements


def movetext_runs(game: Game) -> list[Element | MoveRun]:
    """The movetext of `game` with its runs of plain moves still text when `elements` was never
    read nor set (replaying the main line needs no more), else `elements`."""
    runs = game._runs               # set only while `elements` is unset (see _Elements)
    return runs if runs is not None else game.elements     # type: ignore[return-value]


def main_line_text(game: Game) -> list[Element]:
    """The main line's elements of `game` with each run kept as text given as its moves alone (no
    move numbers), `elements` left unexpanded: what replaying the main line again needs."""
    out: list[Element] = []
    for element in movetext_runs(game):
        if type(element) is MoveRun:
            out += element.moves()
        else:
            out.append(element)     # type: ignore[arg-type]
    return out


@record(slots=True)
class ReadError:
    """A game that could not be read; reading goes on with the next game."""

    file: str
    index: int
    line: int
    column: int
    message: str
    code: Code = Code.SYNTAX
    text: str = ""                 # the game's raw text, for --keep-invalid
    warnings: list[Diagnostic] = field(default_factory=list)

    def __init__(self, file: str, index: int, line: int, column: int, message: str, code: Code = Code.SYNTAX,
                 text: str = "", warnings: list[Diagnostic] | None = None) -> None:
        """`warnings` left out (or None) is a new empty list."""
        self.file, self.index, self.line, self.column, self.message = file, index, line, column, message
        self.code, self.text = code, text
        self.warnings = [] if warnings is None else warnings

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: game {self.index}: {self.message}"
