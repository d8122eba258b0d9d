"""The replayer's shortcuts over a position's tables: a notated step or capture played at
once (`quiet_step`, `capture_step`), and on the compiled core a stretch of the main line
(`run`, over model elements) or a run of moves kept as text (`run_text`).  They give what
`Position.moves_between()` and `Position.play()` give, faster; they are not part of the
board API.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from pdn_tools.rules import laws
from pdn_tools.rules.bitboards import _after_capture, _capture_records, _legal_records
from pdn_tools.rules.movegen import Move, Position, _position_like

if TYPE_CHECKING:
    from pdn_tools.rules.draws import CoreLimits, DrawTracker

Step = tuple[Move, Position, bool]        # a move, the position after it, whether a king moved
Notated = TypeVar("Notated")              # run's notated-move type


def quiet_step(position: Position, start: int, end: int) -> Step | None:
    """(move, position after it, whether a king moved) for the legal non-capturing move
    from `start` to `end`, else None: quiet_move() and play() in one, for the replayer."""
    rl = position._rl
    if rl.limit:
        move = position.quiet_move(start, end)
        return None if move is None else (move, position.play(move), bool(position._kings >> rl.bit_of[start] & 1))
    bit_of = rl.bit_of
    if not (0 < start < len(bit_of) and 0 < end < len(bit_of)):
        return None
    white, black, kings = position._white, position._black, position._kings
    ci, own, opp = (0, white, black) if position.turn == "W" else (1, black, white)
    sb, eb = bit_of[start], bit_of[end]
    if not own >> sb & 1 or (white | black) >> eb & 1:
        return None
    entry = position._quiet_entry(ci, own, opp, start, sb, eb)
    if entry is None or rl.has_capture(ci, own, opp, kings):
        return None
    return entry[0], _after(position, ci, own ^ entry[1], opp, kings ^ entry[2]), bool(kings >> sb & 1)


def capture_step(position: Position, start: int, end: int) -> Step | None:
    """(move, position after it, whether a king moved) for the one lawful capture from
    `start` to `end`, else None (none, or several taking different pieces): the
    replayer's common capture."""
    rl = position._rl
    bit_of = rl.bit_of
    if rl.limit or not (0 < start < len(bit_of) and 0 < end < len(bit_of)):
        return None
    ci, own, opp = position._sides()
    kings = position._kings
    sb, eb = bit_of[start], bit_of[end]
    if not own >> sb & 1:
        return None
    if rl.law is laws.free:            # any capture is lawful: only this piece's are needed
        if not kings >> sb & 1 and not (rl.passing and rl.promo[ci] >> eb & 1):
            step = _single_jump(position, ci, own, opp, kings, sb, eb)
            if step is not None:
                return step
        records = _capture_records(rl, ci, own, opp, kings, 1 << sb)
    else:
        records = _legal_records(rl, ci, own, opp, kings)
    found = [r for r in records if r[0] == sb and r[1][-1] == eb]
    if not found:
        return None
    record = found[0]
    if len(found) > 1 and any(r[5] != record[5] for r in found):
        return None
    num = rl.num_of
    move = Move(start, tuple([num[x] for x in record[1]]), tuple([num[x] for x in record[2]]), record[3])
    return move, _after(position, ci, *_after_capture(record, own, opp, kings)), bool(kings >> sb & 1)


def run(position: Position, elements: Sequence[object], index: int, known: Mapping[str, int | None],
        kinds: tuple[type[Notated], *tuple[type, ...]]
        ) -> tuple[int, list[tuple[Notated, Move, Position, bool]]]:
    """The replayer's common path on the compiled core: from `elements[index]` on, skip the
    elements of `kinds[1:]` and play each notated move (of type `kinds[0]`) whose two
    squares `known` gives and that quiet_step / capture_step would play.  Returns the index
    of the first element left to the caller and (element, move, position after, whether a
    king moved) for each move played; nothing on the pure engine or under a king-move
    limit."""
    rl = position._rl
    core = rl.core
    if core is None or rl.limit:
        return index, []
    return core.run(elements, index, position, known, kinds, rl.quiet_move_of)


# Where run_text records the plies it plays: the list, the ply maker (play.main_line._PLY_MAKER: a
# class and the descriptors of the slots the core fills; None: the Move alone is recorded), the
# MoveRun played, the number of the ply before the first.
Record = tuple[list[Any], tuple[type, tuple[Any, ...]] | None, object, int]


def _counting(tracker: DrawTracker | None) -> tuple[dict[Position, int] | None, CoreLimits | tuple[()]] | None:
    """What the core counts `tracker`'s plies by: the positions it has seen and its core_limits(); (None,
    ()) to count nothing (no tracker, or one whose draw is in: update() counts nothing more); None while an
    ending's count runs (the core then plays nothing)."""
    if tracker is None or tracker.event is not None:
        return None, ()
    limits = tracker.core_limits()
    return None if limits is None else (tracker.seen, limits)


def run_text(position: Position, text: str, offset: int, tracker: DrawTracker | None,
             record: Record | None = None) -> tuple[int, int, Position | None, Position | None]:
    """A MoveRun's text on the compiled core: from `offset` on, skip move numbers and play
    each two-square move that quiet_step / capture_step would play, counting it in
    `tracker` as its update() would, until a move the core leaves to the caller (one
    it cannot settle, or one after which the tracker has a draw or an ending to look at).
    Returns (offset of that move, or len(text); plies played; the position before the
    last of them; the position after it).  Nothing is played on the pure engine or under
    a king-move limit (`runs_text()` is False).  With no tracker nothing is counted; with a
    `record`, a Ply is appended to its list for each ply played (see Record)."""
    rl = position._rl
    core = rl.core
    if core is None or rl.limit:
        return offset, 0, None, None
    counting = _counting(tracker)
    if counting is None:
        return offset, 0, None, None
    seen, limits = counting
    since, quiet = (None, 0) if tracker is None else (tracker.since, tracker.quiet)
    recording = () if record is None else (record[0], rl.quiet_move_of, *record[1:])
    offset, plies, before, after, since, quiet = core.run_text(text, offset, position, seen, since, quiet, limits,
                                                               *recording)
    if tracker is not None:
        tracker.since, tracker.quiet = since, quiet
    return offset, plies, before, after


def run_movetext(position: Position, movetext: Sequence[object], run_type: type, tracker: DrawTracker,
                 plies: list[Any] | None, maker: tuple[type, tuple[Any, ...]]) -> tuple[int, Position | None] | None:
    """Every run kept as text of `movetext` (its elements of `run_type`; the others, comments, skipped)
    played from `position` on the compiled core as run_text plays each, counted in `tracker`, each ply
    recorded into `plies` (when given) by `maker`, numbered on.  The tracker's limits are read once: the
    core changes none of what they depend on.  (plies played, the position after the last) when the core
    played every move; None when it left one (the tracker and `plies` then hold what it played before).
    Only where `runs_text(position)`."""
    rl = position._rl
    core = rl.core
    assert core is not None and not rl.limit
    counting = _counting(tracker)
    if counting is None:
        return None
    seen, limits = counting
    since, quiet = tracker.since, tracker.quiet
    count, last = 0, None
    try:
        for element in movetext:
            if type(element) is not run_type:
                continue
            text: str = element.text        # type: ignore[attr-defined]
            recording = () if plies is None else (plies, rl.quiet_move_of, maker, element, count)
            offset, played, _, after, since, quiet = core.run_text(text, 0, position, seen, since, quiet, limits,
                                                                   *recording)
            if offset < len(text):
                return None
            if played:
                if plies is not None:       # each recorded ply starts where the last ended
                    after = plies[-1].after
                if after is not None:
                    count += played
                    position = last = after
    finally:
        tracker.since, tracker.quiet = since, quiet
    return count, last


def write_run(position: Position, text: str, offset: int, number: int, last: int,
              names: tuple[str, ...] | None, form: str, extra: str | None) -> tuple[int, int, Position | None, str]:
    """A MoveRun's text played from `offset` as run_text plays it (counting no draw), its plies
    numbered on from `number` up to `last` and written by the core as `convert` writes them, in
    `form`: "json", the objects of a JSON line's moves joined by ", "; "fen", an
    `extra<TAB>ply<TAB>FEN` line each; "short" or "full", the moves as `notation.move_text`
    writes them with captures in that form, joined by " ", `extra` the capture separator;
    "json-short" or "json-full", the JSON objects with the moves' texts so written.
    Squares are numbers, or `names[number]`.  Returns (offset of the move it leaves, or
    len(text); plies played; the position after the last; the text written).  Only where
    `runs_text(position)`."""
    core = position._rl.core
    assert core is not None and not position._rl.limit
    offset, plies, after, written = core.write_run(text, offset, position, number, last, names, form, extra)
    return offset, plies, after, written


def find_run(position: Position, text: str, offset: int, number: int, last: int,
             wanted: Position) -> tuple[int, int, Position | None, bool]:
    """A MoveRun's text played from `offset` as write_run plays it, its plies numbered on from
    `number` up to `last`, until a ply leaves `wanted` (a position of the same variant).  Returns
    (offset of the move it leaves, or where it stopped; plies played; the position after the
    last; whether `wanted` was reached).  Only where `runs_text(position)`."""
    core = position._rl.core
    assert core is not None and not position._rl.limit
    offset, plies, after, found = core.find_run(text, offset, position, number, last, wanted)
    return offset, plies, after, found


def play_one(position: Position, text: str, offset: int) -> tuple[int, Position, bool, bool] | None:
    """The next move of a MoveRun's text from `offset` played as run_text plays it, counting no draw:
    (the offset after it, the position after it, whether a king moved, whether it captured); None when
    the core leaves it, or where `runs_text(position)` is False.  For the plies the core does not
    count (an ending's count running: the caller counts them)."""
    core = position._rl.core
    if core is None or position._rl.limit:
        return None
    end, plies, after, _ = core.find_run(text, offset, position, 0, 1, position)   # (no ply leaves `position`)
    if not plies:
        return None
    _, own, opp = position._sides()
    _, opp_after, own_after = after._sides()            # the other side moves next
    return end, after, own & ~position._kings == own_after & ~after._kings, opp != opp_after


# The draw counters annotate_line counts from: the quiet count's name (None: none written), then run_text's
# counters (a DrawTracker's seen, since and quiet, and its core_limits()); the core leaves them unchanged.
DrawCounts = tuple[str | None, dict[Position, int], Position, int, "CoreLimits"]


def annotate_line(position: Position, pieces: list[tuple[str | int, int]], last: int,
                  names: tuple[str, ...] | None, asks: int, counts: DrawCounts | list[str | None] | None,
                  tail: str, width: int, tags: list[tuple[str, str]] | None) -> tuple[str, int, bool] | None:
    """A main line's `pieces` (runs kept as text and what lies between them) played from `position`
    as run_text plays them, at most `last` plies, and written by the core with annotate's commands
    after each move and wrapped into lines with `tail` (see Rules.annotate_line in _annotated.c):
    (the text, plies played, whether the text is the whole game's: `tags` written before it as
    writer.written_game writes them, when given and ASCII), or None when the core leaves a move or a
    draw to Python.  `counts`: the draw counters the core counts from (DrawCounts), or the draw
    commands after each ply that Python counted (a list, item N those after ply N, ASCII), or None
    (no draw written).  Only where `runs_text(position)`."""
    core = position._rl.core
    assert core is not None and not position._rl.limit
    if counts is None or isinstance(counts, list):
        return core.annotate_line(pieces, position, last, names, asks, None, None, None, 0, (), tail, width, tags,
                                  counts)
    return core.annotate_line(pieces, position, last, names, asks, *counts, tail, width, tags, None)


def runs_text(position: Position) -> bool:
    """Whether run_text plays moves here (the compiled core, no king-move limit)."""
    return position._rl.core is not None and not position._rl.limit


def _single_jump(position: Position, ci: int, own: int, opp: int, kings: int, sb: int, eb: int) -> Step | None:
    """capture_step's answer for a man taking one piece from bit `sb` to bit `eb` with no
    jump to follow and no other jump from `sb` (the commonest capture), else None: the
    generator decides the rest.  A man with another first jump may take other pieces and
    come back to `eb` (pool, Russian: `19x28` from `W:W19,...:B...15,16,20,K24`), which makes
    the short form ambiguous; the generator sees it."""
    rl = position._rl
    table = rl.jumps[ci]
    for _, middle, mbit, land, lbit in table[sb]:
        if land == eb:
            break
    else:
        return None
    prey = opp if rl.men_take_kings else opp & ~kings
    free = rl.valid & ~(own | opp) | 1 << sb | (mbit if rl.immediate else 0)
    if not prey & mbit or not free & lbit:
        return None
    for _, _, bit, _, landing in table[eb]:
        if prey & bit and bit != mbit and free & landing:
            return None
    for _, _, bit, _, landing in table[sb]:     # another first jump may come back to eb
        if prey & bit and bit != mbit and free & landing:
            return None
    promotes = bool(rl.promo[ci] >> eb & 1)
    kings = (kings | lbit if promotes else kings) & ~mbit
    num = rl.num_of
    move = Move(num[sb], (num[eb],), (num[middle],), promotes)
    return move, _after(position, ci, own ^ (1 << sb | lbit), opp & ~mbit, kings), False


def _after(position: Position, ci: int, own: int, opp: int, kings: int) -> Position:
    """The position after a move of colour `ci` that left `own`, `opp` and `kings`."""
    return _position_like(position, "B", own, opp, kings) if ci == 0 else _position_like(position, "W", opp, own, kings)

