"""Tokens the scanner makes (ScanToken, a fast-read game's FastTags), and how an engine reads runs (Reading)."""
from __future__ import annotations

from typing import Any, Callable, Protocol, Union

from lark import Token

ERROR = "ERROR"          # a run of characters no terminal matches
ESCAPE = "ESCAPE"        # white space holding a literal '\\r' or '\\n' (broken exports)

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


# The warning builder._padded_run gives about a zero-padded move number or move of a game read at once: its
# message, the line ends before it since the game's start, the offset after the last of them (-1: none), its
# offset (see Scanner.tokens' fast_game).
Padded = tuple[str, int, int, int]


class FastTags(ScanToken):
    """The TAGS token of a game read at once (see Scanner.tokens): its tag pairs read, the game's
    other tokens (its runs of moves and comments, then its RESULT or STAR), which the scanner gives
    with it and not after it, how many tokens the game has, its runs' zero-padded items, the place
    (line, column) of each tag pair, or None when they stand one a line, each after the first at its
    line's start, and the places of the pairs after a literal escape (None: none)."""

    __slots__ = ("pairs", "rest", "size", "padded", "places", "escapes")
    pairs: list[tuple[str, str]]
    rest: list[ScanToken]
    size: int
    padded: list[Padded]
    places: list[tuple[int, int]] | None
    escapes: list[tuple[int, int]] | None

    def __reduce__(self) -> tuple[Callable[..., FastTags], tuple[Any, ...]]:
        """Pickled whole (the games of stdin travel to --jobs workers split, not parsed): Lark's
        Token pickles its type, text and place alone."""
        return _fast_tags, (str(self), self.start_pos, self.line, self.column, self.blank_before, self.pairs,
                            self.rest, self.size, self.padded, self.places, self.escapes)


def _fast_tags(text: str, start: int, line: int, column: int, blank: bool, pairs: list[tuple[str, str]],
               rest: list[ScanToken], size: int, padded: list[Padded],
               places: list[tuple[int, int]] | None, escapes: list[tuple[int, int]] | None) -> FastTags:
    """A FastTags as pickled (FastTags.__reduce__)."""
    tags = str.__new__(FastTags, text)
    tags.type, tags.start_pos, tags.line, tags.column = "TAGS", start, line, column
    tags.end_line = tags.end_column = None
    tags.blank_before, tags.pairs, tags.rest, tags.size, tags.padded, tags.places, tags.escapes = (
        blank, pairs, rest, size, padded, places, escapes)
    return tags

MovesEnd = Callable[[str, int, int], int]
PlainRun = Callable[[str], bool]
# The compiled reading of a common game at once (see Scanner.tokens): its tag pairs, where TAGS ends,
# and each MOVES and COMMENT, then its RESULT or STAR, as (start, end, kind, line ends since the start of
# the token before, the offset after the last of them, whether a blank line comes before it), the warnings
# about the zero-padded move numbers and moves of its runs as (message, line ends before it in the game, the
# offset after the last of them, its offset), and None when the tag pairs stand
# one a line (each after the first at its line's start), else each pair's '[' as (offset, line ends before it
# in the game, the offset after the last of them, whether a literal escape comes before it); or None.
FastRead = tuple[list[tuple[str, str]], int, tuple[tuple[int, int, int, int, int, bool], ...],
                 list[Padded], Union[tuple[tuple[int, int, int, bool], ...], None]]
FastGame = Callable[[str, int, int, bool], Union[FastRead, None]]


class Reading(Protocol):
    """How runs of plain moves are read, as an engine says (rules.core.Engine): whether the
    main line's runs stay text (`keeps_runs`, MoveRun: the compiled core plays text), and the
    core's functions that find them, each many times faster than the regular expressions,
    which decide where they are None.  `moves_end(text, pos, endpos)` finds where a run ends
    while scanning (the end the MOVES terminal's regular expression matches at `pos`, or -1
    when it matches nothing); `plain_run(text)` tells whether a run may stay text
    (`_PLAIN_RUN` matches all of it); `fast_game(text, pos, endpos, last)` reads a common game at
    once (see Scanner.tokens).  The games read are the same either way."""

    @property
    def keeps_runs(self) -> bool: ...

    @property
    def moves_end(self) -> MovesEnd | None: ...

    @property
    def plain_run(self) -> PlainRun | None: ...

    @property
    def fast_game(self) -> FastGame | None: ...

def _comment_token(text: str, at: ScanToken) -> ScanToken:
    """A comment token holding `text`, where `at` stands."""
    token = ScanToken.new_borrow_pos("COMMENT", "{" + text + "}", at)
    token.blank_before = False          # read only while splitting games, before parsing
    return token
