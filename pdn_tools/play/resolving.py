"""Resolving one notated move: the one legal move it stands for, else a located diagnostic
saying why none is."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from pdn_tools.text.codes import Code
from pdn_tools.text.model import Diagnostic, NotatedMove as Notated
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.rules.variants import PerVariant, Variant

if TYPE_CHECKING:
    from pdn_tools.play.checking import Checking


class _Failure(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        self.diagnostic = diagnostic


Fail = Callable[[Code, str], _Failure]          # a located _Failure for the move being resolved


def resolve(position: Position, notated: Notated, ply: int | None, warnings: list[Diagnostic],
            checking: Checking) -> Move:
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
        _check_separator(notated, move, ply, warnings, checking)
        return move
    raise _explain(position, notated, numbers, position.legal_moves(), fail)


# square text -> number, for each variant (PerVariant: one of the same name gets its own)
_SQUARES: PerVariant[None, dict[str, int | None]] = PerVariant(lambda variant, _: {})


def known_squares(variant: Variant) -> dict[str, int | None]:
    """The square numbers of `variant`'s square texts met so far (see _square; the compiled core adds
    to them too)."""
    return _SQUARES.get(variant, None)


def _square(variant: Variant, text: str) -> int | None:
    """variant.parse_square, remembered (the same few squares recur in every game)."""
    known = known_squares(variant)
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
                     checking: Checking) -> None:
    """A capture written with '-' or a quiet move written with 'x' is flagged (a warning in
    strict mode too: the PDN 3.0 reading grammar does not tell the separators apart)."""
    if notated.capture == bool(move.captured):
        return
    what = "capture written as a quiet move" if move.captured else "quiet move written as a capture"
    diagnostic = Diagnostic(Code.CAPTURE_NOTATION, f"{notated.text}: {what}", notated.line, notated.column, ply)
    if checking.strict and diagnostic.code.strict_fatal:
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
