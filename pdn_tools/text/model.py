"""Game model: tags, movetext elements in written order, diagnostics.

Movetext is kept as a flat list of elements in the order they were written, with
variations holding their own lists.  A variation stands after the move it
replaces.  Keeping the written order makes reading then writing lossless.
Positions (line, column) are not part of equality, so a game read back from
written text compares equal to the original.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from pdn_tools.text.codes import Code


@dataclass(slots=True)
class Move:
    """A notated move: squares as written and the separators between them."""

    text: str                      # as written, e.g. '28x19', 'c3:e5', '07-12'
    squares: tuple[str, ...]       # ('28', '19')
    capture: bool                  # written with x, X or ':'
    strength: str = ""             # '!?', '(?)' glued or following the move
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(slots=True)
class MoveNumber:
    number: int
    black: bool                    # '12...' or '12. ...': the second player's move
    text: str = field(default="", compare=False)   # as written, e.g. '01.'
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(slots=True)
class Comment:
    text: str                      # without the braces or the leading '%'/';'
    kind: str = "{"                # '{' block comment, '%' or ';' line comment


@dataclass(slots=True)
class Nag:
    number: int


@dataclass(slots=True)
class Setup:
    """A `/FEN "..."/` setup inside the movetext."""

    fen: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(slots=True)
class Placeholder:
    """An unknown move written as `-` or `- -`."""

    text: str = "-"
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(slots=True)
class Variation:
    elements: list["Element"]
    result: str | None = None      # a result written at the end of the variation
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


Element = Union[Move, MoveNumber, Comment, Nag, Setup, Placeholder, Variation]


@dataclass(slots=True)
class Diagnostic:
    """A problem found while reading or replaying, located in the input."""

    code: Code
    message: str
    line: int
    column: int
    ply: int | None = None

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "line": self.line,
                "column": self.column, "ply": self.ply}


@dataclass(slots=True)
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

    def main_line(self) -> list[Move]:
        """The moves of the main line, in order."""
        return [e for e in self.elements if isinstance(e, Move)]


@dataclass(slots=True)
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

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: game {self.index}: {self.message}"
