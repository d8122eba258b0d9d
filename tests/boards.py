"""Positions for rule tests, written in algebraic squares of the White-at-bottom view
(the diagrams' view, whatever each variant's own notation); White men move up."""

from hypothesis import strategies as st

from pdn_tools.play.notation import Style, move_text
from pdn_tools.rules.core import Engine
from pdn_tools.rules.movegen import Move, Position
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


def fen(pos: Position) -> str:
    from pdn_tools.rules.fen import to_fen
    return to_fen(pos)


def wander(pos: Position, plies: int, keep=lambda after: True) -> list:
    """Moves of a walk of `plies` plies that repeats no position, takes nothing, never leaves
    a capture to the other side and stays where `keep(position)` holds (depth-first search)."""
    def walk(position: Position, seen: set, left: int) -> list | None:
        if left == 0:
            return []
        for move in position.legal_moves():
            after = position.play(move)
            if move.captured or after in seen or after.has_capture() or not keep(after):
                continue
            rest = walk(after, seen | {after}, left - 1)
            if rest is not None:
                return [move] + rest
        return None
    found = walk(pos, {pos}, plies)
    assert found is not None, f"no walk of {plies} plies from {fen(pos)}"
    return found


def played(pos: Position, moves) -> Position:
    for move in moves:
        pos = pos.play(move)
    return pos


def pdn(pos: Position, moves, result: str) -> str:
    """A game from `pos` playing `moves` (numeric squares, full capture paths), ending `result`."""
    v = pos.variant
    texts = [("x" if m.captured else "-").join(v.square_text(sq, False) for sq in (m.start, *m.path))
             for m in moves]
    return (f'[GameType "{v.gametype}"]\n[FEN "{fen(pos)}"]\n[Result "{result}"]\n'
            f'{" ".join(texts)} {result}')


def on_both_engines(pos: Position) -> list[Position]:
    """`pos` on the pure engine and, when it is built, on the compiled core."""
    from pdn_tools.rules import core
    return [pos.on(core.PURE)] + ([pos.on(core.Engine(True))] if core.compiled_module() is not None else [])


def random_move(draw: st.DrawFn, position: Position) -> Move | None:
    """A legal move of `position` drawn at random (the strategies' random games), None when it has none."""
    legal = position.legal_moves()
    return legal[draw(st.integers(0, len(legal) - 1))] if legal else None


@st.composite
def king_games(draw: st.DrawFn, name: str) -> str:
    """A game of variant `name` from a position of a few kings and men, played by random legal
    moves (quiet counts start and end), written in square numbers."""
    variant = VARIANTS[name]
    squares = draw(st.lists(st.integers(1, variant.num_squares), min_size=2, max_size=7, unique=True))
    pieces = [("K" if draw(st.booleans()) else "") + str(square) for square in squares]
    half = len(pieces) // 2
    fen = f"W:W{','.join(pieces[:half])}:B{','.join(pieces[half:])}"
    try:
        position = Position.from_fen(variant, fen, Engine(False))
    except ValueError:
        return f'[GameType "{variant.gametype_text(False)}"]\n*'
    moves = []
    for ply in range(draw(st.integers(0, 40))):
        move = random_move(draw, position)
        if move is None:
            break
        moves.append((f"{ply // 2 + 1}. " if ply % 2 == 0 else "") + move_text(position, move, Style(squares="numeric")))
        position = position.play(move)
    return f'[GameType "{variant.gametype_text(False)}"]\n[FEN "{fen}"]\n' + " ".join(moves) + " *"
