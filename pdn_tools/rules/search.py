"""A search for the best move: plain negamax over the legal moves with a material evaluation.

Scores are in centi-men from the side to move's view (a man is 100, a king 300); a forced win
or loss is +/-(WIN - plies to the end of the game).  Limits are by depth and nodes, never by
time, so a result is reproducible.
"""
from __future__ import annotations

from dataclasses import dataclass

from pdn_tools.rules.movegen import Move, Position

WIN = 100_000
MAN, KING = 100, 300


@dataclass(frozen=True)
class SearchResult:
    """A search's score (centi-men, side to move), best move, best line and nodes visited."""

    score: int
    best: Move | None
    line: tuple[Move, ...]
    nodes: int


def search(position: Position, depth: int, nodes: int | None = None, *, compiled: bool | None = None
           ) -> SearchResult:
    """The best move in `position` searched `depth` plies deep (at most about `nodes` nodes)."""
    counter = [0]
    score, line = _negamax(position, max(depth, 0), 0, nodes, counter)
    return SearchResult(score, line[0] if line else None, line, counter[0])


def _material(position: Position) -> int:
    men, kings = position.counts(position.turn)
    other_men, other_kings = position.counts("B" if position.turn == "W" else "W")
    return MAN * (men - other_men) + KING * (kings - other_kings)


def _negamax(position: Position, depth: int, ply: int, budget: int | None, counter: list[int]
             ) -> tuple[int, tuple[Move, ...]]:
    counter[0] += 1
    moves = position.legal_moves()
    if not moves:
        return -(WIN - ply), ()
    if depth == 0 or (budget is not None and counter[0] >= budget):
        return _material(position), ()
    best, line = -WIN - 1, tuple[Move, ...]()
    for move in moves:
        score, rest = _negamax(position.play(move), depth - 1, ply + 1, budget, counter)
        if -score > best:
            best, line = -score, (move, *rest)
    return best, line
