"""Board diagrams of a position, as SVG or as a text board, with the last move marked.

Boards are drawn with White at the bottom (`flip` turns them round), on every variant's
board: dark-square 8x8 boards, the light-corner Italian and Spanish boards, 10x10, 12x12
and Turkish, where every square is used.  Squares carry their PDN names: numbers, or
algebraic names for the variants written that way.
"""
from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape

from pdn_tools.rules.fen import to_fen
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.play.replay import Replay
from pdn_tools.commands.report import move_label
from pdn_tools.rules.variants import Variant

SIZE = 40                                   # pixels per square
_LIGHT, _DARK, _MARK = "#f0d9b5", "#b58863", "#e8c547"
_PIECE = {"w": ("#fafafa", "#333333"), "b": ("#222222", "#dddddd")}


class DiagramError(ValueError):
    """A ply that the game does not reach."""


@dataclass(frozen=True)
class Board:
    """What a diagram shows: a position, the move that led to it, and how to name squares."""

    position: Position
    last: Move | None = None
    alpha: bool | None = None               # None: the variant's own notation
    flip: bool = False

    @property
    def variant(self) -> Variant:
        return self.position.variant

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
    return Board(plies[ply - 1].after, plies[ply - 1].move, alpha, flip)


def caption(result: Replay, ply: int | None = None) -> str:
    """'White - Black, international, after 12... 28x19' for the board after `ply`."""
    game = result.game
    ply = len(result.plies) if ply is None else ply
    where = "start position" if ply == 0 else f"after {move_label(result, ply)}"
    return f"{game.tag('White') or '?'} - {game.tag('Black') or '?'}, {result.variant.name}, {where}"


# ---- SVG ----------------------------------------------------------------------------------------

def svg(board: Board, title: str = "") -> str:
    """A standalone SVG picture of the board."""
    variant = board.variant
    width, height = variant.cols * SIZE, variant.rows * SIZE
    marked = set(board.marked())
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif">']
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    for row in range(variant.rows):
        for col in range(variant.cols):
            parts.append(_square(board, row, col, marked))
    parts += [_piece(board, square, piece) for square, piece in _pieces(board.position)]
    if board.last is not None:
        points = " ".join(f"{x},{y}" for x, y in (_centre(board, s) for s in board.marked()))
        parts.append(f'<polyline class="last-move" points="{points}" fill="none" stroke="{_MARK}" '
                     f'stroke-width="4" stroke-opacity="0.8" stroke-linecap="round" stroke-linejoin="round"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _square(board: Board, row: int, col: int, marked: set[int]) -> str:
    x, y = col * SIZE, row * SIZE
    square = board.square_at(row, col)
    if square is None:
        return f'<rect class="square" x="{x}" y="{y}" width="{SIZE}" height="{SIZE}" fill="{_LIGHT}"/>'
    playing = _LIGHT if board.variant.all_squares else _DARK
    classes = "square playing" + (" last" if square in marked else "")
    fill = _MARK if square in marked else playing
    name = escape(board.name(square))
    return (f'<rect class="{classes}" data-square="{square}" data-name="{name}" x="{x}" y="{y}" '
            f'width="{SIZE}" height="{SIZE}" fill="{fill}" stroke="#7a5c3e" stroke-width="0.5"/>\n'
            f'<text class="label" data-square="{square}" x="{x + 2}" y="{y + 9}" font-size="8" '
            f'fill="#222">{name}</text>')


def _piece(board: Board, square: int, piece: str) -> str:
    x, y = _centre(board, square)
    fill, line = _PIECE[piece.lower()]
    colour = "white" if piece in "wW" else "black"
    king = piece.isupper()
    out = (f'<circle class="piece {colour}{" king" if king else ""}" data-square="{square}" cx="{x}" '
           f'cy="{y}" r="{SIZE * 0.38:g}" fill="{fill}" stroke="{line}" stroke-width="1.5"/>')
    if king:
        out += (f'\n<circle class="crown" data-square="{square}" cx="{x}" cy="{y}" r="{SIZE * 0.2:g}" '
                f'fill="none" stroke="{line}" stroke-width="2"/>')
    return out


def _centre(board: Board, square: int) -> tuple[int, int]:
    row, col = board.cell(square)
    return col * SIZE + SIZE // 2, row * SIZE + SIZE // 2


def _pieces(position: Position) -> list[tuple[int, str]]:
    out = []
    for colour in ("W", "B"):
        men, kings = position.pieces(colour)
        out += [(s, colour.lower()) for s in men] + [(s, colour) for s in kings]
    return sorted(out)


# ---- text ---------------------------------------------------------------------------------------

def text(board: Board, title: str = "") -> str:
    """A text board: `w`/`b` men, `W`/`B` kings, `.` empty playing squares, the last move's
    squares in brackets; beside it, the name of every playing square; below, the side to
    move and the FEN."""
    variant = board.variant
    marked = set(board.marked())
    width = max(len(board.name(s)) for s in range(1, variant.num_squares + 1)) + 1
    border = "+" + "-" * 3 * variant.cols + "+"
    lines = [title, border] if title else [border]
    for row in range(variant.rows):
        cells, names = [], []
        for col in range(variant.cols):
            square = board.square_at(row, col)
            if square is None:
                cells.append("   ")
                names.append(" " * width)
                continue
            piece = board.position.piece_at(square) or "."
            cells.append(f"[{piece}]" if square in marked else f" {piece} ")
            names.append(board.name(square).rjust(width))
        lines.append("|" + "".join(cells) + "|  " + "".join(names).rstrip())
    lines.append(border)
    side = "White" if board.position.turn == "W" else "Black"
    lines.append(f"{side} to move  {to_fen(board.position, board.variant.alpha)}")
    return "\n".join(lines) + "\n"
