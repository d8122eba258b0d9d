"""Positions, their legal moves and perft for every variant in `variants`: the board API.

A variant's rule switches are read once into its move tables (`tables._Rules`, bitboards with
per-square ray tables and precomputed `Move` objects for every quiet move).  When the compiled
core is built (see `core`), `_Rules.core` holds the same tables in C and the capture generator
and perft run there; the pure functions of `bitboards` stay the reference.  A position's
engine is the `core.Engine` value it was made on (its tables are kept per variant and engine);
the replayer's shortcuts over these tables are in `steps`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping

from pdn_tools.rules import laws
from pdn_tools.rules.bitboards import _capture_records, _legal_records, _next_counter, _perft, _quiet_entries
from pdn_tools.rules.core import Engine, engine_from_environment
from pdn_tools.rules.fen import read_fen, write_fen
from pdn_tools.rules.laws import CaptureRecord
from pdn_tools.rules.move import Move
from pdn_tools.rules.tables import _COLOURS, QuietEntry, _Rules
from pdn_tools.rules.variants import Variant
from pdn_tools.rules.zobrist import ZOBRIST_SIDE, zobrist_keys

__all__ = ["Move", "Position", "perft", "divide"]

_SQUARE_SETS = 4096             # square sets a variant's rules remember for Position.pieces (pure engine)


@functools.cache
def _rules(variant: Variant, engine: Engine) -> _Rules:
    """The tables of `variant` on `engine`, made once (the first on the compiled core hands
    Position.pieces to it); a variant or an engine of the wrong kind (a name) is a TypeError."""
    if not isinstance(variant, Variant):
        raise TypeError(f"variant must be a Variant (VARIANTS[name], variant_by_name(name)), not {variant!r}")
    if not isinstance(engine, Engine):
        raise TypeError(f"engine must be an Engine (pdn_tools.rules.core: Engine(True), PURE), not {engine!r}")
    rules = _Rules(variant, engine, (_POSITION_MAKER, _position_pieces, _MOVE_MAKER))
    module = engine.core
    if module is not None and Position.__dict__["pieces"] is _PIECES:
        setattr(Position, "pieces", module.pieces_method(Position, _PIECES_SLOTS, vars(_Rules)["core"], _PIECES))
    return rules


# -- positions ---------------------------------------------------------------------------------


class Position:
    """An immutable position: pieces, side to move and (Frisian) king-move counters.

    Equality and hashing use the variant, the pieces and the side to move only.
    """

    __slots__ = ("variant", "turn", "_rl", "_white", "_black", "_kings", "_ctr")

    variant: Variant
    turn: str

    def __init__(self, variant: Variant, turn: str = "W",
                 pieces: Mapping[int, str] | None = None, engine: Engine | None = None) -> None:
        """Build a position from {square: 'w'|'W'|'b'|'B'} (upper case = king), on `engine`
        (by default the one `core.engine_from_environment()` gives)."""
        if turn not in _COLOURS:
            raise ValueError(f"turn must be 'W' or 'B', not {turn!r}")
        rl = _rules(variant, engine or engine_from_environment())
        white = black = kings = 0
        for sq, piece in (pieces or {}).items():
            if not isinstance(sq, int):
                raise TypeError(f"a square is a number (an int), not {type(sq).__name__}: {sq!r}")
            if not 1 <= sq <= variant.num_squares:
                raise ValueError(f"square {sq} is not on the {variant.name} board")
            if piece not in ("w", "W", "b", "B"):
                raise ValueError(f"unknown piece {piece!r}")
            bit = 1 << rl.bit_of[sq]
            if piece in ("w", "W"):
                white |= bit
            else:
                black |= bit
            if piece.isupper():
                kings |= bit
        self._set(variant, turn, rl, white, black, kings, (0, 0))

    def _set(self, variant: Variant, turn: str, rl: _Rules, white: int, black: int, kings: int,
             ctr: tuple[int, int]) -> None:
        self.variant = variant
        self.turn = turn
        self._rl = rl
        self._white = white
        self._black = black
        self._kings = kings
        self._ctr = ctr

    def _make(self, turn: str, white: int, black: int, kings: int,
              ctr: tuple[int, int]) -> Position:
        pos = Position.__new__(Position)
        pos._set(self.variant, turn, self._rl, white, black, kings, ctr)
        return pos

    @classmethod
    def initial(cls, variant: Variant, engine: Engine | None = None) -> Position:
        """The start position of `variant`, its first player to move (on `engine`, as __init__)."""
        _rules(variant, engine or engine_from_environment())      # TypeError for a variant's name
        white, black = variant.initial_squares()
        pieces = {sq: "w" for sq in white} | {sq: "b" for sq in black}
        return cls(variant, variant.first, pieces, engine)

    @property
    def engine(self) -> Engine:
        """The engine that generates this position's moves."""
        return self._rl.engine

    def on(self, engine: Engine) -> Position:
        """The same position on `engine` (equal to this one)."""
        if engine == self._rl.engine:
            return self
        pos = Position.__new__(Position)
        pos._set(self.variant, self.turn, _rules(self.variant, engine), self._white, self._black,
                 self._kings, self._ctr)
        return pos

    @classmethod
    def from_fen(cls, variant: Variant, text: str, engine: Engine | None = None) -> Position:
        """The position a FEN gives for `variant` (on `engine`, as __init__); raise `fen.FenError`
        (a ValueError) with a message and 0-based column.

        >>> from pdn_tools import VARIANTS
        >>> Position.from_fen(VARIANTS["english"], "W:W18,K30:B14").piece_at(30)
        'W'
        """
        _rules(variant, engine or engine_from_environment())      # TypeError for a variant's name
        return cls(variant, *read_fen(variant, text), engine)

    def fen(self, alpha: bool | None = None) -> str:
        """This position in canonical FEN: sorted squares, `K` before kings, no ranges; squares
        in algebraic (`alpha` True) or numeric notation (None: the variant's own).

        >>> from pdn_tools import VARIANTS
        >>> Position.from_fen(VARIANTS["international"], "B:W31-33:BK5").fen()
        'B:W31,32,33:BK5'
        """
        core = self._rl.core
        if core is not None and not (self.variant.alpha if alpha is None else alpha):     # square numbers
            return core.fen(self._white, self._black, self._kings, self.turn == "B")
        return write_fen(self.variant, self.turn, self.pieces("W"), self.pieces("B"), alpha)

    def _sides(self) -> tuple[int, int, int]:
        if self.turn == "W":
            return 0, self._white, self._black
        return 1, self._black, self._white

    # -- queries ---------------------------------------------------------------------------

    def piece_at(self, sq: int) -> str | None:
        """'w', 'W', 'b', 'B' (upper case = king) or None for an empty square (or one off the board);
        a TypeError for what is not an int."""
        try:
            if not 1 <= sq <= self.variant.num_squares:
                return None
            bit = 1 << self._rl.bit_of[sq]
        except TypeError:
            raise TypeError(f"piece_at takes a square number (an int), not {type(sq).__name__}") from None
        if self._white & bit:
            return "W" if self._kings & bit else "w"
        if self._black & bit:
            return "B" if self._kings & bit else "b"
        return None

    def _squares(self, bits: int) -> frozenset[int]:
        """The square numbers of `bits`, remembered (a few thousand sets per variant): along a
        game the side that did not move keeps its sets, so walking every position of a game
        builds about one set a ply."""
        known = self._rl.square_sets
        found = known.get(bits)
        if found is None:
            if len(known) >= _SQUARE_SETS:
                known.clear()
            num_of = self._rl.num_of
            out = []
            rest = bits
            while rest:
                low = rest & -rest
                rest ^= low
                out.append(num_of[low.bit_length() - 1])
            found = known[bits] = frozenset(out)
        return found

    def pieces(self, colour: str) -> tuple[frozenset[int], frozenset[int]]:
        """(men, kings) of `colour` ('W' or 'B') as square numbers; ValueError for any other colour."""
        bits = self._side(colour)
        core = self._rl.core
        if core is not None:                   # the compiled core finds or makes both sets at once
            return core.pieces(bits, self._kings)
        rl = self._rl
        men, kings = bits & ~self._kings, bits & self._kings
        known = rl.square_sets                 # the common case, written out: one call a ply
        men_squares, king_squares = known.get(men), known.get(kings)
        if men_squares is None or king_squares is None:
            return self._squares(men), self._squares(kings)
        return men_squares, king_squares

    def counts(self, colour: str) -> tuple[int, int]:
        """(number of men, number of kings) of `colour` ('W' or 'B'; ValueError for any other)."""
        bits = self._side(colour)
        return (bits & ~self._kings).bit_count(), (bits & self._kings).bit_count()

    def _side(self, colour: str) -> int:
        """The bitboard of `colour`'s pieces; a ValueError for a colour that names no side (a white
        man's 'w' names none either)."""
        if colour == "W":
            return self._white
        if colour == "B":
            return self._black
        raise ValueError(f"colour must be 'W' or 'B', not {colour!r}")

    def is_empty(self) -> bool:
        """True if no piece is on the board (FEN `W::`)."""
        return not (self._white or self._black)

    def has_kings(self) -> bool:
        """True if there is a king on the board."""
        return self._kings != 0

    def has_capture(self) -> bool:
        """True if the side to move must capture."""
        ci, own, opp = self._sides()
        return self._rl.has_capture(ci, own, opp, self._kings)

    def _moves(self, records: list[CaptureRecord]) -> list[Move]:
        num = self._rl.num_of
        return [
            Move(num[s], tuple([num[x] for x in path]), tuple([num[x] for x in caps]), prom)
            for s, path, caps, prom, _, _ in records
        ]

    def captures(self, law: bool = True) -> list[Move]:
        """All complete captures; with law=False the precedence law is not applied."""
        ci, own, opp = self._sides()
        rl, kings = self._rl, self._kings
        if not rl.has_capture(ci, own, opp, kings):
            return []
        records = _capture_records(rl, ci, own, opp, kings)
        return self._moves(laws.lawful(rl.law, records, kings) if law else records)

    def legal_moves(self) -> list[Move]:
        """All legal moves: captures (by the precedence law) if any, else quiet moves."""
        ci, own, opp = self._sides()
        rl, kings = self._rl, self._kings
        records = _legal_records(rl, ci, own, opp, kings)
        if records:
            return self._moves(records)
        return [e[0] for e in _quiet_entries(rl, ci, own, opp, kings, self._ctr[ci])]

    def choices(self) -> int:
        """The legal moves, captures that differ only in the order of the pieces they take counted
        once (perft's count of one ply, which also tells captures crowning or not apart)."""
        ci, own, opp = self._sides()
        rl, kings = self._rl, self._kings
        if rl.core is not None:
            return rl.core.choices(ci, own, opp, kings, self._ctr[ci])
        if not rl.has_capture(ci, own, opp, kings):
            return perft(self, 1)
        return len({(m.start, m.end, frozenset(m.captured)) for m in self.captures()})

    def moves_between(self, start: int, end: int) -> list[Move]:
        """The legal moves from `start` to `end` (several captures may join them); Move
        objects are made only for these, so this is cheaper than filtering legal_moves()."""
        ci, own, opp = self._sides()
        rl, kings = self._rl, self._kings
        bit_of = rl.bit_of
        if not (0 < start < len(bit_of) and 0 < end < len(bit_of)) or not own >> bit_of[start] & 1:
            return []
        sb, eb = bit_of[start], bit_of[end]
        records = _legal_records(rl, ci, own, opp, kings)
        if records:
            return self._moves([r for r in records if r[0] == sb and r[1][-1] == eb])
        return [e[0] for e in _quiet_entries(rl, ci, own, opp, kings, self._ctr[ci])
                if e[0].start == start and e[3] == eb]

    def has_move(self) -> bool:
        """True if the side to move has a legal move (the game is not over)."""
        ci, own, opp = self._sides()
        return self._rl.has_move(ci, own, opp, self._kings, self._ctr[ci])

    def quiet_move(self, start: int, end: int) -> Move | None:
        """The legal non-capturing move from `start` to `end`, else None (also when a capture
        is compulsory).  Cheaper than searching legal_moves(): the replayer's common case."""
        ci, own, opp = self._sides()
        rl = self._rl
        n = self.variant.num_squares
        if not (1 <= start <= n and 1 <= end <= n):
            return None
        sb, eb = rl.bit_of[start], rl.bit_of[end]
        if not own >> sb & 1 or (own | opp) >> eb & 1 or rl.has_capture(ci, own, opp, self._kings):
            return None
        if rl.limit and self._kings >> sb & 1:
            return next((m for m in self.legal_moves() if m.start == start and m.end == end), None)
        entry = self._quiet_entry(ci, own, opp, start, sb, eb)
        return None if entry is None else entry[0]

    def _quiet_entry(self, ci: int, own: int, opp: int, start: int, sb: int, eb: int) -> QuietEntry | None:
        """The precomputed (Move, own_xor, kings_xor, to_bit) entry of the step from bit `sb`
        to bit `eb` by the piece there, if its geometry allows it (capture duty not checked)."""
        rl = self._rl
        if self._kings >> sb & 1:
            empty = rl.valid & ~(own | opp)
            for d in rl.king_dirs:
                for entry in rl.king_moves[d][sb]:
                    if not empty >> entry[3] & 1:
                        break
                    if entry[3] == eb:
                        return entry
            return None
        for _, table in rl.man_steps[ci]:
            step = table[eb]
            if step is not None and step[0].start == start:
                return step
        return None

    # -- making moves ----------------------------------------------------------------------

    def play(self, move: Move) -> Position:
        """The position after `move`, which must be legal here (as from legal_moves())."""
        ci, own, opp = self._sides()
        rl, kings = self._rl, self._kings
        bit_of = rl.bit_of
        sbit, ebit = 1 << bit_of[move.start], 1 << bit_of[move.end]
        if not own & sbit:
            raise ValueError(f"no piece of the side to move on square {move.start}")
        is_king = bool(kings & sbit)
        own = (own & ~sbit) | ebit
        ctr = list(self._ctr)
        if move.captured:       # taken first: the end may be a square taken on the way (Turkish)
            capm = 0
            for sq in move.captured:
                capm |= 1 << bit_of[sq]
            opp &= ~capm
            kings &= ~capm
            ctr[ci] = 0
        if is_king or move.promotes:
            kings = (kings & ~sbit) | ebit
        if not move.captured and rl.limit:
            entry = (move, sbit | ebit, (sbit | ebit) if is_king else 0, bit_of[move.end])
            ctr[ci] = _next_counter(rl, self._ctr[ci], entry)
        if ci == 0:
            return self._make("B", own, opp, kings, (ctr[0], ctr[1]))
        return self._make("W", opp, own, kings, (ctr[0], ctr[1]))

    def with_turn(self, turn: str) -> Position:
        """The same pieces with `turn` to move."""
        if turn not in _COLOURS:
            raise ValueError(f"turn must be 'W' or 'B', not {turn!r}")
        return self._make(turn, self._white, self._black, self._kings, self._ctr)

    # -- Zobrist hash (rules.search's transposition table and evaluation caches) -----------

    def hash(self) -> int:
        """The 64-bit Zobrist hash of the pieces and the side to move (not the Frisian
        counters): the XOR of zobrist_key(kind, square) per piece and of ZOBRIST_SIDE when
        Black is to move; the same on every run and on both engines."""
        core = self._rl.core
        if core is not None:
            return core.zobrist(self._white, self._black, self._kings, self.turn == "B")
        keys = zobrist_keys(self._rl)
        kings = self._kings
        h = ZOBRIST_SIDE if self.turn == "B" else 0
        for kind, pieces in enumerate((self._white & ~kings, self._white & kings,
                                       self._black & ~kings, self._black & kings)):
            while pieces:
                low = pieces & -pieces
                pieces ^= low
                h ^= keys[kind][low.bit_length() - 1]
        return h

    # -- value semantics -------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self._white == other._white and self._black == other._black
                and self._kings == other._kings and self.turn == other.turn
                and (self._rl is other._rl or self.variant == other.variant))

    def __hash__(self) -> int:
        return hash((self._white, self._black, self._kings, self.turn))

    def __reduce__(self) -> tuple[Callable[..., Position], tuple[object, ...]]:
        """Pickled (and copied) as its variant, side to move, engine, pieces and counters, not its
        tables: the copy takes the tables of its variant and engine where it is made."""
        return _unpickled, (self.variant, self.turn, self._rl.engine, self._white, self._black, self._kings,
                            self._ctr)

    def __repr__(self) -> str:
        """The constructor call that makes this position (FEN text is the business of `fen`,
        which builds on this module)."""
        pieces = {square: self.piece_at(square) for square in range(1, self.variant.num_squares + 1)
                  if self.piece_at(square)}
        return f"Position(VARIANTS[{self.variant.name!r}], {self.turn!r}, {pieces!r})"


def _unpickled(variant: Variant, turn: str, engine: Engine, white: int, black: int, kings: int,
               ctr: tuple[int, int]) -> Position:
    """The position Position.__reduce__ describes."""
    pos = Position.__new__(Position)
    pos._set(variant, turn, _rules(variant, engine), white, black, kings, ctr)
    return pos


def _position_like(like: Position, turn: str, white: int, black: int, kings: int) -> Position:
    """The position of `like`'s variant, tables and counters with these pieces and side to
    move (as the compiled core makes it through _POSITION_MAKER)."""
    pos = Position.__new__(Position)
    pos.variant, pos._rl, pos._ctr = like.variant, like._rl, like._ctr
    pos.turn, pos._white, pos._black, pos._kings = turn, white, black, kings
    return pos


# How the compiled core makes positions (core.Makers): the class and the slots it fills, in this order;
# the first three copied from a position like the new one, then its side to move and pieces, as
# _position_like makes it (no Python code runs per position).
_POSITION_MAKER = (Position, tuple(getattr(Position, slot) for slot in ("variant", "_rl", "_ctr", "turn", "_white",
                                                                        "_black", "_kings")))
# Position.pieces in Python, the method the compiled core's answers in its place once a position is made
# on it (core pieces_method: it reads the position's tables, its sides' and kings' bitboards through
# these slots, and the tables' core; positions on the pure engine are answered by this one).
_PIECES = Position.pieces
_PIECES_SLOTS = tuple(getattr(Position, slot) for slot in ("_rl", "_white", "_black", "_kings"))
# How it makes moves: Move's slots, filled as Move(start, path, captured, promotes) fills them.
_MOVE_MAKER = (Move, tuple(getattr(Move, slot) for slot in ("start", "path", "captured", "promotes")))


def _position_pieces(position: Position) -> tuple[str, int, int, int]:
    """(turn, white, black, kings) of `position`: the one way the compiled core reads positions."""
    return position.turn, position._white, position._black, position._kings


def perft(position: Position, depth: int, keep_duplicates: bool = False) -> int:
    """Leaf nodes at `depth`; captures with the same start, end and captured set count once
    unless `keep_duplicates` (they differ only in the order of the captured pieces); `depth` an
    int of at most MAX_PERFT_DEPTH (ValueError past it, TypeError when not an int)."""
    if _perft_depth(depth) <= 0:
        return 1
    ci, own, opp = position._sides()
    c_opp = position._ctr[ci ^ 1]
    core = position._rl.core
    if core is not None:
        return core.perft(ci, own, opp, position._kings, position._ctr[ci], c_opp, depth,
                          keep_duplicates)
    return _perft(position._rl, ci, own, opp, position._kings, position._ctr[ci], c_opp, depth,
                  keep_duplicates)


MAX_PERFT_DEPTH = 63     # the deepest perft and divide count: the compiled core has room for MAX_DEPTH - 1 (_movegen.c)


def _perft_depth(depth: int) -> int:
    """`depth`, checked: an int of at most MAX_PERFT_DEPTH, the same bound on both engines."""
    if not isinstance(depth, int):
        raise TypeError(f"perft: depth must be an int, not {type(depth).__name__}")
    if depth > MAX_PERFT_DEPTH:
        raise ValueError(f"perft: a depth of at most {MAX_PERFT_DEPTH}, not {depth}")
    return depth


def divide(position: Position, depth: int, keep_duplicates: bool = False) -> list[tuple[Move, int]]:
    """perft below each legal move (every path kept), for debugging against other engines; `depth`
    counts the move itself, so it is at least 1."""
    return list(divided(position, depth, keep_duplicates))


def divided(position: Position, depth: int, keep_duplicates: bool = False) -> Iterator[tuple[Move, int]]:
    """`divide`'s counts, each given as it is counted (`depth` checked at once)."""
    if _perft_depth(depth) < 1:
        raise ValueError(f"divide: a depth of at least 1, not {depth}")
    return ((m, perft(position.play(m), depth - 1, keep_duplicates)) for m in position.legal_moves())
