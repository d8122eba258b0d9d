"""PDN grammar: a scanner built from grammars/pdn.lark and a Lark LALR parser.

The scanner turns text into Lark tokens in one pass (one combined regular
expression made from the grammar's own terminals; with the compiled core, runs of
moves are measured in C).  The reader splits that token stream into games;
`parse_game` runs the LALR parser over one game's tokens and builds the model
directly through an inline transformer (no parse tree); a game whose token types
Lark has parsed before is built by the same transformer calls, without Lark.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import os
import pkgutil
import re
import stat
import sys
from dataclasses import dataclass
from functools import cached_property, lru_cache, wraps
from typing import Any, Callable, Iterable, Iterator, Protocol, TypeVar, Union, cast

import lark
from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer

from pdn_tools.text.codes import Code
from pdn_tools.text.numbers import LONGEST, number
from pdn_tools.text.model import (Comment, Diagnostic, Element, Game, NotatedMove, MoveNumber, MoveRun, Nag,
                                  Placeholder, Setup, Variation, keep_runs)

ERROR = "ERROR"          # a run of characters no terminal matches
ESCAPE = "ESCAPE"        # white space holding a literal '\\r' or '\\n' (broken exports)
_SEPARATOR = re.compile(r"[-xX:] ?")
_STRICT_TAG_NAME = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")


def grammar_text() -> str:
    """The PDN grammar, grammars/pdn.lark, as the package holds it (a link to that file in a source
    tree, a copy of it in an installed one), whatever the install's layout."""
    data = pkgutil.get_data("pdn_tools.text", "pdn.lark")      # by the package's loader, zipped or not
    assert data is not None, "the loader of pdn_tools.text reads no files"
    return data.decode("utf-8")


def _ours(info: os.stat_result) -> bool:
    """Whether a file or folder is the user's own and nobody else may write to it."""
    user = os.getuid() if hasattr(os, "getuid") else info.st_uid        # no owners to compare on Windows
    return info.st_uid == user and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _cache_file(key: str) -> str | None:
    """Where the parser named `key` is kept between runs (a new process loads it in about 2 ms, builds
    it in 15 to 30): a file in the user's cache folder; None when that folder cannot be made, or is
    not the user's own, or others could write to it (what it holds is unpickled)."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(root, "pdn-tools")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.stat(folder)
    except OSError:
        return None
    return os.path.join(folder, f"parser-{key[:16]}.lark") if stat.S_ISDIR(info.st_mode) and _ours(info) else None


def _cached(path: str, key: str) -> bytes | None:
    """The parser kept at `path` for `key`, as Lark saved it; None unless that file can be trusted: a
    regular file (not a link) of the user's own that nobody else may write to, read whole, made for
    `key` (its first line).  Unpickling anything else could run another's code.  (Opened without
    waiting: a FIFO put there does not hold the command up.)"""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        with open(os.open(path, flags), "rb") as file:
            info = os.fstat(file.fileno())
            data = file.read() if stat.S_ISREG(info.st_mode) and _ours(info) else b""
    except OSError:
        return None
    head, _, saved = data.partition(b"\n")
    return saved if head == key.encode() else None


def _loaded(saved: bytes, transformer: Transformer[ScanToken, Game]) -> Lark | None:
    """The parser Lark saved in `saved`, calling `transformer` as it parses (Lark.load does the same,
    without the transformer); None when `saved` is not one (cut short, damaged, of another Lark)."""
    try:
        return Lark.__new__(Lark)._load(io.BytesIO(saved), transformer=transformer)
    except Exception:           # unpickling damaged bytes can raise anything: the parser is built again
        return None


def _keep(lark: Lark, path: str, key: str) -> None:
    """Write the parser to `path` for later runs: to a temporary file of the same folder renamed over
    `path`, so that another process (--jobs, a Dask worker) reads a whole file or none.  A parser that
    cannot be kept (a folder that cannot be written, a full disk, a Lark that saves otherwise) is
    built again by the next run."""
    temporary = f"{path}.{os.getpid()}-{os.urandom(4).hex()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        with open(os.open(temporary, flags, 0o600), "wb") as file:
            file.write(key.encode() + b"\n")
            lark.save(file, exclude_options=("transformer",))
        os.replace(temporary, path)
    except Exception:           # a cache: nothing it fails to keep may stop the command
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _lark(text: str, transformer: Transformer[ScanToken, Game], **options: Any) -> Lark:
    """The Lark parser of grammar `text` with `options`, loaded from the user's cache folder, else built
    (and kept there).  The file is named by the grammar, the options and the versions of Lark and
    Python, so a change of any is a new file (docs/start-up.md)."""
    key = hashlib.sha256(f"{text}{sorted(options.items())}{lark.__version__}{sys.version}".encode()).hexdigest()
    path = _cache_file(key)
    saved = None if path is None else _cached(path, key)
    loaded = None if saved is None else _loaded(saved, transformer)
    if loaded is not None:
        return loaded
    built = Lark(text, transformer=transformer, **options)
    if path is not None:
        _keep(built, path, key)
    return built


class ScanToken(Token):
    """A Lark token that also knows whether a blank line came before it.  The scanner makes
    every token, so each has its line and column (Lark's own may lack them)."""

    __slots__ = ("blank_before",)
    start_pos: int
    line: int
    column: int
    blank_before: bool

    # A long game's tokens are all kept until it is parsed: its value and its end are not kept
    # apart from the token, which is its value (Lark: `token.value == token`), and ends where its
    # text does (a copy of the text and an int less: a token takes 60% of the memory it took).
    @property
    def value(self) -> str:
        """The token's text."""
        return str(self)

    @value.setter
    def value(self, value: str) -> None:
        """Nothing to keep: Lark makes a token of its value."""

    @property
    def end_pos(self) -> int:
        """Where the token ends in the text it was scanned from."""
        return self.start_pos + len(self)

    @end_pos.setter
    def end_pos(self, end: int | None) -> None:
        """Nothing to keep: the token ends where its text does."""


def _scanned(kind: str, value: str, start: int, line: int, column: int, blank_before: bool) -> ScanToken:
    """A ScanToken, made as Token(kind, value, start, line, column) makes it but without its
    constructor's keyword handling (the scanner makes one a token: 0.2 against 0.55 µs)."""
    token = str.__new__(ScanToken, value)
    token.type, token.start_pos, token.line, token.column = kind, start, line, column
    token.end_line = token.end_column = None
    token.blank_before = blank_before
    return token


class FastTags(ScanToken):
    """The TAGS token of a game read at once (see PdnParser.tokens): its tag pairs read, the game's
    other tokens (its runs of moves and comments, then its RESULT or STAR), which the scanner gives
    with it and not after it, and how many tokens the game has."""

    __slots__ = ("pairs", "rest", "size")
    pairs: list[tuple[str, str]]
    rest: list[ScanToken]
    size: int

    def __reduce__(self) -> tuple[Callable[..., FastTags], tuple[Any, ...]]:
        """Pickled whole (the games of stdin travel to --jobs workers split, not parsed): Lark's
        Token pickles its type, text and place alone."""
        return _fast_tags, (str(self), self.start_pos, self.line, self.column, self.blank_before, self.pairs,
                            self.rest, self.size)


def _fast_tags(text: str, start: int, line: int, column: int, blank: bool, pairs: list[tuple[str, str]],
               rest: list[ScanToken], size: int) -> FastTags:
    """A FastTags as pickled (FastTags.__reduce__)."""
    tags = str.__new__(FastTags, text)
    tags.type, tags.start_pos, tags.line, tags.column = "TAGS", start, line, column
    tags.end_line = tags.end_column = None
    tags.blank_before, tags.pairs, tags.rest, tags.size = blank, pairs, rest, size
    return tags


class _TokenList(Lexer):
    """A 'lexer' that hands Lark the tokens the scanner already made."""

    def __init__(self, lexer_conf: object) -> None:
        pass

    # Lark hands a custom lexer the parser's input itself (here the token list), not a LexerState.
    def lex(self, tokens: Iterable[ScanToken]) -> Iterator[ScanToken]:  # type: ignore[override]
        return iter(tokens)


MovesEnd = Callable[[str, int, int], int]
PlainRun = Callable[[str], bool]
# The compiled reading of a common game at once (see PdnParser.tokens): its tag pairs and where its
# tokens end: TAGS; each MOVES and COMMENT (start, end); RESULT or STAR (start, end); or None.
FastRead = tuple[list[tuple[str, str]], int, tuple[tuple[int, int], ...], int, int]
FastGame = Callable[[str, int, int, bool], Union[FastRead, None]]


class Reading(Protocol):
    """How runs of plain moves are read, as an engine says (rules.core.Engine): whether the
    main line's runs stay text (`keeps_runs`, MoveRun: the compiled core plays text), and the
    core's functions that find them, each many times faster than the regular expressions,
    which decide where they are None.  `moves_end(text, pos, endpos)` finds where a run ends
    while scanning (the end the MOVES terminal's regular expression matches at `pos`, or -1
    when it matches nothing); `plain_run(text)` tells whether a run may stay text
    (`_PLAIN_RUN` matches all of it); `fast_game(text, pos, endpos, last)` reads a common game at
    once (see PdnParser.tokens).  The games read are the same either way."""

    @property
    def keeps_runs(self) -> bool: ...

    @property
    def moves_end(self) -> MovesEnd | None: ...

    @property
    def plain_run(self) -> PlainRun | None: ...

    @property
    def fast_game(self) -> FastGame | None: ...


@dataclass(slots=True)
class _Context:
    """Per-game state of the transformer: where diagnostics go, and whether the main line's
    plain runs stay text (tested by `plain`)."""

    warnings: list[Diagnostic]
    strict: bool
    runs: bool = False
    plain: PlainRun | None = None


# What the movetext's reductions receive: tokens and the variations built below them.
Child = Union[ScanToken, Variation]
# One item of a piece of a move run, remembered: (offset, kind, text, value), the value being
# (squares, capture) for a MOVE, (number, black, read slowly) for a MOVENUMBER, else None.
PieceItem = tuple[int, str, str, Any]


Built = TypeVar("Built")
# What a builder call was given, one child each: (TOKEN, index of the token), (BUILT, index of an
# earlier call's result) or (NONE, 0).
TOKEN, BUILT, NONE = 0, 1, 2
ChildSpec = tuple[int, int]
# The calls Lark made to build a game of one shape, in order: (method, its children); the last one's
# result is the Game.
Plan = tuple[tuple[Callable[["_Builder", list[Any]], Any], tuple[ChildSpec, ...]], ...]


class _Recording:
    """The builder calls of one parse by Lark, noted as a Plan while they are made."""

    def __init__(self, tokens: list[ScanToken]) -> None:
        self.tokens = {id(token): index for index, token in enumerate(tokens)}
        self.results: dict[int, int] = {}
        self.kept: list[object] = []           # the results, alive while their ids are used
        self.calls: list[tuple[Callable[[_Builder, list[Any]], Any], tuple[ChildSpec, ...]]] = []
        self.complete = True                   # False once a child was none of the above

    def specs(self, children: list[Any]) -> tuple[ChildSpec, ...]:
        out: list[ChildSpec] = []
        for child in children:
            if child is None:
                out.append((NONE, 0))
            elif id(child) in self.tokens:
                out.append((TOKEN, self.tokens[id(child)]))
            elif id(child) in self.results:
                out.append((BUILT, self.results[id(child)]))
            else:
                self.complete = False
        return tuple(out)

    def add(self, method: Callable[[_Builder, list[Any]], Any], specs: tuple[ChildSpec, ...], result: object) -> None:
        self.results[id(result)] = len(self.calls)
        self.kept.append(result)
        self.calls.append((method, specs))


def _recorded(method: Callable[[_Builder, list[Any]], Built]) -> Callable[[_Builder, list[Any]], Built]:
    """A builder method whose calls are noted while the builder records (see PdnParser._parse)."""
    @wraps(method)
    def call(builder: _Builder, children: list[Any]) -> Built:
        recording = builder.recording
        if recording is None:
            return method(builder, children)
        specs = recording.specs(children)        # before the call: `variation` takes its result off
        result = method(builder, children)
        recording.add(method, specs, result)
        return result
    return call


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


class _Terminator(str):
    """A result or '*' as reduced by the parser (told apart from other strings)."""


# Tag pairs `[Name "value"]` one a line with nothing between: a name PDN allows, a value with no
# escape; `_tags` would read them with no diagnostic, each at the start of its line.
_PLAIN_TAG = re.compile(r'\[([A-Z][A-Za-z0-9_]*) "([^"\\\n]*)"\]')
_PLAIN_TAGS = re.compile(r'\[[A-Z][A-Za-z0-9_]* "[^"\\\n]*"\](?:\n\[[A-Z][A-Za-z0-9_]* "[^"\\\n]*"\])*+')
_MOVE_LIKE = (NotatedMove, MoveNumber, Placeholder, MoveRun)      # what may follow a move number


def _run_pattern(square: str, number: str) -> re.Pattern[str]:
    """A run kept as text (MoveRun) of these squares and move numbers: move numbers, ellipses,
    and moves ('-' between two squares, 'x' between two to 25; a separator may have one space
    after it, as right-aligned columns write `1- 7`), a move number maybe glued to the move
    after it (`1.33-29`), apart by spaces, tabs and line ends."""
    move = rf"{square}(?:- ?{square}|(?:x ?{square}){{1,24}})"
    # atomic: an item (a number and its glued move are one here) is followed by white space or the end
    item = rf"(?>(?:{number}\.(?:\.\.)?|\.\.\.)(?:{move})?|{move})"
    return re.compile(rf"{item}(?:[ \t\n]++{item})*+")


# The plain run: squares of one or two digits, numbers of up to six, no zero padding.
# Nothing in it calls for a diagnostic but a dangling last number.
_PLAIN_RUN = _run_pattern("[1-9][0-9]?", "[1-9][0-9]{0,5}")
# A run whose only other diagnostics are zero-padding warnings (`07-12`, `01.`): kept as text too.
_PADDED_RUN = _run_pattern("(?:0[1-9]|[1-9][0-9]?)", "(?:0[1-9]|[1-9][0-9]{0,5})")


def _plain_by_regex(text: str) -> bool:
    return _PLAIN_RUN.fullmatch(text) is not None


_ZERO_PADDED = re.compile(r"0(?<![0-9]0)[0-9]")      # a 0 after no digit, then a digit
_PIECES_KEPT = 4096
_PLANS_KEPT = 4096        # shapes of game whose builder calls are kept
_PLANNED_TOKENS = 4096    # tokens of the longest game whose builder calls are kept
_PADDED = re.compile(r"(?:^|[-xX:] ?)0[0-9]")
_UPPER = re.compile(r"[A-LX]")
_ALPHA_SQUARE = re.compile(r"[a-lA-L](?:1[0-2]|[1-9])")


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
_COARSE = ("TAGS", "COMMENT", "LINE_COMMENT", "SETUP", "RESULT", "STAR", "MOVES", "LPAR", "RPAR")
TAG_PAIR = re.compile(r'\[[ \t]*(?:(?P<name>[^\s"\[\]{}()]+(?:[ \t]+[^\s"\[\]{}()]+)*)[ \t]*'
                      r'"(?P<quoted>[^"\\]*(?:\\.[^"\\]*)*)"|(?P<word>[^\s"\[\]{}()]+)[ \t]*'
                      r'(?P<loose>[^\]\n]*))[ \t]*\]')


class PdnParser:
    """The Lark LALR parser and the scanners made from its terminals. Build once."""

    def __init__(self) -> None:
        text = grammar_text()
        # One Lark for the parser and the terminals' regular expressions: the inner rules `tags` and
        # `moves` are start symbols only so that their terminals are compiled (games start at `start`).
        self._builder = _Builder(TAG_PAIR)
        self.lark = _lark(text, self._builder, parser="lalr", lexer=_TokenList, start=["start", "tags", "moves"])
        regex = {t.name: t.pattern.to_regexp() for t in self.lark.terminals}
        for name in ("TAGS", "MOVES", "_WHITESPACE"):
            regex[name] = _possessive(regex[name])
        self._regex = regex
        fine = ["MOVE", "MOVENUMBER", "ELLIPSIS", "STRENGTH", "NAG", "PLACEHOLDER"]
        self._builder.fine = re.compile(_alternatives({}, regex, fine))
        self._plans: dict[tuple[str, ...], Plan] = {}

    # The four scanners are compiled when first used (a run uses one or two, and each takes 1 to 2.5 ms).
    def _scanner(self, left_out: tuple[str, ...]) -> re.Pattern[str]:
        names = [name for name in _COARSE if name not in left_out]
        return re.compile(_alternatives({"WS": self._regex["_WHITESPACE"]}, self._regex, names)
                          + rf"|(?P<{ERROR}>[^\s{{}}\[\]()/]+|.)")

    @cached_property
    def scanner(self) -> re.Pattern[str]:
        """The text's tokens, a regular expression for each terminal the scanner makes."""
        return self._scanner(())

    @cached_property
    def comment_free(self) -> re.Pattern[str]:
        """The same, for text after a '{' that is never closed: no comment can start there."""
        return self._scanner(("COMMENT",))

    @cached_property
    def _scanner_runs_apart(self) -> re.Pattern[str]:
        """`scanner` without MOVES, for scanning with the compiled core's moves_end (see tokens)."""
        return self._scanner(("MOVES",))

    @cached_property
    def _comment_free_runs_apart(self) -> re.Pattern[str]:
        """`comment_free` without MOVES."""
        return self._scanner(("COMMENT", "MOVES"))

    def tokens(self, text: str, line: int = 1, column: int = 1, end: int | None = None,
               more: bool = False, hold: bool = False, blank: bool = False,
               moves_end: MovesEnd | None = None, fast_game: FastGame | None = None) -> Scanned:
        """Scan `text[:end]` (line ends already '\\n'), which starts at (line, column).

        `more`: more text follows, so the scan stops before a token that reaches `end`
        (and the white space before it), which the caller scans again with more text.
        `hold`: a comment, tag or setup still open at `end` also stops the scan, and
        `Scanned.waiting` says what has to come before scanning it again is worth it.
        White space that reaches `end` is scanned (not scanned again with the next text, which
        made a long run cost the square of its length): `blank`, whether a blank line came
        before `text` since the last token, goes on to the next call in `Scanned.blank`.
        A comment or setup that meets a blank line followed by a tag pair is not open:
        it was never closed, and its opening character is read as text (ERROR).
        `moves_end`: the compiled core's (see Reading), else the regular expression finds runs.
        `fast_game`: the compiled scanner's (see Reading): where white space ends at a '[', the common
        game there (plain tag pairs, runs of plain moves and comments, a result, a line end: nothing
        else, so nothing to warn about) is read at once, its tokens the very ones scanning makes; they come
        as one, its FastTags, which holds the others (reader.split_games takes them at once).
        """
        stop = len(text) if end is None else end
        out: list[ScanToken] = []
        line_start = 1 - column
        blank_before = blank
        gap, gap_end = None, -1      # (start, line, line_start, tokens kept) of the last white space
        next_bracket = -1            # offset of the next ']' after the last '[' looked at
        last_newline = -2            # offset of the last line end (-1: none), found when first needed
        # With moves_end, the scanners leave MOVES out: where one starts, theirs is the next
        # alternative that matches (LPAR or ERROR), and moves_end says whether and where the
        # MOVES token the full scanner would have matched ends.
        main, comment_free = (self.scanner, self.comment_free) if moves_end is None else \
            (self._scanner_runs_apart, self._comment_free_runs_apart)
        scanner, segment_end, pos = main, stop, 0
        if fast_game is not None and text[:1] == "[":
            game = fast_game(text, 0, stop, not more)
            if game is not None:
                pos, line, line_start = _fast_tokens(game, text, 0, line, line_start, blank_before, out)
                blank_before = False
        while pos < stop:
            resume = stop
            for match in scanner.finditer(text, pos, segment_end):
                kind: str = match.lastgroup  # type: ignore[assignment]  # every alternative is a named group
                start = match.start()
                end = match.end()
                if moves_end is not None and (kind == ERROR or kind == "LPAR"):
                    run_end = moves_end(text, start, segment_end)
                    if run_end >= 0:
                        kind, end = "MOVES", run_end
                if more and end == stop and (kind != "WS" or "\\" in text[start:end]):
                    if kind != "WS" and gap is not None and gap_end == start:
                        start, line, line_start, kept = gap
                        del out[kept:]
                    return Scanned(out, start, line, start - line_start + 1,
                                   None if kind == "WS" else WHITE_SPACE, blank_before)
                value = match.group() if end == match.end() else text[start:end]
                if kind == "LINE_COMMENT" and more:         # it ends at a line end, not at a block end
                    if last_newline == -2:
                        last_newline = text.rfind("\n", 0, stop)
                    if start > last_newline:
                        if gap is not None and gap_end == start:
                            start, line, line_start, kept = gap
                            del out[kept:]
                        return Scanned(out, start, line, start - line_start + 1, _LINE_END, blank_before)
                if kind == "WS":
                    gap, gap_end = (start, line, line_start, len(out)), end
                    if "\\" in value:
                        out.append(_scanned(ESCAPE, value, start, line, start - line_start + 1, False))
                    newlines = value.count("\n")
                    if newlines:
                        line += newlines
                        line_start = value.rfind("\n") + start + 1
                        blank_before = blank_before or newlines > 1
                    if fast_game is not None and end < segment_end and text[end] == "[" and scanner is main:
                        game = fast_game(text, end, segment_end, not more)
                        if game is not None:
                            pos, line, line_start = _fast_tokens(game, text, end, line, line_start, blank_before, out)
                            blank_before = False
                            break
                    continue
                if kind == ERROR and value in _OPENERS and scanner is main:
                    if value == "[":          # open while no ']' follows (found once per ']')
                        if next_bracket < start:
                            found = text.find("]", start, stop)
                            next_bracket = found if found >= 0 else stop
                        closer = None
                        open_at_end = next_bracket == stop
                    else:
                        closer = _CLOSERS[value].search(text, start + 1, stop)
                        open_at_end = closer is None
                    if open_at_end and hold:
                        if gap is not None and gap_end == start:
                            start, line, line_start, kept = gap
                            del out[kept:]
                        return Scanned(out, start, line, start - line_start + 1, _CLOSERS[value], blank_before)
                    if value == "{":
                        resume = closer.start() if closer is not None else stop
                        out.append(_scanned(kind, value, start, line, start - line_start + 1, blank_before))
                        blank_before = False
                        scanner, segment_end, pos = comment_free, resume, end
                        break
                out.append(_scanned(kind, value, start, line, start - line_start + 1, blank_before))
                blank_before = False
                if kind in _MULTILINE:
                    newlines = value.count("\n")
                    if newlines:
                        line += newlines
                        line_start = value.rfind("\n") + start + 1
                if end != match.end():      # a run moves_end found: the scan goes on after it
                    pos = end
                    break
            else:
                pos = segment_end
                scanner, segment_end = main, stop
        return Scanned(out, stop, line, stop - line_start + 1, None, blank_before)

    def parse_game(self, tokens: list[ScanToken], strict: bool = False, consume: bool = False,
                   reading: Reading | None = None) -> Game | Diagnostic:
        """Parse one game's tokens into a Game, or a located syntax Diagnostic.

        Leniently, text no terminal matches is kept as a comment (a parenthesised
        group holding such text, e.g. a prose remark, becomes one comment) and a
        warning says so; in strict mode it is a syntax error.
        `consume`: `tokens` is emptied as Lark reads it, so that each token is freed once built
        into the model (a long game's tokens weigh several times its model).  `reading`: how runs
        of plain moves are read (see Reading; None: each as model elements).
        """
        first = tokens[0] if tokens else None
        if type(first) is FastTags and len(tokens) == first.size:
            return _fast_built(first, tokens, reading)
        context = _Context([], strict, reading is not None and reading.keeps_runs,
                           None if reading is None else reading.plain_run)
        self._builder.context = context
        try:
            shape = tuple([token.type for token in tokens])
            if ERROR in shape or ESCAPE in shape:
                if consume:
                    tokens[:] = self._recover(_drained(tokens))      # the caller's list is the one emptied
                else:
                    tokens = self._recover(tokens)
                shape = tuple([token.type for token in tokens])
            last = tokens[-1:]
            game = self._parse(tokens, shape, consume)
        except _StrictError as error:
            return error.diagnostic
        except UnexpectedInput as error:
            return _syntax_error(error, last)
        game.warnings = context.warnings
        return game

    def _parse(self, tokens: list[ScanToken], shape: tuple[str, ...], consume: bool) -> Game:
        """The Game the inline transformer builds from `tokens`, whose types are `shape`.

        LALR(1) decides from token types alone, so every game whose tokens have the same types
        (its shape) is parsed by the same reductions, and Lark calls the builder in the same order
        with the same kinds of children.  The first game of a shape is parsed by Lark, which
        also reports any syntax error; its builder calls are noted (a Plan), and later games of
        that shape are built by making those calls on their own tokens.  A game of more than
        _PLANNED_TOKENS tokens is parsed by Lark alone: its shape hardly comes back, and its plan
        would cost memory in the game's size for as long as it is kept; so is a game whose tokens
        are consumed (emptied from `tokens` as Lark reads them)."""
        if consume:
            return cast(Game, self.lark.parse(_drained(tokens), start="start"))
        plan = self._plans.get(shape)
        builder = self._builder
        if plan is None and len(tokens) > _PLANNED_TOKENS:
            return cast(Game, self.lark.parse(tokens, start="start"))
        if plan is not None:
            built: list[Any] = []
            for method, specs in plan:
                built.append(method(builder, [tokens[index] if kind == TOKEN else built[index] if kind == BUILT
                                              else None for kind, index in specs]))
            return cast(Game, built[-1])
        builder.recording = recording = _Recording(tokens)
        try:
            game = cast(Game, self.lark.parse(tokens, start="start"))
        finally:
            builder.recording = None
        if recording.complete:
            if len(self._plans) >= _PLANS_KEPT:
                self._plans.clear()
            self._plans[shape] = tuple(recording.calls)
        return game

    def _recover(self, tokens: Iterable[ScanToken]) -> list[ScanToken]:
        """Turn unreadable text into comments (warned) and drop literal escapes."""
        out: list[ScanToken] = []
        groups: list[list[int]] = []     # [index in out of '(', holds prose]
        for token in tokens:
            if token.type == ESCAPE:
                self._builder._quirk(token.line, token.column, Code.LITERAL_ESCAPE,
                                     "literal '\\r' or '\\n' text read as white space")
                continue
            if token.type == ERROR:
                if self._builder.context.strict:
                    raise _StrictError(unreadable(token, strict=True))
                if groups and token not in _OPENERS:
                    groups[-1][1] = True
                else:
                    self._builder.context.warnings.append(unreadable(token))
                    token = _comment_token(token.replace("}", ")"), token)
            elif token.type == "LPAR":
                groups.append([len(out), False])
            elif token.type == "RPAR" and groups:
                start, prose = groups.pop()
                if prose:
                    opening = out[start]
                    text = " ".join(str(t) for t in out[start + 1:])
                    self._builder._quirk(opening.line, opening.column, Code.PROSE,
                                         f"parenthesised text {_show(text)} read as a comment")
                    del out[start:]
                    token = _comment_token(text.replace("}", ")"), opening)
            out.append(token)
        return out


def _fast_tokens(game: FastRead, text: str, start: int, line: int, line_start: int, blank: bool,
                 out: list[ScanToken]) -> tuple[int, int, int]:
    """The tokens of a game `fast_game` read at `start` (line `line`, which starts at offset
    `line_start`; `blank`: a blank line came before it), located as the scanner locates them: its
    FastTags added to `out`, holding the others; the offset after them, and the line and its start
    there."""
    pairs, tags_end, pieces, term, term_end = game
    tags = _fast_tags(text[start:tags_end], start, line, start - line_start + 1, blank, pairs, [], len(pieces) + 2)
    out.append(tags)
    line += len(pairs) - 1
    counted = previous_end = tags_end          # newlines counted up to `counted`
    spans = [(begin, end, "COMMENT" if text[begin] == "{" else "MOVES") for begin, end in pieces]
    for begin, end, kind in spans + [(term, term_end, "STAR" if text[term] == "*" else "RESULT")]:
        newlines = text.count("\n", counted, begin)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", counted, begin) + 1
        blank_before = newlines > 1 and text.count("\n", previous_end, begin) > 1
        tags.rest.append(_scanned(kind, text[begin:end], begin, line, begin - line_start + 1, blank_before))
        counted, previous_end = begin, end
    return term_end, line, line_start


def _fast_built(tags: FastTags, tokens: list[ScanToken], reading: Reading | None) -> Game:
    """The Game of a game's tokens `fast_game` made, as the builder would make it: the tags, the
    runs of moves (kept as text when `reading` keeps runs) and comments, the terminator; no warning."""
    game = Game(tags.pairs, result=_Terminator(tokens[-1]), warnings=[])
    game.tag_positions = [(tags.line, tags.column)] + [(line, 1) for line in range(tags.line + 1,
                                                                                    tags.line + len(tags.pairs))]
    movetext: list[Element | MoveRun] = [MoveRun(str(token), token.line, token.column) if token.type == "MOVES"
                                         else Comment(token[1:-1]) for token in tokens[1:-1]]
    runs = any(type(element) is MoveRun for element in movetext)
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


def _drained(tokens: list[ScanToken]) -> Iterator[ScanToken]:
    """The tokens in order, each taken off the list as it is given."""
    tokens.reverse()
    while tokens:
        yield tokens.pop()


def _comment_token(text: str, at: ScanToken) -> ScanToken:
    """A comment token holding `text`, where `at` stands."""
    token = ScanToken.new_borrow_pos("COMMENT", "{" + text + "}", at)
    token.blank_before = False          # read only while splitting games, before parsing
    return token


def unreadable(token: ScanToken, strict: bool = False) -> Diagnostic:
    """The diagnostic for text no terminal reads (kept as a comment when lenient): a '{' or
    '/' that is never closed, else prose (a syntax error when `strict`)."""
    if token in ("{", "/"):
        what = "comment" if token == "{" else "setup"
        return Diagnostic(Code.UNCLOSED, f"{str(token)!r} opens a {what} that is never closed"
                          + ("" if strict else ": read as text"), token.line, token.column)
    glued = _GLUED_RESULT.match(token)
    if glued:
        text = f"result {glued.group(1)!r} glued to {_show(token[glued.end(1):])}"
        return Diagnostic(Code.SYNTAX if strict else Code.PROSE, text if strict else text + ": read as a comment",
                          token.line, token.column)
    if strict:
        return Diagnostic(Code.SYNTAX, f"unexpected {_show(token)}", token.line, token.column)
    return Diagnostic(Code.PROSE, sys.intern(f"text {_show(token)} read as a comment"), token.line, token.column)


_GLUED_RESULT = re.compile(r"(2-0|0-2|1-1|0-0|1-0|0-1|1:0|0:1|½-½|0\.5-0\.5)(?=[A-Za-z])")


def _possessive(pattern: str) -> str:
    """`pattern` (a run: 'X(...)*' or '(...)+' as Lark writes it) with its last repetition made
    possessive: nothing follows it, so the match is the same, and the regular expression engine
    keeps no backtracking state per item (a long run used to cost hundreds of bytes per character)."""
    assert pattern.endswith((")*", ")+")), pattern
    return pattern + "+"


def _alternatives(first: dict[str, str], regex: dict[str, str], names: list[str]) -> str:
    parts = {**first, **{name: regex[name] for name in names}}
    return "|".join(f"(?P<{name}>{pattern})" for name, pattern in parts.items())


_MULTILINE = {"COMMENT", "TAGS", "SETUP", "MOVES"}
HOLD = 1 << 22                   # longest comment, tag or setup spanning lines read across scan chunks
# A blank line, then a line that starts a tag pair: a comment or setup never runs across it.
_NEXT_GAME = r'[ \t\f]*\n[ \t\f]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]*"'
_OPENERS = {"{", "[", "/"}
_CLOSERS = {"{": re.compile(r"\}|\n(?=" + _NEXT_GAME + ")"), "/": re.compile(r"/|\n(?=" + _NEXT_GAME + ")"),
            "[": re.compile(r"[\]\n]")}
WHITE_SPACE = re.compile(r"\s")
_LINE_END = re.compile(r"\n")   # what a token cut by the end of a block waits for


@dataclass(slots=True)
class Scanned:
    """What `PdnParser.tokens` scanned: tokens, how far (offset, line, column), and for a
    construct left open at the end, the pattern more text must hold to close it."""

    tokens: list[ScanToken]
    consumed: int
    line: int
    column: int
    waiting: re.Pattern[str] | None
    blank: bool = False          # a blank line came after the last token
def _show(token: str) -> str:
    value = str(token)
    return repr(value if len(value) <= 20 else value[:20] + "...")


def _syntax_error(error: UnexpectedInput, tokens: list[ScanToken]) -> Diagnostic:
    token = getattr(error, "token", None)
    if token is None or token.type == "$END":
        last = tokens[-1] if tokens else None
        line = last.line if last else 1
        column = last.column if last else 1
        return Diagnostic(Code.SYNTAX, "unexpected end of game (unclosed variation?)", line, column)
    hint = ""
    if token.type == "TAGS":
        hint = " (tag pair after movetext)"
    elif token.type == "RPAR":
        hint = " (')' without '(')"
    elif token.type in ("RESULT", "STAR"):
        hint = " (movetext after the result)"
    return Diagnostic(Code.SYNTAX, f"unexpected {_show(token)}{hint}", token.line, token.column)


@lru_cache(maxsize=1)
def parser() -> PdnParser:
    """The process-wide parser (building it compiles the LALR tables)."""
    return PdnParser()
