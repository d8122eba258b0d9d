"""Board diagrams of a position, as SVG, PNG or a text board, with the last move marked.

Boards are drawn with White at the bottom (`flip` turns them round), on every variant's
board: dark-square 8x8 boards, the light-corner Italian and Spanish boards, 10x10, 12x12
and Turkish, where every square is used.  Squares carry their PDN names: numbers in the
corner of each playing square, where a piece never covers them, or algebraic files and
ranks in the margin.  The last move is a see-through tint over its squares with an arrow
along its path; pieces it captured stay as crossed-out ghosts.  Kings wear a crown.

The drawing is in units of `UNIT` per square; `svg(..., width=...)` scales the picture.
`shared=True` draws the squares and pieces as references to `defs(...)`, for pages that
show many boards (the HTML report).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from html import escape

from pdn_tools.play.check import Checked, move_label
from pdn_tools.play.notation import Style, move_text
from pdn_tools.play.replay import Replay
from pdn_tools.rules.fen import to_fen
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.rules.variants import Variant
from pdn_tools.text.model import Diagnostic, Move as Notated, Variation
from pdn_tools.text.names import markup, printable
from pdn_tools.text.walk import walk

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


# ---- the board at an error --------------------------------------------------------------------

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


def _failing_move(result: Replay, error: Diagnostic) -> tuple[Notated, Position, str, str] | None:
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


def _in_variations(result: Replay, error: Diagnostic) -> tuple[Notated, Position] | None:
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
        elif isinstance(element, Notated) and positions[-1] is not None:
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
    for ply in range(1, last + 1):
        number, _, move = move_label(result, ply).partition(" ")
        words += [number, move] if ply == 1 or not number.endswith("...") else [move]
    return " ".join(words)


# ---- SVG ----------------------------------------------------------------------------------------

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
        board = Board(Position.initial(variant), alpha=alpha, flip=flip)
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


def format_for(output: str | None) -> str:
    """The format a file name asks for: its suffix when .svg or .png, else a text board."""
    suffix = os.path.splitext(output or "")[1].lower()
    return {".svg": "svg", ".png": "png"}.get(suffix, "text")


def picture(result: Replay, board: Board, fmt: str, ply: int | None = None, width: int | None = None) -> str | bytes:
    """The board after `ply` of a replayed game as 'text', 'svg' or 'png' (bytes), with its caption."""
    if fmt == "text":
        return text(board, caption(result, ply))
    drawing = svg(board, caption(result, ply), caption_lines(result, ply), width)
    return png(drawing) if fmt == "png" else drawing


# ---- PNG ----------------------------------------------------------------------------------------

PNG_EXTRA = "png"


class MissingExtra(RuntimeError):
    """An optional dependency that is not installed."""


def png(picture: str) -> bytes:
    """The SVG `picture` rendered as PNG bytes, through resvg (the optional `png` extra)."""
    try:
        import resvg_py
    except ImportError:
        raise MissingExtra(f"writing PNG needs the optional '{PNG_EXTRA}' extra: "
                           f"pip install 'pdn-tools[{PNG_EXTRA}]'") from None
    data: bytes = bytes(resvg_py.svg_to_bytes(svg_string=picture))
    return data


# ---- text ---------------------------------------------------------------------------------------

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
