"""Following a game's main line move by move into Plies (runs kept as text played by the
compiled core), its variations and setups checked on the way."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pdn_tools.rules import steps
from pdn_tools.rules.draws import DrawTracker
from pdn_tools.rules.fen import FenError, parse_fen
from pdn_tools.text.codes import Code
from pdn_tools.text.records import slots_state
from pdn_tools.text.walk import Path, walk
from pdn_tools.text.model import (Comment, Diagnostic, Element, NotatedMove as Notated, MoveNumber, MoveRun, Nag,
                                  Placeholder, Setup, Variation, movetext_runs)
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.play.checking import Checking
from pdn_tools.play.resolving import _Failure, _square, known_squares, resolve

if TYPE_CHECKING:
    from pdn_tools.play.replay import Replay


class Ply:
    """One resolved move of the main line: its number (1-based along the main line), the notated
    move, the legal move it stands for, the positions before and after it.  The compiled core
    makes the plies of the runs kept as text (steps.run_text's record, through _PLY_MAKER) with
    their notated move unmade (`_notated` None): `notated` makes it from text[_start:_end] of
    `_run` when first read."""

    __slots__ = ("number", "move", "before", "after", "_notated", "_run", "_start", "_end")
    number: int
    move: Move
    before: Position
    after: Position
    _notated: Notated | None
    _run: MoveRun              # with _start and _end: where the move of a ply the core made is written
    _start: int
    _end: int

    def __init__(self, number: int, notated: Notated, move: Move, before: Position, after: Position) -> None:
        self.number, self._notated, self.move, self.before, self.after = number, notated, move, before, after

    @property
    def notated(self) -> Notated:
        """The move as written, located."""
        notated = self._notated
        if notated is None:
            notated = self._notated = self._run.move_at(self._start, self._end)
        return notated

    @property
    def text(self) -> str:
        """The move as written (`notated.text`, read from the run's text when the notated move
        is not made yet)."""
        notated = self._notated
        return self._run.text[self._start:self._end] if notated is None else notated.text

    def _fields(self) -> tuple[int, Notated, Move, Position, Position]:
        return self.number, self.notated, self.move, self.before, self.after

    def __eq__(self, other: object) -> bool:
        return self._fields() == other._fields() if isinstance(other, Ply) else NotImplemented

    __hash__ = None         # type: ignore[assignment]     # mutable, as the dataclass it was
    __getstate__ = slots_state

    def __repr__(self) -> str:
        return "Ply(number={!r}, notated={!r}, move={!r}, before={!r}, after={!r})".format(*self._fields())


class _Line:
    """Following the main line: the position, the one before it (where a variation after the
    last move starts), plies counted, and the plies made as they are played; the draws counted
    in `tracker` (None: the plies of a line replayed already, `Replay.plies`).

    The movetext may hold runs of plain moves kept as text (MoveRun), which the compiled core
    plays without making an object per ply: the plies are then dropped (None) at the first
    run, and made when first asked for (`Replay.plies`) by a line that `record`s them (the
    core hands back each ply it plays).
    """

    __slots__ = ("result", "tracker", "checking", "position", "previous", "last", "count", "plies", "known", "record",
                 "moves")

    def __init__(self, result: Replay, tracker: DrawTracker | None, checking: Checking, record: bool = False) -> None:
        assert result.start is not None and result.variant is not None
        self.result, self.tracker, self.checking, self.record = result, tracker, checking, record
        self.position = self.previous = result.start
        self.last: Position | None = None       # after the last ply
        self.count = 0
        self.plies: list[Ply] | None = []
        self.known = known_squares(result.variant)
        self.moves: list[Move] | None = None     # the moves alone, recorded instead of plies (played_moves)

    def follow(self, elements: list[Element | MoveRun] | list[Element], variations: bool = True) -> None:
        """Play the main line `elements`; `variations`: check them too."""
        result = self.result
        index = 0
        runs: list[MoveRun] = []         # runs not counted yet in `expanded`
        expanded = 0                     # what a run's items add to the index in game.elements
        on_core = steps.runs_text(self.position)     # else steps.run plays nothing: not called per element
        while index < len(elements):
            # the compiled core plays the common moves of the elements; what it leaves comes here (it
            # leaves a run kept as text at once: _text plays it)
            if on_core and type(elements[index]) is not MoveRun:
                index, played = steps.run(self.position, elements, index, self.known, _CORE_KINDS)
                for notated, move, after, king in played:
                    self._played(notated, move, after, king)
                if index == len(elements):
                    break
            element = elements[index]
            index += 1
            if isinstance(element, Notated):
                self._play(element)
            elif isinstance(element, (MoveNumber, Comment, Nag)):
                continue
            elif isinstance(element, MoveRun):
                if not self.record:
                    self.plies = None
                self._text(element)
                runs.append(element)
            elif isinstance(element, Variation):
                if variations:
                    expanded += sum(run.items() - 1 for run in runs)
                    runs.clear()
                    start = _variation_start(element, self.previous, self.position, result.warnings)
                    _variation(element, Path(None, index - 1 + expanded), start, self.count, result, self.checking)
            elif isinstance(element, Setup):
                self.position = self.previous = _setup(element, self.position)
            elif isinstance(element, Placeholder):
                result.warnings.append(Diagnostic(Code.UNKNOWN_MOVE, "unknown move: the rest of the game is not "
                                                  "checked", element.line, element.column, self.count + 1))
                raise _Stop

    def _text(self, run: MoveRun) -> None:
        """A run kept as text: the core plays what it can (recording its plies when they are
        kept), each move it leaves is played here."""
        text, offset = run.text, 0
        while offset < len(text):
            record = (self.moves, None, run, self.count) if self.moves is not None else \
                None if self.plies is None else (self.plies, _PLY_MAKER, run, self.count)
            offset, count, before, after = steps.run_text(self.position, text, offset, self.tracker, record)
            if count and record is not None and record[1] is not None:   # each recorded ply starts where the last ended
                before, after = record[0][-1].before, record[0][-1].after
            if count and before is not None and after is not None:
                self.count += count
                self.previous, self.position = before, after
                self.last = after
            if offset < len(text):              # a move the core left
                played = None if record is not None or self.tracker is None else \
                    steps.play_one(self.position, text, offset)
                if played is not None:          # left for the count alone (an ending's): the core plays it
                    offset = self._counted(*played)
                    continue
                item, offset = run.item_at(offset)
                if isinstance(item, Notated):
                    self._play(item)

    def _counted(self, end: int, after: Position, king: bool, captured: bool) -> int:
        """A move the core played, which the tracker counts here (steps.play_one's answer); the
        offset after it."""
        assert self.tracker is not None
        self.count += 1
        self.tracker.update(self.count, after, king, captured)
        self.previous, self.position = self.position, after
        self.last = after
        return end

    def _play(self, notated: Notated) -> None:
        """One notated move: resolved (a located _Failure when it is not legal), played, counted."""
        position = self.position
        ply = self.count + 1
        step = _step(position, notated, self.known)
        if step is None:
            move = resolve(position, notated, ply, self.result.warnings, self.checking)
            after = position.play(move)
            king = _is_king(position, move.start)
        else:
            move, after, king = step
        self.count = ply                        # as _played, written out: this runs once a ply
        if self.plies is not None:
            self.plies.append(Ply(ply, notated, move, position, after))
        elif self.moves is not None:
            self.moves.append(move)
        if self.tracker is not None:
            self.tracker.update(ply, after, king, bool(move.captured))
        self.previous, self.position, self.last = position, after, after

    def _played(self, notated: Notated, move: Move, after: Position, king: bool) -> None:
        """A move the compiled core played: counted, its ply made when plies are kept."""
        self.count += 1
        if self.plies is not None:
            self.plies.append(Ply(self.count, notated, move, self.position, after))
        elif self.moves is not None:
            self.moves.append(move)
        if self.tracker is not None:
            self.tracker.update(self.count, after, king, bool(move.captured))
        self.previous, self.position = self.position, after
        self.last = after


def _made_plies(result: Replay) -> list[Ply]:
    """The plies of a replay made lazily: its main line played again (same moves, so the same
    plies), the runs kept as text by the compiled core, which records the plies it plays, up
    to the plies the replay resolved."""
    if result.start is None or result.variant is None or not result.ply_count:
        return []
    line = _Line(result, None, Checking(engine=result.start.engine), record=True)
    _follow_again(result, line)
    assert line.plies is not None
    return line.plies[:result.ply_count]


def _follow_again(result: Replay, line: _Line) -> None:
    """Play the replay's main line again on `line`, its warnings said once (by the replay itself)."""
    warnings, result.warnings = result.warnings, []
    try:
        line.follow(movetext_runs(result.game), variations=False)
    except (_Stop, _Failure):
        pass
    finally:
        result.warnings = warnings


def played_moves(result: Replay) -> list[Move]:
    """The moves of a replay's main line, as its plies hold them (`[p.move for p in result.plies]`),
    made without a ply or a position each: the main line played again, the compiled core
    recording the moves alone."""
    if result.made is not None:
        return [ply.move for ply in result.made]
    if result.start is None or result.variant is None or not result.ply_count:
        return []
    line = _Line(result, None, Checking(engine=result.start.engine))
    line.plies, line.moves = None, []
    _follow_again(result, line)
    return line.moves[:result.ply_count]


# How the compiled core makes the plies it records (steps.run_text's record): the class and the
# slots it fills, in this order, with a ply's number, move, positions before and after, its run,
# where its move is written in the run's text, and None (no Python code runs per ply).
_PLY_MAKER = (Ply, tuple(getattr(Ply, slot) for slot in ("number", "move", "before", "after", "_run", "_start",
                                                           "_end", "_notated")))

# For steps.run: the notated move's type, then the elements skipped in the main line.
_CORE_KINDS = (Notated, MoveNumber, Comment, Nag)


class _Stop(Exception):
    """The main line cannot be followed further, without an error."""


def _variation_start(variation: Variation, before: Position, after: Position,
                     warnings: list[Diagnostic]) -> Position:
    """A variation replaces the move before it; some exports put the alternative to the
    next move there instead (`1. 34-30 (1... 5-10) 1... 20-25`): the mover's colour tells."""
    first = next((e for e in variation.elements if isinstance(e, Notated)), None)
    if first is None or before is after or first.squares[0].isalpha():
        return before
    if _mover_owns(before, first) or not _mover_owns(after, first):
        return before
    warnings.append(Diagnostic(Code.VARIATION_PLACE, f"variation starting {first.text} is an alternative to "
                               f"the next move, not the one before it", first.line, first.column))
    return after


def _mover_owns(position: Position, notated: Notated) -> bool:
    square = _square(position.variant, notated.squares[0])
    piece = position.piece_at(square) if square else None
    return piece is not None and (piece in "wW") == (position.turn == "W")


def _variation(variation: Variation, path: Path, position: Position, ply: int, result: Replay,
               checking: Checking) -> None:
    """Check the variation at `path`: it replaces the move played from `position` (`ply`
    main-line plies were played before it).  A failure ends the line it happens in."""
    result.starts[path] = position
    known = known_squares(position.variant)
    positions = [(position, position)]          # per open line: (position, the one before it)
    lines = walk(variation.elements, path)
    for frame in lines:
        element = frame.element
        current, previous = positions[-1]
        try:
            if isinstance(element, Notated):
                step = _step(current, element, known)
                if step is None:
                    move = resolve(current, element, None, result.warnings, checking)
                    after = current.play(move)
                else:
                    move, after, _ = step
                result.resolved[frame.path] = current, move
                positions[-1] = after, current
            elif isinstance(element, Variation):
                if frame.closing:
                    positions.pop()
                    continue
                start = _variation_start(element, previous, current, result.warnings)
                result.starts[frame.path] = start
                positions.append((start, start))
            elif isinstance(element, Setup):
                setup = _setup(element, current)
                positions[-1] = setup, setup
            elif isinstance(element, Placeholder):
                lines.skip()
        except _Failure as failure:
            lines.skip()
            diagnostic = failure.diagnostic
            diagnostic.message = f"in a variation after ply {ply}: {diagnostic.message}"
            diagnostic.ply = ply or None
            result.errors.append(diagnostic)


def _step(position: Position, notated: Notated, known: dict[str, int | None]) -> steps.Step | None:
    """The common move, a step or a capture between two squares `known` names, played at once by
    steps.quiet_step / capture_step (what resolve() and play() give, without a list of moves); None for
    any other, left to resolve()."""
    squares = notated.squares
    if len(squares) != 2:
        return None
    start, end = known.get(squares[0]), known.get(squares[1])
    if not (start and end):
        return None
    return steps.capture_step(position, start, end) if notated.capture else steps.quiet_step(position, start, end)


def _setup(setup: Setup, current: Position) -> Position:
    """The position a setup in the movetext gives, on the engine of the `current` one."""
    try:
        return parse_fen(current.variant, setup.fen).on(current.engine)
    except FenError as error:
        raise _Failure(Diagnostic(Code.BAD_FEN, f"setup FEN: {error.message}", setup.line, setup.column)) from None


def _is_king(position: Position, square: int) -> bool:
    piece = position.piece_at(square)
    return piece is not None and piece.isupper()
