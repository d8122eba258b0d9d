"""Draughts FEN (PDN 3.0 §2.1 of the reference): `W:W31-35,K12:B1,2`.

Reading accepts ranges (a `K` before a range crowns the whole range), either section order, an
empty side (`W:W:B1`), an empty board (`W::`, `W::.`: sections with no colour at all), a `?`
side to move (taken as the variant's first player), algebraic squares, blanks between tokens, a
trailing dot and lidraughts' extra `:H0:F1` fields (ignored).
Writing is canonical: side to move, then the White and the Black section, squares in ascending
number order with `K` before kings, no ranges, no trailing dot, in the variant's own notation
unless another is asked for.

The format works on plain values (side to move, pieces by square) and builds on `variants`
alone, so that `movegen` builds on it: `Position.from_fen` and `Position.fen` are the API, and
`parse_fen` / `to_fen` the same calls as functions.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

from pdn_tools.rules.variants import Variant
from pdn_tools.text.patterns import lazy

if TYPE_CHECKING:
    from pdn_tools.rules.movegen import Position
    from pdn_tools.rules.core import Engine

__all__ = ["FenError", "parse_fen", "to_fen", "read_fen", "write_fen"]

_SQUARE = lazy(r"[0-9]+|[A-Za-z][0-9]{1,2}(?![0-9])")
_EXTRA_FIELD = lazy(r"[HF][0-9]*|\+.*", re.S)


class FenError(ValueError):
    """A FEN that cannot be read or describes an impossible setup."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"{message} (column {column})")
        self.message = message
        self.column = column


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip_blanks(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_blanks()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self) -> str:
        ch = self.peek()
        self.pos += 1
        return ch

    def at_section_end(self) -> bool:
        """True at ':', at the end, or at a final trailing dot."""
        ch = self.peek()
        return ch in (":", "") or (ch == "." and not self.text[self.pos + 1:].strip())


def parse_fen(variant: Variant, text: str, engine: Engine | None = None) -> Position:
    """`Position.from_fen(variant, text, engine)`: read a FEN for `variant`; raise FenError with a
    message and 0-based column."""
    from pdn_tools.rules.movegen import Position     # movegen builds on this module: see above

    return Position.from_fen(variant, text, engine)


def to_fen(position: Position, alpha: bool | None = None) -> str:
    """`position.fen(alpha)`: canonical FEN (see `write_fen`)."""
    return position.fen(alpha)


def read_fen(variant: Variant, text: str) -> tuple[str, dict[int, str]]:
    """The side to move and the pieces ({square: 'w'|'W'|'b'|'B'}, upper case = king) a FEN
    for `variant` gives; raise FenError with a message and 0-based column."""
    return _common_fen(variant, text) or _scanned_fen(variant, text)


# The common FEN: an upper-case side to move, then sections of an upper-case colour and square numbers,
# each maybe after an upper-case K, between commas, with blanks between any two (str.isspace's, as
# _Scanner's), no range, maybe a trailing dot.  Its sections hold no ':' (split on it).
_COMMON_FEN = lazy(r"\s*[WB](?:\s*:\s*(?:[WB](?:\s*K?\s*[0-9]+(?:\s*,\s*K?\s*[0-9]+)*)?)?)*\s*(?:\.\s*)?")


def _common_fen(variant: Variant, text: str) -> tuple[str, dict[int, str]] | None:
    """read_fen of a common FEN (see _COMMON_FEN) that holds no error, read by splitting it; None for
    any other text, which _scanned_fen reads (the two agree: a property test checks them)."""
    if _COMMON_FEN.fullmatch(text) is None:
        return None
    turn, *sections = text.strip().rstrip(".").split(":")
    pieces: dict[int, str] = {}
    for section in sections:
        section = section.strip()
        if not section:
            continue
        colour, row = section[0], variant.promotion_row(section[0])
        for item in section[1:].split(","):
            item = item.strip()
            if not item:                    # a colour with no squares (`W:W:B1`)
                continue
            king = item[0] == "K"
            sq = variant.parse_square(item[1:] if king else item)
            if sq is None or sq in pieces or not king and variant.coords(sq)[0] == row:
                return None                 # an error: _scanned_fen names it and its column
            pieces[sq] = colour if king else colour.lower()
    return turn.strip(), pieces


def _scanned_fen(variant: Variant, text: str) -> tuple[str, dict[int, str]]:
    """read_fen of any text, read character by character (the reference of _common_fen)."""
    sc = _Scanner(text)
    sc.skip_blanks()
    turn_col = sc.pos
    turn = sc.take().upper()
    if turn not in ("W", "B", "?"):
        raise FenError("FEN must start with the side to move (W, B or ?)", turn_col)
    if turn == "?":
        turn = variant.first
    pieces: dict[int, str] = {}
    while not (sc.at_section_end() and sc.peek() != ":"):
        ch = sc.peek()
        if ch != ":":
            raise FenError(f"expected ':' before a colour section, found {ch!r}", sc.pos)
        sc.take()
        if sc.at_section_end():          # an empty section: `W::` is a board with no pieces
            continue
        sc.skip_blanks()
        col = sc.pos
        rest = text[sc.pos:].split(":", 1)[0].rstrip().rstrip(".")
        if _EXTRA_FIELD.fullmatch(rest):
            sc.pos += len(rest)
            continue
        colour = sc.take().upper()
        if colour == "?":
            raise FenError("pieces of unknown colour '?' cannot be placed", col)
        if colour not in ("W", "B"):
            raise FenError(f"expected colour W or B, found {colour or 'end of text'!r}", col)
        _read_section(variant, sc, colour, pieces)
    return turn, pieces


def _read_section(variant: Variant, sc: _Scanner, colour: str, pieces: dict[int, str]) -> None:
    """Read `K? square (- square)?` items separated by commas into `pieces`."""
    if sc.at_section_end():
        return
    while True:
        king = False
        if sc.peek() == "K" or (sc.peek() == "k" and not _is_file_k(variant, sc)):
            sc.take()
            king = True
        first_col, first = _read_square(variant, sc)
        squares = [first]
        if sc.peek() == "-":
            sc.take()
            last_col, last = _read_square(variant, sc)
            if not (sc.text[first_col].isdigit() and sc.text[last_col].isdigit()):
                raise FenError("a range needs numeric squares", first_col)
            if last < first:
                raise FenError(f"range {first}-{last} runs backwards", first_col)
            squares = list(range(first, last + 1))
        alpha = sc.text[first_col].isalpha()          # messages name squares as the FEN does
        for sq in squares:
            _place(variant, pieces, sq, colour, king, first_col, variant.square_text(sq, alpha))
        ch = sc.peek()
        if ch != ",":
            break
        sc.take()
    if not sc.at_section_end():
        raise FenError(f"unexpected {sc.peek()!r} in the {colour} section", sc.pos)


def _is_file_k(variant: Variant, sc: _Scanner) -> bool:
    """True when a lower-case 'k' is the file of an algebraic square ('k1' on 12x12)."""
    return variant.cols > 10 and sc.text[sc.pos + 1:sc.pos + 2].isdigit()


def _read_square(variant: Variant, sc: _Scanner) -> tuple[int, int]:
    sc.skip_blanks()
    col = sc.pos
    m = _SQUARE.match(sc.text, sc.pos)
    if not m:
        found = sc.text[col:col + 1] or "end of text"
        raise FenError(f"expected a square, found {found!r}", col)
    sc.pos = m.end()
    sq = variant.parse_square(m.group())
    if sq is None:
        raise FenError(f"square {m.group()} is not a playable square of {variant.name}", col)
    return col, sq


def _place(variant: Variant, pieces: dict[int, str], sq: int, colour: str, king: bool,
           col: int, name: str) -> None:
    if sq in pieces:
        raise FenError(f"square {name} is given twice", col)
    if not king and variant.coords(sq)[0] == variant.promotion_row(colour):
        side = "white" if colour == "W" else "black"
        raise FenError(f"a {side} man cannot stand on its promotion row (square {name})", col)
    pieces[sq] = colour if king else colour.lower()


def write_fen(variant: Variant, turn: str, white: tuple[Collection[int], Collection[int]],
              black: tuple[Collection[int], Collection[int]], alpha: bool | None = None) -> str:
    """Canonical FEN of `turn` to move and the (men, kings) squares of each side: sorted squares,
    `K` before kings, no ranges, no trailing dot; squares in algebraic or numeric notation
    (`alpha` None: the variant's own)."""
    sections = [turn]
    for colour, (men, kings) in (("W", white), ("B", black)):
        items = sorted([(sq, "") for sq in men] + [(sq, "K") for sq in kings])
        body = ",".join(prefix + variant.square_text(sq, alpha) for sq, prefix in items)
        sections.append(colour + body)
    return ":".join(sections)
