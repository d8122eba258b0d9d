"""Board diagrams as SVG, with the last move marked.

Squares carry their PDN names: numbers in the corner of each playing square, where a piece never
covers them, or algebraic files and ranks in the margin.  The last move is a see-through tint over
its squares with an arrow along its path; pieces it captured stay as crossed-out ghosts.  Kings
wear a crown.

The drawing is in units of `UNIT` per square; `svg(..., width=...)` scales the picture.
`shared=True` draws the squares and pieces as references to `defs(...)`, for pages that
show many boards (the HTML report).
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from pdn_tools.play.board import Board
from pdn_tools.rules.core import PURE
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import Variant
from pdn_tools.text.names import markup, printable

UNIT = 40                                   # drawing units per square
DEFAULT_SQUARE_PIXELS = 50                  # a square's size in the picture unless a width is asked for
_LIGHT, _DARK = "#f0d9b5", "#8c5a35"
_LABEL_ON_DARK, _LABEL_ON_LIGHT = "#f6e7cf", "#6b4526"
_LABEL_OUTLINE = "#10243d"                  # a number over a tint: white on this outline
_TINT, _TINT_EDGE = "#3d8fe0", "#1b5fae"    # last move: see-through blue over the squares
_TRY, _TRY_EDGE = "#e0483d", "#b3261e"      # a move that failed: red
_PIECE = {"w": ("#fbfbf8", "#2b2b2b"), "b": ("#1f1f1f", "#e9e2d5")}   # fill, outline
_CROWN = ("#e6b422", "#6b4a00")             # gold, its outline
_RADIUS = 0.33 * UNIT
_LABEL_SIZE = 0.2 * UNIT
_MARGIN = 0.6 * UNIT                        # left and bottom margin when files and ranks are shown
_EDGE = 0.2 * UNIT                          # margin otherwise
_CAPTION_LINE = 0.5 * UNIT
_CAPTION_SIZE = 0.34 * UNIT
_NARROW = " .,:;'!|ijlft()[]\u00b7"         # letters about half as wide as most
_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


@dataclass(frozen=True)
class _Frame:
    """Where the board sits in the picture, in drawing units."""

    left: float
    top: float
    width: float
    height: float
    board_height: float


def _frame(board: Board, lines: int) -> _Frame:
    variant = board.variant
    side = _MARGIN if board.alpha_names else _EDGE
    board_width, board_height = variant.cols * UNIT, variant.rows * UNIT
    caption_height = lines * _CAPTION_LINE + (0.2 * UNIT if lines else 0)
    return _Frame(side, _EDGE, side + board_width + _EDGE, _EDGE + board_height + side + caption_height,
                  board_height)


def svg(board: Board, title: str = "", caption: list[str] | None = None, width: int | None = None,
        shared: bool = False) -> str:
    """An SVG picture of the board, `width` pixels wide (default: 50 pixels a square), with
    `caption` lines under it.  `shared` draws squares and pieces as references to `defs`."""
    lines = _caption_rows(caption or [], _frame(board, 0).width - 2 * _EDGE)
    frame = _frame(board, len(lines))
    pixels = width or round(frame.width * DEFAULT_SQUARE_PIXELS / UNIT)
    height = round(pixels * frame.height / frame.width)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="diagram" width="{pixels}" height="{height}" '
             f'viewBox="0 0 {frame.width:g} {frame.height:g}" font-family="{_FONT}">']
    if title:
        parts.append(f"<title>{markup(title)}</title>")
    parts.append(f'<rect width="{frame.width:g}" height="{frame.height:g}" fill="#ffffff"/>')
    parts.append(f'<g class="board" transform="translate({frame.left:g},{frame.top:g})">')
    parts.append(f'<use href="#{_board_id(board)}"/>' if shared else _squares(board))
    parts += _marks(board)
    parts += _marked_labels(board)
    parts += [_ghost(board, square, piece, shared) for square, piece in board.taken()]
    parts += [_piece(board, square, piece, shared) for square, piece in _pieces(board.position)]
    parts += _arrows(board)
    parts.append("</g>")
    if board.alpha_names:
        parts.append(_margin_labels(board, frame))
    parts += _caption(lines, frame)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def defs(variants: list[tuple[Variant, bool | None, bool]], pieces: bool = True) -> str:
    """Hidden SVG definitions that boards drawn with `shared=True` refer to: the pieces (once a
    page), and the squares of each (variant, alpha, flip) given."""
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" '
             'aria-hidden="true"><defs>']
    if pieces:
        parts += [f'<g id="pdn-{code}">{_piece_shape(code)}</g>' for code in ("w", "W", "b", "B")]
    for variant, alpha, flip in variants:
        board = Board(Position.initial(variant, PURE), alpha=alpha, flip=flip)     # squares only: no move made
        parts.append(f'<g id="{_board_id(board)}">{_squares(board)}</g>')
    parts.append("</defs></svg>")
    return "".join(parts)


def _board_id(board: Board) -> str:
    names = "a" if board.alpha_names else "n"
    return f"pdn-board-{board.variant.name}-{names}{'-flip' if board.flip else ''}"


def _squares(board: Board) -> str:
    """Every square, with the playing squares' numbers in their top-left corner (numeric names)."""
    variant = board.variant
    playing = _LIGHT if variant.all_squares else _DARK
    out = []
    for row in range(variant.rows):
        for col in range(variant.cols):
            x, y = col * UNIT, row * UNIT
            square = board.square_at(row, col)
            if square is None:
                out.append(f'<rect class="square" x="{x}" y="{y}" width="{UNIT}" height="{UNIT}" fill="{_LIGHT}"/>')
                continue
            name = escape(board.name(square), quote=False)
            out.append(f'<rect class="square playing" data-square="{square}" data-name="{name}" x="{x}" '
                       f'y="{y}" width="{UNIT}" height="{UNIT}" fill="{playing}" stroke="#6b4526" stroke-width="0.6"/>')
            if not board.alpha_names:
                colour = _LABEL_ON_LIGHT if variant.all_squares else _LABEL_ON_DARK
                out.append(_label(board, square, "label", f'fill="{colour}"'))
    out.append(f'<rect x="0" y="0" width="{variant.cols * UNIT}" height="{variant.rows * UNIT}" '
               f'fill="none" stroke="#4a3020" stroke-width="1.5"/>')
    return "\n".join(out)


def _label(board: Board, square: int, kind: str, paint: str) -> str:
    """The square's number in its top-left corner, painted as `paint` says."""
    row, col = board.cell(square)
    return (f'<text class="{kind}" data-square="{square}" x="{col * UNIT + 0.04 * UNIT:g}" '
            f'y="{row * UNIT + 0.19 * UNIT:g}" font-size="{_LABEL_SIZE:g}" font-weight="bold" '
            f'{paint}>{escape(board.name(square), quote=False)}</text>')


def _marked_labels(board: Board) -> list[str]:
    """The numbers of the squares a tint covers, written again over it: white, outlined dark."""
    if board.alpha_names:
        return []
    squares = dict.fromkeys((*board.marked(), *board.attempt))
    return [_label(board, square, "label marked", f'fill="#ffffff" stroke="{_LABEL_OUTLINE}" '
                   f'stroke-width="{0.06 * UNIT:g}" paint-order="stroke"') for square in squares]


def _margin_labels(board: Board, frame: _Frame) -> str:
    """File letters under the board and rank numbers left of it, as the squares are named."""
    variant = board.variant
    out = ['<g class="coordinates" fill="#333333" text-anchor="middle">']
    size = 0.3 * UNIT
    for col in range(variant.cols):
        square = next(s for row in range(variant.rows) if (s := board.square_at(row, col)) is not None)
        x = frame.left + (col + 0.5) * UNIT
        y = frame.top + frame.board_height + 0.4 * UNIT
        out.append(f'<text x="{x:g}" y="{y:g}" font-size="{size:g}">{board.name(square)[0]}</text>')
    for row in range(variant.rows):
        square = next(s for col in range(variant.cols) if (s := board.square_at(row, col)) is not None)
        y = frame.top + (row + 0.5) * UNIT + 0.1 * UNIT
        out.append(f'<text x="{frame.left / 2:g}" y="{y:g}" font-size="{size:g}">{board.name(square)[1:]}</text>')
    out.append("</g>")
    return "\n".join(out)


def _caption_rows(lines: list[str], room: float) -> list[tuple[str, bool]]:
    """The caption's lines (escaped: the width fits what is shown) wrapped at spaces to `room`
    drawing units at the caption's size, each with whether it is bold (the first line's)."""
    rows = []
    for index, line in enumerate(map(printable, lines)):
        bold = index == 0
        row = ""
        for word in line.split(" "):
            if row and _text_width(f"{row} {word}", _CAPTION_SIZE, bold) > room:
                rows.append((row, bold))
                row = word
            else:
                row = f"{row} {word}" if row else word
        rows.append((row, bold))
    return rows


def _text_width(text: str, size: float, bold: bool) -> float:
    """A generous estimate of `text`'s width at font `size` in a sans-serif font."""
    ems = sum(1.0 if char in "MWmw@%\u2014" else 0.4 if char in _NARROW else 0.8 if char.isupper() else 0.7
              for char in text)
    return ems * size * (1.1 if bold else 1.0)


def _caption(rows: list[tuple[str, bool]], frame: _Frame) -> list[str]:
    top = frame.top + frame.board_height + (frame.left if frame.left > _EDGE else _EDGE) + 0.1 * UNIT
    out = []
    room = frame.width - 2 * _EDGE
    for index, (row, bold) in enumerate(rows):
        y = top + (index + 0.75) * _CAPTION_LINE
        weight = ' font-weight="bold"' if bold else ""
        size = min(_CAPTION_SIZE, _CAPTION_SIZE * room / max(_text_width(row, _CAPTION_SIZE, bold), 1))  # a long word
        out.append(f'<text class="caption" x="{_EDGE:g}" y="{y:g}" font-size="{size:.1f}"'
                   f'{weight} fill="#222222">{markup(row)}</text>')
    return out


def _marks(board: Board) -> list[str]:
    """See-through tints over the last move's squares (start outlined), and a failed move's."""
    out = []
    for squares, tint, edge, kind in ((board.marked(), _TINT, _TINT_EDGE, "last"),
                                      (board.attempt, _TRY, _TRY_EDGE, "attempt")):
        for index, square in enumerate(dict.fromkeys(squares)):
            row, col = board.cell(square)
            inset = 0.06 * UNIT
            out.append(f'<rect class="highlight {kind}" data-square="{square}" x="{col * UNIT + inset:g}" '
                       f'y="{row * UNIT + inset:g}" width="{UNIT - 2 * inset:g}" height="{UNIT - 2 * inset:g}" '
                       f'fill="{tint}" fill-opacity="{0.4 if index == 0 else 0.3}" stroke="{edge}" '
                       f'stroke-width="{0.1 * UNIT:g}"/>')
    return out


def _arrows(board: Board) -> list[str]:
    out = []
    if board.last is not None:
        out.append(_arrow(board, board.marked(), _TINT_EDGE, "last-move"))
    if len(board.attempt) > 1:
        out.append(_arrow(board, board.attempt, _TRY_EDGE, "attempt-move"))
    return out


def _arrow(board: Board, squares: tuple[int, ...], colour: str, kind: str) -> str:
    """A line from the first square's centre through the others, its head at the edge of the
    piece on the last square: visible even for a one-step move."""
    points = [_centre(board, square) for square in squares]
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 or 1.0
    back = _RADIUS + 0.06 * UNIT           # beyond the outline
    tip = (x1 - (x1 - x0) * back / length, y1 - (y1 - y0) * back / length)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = 0.22 * UNIT
    base = (tip[0] - ux * head, tip[1] - uy * head)
    left = (base[0] - uy * head * 0.6, base[1] + ux * head * 0.6)
    right = (base[0] + uy * head * 0.6, base[1] - ux * head * 0.6)
    line = " ".join(f"{x:g},{y:g}" for x, y in [*points[:-1], base])
    width = 0.1 * UNIT
    return (f'<g class="{kind}" data-squares="{" ".join(map(str, squares))}">'
            f'<polyline points="{line}" fill="none" stroke="#ffffff" stroke-opacity="0.8" '
            f'stroke-width="{width * 1.8:g}" stroke-linecap="round" stroke-linejoin="round"/>'
            f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="{width:g}" '
            f'stroke-linecap="round" stroke-linejoin="round"/>'
            f'<polygon points="{_points([tip, left, right])}" fill="{colour}" stroke="#ffffff" '
            f'stroke-width="{0.03 * UNIT:g}"/></g>')


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _piece_shape(code: str) -> str:
    """A piece centred on (0, 0): a disc with a rim; a king adds a gold crown."""
    fill, line = _PIECE[code.lower()]
    shape = (f'<circle r="{_RADIUS:g}" fill="{fill}" stroke="{line}" stroke-width="{0.05 * UNIT:g}"/>'
             f'<circle r="{_RADIUS * 0.72:g}" fill="none" stroke="{line}" stroke-opacity="0.45" '
             f'stroke-width="{0.025 * UNIT:g}"/>')
    if code.isupper():
        s = _RADIUS * 0.62
        crown = [(-s, 0.45 * s), (-s, -0.45 * s), (-0.5 * s, 0.0), (0.0, -0.7 * s), (0.5 * s, 0.0),
                 (s, -0.45 * s), (s, 0.45 * s)]
        shape += (f'<polygon class="crown" points="{_points(crown)}" fill="{_CROWN[0]}" stroke="{_CROWN[1]}" '
                  f'stroke-width="{0.03 * UNIT:g}" stroke-linejoin="round"/>')
    return shape


def _piece(board: Board, square: int, piece: str, shared: bool) -> str:
    x, y = _centre(board, square)
    if shared:
        return f'<use href="#pdn-{piece}" x="{x:g}" y="{y:g}"/>'      # pages of many boards: short
    classes = f"piece {'white' if piece in 'wW' else 'black'}{' king' if piece.isupper() else ''}"
    return (f'<g class="{classes}" data-square="{square}" transform="translate({x:g},{y:g})">'
            f'{_piece_shape(piece)}</g>')


def _ghost(board: Board, square: int, piece: str, shared: bool) -> str:
    """A captured piece: faded, crossed out in red."""
    x, y = _centre(board, square)
    s = _RADIUS * 0.8
    shape = f'<use href="#pdn-{piece}"/>' if shared else _piece_shape(piece)
    return (f'<g class="captured" data-square="{square}" transform="translate({x:g},{y:g})">'
            f'<g opacity="0.55">{shape}</g>'
            f'<path d="M{-s:g},{-s:g}L{s:g},{s:g}M{-s:g},{s:g}L{s:g},{-s:g}" stroke="{_TRY}" '
            f'stroke-width="{0.11 * UNIT:g}" stroke-linecap="round"/></g>')


def _centre(board: Board, square: int) -> tuple[float, float]:
    row, col = board.cell(square)
    return col * UNIT + UNIT / 2, row * UNIT + UNIT / 2


def _pieces(position: Position) -> list[tuple[int, str]]:
    out = []
    for colour in ("W", "B"):
        men, kings = position.pieces(colour)
        out += [(s, colour.lower()) for s in men] + [(s, colour) for s in kings]
    return sorted(out)

