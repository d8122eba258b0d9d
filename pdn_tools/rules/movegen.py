"""Legal move generation, positions and perft for every variant in `variants`.

Boards are bitboards in Python ints.  A square at (row, col) of the White-at-bottom view is bit
``row * (cols + 2) + col``; the two spare columns per row make every direction a constant bit
offset that never wraps onto a playable square, so whole piece sets can be shifted at once.
The variant's rule switches are read once into a `_Rules` object with per-square ray tables and
precomputed `Move` objects for every quiet move.  When the compiled core is built (see `core`),
`_Rules.core` holds the same tables in C and the capture generator and perft run there; the
pure functions below stay the reference.  A position's engine is the `core.Engine` value it
was made on (its tables are kept per variant and engine); the replayer's shortcuts over
these tables are in `steps`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, cast

from pdn_tools.rules import laws
from pdn_tools.rules.core import Engine, compile_rules, engine_from_environment
from pdn_tools.rules.fen import read_fen, write_fen
from pdn_tools.rules.laws import CaptureRecord
from pdn_tools.rules.variants import Variant

if TYPE_CHECKING:
    from pdn_tools.rules._core import Rules as CompiledRules

__all__ = ["Move", "Position", "perft", "divide"]

Jump = tuple[int, int, int, int, int]               # direction, jumped bit, its mask, landing bit, its mask
JumpTable = list[tuple[Jump, ...]]                  # per square bit
QuietEntry = tuple["Move", int, int, int]           # the move, own xor, kings xor, landing bit


@dataclass(frozen=True, slots=True)
class Move:
    """A move in square numbers: `path` lists every landing square, `captured` in capture order."""

    start: int
    path: tuple[int, ...]
    captured: tuple[int, ...] = ()
    promotes: bool = False

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    def __str__(self) -> str:
        return f"{self.start}{'x' if self.captured else '-'}{self.path[-1]}"


# Absolute directions in the White-at-bottom view: up-left, up-right, down-left, down-right,
# up, down, left, right.  REVERSE[8] is a sentinel for "no previous jump".
_REVERSE = (3, 2, 1, 0, 5, 4, 7, 6, 9)
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

    def __init__(self, v: Variant, engine: Engine) -> None:
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
        self.core = self._compiled(engine)
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
        self.square_sets: dict[int, frozenset[int]] = {}     # Position._squares' memory

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

    def _compiled(self, engine: Engine) -> CompiledRules | None:
        """These tables in the compiled core of `engine` (squares as dense indices), or None."""
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
                                 engine)
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


_SQUARE_SETS = 4096             # square sets a variant's rules remember for Position.pieces


@functools.cache
def _rules(variant: Variant, engine: Engine) -> _Rules:
    """The tables of `variant` on `engine`, made once."""
    return _Rules(variant, engine)


# -- generation on raw bitboards --------------------------------------------------------------


def _pure_has_move(rl: _Rules, ci: int, own: int, opp: int, kings: int, ctr: int) -> bool:
    """Whether the side owning `own` has a capture or a quiet move (rl.has_move, in Python)."""
    return _pure_has_capture(rl, ci, own, opp, kings) or _count_quiet(rl, ci, own, opp, kings, ctr) > 0


def _pure_has_capture(rl: _Rules, ci: int, own: int, opp: int, kings: int) -> bool:
    """Whether the side owning `own` (colour index `ci`) has any capture (rl.has_capture, in Python)."""
    empty = rl.valid & ~(own | opp)
    men = own & ~kings
    if men:
        prey = opp if rl.men_take_kings else opp & ~kings
        left, right = rl.man_jump_split[ci]
        for s in left:
            if ((men << s) & prey) << s & empty:
                return True
        for s in right:
            if ((men >> s) & prey) >> s & empty:
                return True
    k = own & kings
    if k:
        left, right = rl.king_jump_split
        flying = rl.flying
        for s in left:
            reach = k
            y = (k << s) & empty if flying else 0
            while y:
                reach |= y
                y = (y << s) & empty
            if ((reach << s) & opp) << s & empty:
                return True
        for s in right:
            reach = k
            y = (k >> s) & empty if flying else 0
            while y:
                reach |= y
                y = (y >> s) & empty
            if ((reach >> s) & opp) >> s & empty:
                return True
    return False


def _capture_records(rl: _Rules, ci: int, own: int, opp: int, kings: int,
                     starts: int = -1) -> list[CaptureRecord]:
    """All complete captures (by the pieces on the bits of `starts`), no precedence law.

    A record is (start, path, captured, promotes, with_king, captured_mask) in internal bits.
    """
    if rl.core is not None:
        return rl.core.capture_records(ci, own, opp, kings, None if starts == -1 else starts, False)
    return _pure_capture_records(rl, ci, own, opp, kings, starts)


def _pure_capture_records(rl: _Rules, ci: int, own: int, opp: int, kings: int,
                          starts: int = -1) -> list[CaptureRecord]:
    """_capture_records in Python."""
    search = _CaptureSearch(rl, ci, opp, kings)
    free = rl.valid & ~(own | opp)
    men = own & ~kings & starts
    if men:
        table = rl.jumps[ci]
        for start in _bits(_men_next_to_prey(rl, ci, men, search.men_prey, free)):
            search.start = start
            search.short(start, table, search.men_prey, free | 1 << start, 0, (), (), False)
    for start in _bits(own & kings & starts):
        search.start = start
        if rl.flying:
            search.flying(start, free | 1 << start, 0, (), (), 8, False, True)
        else:
            search.short(start, rl.jumps[2], opp, free | 1 << start, 0, (), (), True)
    return search.out


def _bits(mask: int) -> Iterator[int]:
    """The bit numbers set in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1


def _men_next_to_prey(rl: _Rules, ci: int, men: int, prey: int, free: int) -> int:
    """The men with an adjacent piece they may take and a free square behind it: only
    they can start a capture."""
    movable = 0
    left, right = rl.man_jump_split[ci]
    for s in left:
        movable |= (((free >> s) & prey) >> s) & men
    for s in right:
        movable |= (((free << s) & prey) << s) & men
    return movable


class _CaptureSearch:
    """A depth-first search for the complete captures of one side, one starting piece at a
    time (`start`); the records found gather in `out`."""

    __slots__ = ("out", "start", "rays", "ray_bits", "promo", "immediate", "passing", "land_behind",
                 "reverse", "opp", "men_prey", "king_dirs")

    def __init__(self, rl: _Rules, ci: int, opp: int, kings: int) -> None:
        self.out: list[CaptureRecord] = []
        self.start = 0
        self.rays, self.ray_bits = rl.rays, rl.ray_bits
        self.promo = rl.promo[ci]
        self.immediate, self.passing, self.land_behind = rl.immediate, rl.passing, rl.land_behind
        self.reverse = _REVERSE if not rl.reverse else (9,) * 9
        self.opp = opp
        self.men_prey = opp if rl.men_take_kings else opp & ~kings
        self.king_dirs = rl.king_jumps

    def short(self, sq: int, table: JumpTable, prey: int, free: int, capm: int, path: tuple[int, ...],
              caps: tuple[int, ...], is_king: bool) -> bool:
        """Short jumps from `sq` (men, and kings that do not fly); whether there was one."""
        found = False
        out, promo, immediate = self.out, self.promo, self.immediate
        for d, mid, mbit, land, lbit in table[sq]:
            if not prey & mbit or capm & mbit or not free & lbit:
                continue
            found = True
            nfree = free | mbit if immediate else free
            npath, ncaps, ncapm = path + (land,), caps + (mid,), capm | mbit
            if is_king:
                if not self.short(land, table, prey, nfree, ncapm, npath, ncaps, True):
                    out.append((self.start, npath, ncaps, False, True, ncapm))
            elif promo & lbit and self.passing:
                if not self.flying(land, nfree, ncapm, npath, ncaps, d, True, True):
                    out.append((self.start, npath, ncaps, True, False, ncapm))
            elif not self.short(land, table, prey, nfree, ncapm, npath, ncaps, False):
                out.append((self.start, npath, ncaps, bool(promo & lbit), False, ncapm))
        return found

    def flying(self, sq: int, free: int, capm: int, path: tuple[int, ...], caps: tuple[int, ...],
               last: int, crowned: bool, behind: bool) -> bool:
        """Flying-king jumps from `sq`, the last one in direction `last`; whether there was one.
        Going on in the jump's own direction is done only from the square directly behind
        the jumped piece (`behind`), so a straight stretch yields one path (PDN's canonical one)."""
        found = False
        opp, immediate, reverse = self.opp, self.immediate, self.reverse
        for d in self.king_dirs:
            if d == reverse[last] or (d == last and not behind):
                continue
            bits = self.ray_bits[d][sq]
            n = len(bits)
            i = 0
            while i < n and free & bits[i]:
                i += 1
            if i + 1 >= n:
                continue
            mbit = bits[i]
            if not opp & mbit or capm & mbit:
                continue
            nfree = free | mbit if immediate else free
            if not nfree & bits[i + 1]:
                continue
            found = True
            self._land_beyond(d, sq, i + 1, nfree, capm | mbit, path, caps, crowned)
        return found

    def _land_beyond(self, d: int, sq: int, i: int, free: int, capm: int, path: tuple[int, ...],
                     caps: tuple[int, ...], crowned: bool) -> None:
        """The landing squares beyond a piece jumped in direction `d` from `sq` (the first at
        ray index `i`): the capture goes on from those where it can, else it ends on each."""
        bits, ray = self.ray_bits[d][sq], self.rays[d][sq]
        n = len(bits)
        ncaps = caps + (ray[i - 1],)
        stops = []
        more = False
        first = True
        while i < n and free & bits[i]:
            land = ray[i]
            npath = path + (land,)
            if self.flying(land, free, capm, npath, ncaps, d, crowned, first):
                more = True
            elif not more:
                stops.append(npath)
            if self.land_behind:
                break
            first = False
            i += 1
        if not more:
            self.out.extend((self.start, npath, ncaps, crowned, not crowned, capm) for npath in stops)


def _quiet_entries(rl: _Rules, ci: int, own: int, opp: int, kings: int, ctr: int) -> list[QuietEntry]:
    """Non-capturing moves as precomputed (Move, own_xor, kings_xor, to_bit) entries."""
    empty = rl.valid & ~(own | opp)
    out: list[QuietEntry] = []
    men = own & ~kings
    if men:
        for s, table in rl.man_steps[ci]:
            t = (men << s if s > 0 else men >> -s) & empty
            while t:
                low = t & -t
                t ^= low
                out.append(cast(QuietEntry, table[low.bit_length() - 1]))   # a step lands there
    k = own & kings
    if k:
        if ctr and men and (ctr & 7) >= rl.limit:
            k &= ~(1 << (ctr >> 3))
        king_moves, dirs = rl.king_moves, rl.king_dirs
        while k:
            low = k & -k
            k ^= low
            sq = low.bit_length() - 1
            for d in dirs:
                entries = king_moves[d][sq]
                j = 0
                for entry in entries:
                    if not empty >> entry[3] & 1:
                        break
                    j += 1
                if j:
                    out.extend(entries[:j])
    return out


def _count_quiet(rl: _Rules, ci: int, own: int, opp: int, kings: int, ctr: int) -> int:
    """Number of non-capturing moves, counted on whole sets of pieces."""
    empty = rl.valid & ~(own | opp)
    n = 0
    men = own & ~kings
    if men:
        left, right = rl.man_step_split[ci]
        for s in left:
            n += ((men << s) & empty).bit_count()
        for s in right:
            n += ((men >> s) & empty).bit_count()
    k = own & kings
    if k:
        if ctr and men and (ctr & 7) >= rl.limit:
            k &= ~(1 << (ctr >> 3))
        left, right = rl.king_step_split
        if not rl.flying:
            for s in left:
                n += ((k << s) & empty).bit_count()
            for s in right:
                n += ((k >> s) & empty).bit_count()
            return n
        for s in left:
            y = (k << s) & empty
            while y:
                n += y.bit_count()
                y = (y << s) & empty
        for s in right:
            y = (k >> s) & empty
            while y:
                n += y.bit_count()
                y = (y >> s) & empty
    return n


def _legal_records(rl: _Rules, ci: int, own: int, opp: int, kings: int) -> list[CaptureRecord]:
    """The captures the precedence law allows, [] when there is none."""
    if rl.core is not None:
        return rl.core.legal_records(ci, own, opp, kings)
    if not rl.has_capture(ci, own, opp, kings):
        return []
    return laws.lawful(rl.law, _capture_records(rl, ci, own, opp, kings), kings)


def _after_capture(rec: CaptureRecord, own: int, opp: int, kings: int) -> tuple[int, int, int]:
    """(own, opp, kings) after the capture record `rec`."""
    start, path, _, promotes, _, capm = rec
    sbit, ebit = 1 << start, 1 << path[-1]
    new_own = (own & ~sbit) | ebit
    was_king, kings = kings & sbit, kings & ~capm     # the end may be a square taken on the way
    if was_king or promotes:
        kings = (kings & ~sbit) | ebit
    return new_own, opp & ~capm, kings


def _next_counter(rl: _Rules, ctr: int, entry: QuietEntry | None) -> int:
    """Frisian king-move counter of the mover after its move (entry None for a capture)."""
    if not rl.limit or entry is None or entry[2] != entry[1]:
        return 0
    frm = (entry[1] ^ (1 << entry[3])).bit_length() - 1
    n = (ctr & 7) + 1 if ctr and ctr >> 3 == frm else 1
    return (entry[3] << 3) | min(n, 7)


def _perft(rl: _Rules, ci: int, own: int, opp: int, kings: int, c_own: int, c_opp: int,
           depth: int, keep: bool) -> int:
    if rl.has_capture(ci, own, opp, kings):
        records = laws.lawful(rl.law, _capture_records(rl, ci, own, opp, kings), kings)
        if not keep and len(records) > 1:
            seen = set()
            unique = []
            for r in records:
                key = (r[0], r[1][-1], r[5], r[3])
                if key not in seen:
                    seen.add(key)
                    unique.append(r)
            records = unique
        if depth == 1:
            return len(records)
        total = 0
        for r in records:
            o, p, k = _after_capture(r, own, opp, kings)
            total += _perft(rl, ci ^ 1, p, o, k, c_opp, 0, depth - 1, keep)
        return total
    if depth == 1:
        return _count_quiet(rl, ci, own, opp, kings, c_own)
    total = 0
    limit = rl.limit
    for entry in _quiet_entries(rl, ci, own, opp, kings, c_own):
        ctr = _next_counter(rl, c_own, entry) if limit else 0
        total += _perft(rl, ci ^ 1, opp, own ^ entry[1], kings ^ entry[2], c_opp, ctr,
                        depth - 1, keep)
    return total


# -- Zobrist keys -----------------------------------------------------------------------------

ZOBRIST_SEED = 0x70646E2D746F6F6C       # "pdn-tool": the keys are the same on every run and engine
_MASK64 = (1 << 64) - 1


def zobrist_key(index: int) -> int:
    """The `index`-th output of SplitMix64 seeded with ZOBRIST_SEED (as `_search.c` computes it):
    index kind * 128 + square number - 1 for a piece of kind 0 (white man), 1 (white king),
    2 (black man) or 3 (black king); 512 for Black to move."""
    z = (ZOBRIST_SEED + (index + 1) * 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


ZOBRIST_SIDE = zobrist_key(512)
_ZOBRIST: dict[Variant, tuple[list[int], ...]] = {}


def zobrist_keys(rl: _Rules) -> tuple[list[int], ...]:
    """The keys of the four piece kinds by padded bit (0 where no square is)."""
    keys = _ZOBRIST.get(rl.variant)
    if keys is None:
        keys = _ZOBRIST[rl.variant] = tuple([zobrist_key(kind * 128 + n - 1) if n else 0 for n in rl.num_of]
                                            for kind in range(4))
    return keys


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
    def from_fen(cls, variant: Variant, text: str) -> Position:
        """The position a FEN gives for `variant`; raise `fen.FenError` (a ValueError) with a
        message and 0-based column.

        >>> from pdn_tools import VARIANTS
        >>> Position.from_fen(VARIANTS["english"], "W:W18,K30:B14").piece_at(30)
        'W'
        """
        return cls(variant, *read_fen(variant, text))

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
        """'w', 'W', 'b', 'B' (upper case = king) or None for an empty square."""
        if not 1 <= sq <= self.variant.num_squares:
            return None
        bit = 1 << self._rl.bit_of[sq]
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
        """(men, kings) of `colour` ('W' or 'B') as square numbers."""
        bits = self._white if colour == "W" else self._black
        men, kings = bits & ~self._kings, bits & self._kings
        core = self._rl.core
        if core is not None:                   # the compiled core makes the sets at once
            return core.squares_of(men), core.squares_of(kings)
        known = self._rl.square_sets           # the common case, written out: one call a ply
        men_squares, king_squares = known.get(men), known.get(kings)
        if men_squares is None or king_squares is None:
            return self._squares(men), self._squares(kings)
        return men_squares, king_squares

    def counts(self, colour: str) -> tuple[int, int]:
        """(number of men, number of kings) of `colour`."""
        bits = self._white if colour == "W" else self._black
        return (bits & ~self._kings).bit_count(), (bits & self._kings).bit_count()

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

    def __repr__(self) -> str:
        """The constructor call that makes this position (FEN text is the business of `fen`,
        which builds on this module)."""
        pieces = {square: self.piece_at(square) for square in range(1, self.variant.num_squares + 1)
                  if self.piece_at(square)}
        return f"Position(VARIANTS[{self.variant.name!r}], {self.turn!r}, {pieces!r})"


def perft(position: Position, depth: int, keep_duplicates: bool = False) -> int:
    """Leaf nodes at `depth`; captures with the same start, end and captured set count once
    unless `keep_duplicates` (they differ only in the order of the captured pieces)."""
    if depth <= 0:
        return 1
    ci, own, opp = position._sides()
    c_opp = position._ctr[ci ^ 1]
    core = position._rl.core
    if core is not None:
        return core.perft(ci, own, opp, position._kings, position._ctr[ci], c_opp, depth,
                          keep_duplicates)
    return _perft(position._rl, ci, own, opp, position._kings, position._ctr[ci], c_opp, depth,
                  keep_duplicates)


def divide(position: Position, depth: int, keep_duplicates: bool = False) -> list[tuple[Move, int]]:
    """perft below each legal move (every path kept), for debugging against other engines."""
    return [(m, perft(position.play(m), depth - 1, keep_duplicates))
            for m in position.legal_moves()]

