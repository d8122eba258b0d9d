"""Engine annotations (`annotate --engine`): an evaluation after each move of the main line and
the engine's best line where it differs from the move played.

The evaluation `[%eval +0.25]` is in men from White's view, for the position after the move;
a forced end of the game is `[%eval #+N]` (White wins) or `[%eval #-N]` (Black wins) within N
plies; a won endgame an engine scores 89.xx is written as it gives it.  The best line is a
variation after the move, opening with pdn's mark (`LINE`) and the evaluation of the position
before it: `32-28 {[%eval +0.10]} ({[%line] [%eval +0.30]} 1. 33-29 19-23) 19-23`.  A final
position without a legal move gets no evaluation.
"""
from __future__ import annotations

import re
from typing import Callable

from pdn_tools.play.hub import Analysis, EngineError, Score, hub_variant
from pdn_tools.play.notation import move_text
from pdn_tools.play.replay import Ply, Replay
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.text.model import Comment, Element, Game, NotatedMove as Notated, MoveNumber, Variation
from pdn_tools.text.names import printable

Analyse = Callable[[Position, str], Analysis]      # (position, the protocol's variant name) -> analysis
LINE = "[%line]"        # opens the first comment of every variation pdn writes (--shots, --engine)
_SEPARATORS = re.compile(r"[-x:]")
_GAMETYPE = re.compile(r"\s*(\d{1,9})")


def engine_notes(result: Replay, analyse: Analyse) -> tuple[dict[int, str], dict[int, Variation]]:
    """{ply: its `[%eval]` command} and {ply: the engine's best line where the move played is
    not its first move} for the main line of a replayed game.  An engine that fails is an
    `EngineError` naming the game and the ply."""
    game, start, variant = result.game, result.start, result.variant
    assert start is not None and variant is not None
    found = _GAMETYPE.match(game.tag("GameType") or "")
    name = hub_variant(variant, int(found.group(1)) if found else None)
    plies = result.plies
    numbers = _ply_numbers(game, int(start.turn != variant.first))
    evals: dict[int, str] = {}
    lines: dict[int, Variation] = {}
    for index, position in enumerate([start, *(ply.after for ply in plies)]):
        if not position.has_move() or not plies:      # no move, or nothing to annotate
            continue
        try:
            analysis = analyse(position, name)
        except EngineError as error:
            raise EngineError(f"{_where(game, plies, numbers, index)}: {error}") from None
        score = None if analysis.score is None else _white(analysis.score, position.turn)
        if index and score is not None:
            evals[index] = f"[%eval {score.text()}]"
        if index < len(plies) and _same(analysis.line[0]) != _same(plies[index].move):
            lines[index + 1] = _variation(position, analysis.line, numbers[index], score)
    return evals, lines


def _same(move: Move) -> tuple[int, int, frozenset[int]]:
    """What makes two moves the same move: captures in another order are one."""
    return move.start, move.end, frozenset(move.captured)


def _white(score: Score, turn: str) -> Score:
    return score if turn == "W" else score.negated()


def _variation(position: Position, line: tuple[Move, ...], number: int, score: Score | None
               ) -> Variation:
    """The line as a variation from `position`, its first move the number-th ply of the game."""
    elements: list[Element] = [Comment(LINE if score is None else f"{LINE} [%eval {score.text()}]")]
    for offset, move in enumerate(line):
        ply = number + offset
        if offset == 0 or ply % 2 == 0:
            elements.append(MoveNumber(ply // 2 + 1, ply % 2 == 1))
        text = move_text(position, move)
        elements.append(Notated(text, tuple(_SEPARATORS.split(text)), move.is_capture))
        position = position.play(move)
    return Variation(elements)


def _ply_numbers(game: Game, first_index: int) -> list[int]:
    """Per main-line move, its ply counted from the first player's first move (move number
    ply // 2 + 1, the second player's when odd), from the move numbers the game writes."""
    numbers: list[int] = []
    next_ply = first_index
    for element in game.elements:
        if isinstance(element, MoveNumber) and element.number > 0:
            next_ply = 2 * (element.number - 1) + element.black
        elif isinstance(element, Notated):
            numbers.append(next_ply)
            next_ply += 1
    return numbers + [next_ply]


def _where(game: Game, plies: list[Ply], numbers: list[int], index: int) -> str:
    """The game and the ply whose position the engine was asked about (after the last: that ply)."""
    if not plies:
        return f"{printable(game.file)}:{game.line}:1: game {game.index}, start position"
    ply = plies[min(index, len(plies) - 1)]
    line, column = ply.notated.line, ply.notated.column
    number = numbers[ply.number - 1]
    move = f"{number // 2 + 1}{'...' if number % 2 else '.'} {printable(ply.notated.text)}"
    what = f"after ply {ply.number}" if index == len(plies) else f"ply {ply.number}"
    return f"{printable(game.file)}:{line}:{column}: game {game.index}, {what} ({move})"
