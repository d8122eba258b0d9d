"""Legal move generation on raw bitboards in pure Python, the reference engine: captures under
every capture rule and law, quiet moves, move counting and perft.  The compiled core
(`rules/_captures.c`, `rules/_movegen.c`) does the same steps in C; `tables._Rules` holds the
tables both read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

from pdn_tools.rules import laws
from pdn_tools.rules.laws import CaptureRecord

if TYPE_CHECKING:
    from pdn_tools.rules.tables import JumpTable, QuietEntry, _Rules

# Absolute directions in the White-at-bottom view (see tables): the reverse of each; [8] is a
# sentinel for "no previous jump".
_REVERSE = (3, 2, 1, 0, 5, 4, 7, 6, 9)


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
                out.append(cast("QuietEntry", table[low.bit_length() - 1]))   # a step lands there
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
