"""A small reproducible search: alpha-beta with capture quiescence over material.

The search is negamax alpha-beta on the move generator's bitboards (by iterative deepening from
depth 1 when a node limit or a stop flag may cut it, unless asked not to), a transposition table
keyed by the Zobrist hash (`Position.hash`) and limits by depth and nodes only, never by time, so
a result (score, best move, line and node count) is the same on every run and on both engines.
A limit cuts any iteration, the first included: a search cut before its first iteration ends has
no answer (`SearchResult.depth` is None).  The pure functions here are the reference; the
compiled core (`_search.c`) does exactly the same steps in C.

Depth counts quiet plies: a ply where the side to move must capture does not use depth (captures
are compulsory, so a forced capture is not a choice the horizon should cut), and at depth 0 a
side that must capture plays every lawful capture to the end (quiescence, never standing pat);
a side with nothing to take is scored by material.  A side with no legal move has lost.

Forcing moves: a quiet move after which the opponent has exactly one capture (a man given
away, or an exchange offered, that must be taken) uses no depth either, while the line from the
root holds only such moves and captures, up to EXTENSIONS of them a line.  A shot is a chain of
such sacrifices ending in a bigger capture, so it is seen whole; the first other quiet move ends
the free line, so the cost stays near that of a plain search of the same depth.

Move order, which also breaks ties (the first move reaching the best score is kept): the
transposition table's move first, then captures by more pieces taken, then by start square,
end square, captured squares (sorted) and crowning; quiet moves by their history (the sum of
depth**2 over the cutoffs the same colour's move from the same start to the same end made so
far in this search), then by start square, then end square.  Captures with the same start,
end, captured set and crowning lead to the same position: only the first the generator gives
is searched.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from pdn_tools.rules import laws
from pdn_tools.rules.core import Engine
from pdn_tools.rules.laws import CaptureRecord
from pdn_tools.rules.bitboards import (_after_capture, _bits, _count_quiet, _next_counter, _pure_capture_records,
                                       _pure_has_capture, _quiet_entries)
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.rules.tables import _Rules
from pdn_tools.rules.variants import Variant
from pdn_tools.rules.zobrist import ZOBRIST_SIDE, zobrist_keys
from pdn_tools.rules.variants import Variant

__all__ = ["SearchResult", "search", "first_move", "king_value", "WIN", "MAN", "Evaluations", "Judgement", "judge",
           "eval_text", "SHOT", "MISSED", "WALKED_INTO", "NOT_JUDGED"]

WIN = 100_000                   # a side with no legal move has lost: -(WIN - plies from the root)
MAN = 100                       # a man's worth: scores are in hundredths of a man
EXTENSIONS = 2                  # forcing moves a line from the root plays without using depth
TT_BITS = 16                    # the transposition table holds 2**TT_BITS entries
STOP_EVERY = 1024               # nodes between two looks at a search's stop flag
SHOTS_NODES = 1_000_000         # --shots' node budget a search (docs/analysis.md)
_NO_LIMIT = 1 << 62             # a node limit never reached: the core's counter is 64-bit
MAX_PLY = 64                    # a line this long is scored by material (never reached in practice)
_INF = WIN + 1
_EXACT, _LOWER, _UPPER = 0, 1, 2
_OTHER = {"W": "B", "B": "W"}
_MATE_ZONE = WIN - 1000          # scores beyond this are wins or losses, stored relative to the node


@dataclass(frozen=True)
class SearchResult:
    """A search's answer, from the side to move's view: that of its last complete iteration, or
    none (score and depth None, no move) when a limit cut the first."""

    score: int | None           # centi-men (a man = 100); a forced win / loss is +/-(WIN - plies)
    best: Move | None           # None when the side to move has no legal move, or no iteration completed
    line: tuple[Move, ...]      # the principal variation, starting with `best`
    nodes: int                  # positions visited, quiescence included
    depth: int | None           # the depth of the last complete iteration (less than asked when cut)


def king_value(variant: Variant) -> int:
    """A king's worth in centi-men: 300 for a flying king (it rakes the whole diagonal and
    is worth about three men in the endgame literature), 150 for a short king (English and
    Italian checkers: a king is commonly counted one and a half men)."""
    return 300 if variant.flying_kings else 150


def search(position: Position, depth: int, nodes: int | None = None, *, compiled: bool | None = None,
           stop: threading.Event | None = None, deepen: bool = True) -> SearchResult:
    """Search `position` to `depth` quiet plies (0: quiescence only).  With `nodes`, an iteration
    that goes past that many nodes (counted from the start) is abandoned, the first included: the
    last complete one answers, or none (depth None).  With a limit (`nodes` or `stop`) the search
    iterates from depth 1 unless `deepen` is False: then it searches `depth` at once (the same
    nodes, score and line as without a limit, when it ends within it).
    `compiled`: None runs the position's engine, True the compiled core (which must be built:
    else ValueError), False the pure engine.  `stop`, set by another thread, ends the search as a
    node limit does (looked at every STOP_EVERY nodes), so the answer is not reproducible; one
    search runs at a time."""
    if depth < 0 or nodes is not None and nodes < 0:
        raise ValueError("search depth and node limit must be 0 or more")
    first = min(depth, 1) if deepen and (nodes is not None or stop is not None) else depth
    position = position.on(position.engine if compiled is None else Engine(compiled))
    if position._rl.core is not None:           # (a law the core does not know runs on the pure engine)
        return _compiled_search(position, first, depth, nodes, stop)
    return _Search(position, nodes, stop).run(first, depth)


def _compiled_search(position: Position, first: int, depth: int, nodes: int | None, stop: threading.Event | None
                     ) -> SearchResult:
    """search() on the compiled core: iterations `first` to `depth`."""
    rl = position._rl
    ci, own, opp = position._sides()
    core = rl.core
    assert core is not None
    limit = -1 if nodes is None else min(nodes, _NO_LIMIT)
    score, line, count, done = core.search(ci, own, opp, position._kings, position._ctr[ci], position._ctr[ci ^ 1],
                                           first, depth, limit, king_value(rl.variant), EXTENSIONS, stop)
    moves = tuple(Move(start, path, caps, promotes) for start, path, caps, promotes in line)
    if done < 0:
        return SearchResult(None, None, (), count, None)
    return SearchResult(score, moves[0] if moves else None, moves, count, done)


def first_move(position: Position) -> Move:
    """The first move of the search's order at `position` (before any table move or history): the
    capture taking the most pieces, else the lowest start and end squares; `position` has a move."""
    def key(move: Move) -> tuple[int, ...]:
        caps = move.captured
        return (-len(caps), move.start, move.end, *sorted(caps), move.promotes) if caps else (move.start, move.end)
    return min(position.legal_moves(), key=key)


class _Abort(Exception):
    """An iteration went past the node limit."""


class _Search:
    """One search: its transposition table, node count and principal variations."""

    def __init__(self, position: Position, limit: int | None, stop: threading.Event | None = None) -> None:
        self.rl = rl = position._rl
        self.root = position
        self.limit = limit
        self.stop = stop
        self.nodes = 0
        self.king = king_value(rl.variant)
        self.keys = zobrist_keys(rl)
        self.table: dict[int, tuple[int, int, int, int, int, int]] = {}  # slot: key, depth, flag, score, move, ext
        self.pv: list[list[Move]] = []
        self.history: tuple[dict[tuple[int, ...], int], ...] = ({}, {})  # (start, end): sum of depth**2

    def run(self, first: int, depth: int) -> SearchResult:
        """The iterations from depth `first` to `depth`: the last complete one answers."""
        position = self.root
        ci, own, opp = position._sides()
        args = (ci, own, opp, position._kings, position._ctr[ci], position._ctr[ci ^ 1], position.hash())
        score: int | None = None
        line, done = tuple[Move, ...](), None
        for d in range(first, depth + 1):
            try:
                score = self.node(*args, d, -_INF, _INF, 0, EXTENSIONS)
            except _Abort:
                break
            line = tuple(self.pv[0])
            done = d
        return SearchResult(score, line[0] if line else None, line, self.nodes, done)

    def node(self, ci: int, own: int, opp: int, kings: int, c_own: int, c_opp: int, h: int,
             depth: int, alpha: int, beta: int, ply: int, ext: int) -> int:
        """Negamax score of the side owning `own` (colour `ci`, hash `h`), with `ext` forcing
        moves left that use no depth."""
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise _Abort
        if self.stop is not None and self.nodes % STOP_EVERY == 0 and self.stop.is_set():
            raise _Abort
        while len(self.pv) <= ply + 1:
            self.pv.append([])
        self.pv[ply] = []
        if ply >= MAX_PLY:
            return self.material(own, opp, kings)
        rl = self.rl
        capture = _pure_has_capture(rl, ci, own, opp, kings)
        if capture:
            records = laws.lawful(rl.law, _pure_capture_records(rl, ci, own, opp, kings), kings)
            moves: list[tuple[int, ...]] = _capture_order(rl, records)
        elif depth <= 0:
            if not _count_quiet(rl, ci, own, opp, kings, c_own):
                return -(WIN - ply)
            return self.material(own, opp, kings)
        else:
            entries = _quiet_entries(rl, ci, own, opp, kings, c_own)
            if not entries:
                return -(WIN - ply)
            moves = sorted(((e[0].start, e[0].end, i) for i, e in enumerate(entries)))
        slot = h & ((1 << TT_BITS) - 1)
        entry = self.table.get(slot)
        first = -1
        if entry is not None and entry[0] == h:
            first = entry[4]
            if entry[1] >= depth and entry[5] >= ext:
                stored = _from_table(entry[3], ply)
                if entry[2] == _LOWER and stored >= beta or entry[2] == _UPPER and stored <= alpha:
                    return stored
        order: Sequence[int] = range(len(moves))
        if not capture:                 # by history, ties in order (a stable sort)
            history = self.history[ci]
            order = sorted(order, key=lambda i: -history.get(moves[i][:2], 0))
        if 0 <= first < len(moves):
            order = [first, *(i for i in order if i != first)]
        best, best_index, start_alpha = -_INF, 0, alpha
        for i in order:
            item = moves[i]
            if capture:
                record = records[item[-1]]
                o, p, k = _after_capture(record, own, opp, kings)
                nh = self.capture_hash(h, ci, record, kings)
                score = -self.node(ci ^ 1, p, o, k, c_opp, 0, nh, depth, -beta, -alpha, ply + 1, ext)
            else:
                e = entries[item[-1]]
                p, k = own ^ e[1], kings ^ e[2]
                forcing = ext > 0 and self.forced_capture(ci ^ 1, opp, p, k)
                frm = (e[1] ^ 1 << e[3]).bit_length() - 1
                nh = self.quiet_hash(h, ci, frm, e[3], bool(kings >> frm & 1), bool(e[2]))
                ctr = _next_counter(rl, c_own, e) if rl.limit else 0
                score = -self.node(ci ^ 1, opp, p, k, c_opp, ctr, nh, depth if forcing else depth - 1,
                                   -beta, -alpha, ply + 1, ext - 1 if forcing else 0)
            if score > best:
                best = score
                best_index = i
                if score > alpha:
                    alpha = score
                    move = self.record_move(records[item[-1]]) if capture else entries[item[-1]][0]
                    self.pv[ply] = [move, *self.pv[ply + 1]]
                    if alpha >= beta:
                        if not capture:
                            history[item[:2]] = history.get(item[:2], 0) + depth * depth
                        break
        flag = _LOWER if best >= beta else _UPPER if best <= start_alpha else _EXACT
        self.table[slot] = (h, depth, flag, _to_table(best, ply), best_index, ext)
        return best

    def forced_capture(self, ci: int, own: int, opp: int, kings: int) -> bool:
        """Whether the side owning `own` has exactly one capture."""
        rl = self.rl
        return (_pure_has_capture(rl, ci, own, opp, kings)
                and len(_capture_order(rl, laws.lawful(rl.law, _pure_capture_records(rl, ci, own, opp, kings),
                                                       kings))) == 1)

    def material(self, own: int, opp: int, kings: int) -> int:
        """Material of `own` minus `opp`."""
        king = self.king
        return (MAN * ((own & ~kings).bit_count() - (opp & ~kings).bit_count())
                + king * ((own & kings).bit_count() - (opp & kings).bit_count()))

    def quiet_hash(self, h: int, ci: int, frm: int, to: int, king: bool, kings_changed: bool) -> int:
        """The hash after a quiet move from bit `frm` to bit `to` (a crowning if the man's
        kings changed)."""
        keys = self.keys
        base = 2 * ci
        return (h ^ ZOBRIST_SIDE ^ keys[base + king][frm]
                ^ keys[base + (king or kings_changed)][to])

    def capture_hash(self, h: int, ci: int, record: CaptureRecord, kings: int) -> int:
        """The hash after colour `ci`'s capture `record`."""
        keys = self.keys
        start, path, _, promotes, _, capm = record
        base, other = 2 * ci, 2 * (ci ^ 1)
        king = bool(kings >> start & 1)
        h ^= ZOBRIST_SIDE ^ keys[base + king][start] ^ keys[base + (king or promotes)][path[-1]]
        for bit in _bits(capm):
            h ^= keys[other + (kings >> bit & 1)][bit]
        return h

    def record_move(self, record: CaptureRecord) -> Move:
        num = self.rl.num_of
        start, path, caps, promotes = record[:4]
        return Move(num[start], tuple(num[b] for b in path), tuple(num[b] for b in caps), promotes)


def _capture_order(rl: _Rules, records: list[CaptureRecord]
                   ) -> list[tuple[int, ...]]:
    """The records' search order as sort keys ending with the record's index: duplicates (same
    start, end, captured set and crowning) dropped, the first kept."""
    num = rl.num_of
    seen = set()
    keys = []
    for i, (start, path, caps, promotes, _, capm) in enumerate(records):
        if (start, path[-1], capm, promotes) in seen:
            continue
        seen.add((start, path[-1], capm, promotes))
        keys.append((-len(caps), num[start], num[path[-1]], *sorted(num[b] for b in caps), promotes, i))
    keys.sort()
    return keys


def _to_table(score: int, ply: int) -> int:
    """A score as the table keeps it: wins and losses counted from the node, not the root."""
    return score + ply if score > _MATE_ZONE else score - ply if score < -_MATE_ZONE else score


def _from_table(score: int, ply: int) -> int:
    return score - ply if score > _MATE_ZONE else score + ply if score < -_MATE_ZONE else score


# -- judging the moves of a game ------------------------------------------------------------

SHOT = "shot"                   # the move wins material by force
MISSED = "missed"               # the mover had a shot and did not play it
WALKED_INTO = "walked into"     # the move allows the opponent a shot a better move avoided
NOT_JUDGED = "not judged"       # a search of the move went past its node budget: no judgement, no score
SHOTS_DEPTH = 3                 # --shots' default depth, in quiet plies (docs/analysis.md)


class Evaluations:
    """Search results by (variant, position hash, depth), shared by the games of a run
    (openings repeat); `hits` and `misses` count the lookups.  Each search is of the depth asked
    at once, cut when it goes past `nodes` (None: no budget): a cut search answers None, every
    time it is asked for (its cut is kept, not searched again).  Memory is bounded: the results
    are kept in two generations of at most `keep` each; when the newer is full the older is
    dropped, and a result found in the older moves to the newer (so the positions met again and
    again stay).  A result dropped is searched again, to the same answer."""

    def __init__(self, depth: int, nodes: int | None = None, compiled: bool | None = None,
                 keep: int = 50_000) -> None:
        self.depth, self.nodes, self.compiled, self.keep = depth, nodes, compiled, keep
        # (id of the variant, the position's hash, depth) -> (the variant, its result): a variant of the
        # same name is another variant (a library user's), and the variant kept is checked to be the one
        self.results: dict[tuple[int, int, int], tuple[Variant, SearchResult]] = {}
        self.older: dict[tuple[int, int, int], tuple[Variant, SearchResult]] = {}
        self.hits = self.misses = 0
        self.searched = 0               # nodes of the searches made

    def __call__(self, position: Position, depth: int | None = None) -> SearchResult | None:
        """search() of `position` to `depth` (the cache's own by default), remembered; None when
        the node budget cut it."""
        depth = self.depth if depth is None else depth
        variant = position.variant
        key = (id(variant), position.hash(), depth)
        kept = self.results.get(key) or self.older.pop(key, None)
        if kept is None or kept[0] is not variant:
            self.misses += 1
            kept = variant, search(position, depth, self.nodes, compiled=self.compiled, deepen=False)
            self.searched += kept[1].nodes
            self.results.pop(key, None)
        else:
            self.hits += 1
        if key not in self.results:
            if len(self.results) >= self.keep:
                self.older, self.results = self.results, {}
            self.results[key] = kept
        result = kept[1]
        return None if result.depth is None else result

    def base(self, position: Position) -> int | None:
        """The score of `position` (whose side to move has a move) once the captures pending
        there are played out: search(position, 0), which is the material when there is none;
        None when the node budget cut that search."""
        if position.has_capture():
            result = self(position, 0)
            return None if result is None else result.score
        king = king_value(position.variant)
        (men, kings), (other_men, other_kings) = (position.counts(colour) for colour in (position.turn, _OTHER[position.turn]))
        return MAN * (men - other_men) + king * (kings - other_kings)


@dataclass(frozen=True)
class Judgement:
    """What the search says of one move: `kind` (SHOT, MISSED, WALKED_INTO, NOT_JUDGED or None),
    the score after it from White's view (None when not judged), and the line that shows it
    (starting from the position before the move: the move played and the forced play after it,
    or the shot the mover had)."""

    kind: str | None
    score: int | None
    line: tuple[Move, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "eval": None if self.score is None else eval_text(self.score),
                "line": [str(m) for m in self.line]}


def judge(plies: Sequence[tuple[Position, Move, Position]], evaluate: Evaluations) -> list[Judgement]:
    """The judgement of each (before, move, after) of a main line.

    With v the value of the move played (minus the search of the position after it) and base
    the position's value once the captures pending there are played out (quiescence): the
    move is a SHOT when v >= base + a man, the gain is new (v beats by a man what the mover
    had before the opponent's last move: a combination's later moves and a won ending's
    conversion are not shots again) and no move kept a man more; it WALKED_INTO a shot when v <= base - a man and a
    better move kept a man more; it MISSED a shot when the best move had base + a man and
    the move played got a man less than it.  A move one of whose searches (before it, after it,
    or the base) the node budget cut is NOT_JUDGED, with no score; when the search before it was
    cut, the next move is judged as a game's first is (nothing known of what its mover had)."""
    out = []
    had = -_INF                         # the mover's value before the opponent's last move
    for before, move, after in plies:
        best, reply = evaluate(before), evaluate(after)
        base = evaluate.base(before)
        if best is None or reply is None or base is None or best.score is None or reply.score is None:
            out.append(Judgement(NOT_JUDGED, None))
            had = -_INF if best is None or best.score is None else -best.score
            continue
        value = -reply.score
        kind: str | None = None
        line: tuple[Move, ...] = ()
        if value >= base + MAN and value >= had + MAN and value > best.score - MAN:
            kind, line = SHOT, (move, *reply.line)
        elif value <= base - MAN and value <= best.score - MAN:
            kind, line = WALKED_INTO, (move, *reply.line)
        elif best.score >= base + MAN and value <= best.score - MAN:
            kind, line = MISSED, best.line
        out.append(Judgement(kind, value if before.turn == "W" else -value, line))
        had = -best.score
    return out


def eval_text(score: int) -> str:
    """A score in men with two decimals and a sign (`+1.00`), or `#N` / `#-N` for a win or a loss
    in N moves of the winner."""
    if abs(score) > _MATE_ZONE:
        moves = (WIN - abs(score) + 1) // 2
        return f"#{'-' if score < 0 else ''}{moves}"
    return f"{score / MAN:+.2f}"
