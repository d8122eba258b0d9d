"""What a board diagram shows: a position after a ply of a replayed game, the move that led to it
(and the pieces it took), a move tried from it that failed, how squares are named, which way up
the board is, and the caption under it.

Boards are drawn with White at the bottom (`flip` turns them round), on every variant's board:
dark-square 8x8 boards, the light-corner Italian and Spanish boards, 10x10, 12x12 and Turkish,
where every square is used.  The drawings: board_svg.py (SVG), board_text.py (a text board);
pictures.py holds `pdn diagram`'s formats, error_boards.py the boards at a game's move errors.
"""
from __future__ import annotations

from dataclasses import dataclass

from pdn_tools.play.check import move_label
from pdn_tools.play.replay import Replay
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.rules.variants import Variant


class DiagramError(ValueError):
    """A ply that the game does not reach."""


@dataclass(frozen=True)
class Board:
    """What a diagram shows: a position, the move that led to it (and the position before it,
    for the pieces it took), a move tried from it that failed, and how to name squares."""

    position: Position
    last: Move | None = None
    alpha: bool | None = None               # None: the variant's own notation
    flip: bool = False
    before: Position | None = None          # the position `last` was played from
    attempt: tuple[int, ...] = ()           # squares of a move tried from `position` that failed

    @property
    def variant(self) -> Variant:
        return self.position.variant

    @property
    def alpha_names(self) -> bool:
        """Whether squares are named by file and rank (shown in the margin)."""
        return self.variant.alpha if self.alpha is None else self.alpha

    def cell(self, square: int) -> tuple[int, int]:
        """(row, column) of `square` in the drawing, row 0 at the top."""
        row, col = self.variant.coords(square)
        if self.flip:
            return self.variant.rows - 1 - row, self.variant.cols - 1 - col
        return row, col

    def square_at(self, row: int, col: int) -> int | None:
        if self.flip:
            row, col = self.variant.rows - 1 - row, self.variant.cols - 1 - col
        return self.variant.square_at(row, col)

    def name(self, square: int) -> str:
        return self.variant.square_text(square, self.alpha)

    def marked(self) -> tuple[int, ...]:
        """The last move's start and landing squares."""
        return (self.last.start, *self.last.path) if self.last else ()

    def taken(self) -> list[tuple[int, str]]:
        """(square, piece) of each piece the last move captured."""
        if self.last is None:
            return []
        side = "w" if self.position.turn == "W" else "b"
        out = []
        for square in self.last.captured:
            piece = self.before.piece_at(square) if self.before is not None else None
            out.append((square, piece or side))
        return out


def board_after(result: Replay, ply: int | None = None, alpha: bool | None = None,
                flip: bool = False) -> Board:
    """The board after main-line ply `ply` (0: the start, None: the last ply replayed)."""
    plies = result.plies
    if result.start is None:
        raise DiagramError("the game has no start position")
    if ply is None:
        ply = len(plies)
    if not 0 <= ply <= len(plies):
        reached = "the whole game" if result.complete else "the moves before an error or unknown move"
        raise DiagramError(f"ply {ply} is out of range: {len(plies)} plies replayed ({reached})")
    if ply == 0:
        return Board(result.start, None, alpha, flip)
    played = plies[ply - 1]
    return Board(played.after, played.move, alpha, flip, played.before)


def caption(result: Replay, ply: int | None = None) -> str:
    """'White - Black, international, after 12... 28x19' for the board after `ply`."""
    game = result.game
    ply = len(result.plies) if ply is None else ply
    where = "start position" if ply == 0 else f"after {move_label(result, ply)}"
    return f"{game.tag('White') or '?'} - {game.tag('Black') or '?'}, {_variant_name(result)}, {where}"


def caption_lines(result: Replay, ply: int | None = None) -> list[str]:
    """The two lines under a picture: the players and event; the move and who is to move."""
    game = result.game
    ply = len(result.plies) if ply is None else ply
    where = "start position" if ply == 0 else f"after {move_label(result, ply)}"
    position = result.start if ply == 0 or not result.plies else result.plies[ply - 1].after
    side = "White" if position is not None and position.turn == "W" else "Black"
    players = f"{game.tag('White') or '?'} \u2013 {game.tag('Black') or '?'}"
    event = game.tag("Event")
    return [players + (f" \u00b7 {event}" if event else ""),
            f"{_variant_name(result)} \u00b7 {where} \u00b7 {side} to move"]


def _variant_name(result: Replay) -> str:
    return result.variant.name if result.variant is not None else "unknown"

