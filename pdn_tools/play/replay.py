"""Replaying a game against its variant's rules: every notated move resolved to one legal move.

`replay(game)` picks the variant (GameType tag, an override, or inference), sets up
the start position (FEN tag), resolves each move of the main line and of every
variation, checks the result against the final position and the draw rules, and
returns a `Replay` with the resolved plies and located diagnostics.  Its moves are generated
by an engine (rules.core.Engine) given to it, by default the one the environment picks.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, NamedTuple

from pdn_tools.rules import steps
from pdn_tools.rules.core import Engine, engine_from_environment
from pdn_tools.rules.draws import CLAIMED, DrawEvent, DrawRules, DrawTracker
from pdn_tools.rules.fen import FenError, parse_fen
from pdn_tools.text.codes import Code
from pdn_tools.text.numbers import number as read_number
from pdn_tools.text.walk import Path, walk
from pdn_tools.text.results import Outcome, off_board, outcome, read_result
from pdn_tools.text.model import (Comment, Diagnostic, Element, Game, NotatedMove as Notated, MoveNumber, MoveRun, Nag,
                                  Placeholder, Setup, Variation, main_line_text, movetext_runs)
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.rules.variants import (Hint, RuleSet, Variant, algebraic_variants, inferred_variants,
                                      lidraughts_variant, variant_by_gametype, variant_by_name)

_GAMETYPE = re.compile(r"\s*(\d+)\s*(?:,\s*([WB])\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([ANS][0-3])\s*(?:,\s*([01]))?)?\s*\Z")
_GAMETYPE_NUMBER = re.compile(r"\s*(\d+)")


@dataclass(slots=True)
class Ply:
    """One resolved move of the main line."""

    number: int                    # 1-based along the main line
    notated: Notated
    move: Move
    before: Position
    after: Position


@dataclass
class Replay:
    game: Game
    variant: Variant | None
    start: Position | None = None
    errors: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    draw_rules: DrawRules | None = None         # the draw rules the game was checked by
    draw: DrawEvent | None = None               # the draw the rules impose, if any
    claims: list[DrawEvent] = field(default_factory=list)   # draws that had to be claimed, or have no text
    complete: bool = False          # the whole main line was resolved
    # path (text.walk) of a variation's move -> (position before, legal move)
    resolved: dict[Path, tuple[Position, Move]] = field(default_factory=dict)
    # path of a variation -> the position it starts from, for each variation replayed
    starts: dict[Path, Position] = field(default_factory=dict)
    ply_count: int = 0              # main-line plies resolved
    last: Position | None = None    # the position after the last of them
    # The plies, once made: the compiled core replays runs of moves kept as text and makes
    # no object per ply; `plies` replays the main line again, making them, when first read.
    made: list[Ply] | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return not self.errors

    def moves(self) -> dict[Path, tuple[Position, Move]]:
        """Every resolved move by its path: the main line's plies, then the variations' moves."""
        main = (index for index, element in enumerate(self.game.elements) if isinstance(element, Notated))
        return {Path(None, index): (ply.before, ply.move) for index, ply in zip(main, self.plies)} | self.resolved

    @property
    def final(self) -> Position | None:
        return self.last if self.ply_count else self.start

    @property
    def plies(self) -> list[Ply]:
        """The resolved plies of the main line, in order."""
        if self.made is None:
            self.made = _made_plies(self)
        return self.made

    def mainline(self) -> Iterator[Ply]:
        """The resolved plies of the main line, in order, each with its move and the positions
        before and after it (as python-chess's `game.mainline()`); it stops at the first move
        that is not legal (`errors` says why).  A method of the replay, not of the Game: the
        game is text, and which rules its positions follow is the replay's choice.

        >>> from pdn_tools import read_text
        >>> game = read_text('[GameType "21"] 1. 11-15 23-19 2. 8-11 *')[0]
        >>> [(ply.number, str(ply.move), ply.after.counts("W")) for ply in replay(game).mainline()]
        [(1, '11-15', (12, 0)), (2, '23-19', (12, 0)), (3, '8-11', (12, 0))]
        """
        return iter(self.plies)

    def outcome(self) -> Outcome | None:
        """'first', 'second' or 'draw' when the final position or a draw rule settles it.

        A limit reached before the last move draws the game; a win on the last
        counted move beats the draw.
        """
        final = self.final
        if not self.complete or final is None or final.is_empty():
            return None         # an empty board (FEN `W::`) decides nothing
        game_over = not final.has_move()
        draw = self.draw
        if draw is not None and (draw.ply < self.ply_count or not game_over):
            return Outcome.DRAW
        if game_over:
            return Outcome.SECOND if final.turn == final.variant.first else Outcome.FIRST
        return None

    def computed_result(self) -> str | None:
        """The Result to write when it is certain, in the variant's result style."""
        outcome, final = self.outcome(), self.final
        if outcome is None or final is None:
            return None
        win, loss, draw = final.variant.results
        return {Outcome.FIRST: win, Outcome.SECOND: loss, Outcome.DRAW: draw}[outcome]


class _Failure(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        self.diagnostic = diagnostic


Fail = Callable[[Code, str], _Failure]          # a located _Failure for the move being resolved


class Choice(NamedTuple):
    """The variants a game may be replayed as (several when inferred), diagnostics about the
    choice, and whether its result is checked (not for lidraughts' own games of other rules).
    No candidate with a diagnostic means the GameType is unknown."""

    candidates: list[Variant]
    notes: list[Diagnostic]
    check_results: bool = True


def choose_variant(game: Game, override: Variant | None = None, engine: Engine | None = None) -> Choice:
    """The variants `game` may be replayed as, from an override, its tags or its moves (the
    compiled core of `engine` reads runs of moves kept as text faster; the choice is the same)."""
    if override is not None:
        return Choice([override], [])
    gametype = game.tag("GameType")
    if gametype is not None:
        line, column = game.tag_position("GameType")
        match = _GAMETYPE.match(gametype)
        found = (match or _GAMETYPE_NUMBER.match(gametype))
        gametype_number = read_number(found.group(1), 9) if found else None
        variant = None if gametype_number is None else variant_by_gametype(gametype_number)
        lidraughts = None if gametype_number is None else lidraughts_variant(gametype_number)
        if lidraughts is not None:
            rules, entry = lidraughts
            note = f"lidraughts GameType {gametype!r} ({entry.title}): moves checked by {rules.name} rules"
            return Choice([rules], [Diagnostic(Code.GAMETYPE, note + ("" if entry.results_checked else
                                    ", results not checked"), line, column)], entry.results_checked)
        if variant is None:
            return Choice([], [Diagnostic(Code.BAD_GAMETYPE, f"unknown GameType {gametype!r}", line, column)])
        if match is None:
            return Choice([variant], [Diagnostic(Code.GAMETYPE, f"malformed GameType {gametype!r}; read as "
                                                 f"{variant.name}", line, column)])
        warnings = []
        if match.group(3) and (read_number(match.group(3), 9), read_number(match.group(4), 9)) != (variant.cols,
                                                                                         variant.rows):
            warnings.append(Diagnostic(Code.GAMETYPE, f"GameType {gametype!r}: board size does not match "
                                       f"{variant.name} ({variant.cols}x{variant.rows})", line, column))
        return Choice([variant], warnings)
    named = game.tag("Variant")
    if named:
        variant = variant_by_name(named)     # lidraughts' and playstrategy's names are aliases
        if variant is not None:
            return Choice([variant], [])
    core = None if engine is None else engine.core
    return Choice(list(_inferred(game, run_hint if core is None else core.moves_hint)), [])


def _inferred(game: Game, run_hint: RunHint) -> tuple[Variant, ...]:
    """The variants a game without GameType is tried as, from the squares it uses: algebraic
    squares on every board they fit (when its numbers fit 8x8), else the numeric board size."""
    top, side = _moves_hint(movetext_runs(game), _HINTED_MOVES, run_hint)
    fen = game.tag("FEN")
    if fen:
        fen_top, fen_side = _squares_hint(fen, re.findall(r"[a-l]\d{1,2}|\d+", fen))
        top, side = max(top, fen_top), max(side, fen_side)
    if side and top <= 32:
        return algebraic_variants(side)
    size = 72 if top > 50 else 50 if top > 32 or top < 0 and not side else 32
    return inferred_variants(Hint(size, False))


_HINTS: dict[str, tuple[int, int]] = {}      # move text -> (highest square number or -1, board side or 0)
_HINTED_MOVES = 60                           # the first moves of the main line tell the board
_RUN_MOVES = re.compile(r"[0-9]+(?:[-x] ?[0-9]+)+")  # the moves of a MoveRun's text
_DIGITS = re.compile(r"[0-9]+")
_HINT_TEXT = 1024                            # where the moves of the hint are looked for first


def _moves_hint(movetext: list[Element | MoveRun], wanted: int, run_hint: RunHint) -> tuple[int, int]:
    """The highest square number (-1: none) and the board side its algebraic squares need (0:
    none), over the first `wanted` moves of the main line (runs kept as text included, read
    by `run_hint`)."""
    highest, side, moves = -1, 0, 0
    for element in movetext:
        if type(element) is MoveRun:           # square numbers only
            count, top = run_hint(element.text, wanted - moves)
            moves += count
        elif type(element) is Notated:
            top, needs = _HINTS.get(element.text) or _squares_hint(element.text, element.squares)
            side = needs if needs > side else side
            moves += 1
        else:
            continue
        highest = top if top > highest else highest
        if moves >= wanted:
            break
    return highest, side


def run_hint(text: str, wanted: int) -> tuple[int, int]:
    """(moves, highest square number or -1) over the first `wanted` moves of a MoveRun's text
    (the compiled core's moves_hint does the same)."""
    texts = _RUN_MOVES.findall(text, 0, _HINT_TEXT)
    if len(texts) <= wanted and len(text) > _HINT_TEXT:      # the last may be cut
        texts = _RUN_MOVES.findall(text)
    del texts[wanted:]
    return len(texts), max(map(int, _DIGITS.findall(" ".join(texts))), default=-1)


RunHint = Callable[[str, int], tuple[int, int]]      # run_hint, or the compiled core's moves_hint


def _squares_hint(text: str, squares: Iterable[str]) -> tuple[int, int]:
    hint = _HINTS.get(text)
    if hint is None:
        if len(_HINTS) > 4096:
            _HINTS.clear()
        numbers = [int(square) for square in squares if square.isdigit()]
        side = max((_side(square) for square in squares if square[:1].isalpha()), default=0)
        hint = _HINTS[text] = (max(numbers, default=-1), side)
    return hint


def _side(square: str) -> int:
    """The files and ranks a board needs to hold the algebraic `square` ('j10': 10)."""
    rank = _DIGITS.search(square)
    return max(ord(square[0].lower()) - ord("a") + 1, int(rank.group()) if rank else 0)


def replay(game: Game, override: Variant | None = None, strict: bool = False, rules: RuleSet | None = None,
           engine: Engine | None = None) -> Replay:
    """Replay `game` (its draws by `rules`, else by its variant's own) on `engine` (by default
    the one `engine_from_environment()` gives); with no GameType, the first inferred variant that
    replays wins, and when none does, the one that got furthest is reported with the list of
    rule sets tried."""
    engine = engine or engine_from_environment()
    candidates, notes, check_results = choose_variant(game, override, engine)
    if not candidates:
        failed = Replay(game, None)
        failed.errors = notes
        return failed
    inferred = len(candidates) > 1
    failures: list[tuple[Replay, Variant]] = []
    for variant in candidates:
        draws = variant.draws if rules is None else rules.draws_of(variant)
        attempt = _replay(game, variant, strict, check_results, draws, engine)
        attempt.warnings[:0] = notes
        if inferred:
            attempt.warnings.insert(0, Diagnostic(Code.INFERRED_VARIANT, f"no GameType tag; replayed as "
                                                  f"{variant.name}", game.line, 1))
        if attempt.ok:
            return attempt
        failures.append((attempt, variant))
    furthest, variant = max(failures, key=lambda failure: _progress(failure[0]))     # the first of equals
    if inferred:
        tried = ", ".join(candidate.name for candidate in candidates)
        furthest.warnings[0].message = (f"no GameType tag; no rule set replays the game (tried {tried}); "
                                        f"reported as {variant.name}, which got furthest "
                                        f"({furthest.ply_count} plies replayed)")
    return furthest


def _progress(attempt: Replay) -> tuple[int, bool]:
    """How far a failed attempt got: main-line plies resolved, then whether it got to the end."""
    return attempt.ply_count, attempt.complete


def _replay(game: Game, variant: Variant, strict: bool, check_results: bool, draws: DrawRules,
            engine: Engine) -> Replay:
    result = Replay(game, variant, draw_rules=draws)
    try:
        result.start = _start_position(game, variant, engine)
    except _Failure as failure:
        result.errors.append(failure.diagnostic)
        return result
    tracker = DrawTracker(result.start, draws)
    line = _Line(result, tracker, strict)
    try:
        line.follow(movetext_runs(game))
        result.complete = True
    except _Stop:
        pass
    except _Failure as failure:
        result.errors.append(failure.diagnostic)
    result.ply_count, result.last, result.made = line.count, line.last, line.plies
    result.draw, result.claims = tracker.event, tracker.claims
    if result.complete and check_results:
        _check_result(result)
    return result


_INITIAL: dict[tuple[str, bool], Position] = {}   # positions are immutable: one start position per
                                                  # variant name and engine (a Variant hashes slowly)


def _start_position(game: Game, variant: Variant, engine: Engine) -> Position:
    fen = game.tag("FEN")
    if fen is None:
        key = variant.name, engine.compiled
        start = _INITIAL.get(key)
        if start is None:
            start = _INITIAL[key] = Position.initial(variant, engine)
        return start
    line, column = game.tag_position("FEN")
    try:
        return parse_fen(variant, fen, engine)
    except FenError as error:
        raise _Failure(Diagnostic(Code.BAD_FEN, f"FEN: {error.message}", line, column)) from None


class _Line:
    """Following the main line: the position, the one before it (where a variation after the
    last move starts), plies counted, and the plies made as they are played; the draws counted
    in `tracker` (None: the plies of a line replayed already, `Replay.plies`).

    The movetext may hold runs of plain moves kept as text (MoveRun), which the compiled core
    plays without making an object per ply: the plies are then dropped (None) at the first
    run, and made when first asked for (`Replay.plies`) from the expanded movetext.
    """

    __slots__ = ("result", "tracker", "strict", "position", "previous", "last", "count", "plies", "known")

    def __init__(self, result: Replay, tracker: DrawTracker | None, strict: bool) -> None:
        assert result.start is not None and result.variant is not None
        self.result, self.tracker, self.strict = result, tracker, strict
        self.position = self.previous = result.start
        self.last: Position | None = None       # after the last ply
        self.count = 0
        self.plies: list[Ply] | None = []
        self.known = _SQUARES.setdefault(result.variant.name, {})

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
                self.plies = None
                self._text(element)
                runs.append(element)
            elif isinstance(element, Variation):
                if variations:
                    expanded += sum(run.items() - 1 for run in runs)
                    runs.clear()
                    start = _variation_start(element, self.previous, self.position, result.warnings)
                    _variation(element, Path(None, index - 1 + expanded), start, self.count, result, self.strict)
            elif isinstance(element, Setup):
                self.position = self.previous = _setup(element, self.position)
            elif isinstance(element, Placeholder):
                result.warnings.append(Diagnostic(Code.UNKNOWN_MOVE, "unknown move: the rest of the game is not "
                                                  "checked", element.line, element.column, self.count + 1))
                raise _Stop

    def _text(self, run: MoveRun) -> None:
        """A run kept as text: the core plays what it can, each move it leaves is played here."""
        text, offset = run.text, 0
        assert self.tracker is not None          # runs kept as text come in the first replay, which counts draws
        while offset < len(text):
            offset, count, before, after = steps.run_text(self.position, text, offset, self.tracker)
            if count and before is not None and after is not None:
                self.count += count
                self.previous, self.position = before, after
                self.last = after
            if offset < len(text):              # a move the core left
                item, offset = run.item_at(offset)
                if isinstance(item, Notated):
                    self._play(item)

    def _play(self, notated: Notated) -> None:
        """One notated move: resolved (a located _Failure when it is not legal), played, counted."""
        position = self.position
        ply = self.count + 1
        squares = notated.squares
        step = None
        if len(squares) == 2:                   # the common moves: a step, a capture
            known = self.known
            start, end = known.get(squares[0]), known.get(squares[1])
            if start and end:
                step = steps.capture_step(position, start, end) if notated.capture else \
                    steps.quiet_step(position, start, end)
        if step is None:
            move = resolve(position, notated, ply, self.result.warnings, self.strict)
            after = position.play(move)
            king = _is_king(position, move.start)
        else:
            move, after, king = step
        self.count = ply                        # as _played, written out: this runs once a ply
        if self.plies is not None:
            self.plies.append(Ply(ply, notated, move, position, after))
        if self.tracker is not None:
            self.tracker.update(ply, after, king, bool(move.captured))
        self.previous, self.position, self.last = position, after, after

    def _played(self, notated: Notated, move: Move, after: Position, king: bool) -> None:
        """A move the compiled core played: counted, its ply made when plies are kept."""
        self.count += 1
        if self.plies is not None:
            self.plies.append(Ply(self.count, notated, move, self.position, after))
        if self.tracker is not None:
            self.tracker.update(self.count, after, king, bool(move.captured))
        self.previous, self.position = self.position, after
        self.last = after


def _made_plies(result: Replay) -> list[Ply]:
    """The plies of a replay made lazily: its main line played again from the expanded
    movetext (same moves, so the same plies), up to the plies it resolved."""
    if result.start is None or result.variant is None or not result.ply_count:
        return []
    line = _Line(result, None, False)
    warnings, result.warnings = result.warnings, []     # said once, by the replay itself
    try:
        line.follow(main_line_text(result.game), variations=False)
    except (_Stop, _Failure):
        pass
    finally:
        result.warnings = warnings
    assert line.plies is not None
    return line.plies[:result.ply_count]


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
               strict: bool) -> None:
    """Check the variation at `path`: it replaces the move played from `position` (`ply`
    main-line plies were played before it).  A failure ends the line it happens in."""
    result.starts[path] = position
    positions = [(position, position)]          # per open line: (position, the one before it)
    lines = walk(variation.elements, path)
    for frame in lines:
        element = frame.element
        current, previous = positions[-1]
        try:
            if isinstance(element, Notated):
                move = resolve(current, element, None, result.warnings, strict)
                result.resolved[frame.path] = current, move
                positions[-1] = current.play(move), current
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


def _setup(setup: Setup, current: Position) -> Position:
    """The position a setup in the movetext gives, on the engine of the `current` one."""
    try:
        return parse_fen(current.variant, setup.fen).on(current.engine)
    except FenError as error:
        raise _Failure(Diagnostic(Code.BAD_FEN, f"setup FEN: {error.message}", setup.line, setup.column)) from None


def _is_king(position: Position, square: int) -> bool:
    piece = position.piece_at(square)
    return piece is not None and piece.isupper()


# ---- resolving one notated move ------------------------------------------------------------

def resolve(position: Position, notated: Notated, ply: int | None, warnings: list[Diagnostic],
            strict: bool = False) -> Move:
    """The one legal move `notated` stands for, else a _Failure with a located diagnostic."""
    variant = position.variant

    def fail(code: Code, message: str) -> _Failure:
        return _Failure(Diagnostic(code, message, notated.line, notated.column, ply))

    squares = notated.squares
    if squares[0].isalpha():                          # Russian short algebraic: file + square
        return _resolve_short(position, notated, fail)
    numbers = [number for number in (_square(variant, text) for text in squares) if number is not None]
    if len(numbers) < len(squares):
        text = next(text for text in squares if _square(variant, text) is None)
        raise fail(Code.BAD_SQUARE, f"{text!r} is not a square of the {variant.name} board")
    start, end, middle = numbers[0], numbers[-1], numbers[1:-1]
    if not middle and not notated.capture:
        move = position.quiet_move(start, end)
        if move is not None:
            return move
    between = position.moves_between(start, end)
    matches = [m for m in between if _lands(m, middle)] if middle else between
    if not matches and middle:        # squares a flying king passed over without stopping
        matches = [m for m in between if _on_route(variant, m, middle)]
    outcomes = {(m.end, frozenset(m.captured)) for m in matches} if len(matches) > 1 else ()
    if len(outcomes) > 1:
        paths = sorted({full_path(variant, m, squares[0][0].isalpha()) for m in matches})
        raise fail(Code.AMBIGUOUS_CAPTURE, f"{notated.text} matches {len(outcomes)} captures: "
                   f"{', '.join(paths)}; write the squares in between")
    if matches:
        move = matches[0]
        _check_separator(notated, move, ply, warnings, strict)
        return move
    raise _explain(position, notated, numbers, position.legal_moves(), fail)


_SQUARES: dict[str, dict[str, int | None]] = {}     # variant name -> square text -> number


def _square(variant: Variant, text: str) -> int | None:
    """variant.parse_square, remembered (the same few squares recur in every game)."""
    known = _SQUARES.setdefault(variant.name, {})
    number = known.get(text, -1)
    if number == -1:
        if len(known) > 4096:
            known.clear()
        number = known[text] = variant.parse_square(text)
    return number


def _lands(move: Move, middle: list[int]) -> bool:
    """Whether the squares given between start and end are landing squares of the move, in order
    (some may be left out, as in `39x28x17x6` for a longer path)."""
    path = iter(move.path[:-1])
    return all(square in path for square in middle)


def _on_route(variant: Variant, move: Move, middle: list[int]) -> bool:
    """Whether the squares given lie, in order, on the squares the move passes or lands on."""
    route = iter(_route(variant, move))
    return all(square in route for square in middle)


def _route(variant: Variant, move: Move) -> list[int]:
    """Every square the moving piece crosses or lands on, in order."""
    squares = []
    here = variant.coords(move.start)
    for point in move.path:
        there = variant.coords(point)
        d_row, d_col = there[0] - here[0], there[1] - here[1]
        step = 1 if variant.all_squares or (d_row and d_col) else 2
        unit = (step * ((d_row > 0) - (d_row < 0)), step * ((d_col > 0) - (d_col < 0)))
        row, col = here
        while (row, col) != there:
            row, col = row + unit[0], col + unit[1]
            square = variant.square_at(row, col)
            if square is not None:
                squares.append(square)
        here = there
    return squares


def _resolve_short(position: Position, notated: Notated, fail: Fail) -> Move:
    variant = position.variant
    file_letter, target = notated.squares[0].lower(), variant.parse_square(notated.squares[1])
    if target is None:
        raise fail(Code.BAD_SQUARE, f"{notated.squares[1]!r} is not a square of the {variant.name} board")
    matches = [m for m in position.legal_moves()
               if m.end == target and variant.square_text(m.start, True)[0] == file_letter]
    outcomes = {(m.start, frozenset(m.captured)) for m in matches}
    if len(outcomes) == 1:
        return matches[0]
    if matches:
        paths = sorted({full_path(variant, m, True) for m in matches})
        raise fail(Code.AMBIGUOUS_CAPTURE, f"{notated.text} matches {len(outcomes)} moves: {', '.join(paths)}")
    raise fail(Code.ILLEGAL_MOVE, f"no legal move from the {file_letter}-file to {notated.squares[1]}")


def _check_separator(notated: Notated, move: Move, ply: int | None, warnings: list[Diagnostic],
                     strict: bool) -> None:
    """A capture written with '-' or a quiet move written with 'x' is flagged (a warning in
    strict mode too: the PDN 3.0 reading grammar does not tell the separators apart)."""
    if notated.capture == bool(move.captured):
        return
    what = "capture written as a quiet move" if move.captured else "quiet move written as a capture"
    diagnostic = Diagnostic(Code.CAPTURE_NOTATION, f"{notated.text}: {what}", notated.line, notated.column, ply)
    if strict and diagnostic.code.strict_fatal:
        raise _Failure(diagnostic)
    warnings.append(diagnostic)


def _explain(position: Position, notated: Notated, numbers: list[int], legal: list[Move], fail: Fail) -> _Failure:
    """The most telling error for a notated move that matches no legal move."""
    variant = position.variant
    alpha = notated.squares[0][0].isalpha()          # answer in the notation the game uses
    start, end = numbers[0], numbers[-1]
    side = "White" if position.turn == "W" else "Black"
    piece = position.piece_at(start)
    captures = [m for m in legal if m.captured]
    if piece is None:
        return fail(Code.ILLEGAL_MOVE, f"{notated.text}: no piece on {variant.square_text(start, alpha)}")
    if (piece in "wW") != (position.turn == "W"):
        return fail(Code.ILLEGAL_MOVE, f"{notated.text}: the piece on {variant.square_text(start, alpha)} is not "
                    f"{side}'s, and it is {side}'s move")
    unfinished = [m for m in captures if m.start == start and end in m.path[:-1]]
    if unfinished:
        paths = ", ".join(sorted({full_path(variant, m, alpha) for m in unfinished}))
        return fail(Code.ILLEGAL_MOVE, f"{notated.text}: the capture must be completed ({paths})")
    if captures and not any(m.start == start and m.end == end for m in captures):
        unlawful = [m for m in position.captures(law=False) if m.start == start and m.end == end]
        shown = ", ".join(sorted({full_path(variant, m, alpha) for m in captures})[:6])
        if unlawful:
            taken = max(len(m.captured) for m in captures)
            return fail(Code.CAPTURE_LAW, f"{notated.text} breaks the capture law of {variant.name}: "
                        f"the lawful captures are {shown} ({taken} pieces)")
        return fail(Code.CAPTURE_REQUIRED, f"{notated.text}: a capture is compulsory here ({shown})")
    if len(numbers) > 2 and any(m.start == start and m.end == end for m in legal):
        paths = ", ".join(sorted({full_path(variant, m, alpha) for m in legal if m.start == start and m.end == end}))
        return fail(Code.ILLEGAL_MOVE, f"{notated.text}: the squares in between do not fit the capture ({paths})")
    return fail(Code.ILLEGAL_MOVE, f"{notated.text} is not a legal move for {side}")


def full_path(variant: Variant, move: Move, alpha: bool | None = None) -> str:
    """Every landing square of `move`, e.g. 28x19x10 (a quiet move: 32-28); `alpha` None
    means the variant's own notation."""
    sep = "x" if move.captured else "-"
    return sep.join(variant.square_text(s, alpha) for s in (move.start, *move.path))


# ---- the result ----------------------------------------------------------------------------------

def _check_result(result: Replay) -> None:
    """Compare the Result tag (else the terminator) with what the rules say."""
    game, variant = result.game, result.variant
    assert variant is not None
    tag, terminator = read_result(game.tag("Result")), game.result

    def at() -> tuple[int, int]:        # where the diagnostics point (looked up only for one)
        return game.tag_position("Result")

    def said(text: str) -> str:
        return f"{text!r} ({meaning(text, variant)})"

    if tag is not None and terminator is not None and tag != terminator and terminator != "*":
        result.warnings.append(Diagnostic(Code.RESULT_MISMATCH, f"Result tag {said(tag)} but the movetext ends "
                                          f"with {said(terminator)}", *at()))
    claimed = tag if tag not in (None, "", "?") else terminator
    draw, plies = result.draw, result.ply_count
    for claim in result.claims:
        how = "may be claimed" if claim.how == CLAIMED else "would apply by a rule no text gives"
        if claim.ply < plies:
            message = f"a draw by the {claim.rule} {how} after ply {claim.ply}; play went on"
        elif claimed is not None and outcome(claimed) in (Outcome.FIRST, Outcome.SECOND):
            message = f"a draw by the {claim.rule} {how} after the last move, but Result is {said(claimed)}"
        else:
            continue
        result.warnings.append(Diagnostic(Code.DRAW_RULE, message, *at(), claim.ply))
    if draw is not None and draw.ply < plies:
        result.warnings.append(Diagnostic(Code.DRAW_RULE, f"a draw by the {draw.rule} applies after ply {draw.ply}; "
                                          f"play went on", *at(), draw.ply))
    truth = result.outcome()
    if truth is None or claimed is None:
        return
    stated = outcome(claimed)
    if stated == truth:
        return
    message = f"Result {said(claimed)}, but {board_verdict(result, truth)}"
    decided = off_board(game.tags)
    if stated is None:
        result.warnings.append(Diagnostic(Code.UNFINISHED, message, *at()))
    elif decided is not None:
        result.warnings.append(Diagnostic(Code.RESULT_OFF_BOARD, f"{message}; {decided[0]} {decided[1]!r} says the "
                                          f"game was decided off the board", *at()))
    else:
        result.errors.append(Diagnostic(Code.WRONG_RESULT, message, *at()))


def meaning(result: str, variant: Variant) -> str:
    """Whose win `result` means in `variant`, in its colours: in english `1-0` is 'a win for Black,
    the starting side', `0-1` 'a win for White, the other side'; else 'a draw', 'a loss for both
    sides' (`0-0`) or 'no result'."""
    stated = outcome(result)
    if stated is None:
        return "a loss for both sides" if read_result(result) == "0-0" else "no result"
    if stated is Outcome.DRAW:
        return "a draw"
    first = stated is Outcome.FIRST
    return f"a win for {_colour(variant.first, first)}, the {'starting' if first else 'other'} side"


def board_verdict(result: Replay, truth: Outcome) -> str:
    """What the board says of a game it settles as `truth` (`result.outcome()`): 'White has won on
    the board (Black, to move, has no move)' or 'the game is drawn on the board by …'."""
    draw, variant = result.draw, result.variant
    assert variant is not None
    if draw is not None and truth is Outcome.DRAW:
        return f"the game is drawn on the board by the {draw.rule} after ply {draw.ply}"
    first = truth is Outcome.FIRST
    return (f"{_colour(variant.first, first)} has won on the board ({_colour(variant.first, not first)}, "
            f"to move, has no move)")


def _colour(first: str, starting: bool) -> str:
    """The colour of the variant's starting side (its `first`), or of the other side."""
    return "White" if (first == "W") == starting else "Black"
