"""Replaying a game against its variant's rules: every notated move resolved to one legal move.

`replay(game)` picks the variant (GameType tag, an override, or inference), sets up
the start position (FEN tag), resolves each move of the main line and of every
variation, checks the result against the final position and the draw rules, and
returns a `Replay` with the resolved plies and located diagnostics.  Its moves are generated
by an engine (rules.core.Engine) given to it, by default the one the environment picks.
The steps are modules of their own: variant_choice, main_line (moves by resolving) and
result_check; this one holds the Replay and `replay`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from pdn_tools.rules import steps
from pdn_tools.rules.core import Engine, engine_from_environment
from pdn_tools.rules.draws import DrawEvent, DrawRules, DrawTracker
from pdn_tools.rules.fen import FenError, parse_fen
from pdn_tools.text.codes import Code
from pdn_tools.text.walk import Path
from pdn_tools.text.results import Outcome
from pdn_tools.text.model import (Comment, Diagnostic, Element, Game, MoveRun, NotatedMove as Notated,
                                  movetext_runs)
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.rules.variants import PerVariant, RuleSet, Variant
from pdn_tools.play.checking import Checking
from pdn_tools.play.variant_choice import choose_variant
from pdn_tools.play.resolving import _Failure, full_path
from pdn_tools.play.main_line import _PLY_MAKER, Ply, _Line, _made_plies, _Stop
from pdn_tools.play.result_check import _check_result

__all__ = ["Ply", "Replay", "full_path", "replay"]


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
    # The plies, once made: replay(plies=False) lets the compiled core replay runs of moves kept
    # as text without an object per ply; `plies` then replays the main line again on the core,
    # which records them.
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


def replay(game: Game, override: Variant | None = None, strict: bool = False, rules: RuleSet | None = None,
           engine: Engine | None = None, *, plies: bool = True) -> Replay:
    """Replay `game` (its draws by `rules`, else by its variant's own) on `engine` (by default
    the one `engine_from_environment()` gives); with no GameType, the first inferred variant that
    replays wins, and when none does, the one that got furthest is reported with the list of
    rule sets tried.  `plies`: make the main line's plies as it plays (what `mainline()` gives);
    False when only the verdict is wanted (the plies are then made by a second replay when
    first asked for).  A ReadError (a game read_games could not read) is a TypeError: it has no
    moves to replay (`check` reports it)."""
    if not isinstance(game, Game):
        raise TypeError(f"replay takes a Game, not {type(game).__name__}: {game}")
    return replay_by(game, Checking(strict, override, rules, engine or engine_from_environment()), plies=plies)


def replay_by(game: Game, checking: Checking, *, plies: bool) -> Replay:
    """`replay` by the choices of `checking`."""
    candidates, notes, check_results = choose_variant(game, checking)
    if not candidates:
        failed = Replay(game, None)
        failed.errors = notes
        return failed
    inferred = len(candidates) > 1
    failures: list[tuple[Replay, Variant]] = []
    rules = checking.rules
    for variant in candidates:
        draws = rules.draws_of(variant) if rules is not None and rules.draws else variant.draws
        attempt = _replay(game, variant, checking, check_results, draws, plies)
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


def _replay(game: Game, variant: Variant, checking: Checking, check_results: bool, draws: DrawRules,
            plies: bool) -> Replay:
    result = Replay(game, variant, draw_rules=draws)
    try:
        result.start = _start_position(game, variant, checking.engine)
    except _Failure as failure:
        result.errors.append(failure.diagnostic)
        return result
    tracker = DrawTracker(result.start, draws)
    movetext = movetext_runs(game)
    alone = _core_alone(result.start, movetext)
    if alone and _on_core_alone(result, movetext, tracker, [] if plies else None):
        result.complete = True
    else:
        if alone:       # the core counted some runs' plies before it left a move: again from the start
            tracker = DrawTracker(result.start, draws)
        line = _Line(result, tracker, checking, record=plies)
        try:
            line.follow(movetext)
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


_ALONE = frozenset({MoveRun, Comment})         # what _on_core_alone plays: runs kept as text, comments


def _core_alone(start: Position, movetext: list[Element | MoveRun] | list[Element]) -> bool:
    """Whether `movetext` is a main line _on_core_alone plays from `start`: runs of moves kept as text
    and comments only, on the compiled core (anything else goes to _Line before a move is played)."""
    kinds = {type(element) for element in movetext}
    return MoveRun in kinds and kinds <= _ALONE and steps.runs_text(start)


def _on_core_alone(result: Replay, movetext: list[Element | MoveRun] | list[Element], tracker: DrawTracker,
                   plies: list[Ply] | None) -> bool:
    """The common main line (see _core_alone) played as _Line.follow plays it, without its steps: every
    move of every run played by the compiled core (steps.run_movetext), which records each ply it plays into
    `plies` when given (numbered on as _Line numbers them).  Sets the plies counted, the last position
    and the plies made (`made`, None when `plies` is) and says True; False, the tracker maybe counting
    some plies and `plies` holding some, when the core leaves a move to _Line (see _replay, which
    replays the line from the start)."""
    assert result.start is not None
    played = steps.run_movetext(result.start, movetext, MoveRun, tracker, plies, _PLY_MAKER)
    if played is None:
        return False
    (result.ply_count, result.last), result.made = played, plies
    return True


# Positions are immutable: one start position per variant and engine (by its `compiled`).
_INITIAL: PerVariant[bool, Position] = PerVariant(lambda variant, compiled: Position.initial(variant, Engine(compiled)))


def _start_position(game: Game, variant: Variant, engine: Engine) -> Position:
    fen = game.tag("FEN")
    if fen is None:
        return _INITIAL.get(variant, engine.compiled)
    line, column = game.tag_position("FEN")
    try:
        return parse_fen(variant, fen, engine)
    except FenError as error:
        raise _Failure(Diagnostic(Code.BAD_FEN, f"FEN: {error.message}", line, column)) from None
