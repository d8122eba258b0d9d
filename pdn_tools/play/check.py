"""Checking one game: read, replayed against its variant, and the record `validate` reports.

`check(game)` gives a `Checked`: the game (or the ReadError it could not be read as),
its `Replay` (None for a game that could not be read) and its `Record`, the object
`pdn validate --format jsonl` writes.  Every command works from a Checked.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from pdn_tools.play.checking import Checking
from pdn_tools.play.replay import Replay, replay_by
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.rules.core import Engine, engine_from_environment
from pdn_tools.rules.variants import RuleSet, Variant
from pdn_tools.text.codes import Code
from pdn_tools.text.model import Diagnostic, Game, ReadError
from pdn_tools.text.records import record
from pdn_tools.text.results import read_result, stated_result
from pdn_tools.text.tags import game_name, tag_pairs

_set = object.__setattr__          # a frozen record's fields are set so (as @dataclass sets them)

if TYPE_CHECKING:      # --shots imports the search; validating does not (docs/start-up.md)
    from pdn_tools.rules.search import Evaluations


@record(frozen=True, slots=True)
class Problem:
    """A diagnostic as reported: located, with the move it is about when it has a ply."""

    code: Code
    message: str
    line: int
    column: int
    ply: int | None = None
    move: str | None = None             # '12... 28x19', numbered from the first player

    def __init__(self, code: Code, message: str, line: int, column: int, ply: int | None = None,
                 move: str | None = None) -> None:
        _P_CODE(self, code)
        _P_MESSAGE(self, message)
        _P_LINE(self, line)
        _P_COLUMN(self, column)
        _P_PLY(self, ply)
        _P_MOVE(self, move)

    def __reduce__(self) -> tuple[type[Problem], tuple[object, ...]]:
        """Pickled as its fields in order (see Record.__reduce__)."""
        return Problem, (self.code, self.message, self.line, self.column, self.ply, self.move)

    def as_dict(self) -> dict[str, object]:
        entry: dict[str, object] = {"code": self.code, "message": self.message, "line": self.line,
                                    "column": self.column, "ply": self.ply}
        if self.move is not None:
            entry["move"] = self.move
        return entry


def _slot_setters(cls: type, names: str) -> tuple[Callable[[object, object], None], ...]:
    """The `__set__` of each slot of `cls` named in `names`: how a frozen record's `__init__` sets its
    fields (0.14 against `object.__setattr__`'s 0.22 µs a field; validate makes three records a game)."""
    return tuple(cls.__dict__[name].__set__ for name in names.split())


_P_CODE, _P_MESSAGE, _P_LINE, _P_COLUMN, _P_PLY, _P_MOVE = _slot_setters(Problem, "code message line column ply move")


@record(frozen=True, slots=True)
class Shot:
    """A move the search judged (`rules.search.judge`): shot, missed or walked into; or not judged
    (its search went past the node budget: no eval, no line)."""

    ply: int
    move: str                           # '12... 28x19', as Problem.move
    kind: str
    eval: str | None                    # after the move, White's view: '+1.00', '#3'; None when not judged
    line: tuple[str, ...]               # the line that shows it, from the position before the move, as PDN

    def __init__(self, ply: int, move: str, kind: str, eval: str | None, line: tuple[str, ...]) -> None:
        _set(self, "ply", ply)
        _set(self, "move", move)
        _set(self, "kind", kind)
        _set(self, "eval", eval)
        _set(self, "line", line)

    def as_dict(self) -> dict[str, object]:
        return {"ply": self.ply, "move": self.move, "kind": self.kind, "eval": self.eval, "line": list(self.line)}


@record(frozen=True, slots=True)
class Record:
    """What validation says about one game (the JSON object of `validate --format jsonl`)."""

    file: str
    game: int                           # 1-based in its file
    name: str                           # 'White – Black, Event round N' as far as the tags tell
    line: int
    variant: str                        # the variant's name, "unknown" when none
    ok: bool
    plies: int                          # main-line moves read
    result: str                         # the Result tag, else the terminator, else ""
    errors: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()
    shots: tuple[Shot, ...] | None = None       # validate --shots: the moves the search judged

    def __init__(self, file: str, game: int, name: str, line: int, variant: str, ok: bool, plies: int, result: str,
                 errors: tuple[Problem, ...] = (), warnings: tuple[Problem, ...] = (),
                 shots: tuple[Shot, ...] | None = None) -> None:
        _R_FILE(self, file)
        _R_GAME(self, game)
        _R_NAME(self, name)
        _R_LINE(self, line)
        _R_VARIANT(self, variant)
        _R_OK(self, ok)
        _R_PLIES(self, plies)
        _R_RESULT(self, result)
        _R_ERRORS(self, errors)
        _R_WARNINGS(self, warnings)
        _R_SHOTS(self, shots)

    def __reduce__(self) -> tuple[type[Record], tuple[object, ...]]:
        """Pickled as its fields in order: records travel back from every game of --jobs workers,
        and the default for a slotted dataclass (copyreg, a setattr a field) took the main
        process ~20 µs a record to load, 6x as long as this."""
        return Record, (self.file, self.game, self.name, self.line, self.variant, self.ok, self.plies, self.result,
                        self.errors, self.warnings, self.shots)

    def as_dict(self) -> dict[str, object]:
        return {"file": self.file, "game": self.game, "name": self.name, "line": self.line, "variant": self.variant, "ok": self.ok,
                "plies": self.plies, "result": self.result, "errors": [e.as_dict() for e in self.errors],
                "warnings": [w.as_dict() for w in self.warnings]} | (
                    {} if self.shots is None else {"shots": [shot.as_dict() for shot in self.shots]})

    def with_errors(self, errors: tuple[Problem, ...]) -> Record:
        return replace(self, errors=errors)


_R_FILE, _R_GAME, _R_NAME, _R_LINE, _R_VARIANT, _R_OK, _R_PLIES, _R_RESULT, _R_ERRORS, _R_WARNINGS, _R_SHOTS = \
    _slot_setters(Record, "file game name line variant ok plies result errors warnings shots")


@record(frozen=True, slots=True)
class Checked:
    """One game checked: the game, its replay (None when it could not be read) and its record."""

    game: Game | ReadError
    replay: Replay | None
    record: Record

    def __init__(self, game: Game | ReadError, replay: Replay | None, record: Record) -> None:
        _C_GAME(self, game)
        _C_REPLAY(self, replay)
        _C_RECORD(self, record)

    @property
    def ok(self) -> bool:
        return self.record.ok


_C_GAME, _C_REPLAY, _C_RECORD = _slot_setters(Checked, "game replay record")


def check(game: Game | ReadError, variant: Variant | None = None, strict: bool = False,
          rules: RuleSet | None = None, engine: Engine | None = None) -> Checked:
    """Replay `game` (with `variant`'s rules, else those its tags or moves name; its draws by
    `rules`, else by its variant's own; on `engine`, see replay) and report on it."""
    if not isinstance(game, (Game, ReadError)):
        raise TypeError(f"check takes a Game or a ReadError, not {type(game).__name__}")
    return check_by(game, Checking(strict, variant, rules, engine or engine_from_environment()))


def check_by(game: Game | ReadError, checking: Checking) -> Checked:
    """`check` by the choices of `checking`."""
    if isinstance(game, ReadError):
        error = Problem(game.code, game.message, game.line, game.column)
        name = game_name(tag_pairs(game.text))
        record = Record(game.file, game.index, name, game.line, "unknown", False, 0, "", (error,),
                        tuple(problem(w) for w in game.warnings))
        return Checked(game, None, record)
    result = replay_by(game, checking, plies=False)
    tag = game.tag("Result")
    spaced = [] if tag is None or read_result(tag) == tag else [_spaced_result(game, tag)]
    record = Record(
        game.file, game.index, game_name(game.tags), game.line, result.variant.name if result.variant else "unknown",
        not result.errors, result.ply_count if result.complete else game.move_count(),
        stated_result(tag, game.result), _problems(result.errors, result),
        _problems(game.warnings + spaced + result.warnings if spaced or game.warnings else result.warnings, result))
    return Checked(game, result, record)


def with_shots(checked: Checked, evaluate: Evaluations) -> Record:
    """The record with the moves of a valid game's main line the search judges, and those it could
    not (kind NOT_JUDGED); no field for a game that is not valid."""
    from pdn_tools.rules.search import eval_text, judge

    result = checked.replay
    if result is None or not result.ok:
        return checked.record
    plies = result.plies
    judged = judge([(ply.before, ply.move, ply.after) for ply in plies], evaluate)
    label = move_labels(result)
    return replace(checked.record, shots=tuple(
        Shot(ply.number, label(ply.number), j.kind, None if j.score is None else eval_text(j.score),
             line_text(ply.before, j.line))
        for ply, j in zip(plies, judged) if j.kind is not None))


def line_text(before: Position, line: tuple[Move, ...]) -> tuple[str, ...]:
    """The moves of `line` from `before` as PDN writes them (captures disambiguated)."""
    from pdn_tools.play.notation import move_text

    texts = []
    for move in line:
        texts.append(move_text(before, move))
        before = before.play(move)
    return tuple(texts)


def _spaced_result(game: Game, tag: str) -> Diagnostic:
    """The warning for a Result tag value with white space around it (read without it)."""
    return Diagnostic(Code.RESULT_SPACE, f"Result tag {tag!r} has white space around its value: read as "
                      f"{read_result(tag)!r}", *game.tag_position("Result"))


def record_of(game: Game | ReadError, checking: Checking | None = None) -> Record:
    """The record alone (work whose result travels between processes or machines), checked by
    `checking` (None: the defaults, on the environment's engine)."""
    return check_by(game, checking or Checking()).record


def _problems(diagnostics: list[Diagnostic], result: Replay) -> tuple[Problem, ...]:
    """The diagnostics of a replayed game as reported (the common game has none or one); the moves' texts
    read once when several have a move."""
    if not diagnostics:
        return ()
    located = result.variant is not None and sum(1 for diagnostic in diagnostics if diagnostic.ply) > 1
    label = move_labels(result) if located else None
    return tuple([problem(diagnostic, result, label) for diagnostic in diagnostics])


def problem(diagnostic: Diagnostic, result: Replay | None = None, label: Label | None = None) -> Problem:
    """A diagnostic as reported, with its move's label when it has a ply of a replayed game (by `label`,
    else move_label)."""
    move = None
    if result is not None and result.variant is not None and diagnostic.ply:
        move = move_label(result, diagnostic.ply) if label is None else label(diagnostic.ply)
    return Problem(diagnostic.code, diagnostic.message, diagnostic.line, diagnostic.column, diagnostic.ply, move)


Label = Callable[[int], str]        # a main-line ply's label ('12... 28x19'), by its number


def move_label(result: Replay, ply: int) -> str:
    """'12... 28x19' for main-line ply `ply` (1-based), numbered from the first player (its text found
    in the game: for the labels of many plies, move_labels)."""
    return _labelled(result, ply, result.game.move_text(ply - 1))


def move_labels(result: Replay) -> Label:
    """move_label for any ply of `result`, the main line's texts read once (a label each found from the
    game's start made the labels of a long game's moves cost the square of its length)."""
    texts = result.game.move_texts()

    def label(ply: int) -> str:
        return _labelled(result, ply, texts[ply - 1] if 0 < ply <= len(texts) else None)
    return label


def _labelled(result: Replay, ply: int, text: str | None) -> str:
    assert result.variant is not None
    offset = 0 if result.start is None or result.start.turn == result.variant.first else 1
    index = ply - 1 + offset
    number = index // 2 + 1
    return f"{number}{'...' if index % 2 else '.'} {text or '?'}"
