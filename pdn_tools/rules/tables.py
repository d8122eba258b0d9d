"""A variant's move tables for an engine (`_Rules`): geometry, directions, precomputed quiet
moves, and the same tables in the compiled core on the compiled engine.

Boards are bitboards in Python ints.  A square at (row, col) of the White-at-bottom view is bit
``row * (cols + 2) + col``; the two spare columns per row make every direction a constant bit
offset that never wraps onto a playable square, so whole piece sets can be shifted at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING

from pdn_tools.rules.bitboards import _pure_has_capture, _pure_has_move
from pdn_tools.rules.core import Engine, Makers, compile_rules
from pdn_tools.rules.move import Move
from pdn_tools.rules.variants import Variant

if TYPE_CHECKING:
    from pdn_tools.rules._core import Rules as CompiledRules

Jump = tuple[int, int, int, int, int]               # direction, jumped bit, its mask, landing bit, its mask
JumpTable = list[tuple[Jump, ...]]                  # per square bit
QuietEntry = tuple[Move, int, int, int]             # the move, own xor, kings xor, landing bit

# Absolute directions in the White-at-bottom view: up-left, up-right, down-left, down-right,
# up, down, left, right, relative to each colour.
_RELATIVE = (
    {"fl": 0, "fr": 1, "bl": 2, "br": 3, "f": 4, "b": 5, "l": 6, "r": 7},  # White
    {"fl": 3, "fr": 2, "bl": 1, "br": 0, "f": 5, "b": 4, "l": 7, "r": 6},  # Black
)
_COLOURS = ("W", "B")


class _Rules:
    """Tables derived from a Variant for an engine: geometry, directions and precomputed quiet
    moves, and the same in the compiled core (`core`) on the compiled engine."""

    __slots__ = (
        "variant", "valid", "bit_of", "num_of", "rays", "ray_bits", "jumps", "shift", "promo",
        "man_steps", "man_step_split", "man_jump_split", "king_dirs", "king_jumps",
        "king_step_split", "king_jump_split", "king_moves", "flying", "land_behind",
        "immediate", "reverse", "passing", "men_take_kings", "law", "limit", "engine", "core", "quiet_move_of",
        "has_capture", "has_move",
        "square_sets",
    )

    def __init__(self, v: Variant, engine: Engine, makers: Makers) -> None:
        self.variant = v
        stride = v.cols + 2
        step = 1 if v.all_squares else 2
        vectors = ((-1, -1), (-1, 1), (1, -1), (1, 1), (-step, 0), (step, 0), (0, -step), (0, step))
        self.shift = tuple(dr * stride + dc for dr, dc in vectors)
        self.bit_of = [0] + [row * stride + col for row, col in map(v.coords, range(1, v.num_squares + 1))]
        self.num_of = [0] * (v.rows * stride)
        for n, b in enumerate(self.bit_of[1:], 1):
            self.num_of[b] = n
        self.valid = sum(1 << b for b in self.bit_of[1:])
        self.rays = [self._rays(dr, dc) for dr, dc in vectors]
        self.ray_bits = [[tuple(1 << b for b in ray) for ray in per_square] for per_square in self.rays]
        self.promo = tuple(
            sum(1 << (v.promotion_row(colour) * stride + c) for c in range(v.cols)) & self.valid
            for colour in _COLOURS)
        self.flying, self.land_behind = v.flying_kings, v.land_behind
        self.immediate, self.reverse, self.passing = v.immediate_removal, v.reverse_jumps, v.promote_in_passing
        self.men_take_kings, self.law, self.limit = v.men_capture_kings, v.law, v.king_move_limit
        self._jump_tables()
        self._step_tables()
        self.engine = engine
        self.core = self._compiled(engine, makers)
        # Whether the side owning `own` (colour index `ci`) has any capture: (ci, own, opp, kings).
        self.has_capture: Callable[[int, int, int, int], bool] = (
            partial(_pure_has_capture, self) if self.core is None else self.core.has_capture)
        # Whether that side has any legal move: (ci, own, opp, kings, its king-move counter).
        self.has_move: Callable[[int, int, int, int, int], bool] = (
            partial(_pure_has_move, self) if self.core is None else self.core.has_move)
        # The precomputed quiet Move by (from bit << 9 | to bit << 1 | promotes), for steps.run.
        self.quiet_move_of = {
            ((entry[1] ^ 1 << entry[3]).bit_length() - 1) << 9 | entry[3] << 1 | entry[0].promotes: entry[0]
            for entry in self._quiet_table_entries()} if self.core is not None else {}
        # Position._squares' memory on the pure engine (the core keeps its last answers itself:
        # _positions.c).
        self.square_sets: dict[int, frozenset[int]] = {}

    def _rays(self, dr: int, dc: int) -> list[tuple[int, ...]]:
        """Per square bit: the bits of the squares in direction (dr, dc), nearest first."""
        v = self.variant
        stride = v.cols + 2
        per_square: list[tuple[int, ...]] = [()] * len(self.num_of)
        for n in range(1, v.num_squares + 1):
            r, c = v.coords(n)
            ray = []
            while True:
                r, c = r + dr, c + dc
                if not (0 <= r < v.rows and 0 <= c < v.cols) or v.square_at(r, c) is None:
                    break
                ray.append(r * stride + c)
            per_square[self.bit_of[n]] = tuple(ray)
        return per_square

    def _jump_tables(self) -> None:
        """Capture directions: men's per colour and kings', as shift splits and jump tables."""
        v = self.variant
        man_jumps = tuple(tuple(rel[d] for d in v.man_jumps) for rel in _RELATIVE)
        # Shift amounts split by sign, (left shifts, right shifts), for whole-set operations.
        self.man_jump_split = tuple(_split(self.shift[d] for d in dirs) for dirs in man_jumps)
        self.king_jumps = tuple(_RELATIVE[0][d] for d in v.king_jumps)
        # Short jumps per square: (direction, jumped square, its bit, landing square, its bit)
        # for White men, Black men and short kings.
        self.jumps = tuple(self._jump_table(dirs) for dirs in (*man_jumps, self.king_jumps))
        self.king_jump_split = _split(self.shift[d] for d in self.king_jumps)

    def _step_tables(self) -> None:
        """Quiet moves: men's steps per colour and kings' moves, as precomputed entries
        (Move, own_xor, kings_xor, to_bit), and shift splits."""
        v = self.variant
        self.king_dirs = tuple(_RELATIVE[0][d] for d in v.king_steps)
        self.king_step_split = _split(self.shift[d] for d in self.king_dirs)
        self.man_steps = tuple(
            tuple((self.shift[rel[d]], self._man_step_table(rel[d], ci)) for d in v.man_steps)
            for ci, rel in enumerate(_RELATIVE))
        self.man_step_split = tuple(_split(s for s, _ in steps) for steps in self.man_steps)
        self.king_moves = [[self._king_step_entries(d, b) for b in range(len(self.num_of))]
                           for d in range(len(self.shift))]

    def _compiled(self, engine: Engine, makers: Makers) -> CompiledRules | None:
        """These tables in the compiled core of `engine` (squares as dense indices), or None;
        `makers` make and read the positions and moves the core answers with."""
        v = self.variant
        man_jumps = tuple(tuple(rel[d] for d in v.man_jumps) for rel in _RELATIVE)
        dense = [-1] * len(self.num_of)
        for n in range(1, v.num_squares + 1):
            dense[self.bit_of[n]] = n - 1
        bits = self.bit_of[1:]
        rays = [[[dense[b] for b in per_square[bit]] for bit in bits] for per_square in self.rays]
        promo = tuple([dense[b] for b in bits if self.promo[ci] >> b & 1] for ci in (0, 1))
        man_steps = tuple(tuple(rel[d] for d in v.man_steps) for rel in _RELATIVE)
        switches = (self.flying, self.land_behind, self.immediate, self.reverse, self.passing,
                    self.men_take_kings, self.law, self.limit)
        compiled = compile_rules(bits, rays, (promo[0], promo[1]), (man_jumps[0], man_jumps[1]),
                                 (man_steps[0], man_steps[1]), self.king_dirs, self.king_jumps, switches,
                                 makers, engine)
        if compiled is not None:        # the square each number a MoveRun may write names
            compiled.name_squares([v.parse_square(str(number)) for number in range(100)])
        return compiled

    def _quiet_table_entries(self) -> list[tuple[Move, int, int, int]]:
        """Every precomputed quiet-move entry: men of both colours, then kings."""
        entries = [entry for steps in self.man_steps for _, table in steps for entry in table
                   if entry is not None]
        return entries + [entry for per_dir in self.king_moves for per_square in per_dir
                          for entry in per_square]

    def _jump_table(self, dirs: tuple[int, ...]) -> JumpTable:
        table = []
        for b in range(len(self.num_of)):
            entries = []
            for d in dirs:
                ray = self.rays[d][b]
                if len(ray) >= 2:
                    entries.append((d, ray[0], 1 << ray[0], ray[1], 1 << ray[1]))
            table.append(tuple(entries))
        return table

    def _man_step_table(self, d: int, ci: int) -> list[QuietEntry | None]:
        table: list[QuietEntry | None] = [None] * len(self.num_of)
        for b, ray in enumerate(self.rays[d]):
            if ray:
                to = ray[0]
                promotes = bool(self.promo[ci] >> to & 1)
                move = Move(self.num_of[b], (self.num_of[to],), (), promotes)
                table[to] = (move, (1 << b) | (1 << to), (1 << to) if promotes else 0, to)
        return table

    def _king_step_entries(self, d: int, b: int) -> tuple[QuietEntry, ...]:
        ray = self.rays[d][b]
        if not self.flying:
            ray = ray[:1]
        entries = []
        for to in ray:
            mask = (1 << b) | (1 << to)
            entries.append((Move(self.num_of[b], (self.num_of[to],)), mask, mask, to))
        return tuple(entries)


def _split(shifts: Iterable[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(positive shifts, magnitudes of negative shifts)."""
    shifts = tuple(shifts)
    return tuple(s for s in shifts if s > 0), tuple(-s for s in shifts if s < 0)
