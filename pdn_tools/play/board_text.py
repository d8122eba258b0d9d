"""Board diagrams as text: a board of letters, the name of every playing square beside it, the
side to move and the FEN below."""
from __future__ import annotations

from pdn_tools.play.board import Board
from pdn_tools.rules.fen import to_fen
from pdn_tools.text.names import printable


def text(board: Board, title: str = "") -> str:
    """A text board: `w`/`b` men, `W`/`B` kings, `.` empty playing squares, the last move's
    squares in brackets (a failed move's in angle brackets); beside it, the name of every
    playing square; below, the side to move and the FEN."""
    variant = board.variant
    marked, tried = set(board.marked()), set(board.attempt)
    width = max(len(board.name(s)) for s in range(1, variant.num_squares + 1)) + 1
    border = "+" + "-" * 3 * variant.cols + "+"
    lines = [printable(title), border] if title else [border]
    for row in range(variant.rows):
        cells, names = [], []
        for col in range(variant.cols):
            square = board.square_at(row, col)
            if square is None:
                cells.append("   ")
                names.append(" " * width)
                continue
            piece = board.position.piece_at(square) or "."
            cells.append(f"[{piece}]" if square in marked else f"<{piece}>" if square in tried else f" {piece} ")
            names.append(board.name(square).rjust(width))
        lines.append("|" + "".join(cells) + "|  " + "".join(names).rstrip())
    lines.append(border)
    side = "White" if board.position.turn == "W" else "Black"
    lines.append(f"{side} to move  {to_fen(board.position, board.alpha_names)}")
    return "\n".join(lines) + "\n"

