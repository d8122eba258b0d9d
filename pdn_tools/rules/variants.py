"""Draughts variants as data: everything about a variant in one table entry.

A `Variant` holds its board and PDN numbering, the rule switches the move generator reads,
its capture-precedence law (a key function of `laws`), its draw rules (`draws`), the
result strings it writes, when it is a candidate for a game without GameType, and the
lidraughts GameType numbers replayed with its rules.  Adding a variant is one entry in
`_VARIANT_LIST` plus its rule tests (see docs/design.md).

Numbering follows the PDN 3.0 GameType tester (reference §3.1): the board is drawn from the
seat of the player named by the numbering, square 1 sits in the corner given by the notation
digit, and numbers run along the rows.  Internally every variant is described in the
"White at the bottom" view: row 0 is the top rank, column 0 is file a, White men move up.
"""

from __future__ import annotations

import re
from dataclasses import field
from functools import cached_property
from typing import Callable, Generic, NamedTuple, TypeVar

from pdn_tools.rules import draws, laws
from pdn_tools.rules.draws import REPETITION_ONLY, DrawRules
from pdn_tools.rules.laws import Law
from pdn_tools.text.numbers import number
from pdn_tools.text.records import record

# Direction names relative to the moving player: diagonal forward/backward left/right and the
# orthogonal forward, backward, left, right (on dark-square boards an orthogonal step skips the
# light square in between, as in Frisian).
DIAGONAL = ("fl", "fr", "bl", "br")
DIAGONAL_FORWARD = ("fl", "fr")
ORTHOGONAL = ("f", "b", "l", "r")

_ALGEBRAIC = re.compile(r"([a-z])([0-9]{1,2})")


class Results(NamedTuple):
    """The result strings a variant writes: the first player wins, loses, a draw."""

    win: str = "1-0"
    loss: str = "0-1"
    draw: str = "1/2-1/2"


class Hint(NamedTuple):
    """What a game without GameType looks like: its highest square and its notation."""

    squares: int
    alpha: bool


class Lidraughts(NamedTuple):
    """A lidraughts GameType number replayed with a variant's moves."""

    number: int
    title: str
    results_checked: bool


@record(frozen=True, kw_only=True)
class Variant:
    """One draughts variant: board, PDN numbering, rule switches, draw rules and results."""

    name: str
    gametype: int
    rows: int
    cols: int
    first: str  # colour that moves first, 'W' or 'B'; numbers are read from its seat
    alpha: bool  # default PDN notation is algebraic
    # Numeric layout per the GameType tester: corner digit of square 1, invert flag.
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
    law: Law = laws.count  # which captures are lawful when several are available
    king_move_limit: int = 0  # Frisian: at most 3 quiet moves in a row with one king
    draws: DrawRules = draws.REPETITION_ONLY
    results: Results = Results()
    # Games without GameType that look like `hint` are tried as this variant, by rank (1 first).
    inferred: tuple[tuple[Hint, int], ...] = ()
    lidraughts: tuple[Lidraughts, ...] = ()
    aliases: tuple[str, ...] = field(default=(), compare=False)
    num_squares: int = field(init=False)  # playable squares, from the board

    def __init__(self, *, name: str, gametype: int, rows: int, cols: int, first: str, alpha: bool, corner: int,
                 invert: bool, all_squares: bool = False, start_rows: tuple[int, ...] = (),
                 man_steps: tuple[str, ...] = DIAGONAL_FORWARD, man_jumps: tuple[str, ...] = DIAGONAL,
                 king_steps: tuple[str, ...] = DIAGONAL, king_jumps: tuple[str, ...] = DIAGONAL,
                 flying_kings: bool = True, land_behind: bool = False, immediate_removal: bool = False,
                 reverse_jumps: bool = False, promote_in_passing: bool = False, men_capture_kings: bool = True,
                 law: Law = laws.count, king_move_limit: int = 0, draws: DrawRules = REPETITION_ONLY,
                 results: Results = Results(), inferred: tuple[tuple[Hint, int], ...] = (),
                 lidraughts: tuple[Lidraughts, ...] = (), aliases: tuple[str, ...] = ()) -> None:
        vars(self).update(  # frozen: the fields are set in its __dict__, as @dataclass sets them
            name=name, gametype=gametype, rows=rows, cols=cols, first=first, alpha=alpha, corner=corner,
            invert=invert, all_squares=all_squares, start_rows=start_rows, man_steps=man_steps,
            man_jumps=man_jumps, king_steps=king_steps, king_jumps=king_jumps, flying_kings=flying_kings,
            land_behind=land_behind, immediate_removal=immediate_removal, reverse_jumps=reverse_jumps,
            promote_in_passing=promote_in_passing, men_capture_kings=men_capture_kings, law=law,
            king_move_limit=king_move_limit, draws=draws, results=results, inferred=inferred,
            lidraughts=lidraughts, aliases=aliases,
            num_squares=rows * cols if all_squares else rows * cols // 2)

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
                if self.first == "B":
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
            num = number(text, 9)
            return num if num is not None and 1 <= num <= self.num_squares else None
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

    def gametype_text(self, alpha: bool | None = None) -> str:
        """The full GameType value (reference §2.2), e.g. `20,W,10,10,N2,0`, for moves written in
        algebraic (`A0`: a1 at the first player's near left) or numeric notation (`alpha` None:
        the variant's own)."""
        notation = "A0" if (self.alpha if alpha is None else alpha) else f"N{self.corner}"
        return f"{self.gametype},{self.first},{self.cols},{self.rows},{notation},{int(self.invert)}"

    def initial_squares(self) -> tuple[frozenset[int], frozenset[int]]:
        """(white men, black men) of the start position."""
        white, black = set[int](), set[int]()
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


K = TypeVar("K")
V = TypeVar("V")


class PerVariant(Generic[K, V]):
    """What `make(variant, key)` gives, made once and kept for that very variant: found by the variant's
    id (hashing a Variant takes microseconds, a game) and checked to be the same object, so that a
    library user's variant named as a built-in one, or one made later at a freed address, gets its own.
    At most `most` are kept: when full, all are dropped."""

    def __init__(self, make: Callable[[Variant, K], V], most: int = 64) -> None:
        self._make, self._most = make, most
        self._kept: dict[tuple[int, K], tuple[Variant, V]] = {}

    def get(self, variant: Variant, key: K) -> V:
        found = (id(variant), key)
        kept = self._kept.get(found)
        if kept is None or kept[0] is not variant:
            if len(self._kept) >= self._most:
                self._kept.clear()
            kept = self._kept[found] = variant, self._make(variant, key)
        return kept[1]


def _rows(n: int) -> tuple[int, ...]:
    return tuple(range(n))


# Board parameters per the PDN 3.0 GameType table (reference §2.2); rules per §4.1; draw
# rules in `draws`.  A game without GameType is tried as the variants whose `inferred`
# hint it matches, by rank: 8x8 numeric english, international, italian, spanish, pool;
# algebraic: every board its squares fit, smaller first (8x8 russian, brazilian, czech,
# pool; 10x10 international, frisian; 12x12 canadian).
_NUMERIC_32, _ALGEBRAIC_32 = Hint(32, False), Hint(32, True)
_FMJD_RESULTS = Results("2-0", "0-2", "1-1")
_VARIANT_LIST = [
    Variant(
        name="international", gametype=20, rows=10, cols=10, first="W", alpha=False, corner=2,
        invert=False, start_rows=_rows(4), draws=draws.INTERNATIONAL, results=_FMJD_RESULTS,
        inferred=((_NUMERIC_32, 2), (Hint(50, False), 1), (Hint(50, True), 1)),
        lidraughts=(Lidraughts(96, "Breakthrough", False), Lidraughts(98, "Antidraughts", False)),
    ),
    Variant(
        name="english", gametype=21, rows=8, cols=8, first="B", alpha=False, corner=1, invert=False,
        start_rows=_rows(3), man_jumps=DIAGONAL_FORWARD, flying_kings=False, law=laws.free,
        draws=draws.ENGLISH, inferred=((_NUMERIC_32, 1),),
        aliases=("american", "checkers", "english draughts", "straight checkers", "american/english"),
    ),
    Variant(
        name="italian", gametype=22, rows=8, cols=8, first="W", alpha=False, corner=2, invert=True,
        start_rows=_rows(3), man_jumps=DIAGONAL_FORWARD, flying_kings=False, men_capture_kings=False,
        law=laws.italian, draws=draws.ITALIAN, inferred=((_NUMERIC_32, 3),),
    ),
    Variant(
        name="pool", gametype=23, rows=8, cols=8, first="B", alpha=False, corner=1, invert=False,
        start_rows=_rows(3), law=laws.free, draws=draws.POOL,
        inferred=((_NUMERIC_32, 5), (_ALGEBRAIC_32, 4)), aliases=("american pool", "pool checkers"),
    ),
    Variant(
        name="spanish", gametype=24, rows=8, cols=8, first="W", alpha=False, corner=1, invert=True,
        start_rows=_rows(3), man_jumps=DIAGONAL_FORWARD, law=laws.count_kings, draws=draws.SPANISH,
        inferred=((_NUMERIC_32, 4),),
    ),
    Variant(
        name="russian", gametype=25, rows=8, cols=8, first="W", alpha=True, corner=2, invert=False,
        start_rows=_rows(3), promote_in_passing=True, law=laws.free, draws=draws.FMJD64,
        inferred=((_ALGEBRAIC_32, 1),), aliases=("shashki",),
    ),
    Variant(
        name="brazilian", gametype=26, rows=8, cols=8, first="W", alpha=True, corner=2, invert=False,
        start_rows=_rows(3), draws=draws.FMJD64, inferred=((_ALGEBRAIC_32, 2),),
    ),
    Variant(
        name="canadian", gametype=27, rows=12, cols=12, first="W", alpha=False, corner=2, invert=False,
        start_rows=_rows(5), draws=draws.CANADIAN, results=_FMJD_RESULTS,
        inferred=((Hint(72, False), 1), (Hint(72, True), 1)),
    ),
    Variant(
        name="portuguese", gametype=28, rows=8, cols=8, first="W", alpha=False, corner=1, invert=True,
        start_rows=_rows(3), man_jumps=DIAGONAL_FORWARD, law=laws.count_kings, draws=draws.SPANISH,
    ),
    Variant(
        name="czech", gametype=29, rows=8, cols=8, first="W", alpha=True, corner=2, invert=False,
        start_rows=_rows(3), man_jumps=DIAGONAL_FORWARD, law=laws.king, inferred=((_ALGEBRAIC_32, 3),),
    ),
    # Turkish: kish's reading (reference §4.1): a man crowned mid-capture goes on as a man.
    Variant(
        name="turkish", gametype=30, rows=8, cols=8, first="W", alpha=True, corner=2, invert=False,
        all_squares=True, start_rows=(1, 2), man_steps=("f", "l", "r"), man_jumps=("f", "l", "r"),
        king_steps=ORTHOGONAL, king_jumps=ORTHOGONAL, immediate_removal=True,
    ),
    # Thai per the PDN GameType (Black first, N2: 1=g1) and DCTL's thai.hpp; both are
    # unverified against a Thai federation text (reference §8).
    Variant(
        name="thai", gametype=31, rows=8, cols=8, first="B", alpha=False, corner=2, invert=False,
        start_rows=_rows(2), man_jumps=DIAGONAL_FORWARD, land_behind=True, immediate_removal=True,
        reverse_jumps=True, law=laws.free,
    ),
    Variant(
        name="frisian", gametype=40, rows=10, cols=10, first="W", alpha=False, corner=2, invert=False,
        start_rows=_rows(4), man_jumps=DIAGONAL + ORTHOGONAL, king_jumps=DIAGONAL + ORTHOGONAL,
        law=laws.frisian, king_move_limit=3, draws=draws.FRISIAN,
        inferred=((Hint(50, False), 2), (Hint(50, True), 2)),
        lidraughts=(Lidraughts(97, "Frysk!", True),), aliases=("frysk!",),
    ),
]

VARIANTS: dict[str, Variant] = {v.name: v for v in _VARIANT_LIST}


class RuleSet(NamedTuple):          # not a dataclass: made at every start (see rules/draws.py)
    """A named set of rules (`--rules NAME`): the draw rules it gives some variants instead of
    their own (the seed texts', else the reference's)."""

    name: str
    description: str
    draws: tuple[tuple[str, DrawRules], ...] = ()

    def draws_of(self, variant: Variant) -> DrawRules:
        """The draw rules `variant`'s games are checked by under this rule set."""
        return next((rules for name, rules in self.draws if name == variant.name), variant.draws)


RULE_SETS: dict[str, RuleSet] = {rule_set.name: rule_set for rule_set in (
    RuleSet("seeds", "the seed texts' rules, else the reference's (the default)"),
    RuleSet("wcdf", "English tournament play (EDA/WCDF, reference §4.3): repetition and 40 moves each "
            "without a man move or capture are claims", (("english", draws.ENGLISH_TOURNAMENT),)),
)}
DEFAULT_RULES = RULE_SETS["seeds"]
_BY_GAMETYPE = {v.gametype: v for v in _VARIANT_LIST}
_BY_NAME = {alias: v for v in _VARIANT_LIST for alias in (v.name, *v.aliases)}
_BY_NAME["standard"] = VARIANTS["international"]
_BY_LIDRAUGHTS = {entry.number: (v, entry) for v in _VARIANT_LIST for entry in v.lidraughts}


def _by_hint() -> dict[Hint, tuple[Variant, ...]]:
    ranked: dict[Hint, list[tuple[int, Variant]]] = {}
    for variant in _VARIANT_LIST:
        for hint, rank in variant.inferred:
            ranked.setdefault(hint, []).append((rank, variant))
    return {hint: tuple(v for _, v in sorted(entries, key=lambda entry: entry[0]))
            for hint, entries in ranked.items()}


_BY_HINT = _by_hint()


def inferred_variants(hint: Hint) -> tuple[Variant, ...]:
    """The variants a game without GameType that looks like `hint` is tried as, in order."""
    return _BY_HINT.get(hint, ())


def algebraic_variants(side: int) -> tuple[Variant, ...]:
    """The variants an algebraic game without GameType is tried as when its squares need a board
    of `side` files and ranks: those of every board that holds them, smaller boards first."""
    hints = sorted(hint for hint in _BY_HINT if hint.alpha)
    return tuple(v for hint in hints for v in _BY_HINT[hint] if min(v.rows, v.cols) >= side)


def lidraughts_variant(number: int) -> tuple[Variant, Lidraughts] | None:
    """The variant whose moves lidraughts' own GameType `number` uses, and its entry."""
    return _BY_LIDRAUGHTS.get(number)


def variant_by_gametype(n: int) -> Variant | None:
    """The variant with PDN GameType number `n`, or None."""
    return _BY_GAMETYPE.get(n)


def variant_by_name(name: str) -> Variant | None:
    """Look a variant up by name or alias (case-insensitive) or by GameType number text."""
    if not isinstance(name, str):
        raise TypeError(f"variant_by_name takes a str (a name, or a GameType number as text), not {type(name).__name__}")
    key = " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())
    if key.isdigit():
        gametype = number(key, 9)
        return None if gametype is None else variant_by_gametype(gametype)
    found = _BY_NAME.get(key)
    if found is None:
        for suffix in (" draughts", " checkers", " dama", " damas"):
            if key.endswith(suffix):
                return _BY_NAME.get(key[: -len(suffix)])
    return found
