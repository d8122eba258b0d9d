"""Draughts variants as data: board, numbering and the rule switches the move generator reads.

Numbering follows the PDN 3.0 GameType tester (reference §3.1): the board is drawn from the
seat of the player named by the numbering, square 1 sits in the corner given by the notation
digit, and numbers run along the rows.  Internally every variant is described in the
"White at the bottom" view: row 0 is the top rank, column 0 is file a, White men move up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

# Direction names relative to the moving player: diagonal forward/backward left/right and the
# orthogonal forward, backward, left, right (on dark-square boards an orthogonal step skips the
# light square in between, as in Frisian).
DIAGONAL = ("fl", "fr", "bl", "br")
DIAGONAL_FORWARD = ("fl", "fr")
ORTHOGONAL = ("f", "b", "l", "r")

# Precedence laws (which captures are legal when several are available).
FREE = "free"  # any complete capture
COUNT = "count"  # most pieces
COUNT_KINGS = "count-kings"  # most pieces, then most kings (Spanish "quality")
ITALIAN = "italian"  # pieces, with a king, kings, earliest king
FRISIAN = "frisian"  # value (king < 2 men), then with a king
KING = "king"  # a king must capture if it can (Czech)

_ALGEBRAIC = re.compile(r"([a-z])([0-9]{1,2})")


@dataclass(frozen=True)
class Variant:
    """One draughts variant: board, PDN numbering and rule switches."""

    name: str
    gametype: int
    rows: int
    cols: int
    first: str  # colour that moves first, 'W' or 'B'
    alpha: bool  # default PDN notation is algebraic
    num_squares: int
    # Numeric layout per the GameType tester: seat colour, corner digit of square 1, invert flag.
    seat: str
    corner: int
    invert: bool
    all_squares: bool = False  # Turkish: every square is playable
    start_rows: tuple[int, ...] = ()  # rows holding men, counted from each player's edge
    man_steps: tuple[str, ...] = DIAGONAL_FORWARD
    man_jumps: tuple[str, ...] = DIAGONAL
    king_steps: tuple[str, ...] = DIAGONAL
    king_jumps: tuple[str, ...] = DIAGONAL
    flying_kings: bool = True
    land_behind: bool = False  # a flying king must land directly behind the piece (Thai)
    immediate_removal: bool = False  # jumped pieces leave at once (Turkish, Thai)
    reverse_jumps: bool = False  # a king may turn 180 degrees between jumps (Thai)
    promote_in_passing: bool = False  # a man crowned mid-capture continues as a king (Russian)
    men_capture_kings: bool = True  # False in Italian
    precedence: str = COUNT
    king_move_limit: int = 0  # Frisian: at most 3 quiet moves in a row with one king
    aliases: tuple[str, ...] = field(default=(), compare=False)

    # -- numbering -------------------------------------------------------------------------

    @cached_property
    def _layout(self) -> tuple[dict[int, tuple[int, int]], dict[tuple[int, int], int]]:
        """Square number <-> (row, col) in the White-at-bottom view."""
        by_num: dict[int, tuple[int, int]] = {}
        rows, cols = self.rows, self.cols
        for r in range(rows):
            for c in range(cols):
                if not self.all_squares and (not self.invert) == ((rows - r) % 2 == c % 2):
                    continue
                rr = rows - 1 - r if self.corner in (0, 1) else r
                cc = c if self.corner in (0, 2) else cols - 1 - c
                if self.all_squares:
                    num = 1 + rr * cols + cc
                else:
                    num = 1 + rr * (cols // 2) + cc // 2
                if self.seat == "B":
                    by_num[num] = (rows - 1 - r, cols - 1 - c)
                else:
                    by_num[num] = (r, c)
        return by_num, {rc: n for n, rc in by_num.items()}

    def coords(self, sq: int) -> tuple[int, int]:
        """(row, col) of square number `sq`, row 0 = top rank, col 0 = file a (White at bottom)."""
        return self._layout[0][sq]

    def square_at(self, row: int, col: int) -> int | None:
        """Square number at (row, col) in the White-at-bottom view, or None if not playable."""
        return self._layout[1].get((row, col))

    def parse_square(self, text: str) -> int | None:
        """Numeric ("32", "07") or algebraic ("c3") square text -> square number, else None.

        Algebraic names are read from the first player's seat, as the GameType tester
        numbers boards (a1 at the starting player's near left): for English checkers,
        where Black starts, Black's c3-d4 is the numeric 11-15 (playstrategy exports).
        """
        text = text.strip()
        if text.isdigit():
            num = int(text)
            return num if 1 <= num <= self.num_squares else None
        m = _ALGEBRAIC.fullmatch(text.lower())
        if not m:
            return None
        col = ord(m.group(1)) - ord("a")
        rank = int(m.group(2))
        if col >= self.cols or not 1 <= rank <= self.rows or m.group(2).startswith("0"):
            return None
        if self.first == "B":       # a1 is the first player's near-left square
            return self.square_at(rank - 1, self.cols - 1 - col)
        return self.square_at(self.rows - rank, col)

    def square_text(self, sq: int, alpha: bool | None = None) -> str:
        """Square number -> PDN text; `alpha` None means the variant's default notation."""
        if alpha is None:
            alpha = self.alpha
        if not alpha:
            return str(sq)
        row, col = self.coords(sq)
        if self.first == "B":
            return f"{chr(ord('a') + self.cols - 1 - col)}{row + 1}"
        return f"{chr(ord('a') + col)}{self.rows - row}"

    def initial_squares(self) -> tuple[frozenset[int], frozenset[int]]:
        """(white men, black men) of the start position."""
        white, black = set(), set()
        for row_from_edge in self.start_rows:
            for col in range(self.cols):
                w = self.square_at(self.rows - 1 - row_from_edge, col)
                b = self.square_at(row_from_edge, col)
                if w is not None:
                    white.add(w)
                if b is not None:
                    black.add(b)
        return frozenset(white), frozenset(black)

    def promotion_row(self, colour: str) -> int:
        """Row (White-at-bottom view) where `colour`'s men are crowned."""
        return 0 if colour == "W" else self.rows - 1

    def __str__(self) -> str:
        return self.name


def _rows(n: int) -> tuple[int, ...]:
    return tuple(range(n))


# Board parameters per the PDN 3.0 GameType table (reference §2.2); rules per §4.1.
_VARIANT_LIST = [
    Variant("international", 20, 10, 10, "W", False, 50, "W", 2, False, start_rows=_rows(4)),
    Variant(
        "english", 21, 8, 8, "B", False, 32, "B", 1, False, start_rows=_rows(3),
        man_jumps=DIAGONAL_FORWARD, flying_kings=False, precedence=FREE,
        aliases=("american", "checkers", "english draughts", "straight checkers"),
    ),
    Variant(
        "italian", 22, 8, 8, "W", False, 32, "W", 2, True, start_rows=_rows(3),
        man_jumps=DIAGONAL_FORWARD, flying_kings=False, men_capture_kings=False,
        precedence=ITALIAN,
    ),
    Variant(
        "pool", 23, 8, 8, "B", False, 32, "B", 1, False, start_rows=_rows(3), precedence=FREE,
        aliases=("american pool", "pool checkers"),
    ),
    Variant(
        "spanish", 24, 8, 8, "W", False, 32, "W", 1, True, start_rows=_rows(3),
        man_jumps=DIAGONAL_FORWARD, precedence=COUNT_KINGS,
    ),
    Variant(
        "russian", 25, 8, 8, "W", True, 32, "W", 2, False, start_rows=_rows(3),
        promote_in_passing=True, precedence=FREE, aliases=("shashki",),
    ),
    Variant("brazilian", 26, 8, 8, "W", True, 32, "W", 2, False, start_rows=_rows(3)),
    Variant("canadian", 27, 12, 12, "W", False, 72, "W", 2, False, start_rows=_rows(5)),
    Variant(
        "portuguese", 28, 8, 8, "W", False, 32, "W", 1, True, start_rows=_rows(3),
        man_jumps=DIAGONAL_FORWARD, precedence=COUNT_KINGS,
    ),
    Variant(
        "czech", 29, 8, 8, "W", True, 32, "W", 2, False, start_rows=_rows(3),
        man_jumps=DIAGONAL_FORWARD, precedence=KING,
    ),
    # Turkish: kish's reading (reference §4.1): a man crowned mid-capture goes on as a man.
    Variant(
        "turkish", 30, 8, 8, "W", True, 64, "W", 2, False, all_squares=True,
        start_rows=(1, 2), man_steps=("f", "l", "r"), man_jumps=("f", "l", "r"),
        king_steps=ORTHOGONAL, king_jumps=ORTHOGONAL, immediate_removal=True,
    ),
    # Thai per the PDN GameType (Black first, N2: 1=g1) and DCTL's thai.hpp; both are
    # unverified against a Thai federation text (reference §8).
    Variant(
        "thai", 31, 8, 8, "B", False, 32, "B", 2, False, start_rows=_rows(2),
        man_jumps=DIAGONAL_FORWARD, land_behind=True, immediate_removal=True,
        reverse_jumps=True, precedence=FREE,
    ),
    Variant(
        "frisian", 40, 10, 10, "W", False, 50, "W", 2, False, start_rows=_rows(4),
        man_jumps=DIAGONAL + ORTHOGONAL, king_jumps=DIAGONAL + ORTHOGONAL,
        precedence=FRISIAN, king_move_limit=3,
    ),
]

VARIANTS: dict[str, Variant] = {v.name: v for v in _VARIANT_LIST}
_BY_GAMETYPE = {v.gametype: v for v in _VARIANT_LIST}
_BY_NAME = {alias: v for v in _VARIANT_LIST for alias in (v.name, *v.aliases)}
_BY_NAME["standard"] = VARIANTS["international"]


def variant_by_gametype(n: int) -> Variant | None:
    """The variant with PDN GameType number `n`, or None."""
    return _BY_GAMETYPE.get(n)


def variant_by_name(name: str) -> Variant | None:
    """Look a variant up by name or alias (case-insensitive) or by GameType number text."""
    key = " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())
    if key.isdigit():
        return variant_by_gametype(int(key))
    found = _BY_NAME.get(key)
    if found is None:
        for suffix in (" draughts", " checkers", " dama", " damas"):
            if key.endswith(suffix):
                return _BY_NAME.get(key[: -len(suffix)])
    return found
