"""The boards at a game's move errors: for each move that failed, in the main line or in a variation,
the position before it, the move's squares marked, and the legal moves there (what `validate
--show-board` prints and the HTML audit page draws)."""
from __future__ import annotations

from dataclasses import dataclass

from pdn_tools.play.board import Board
from pdn_tools.play.board_svg import svg
from pdn_tools.play.board_text import text
from pdn_tools.play.check import Checked, move_label, move_labels
from pdn_tools.play.notation import Style, move_text
from pdn_tools.play.replay import Replay
from pdn_tools.rules.movegen import Position
from pdn_tools.text.model import Diagnostic, NotatedMove, Variation
from pdn_tools.text.walk import walk

MOVE_ERRORS = frozenset({"bad-square", "illegal-move", "ambiguous-capture", "capture-required", "capture-law",
                         "capture-notation"})


@dataclass(frozen=True)
class ErrorBoard:
    """The board before a main-line move that failed: what `validate --show-board` prints
    and the HTML report draws (plain strings, so that worker processes can send it back)."""

    error: int                  # index of the error in the game's record
    label: str                  # '2. 28x51'
    played: str                 # the main line before the failing move: '1. 32-28 19-23'
    legal: tuple[str, ...]      # the legal moves there, in the game's notation
    text: str                   # text board, the move's squares in angle brackets
    svg: str = ""               # SVG drawn against `defs` (only when asked for)


def error_boards(result: Replay | None, with_svg: bool = False) -> list[ErrorBoard]:
    """A board for each error of a move, in the main line or in a variation: the position
    before the move, its squares marked, and the legal moves there."""
    if result is None or result.variant is None:
        return []
    out = []
    for index, error in enumerate(result.errors):
        found = _failing_move(result, error) if error.code in MOVE_ERRORS else None
        if found is None:
            continue
        notated, before, label, played = found
        alpha = notated.squares[0][:1].isalpha()
        squares = tuple(s for s in (before.variant.parse_square(t) for t in notated.squares) if s is not None)
        board = Board(before, alpha=alpha, attempt=squares)
        style = Style(squares="alpha" if alpha else "numeric")
        ordered = sorted(before.legal_moves(), key=lambda move: (move.start, move.path))
        legal = tuple(dict.fromkeys(move_text(before, move, style) for move in ordered))
        picture = svg(board, f"before {label}", shared=True) if with_svg else ""
        out.append(ErrorBoard(index, label, played, legal, text(board), picture))
    return out


def _failing_move(result: Replay, error: Diagnostic) -> tuple[NotatedMove, Position, str, str] | None:
    """The move an error is about, the position before it, its label and the main line before it."""
    ply = len(result.plies) + 1
    main_line = result.game.main_line()
    if not result.complete and error.ply == ply and ply <= len(main_line) and result.final is not None:
        return main_line[ply - 1], result.final, move_label(result, ply), moves_text(result, ply - 1)
    found = _in_variations(result, error)
    if found is None:
        return None
    notated, before = found
    played = moves_text(result, error.ply - 1) if error.ply else ""
    return notated, before, f"{notated.text} (in a variation)", played


def _in_variations(result: Replay, error: Diagnostic) -> tuple[NotatedMove, Position] | None:
    """The variation move at the error's place and the position before it, from where the
    replay started each variation and the moves it resolved."""
    positions: list[Position | None] = [None]        # per open line; None: not replayed
    for frame in walk(result.game.elements):
        element = frame.element
        if isinstance(element, Variation):
            if frame.closing:
                positions.pop()
            else:
                positions.append(result.starts.get(frame.path))
        elif isinstance(element, NotatedMove) and positions[-1] is not None:
            if (element.line, element.column) == (error.line, error.column):
                return element, positions[-1]
            resolved = result.resolved.get(frame.path)
            positions[-1] = None if resolved is None else resolved[0].play(resolved[1])
    return None


def boards_at_errors(checked: Checked) -> list[ErrorBoard]:
    """The boards at a checked game's move errors (work for the command line's `Run.checked`)."""
    return error_boards(checked.replay)


def moves_text(result: Replay, last: int) -> str:
    """The main line's moves up to ply `last` with their numbers: '1. 32-28 19-23 2. 28x51'."""
    words = []
    label = move_labels(result)
    for ply in range(1, last + 1):
        number, _, move = label(ply).partition(" ")
        words += [number, move] if ply == 1 or not number.endswith("...") else [move]
    return " ".join(words)

