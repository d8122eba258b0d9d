"""Positions for rule tests, written in algebraic squares of the White-at-bottom view
(the diagrams' view, whatever each variant's own notation); White men move up."""

from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import VARIANTS


def square(v, name: str) -> int | None:
    """Square number of an algebraic name read with White at the bottom (the diagrams'
    view, whatever the variant's own notation)."""
    return v.square_at(v.rows - int(name[1:]), ord(name[0]) - ord("a"))


def name(v, sq: int) -> str:
    row, col = v.coords(sq)
    return f"{chr(ord('a') + col)}{v.rows - row}"


def setup(name: str, turn: str, white: str = "", black: str = "") -> Position:
    """Position from space-separated algebraic squares (White at the bottom), 'K' before a king."""
    v = VARIANTS[name]
    pieces = {}
    for colour, text in (("w", white), ("b", black)):
        for item in text.split():
            sq = square(v, item.lstrip("K"))
            assert sq is not None, item
            pieces[sq] = colour.upper() if item.startswith("K") else colour
    return Position(v, turn, pieces)


def texts(pos: Position, moves=None) -> set[str]:
    """Moves as algebraic landing paths, e.g. {'e6xc4xa2'}."""
    v = pos.variant
    moves = pos.legal_moves() if moves is None else moves
    out = set()
    for m in moves:
        sep = "x" if m.captured else "-"
        out.add(sep.join(name(v, sq) for sq in (m.start, *m.path)))
    return out
