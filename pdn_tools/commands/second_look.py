"""Moves worth a second look: the biggest material swings of an archive, in games the players went on
with.  In a master game a move that hangs men is more often a transcription error than a blunder, and
a player who blundered that much seldom plays on for long, so these are the first places to check
against another source.

A move qualifies when the search (`rules.search.judge`) judges that it walked into a shot (`$4`), in a
valid game that went on at least `PLIES_AFTER` plies after it, played by the rules its moves are checked
by (not lidraughts' Breakthrough or Antidraughts, whose goal is no count of material).  Its swing is what
the move keeps less than the best move, in men (the search's scores of the position before the move and
after it, from the mover's side).  When either score is a forced end of the game (a side left without a
move) the swing is no count of men, and the move comes after every swing that is: endgames are often
played on past a win neither player saw.  The audit page lists the `SHOWN` biggest; `Biggest` keeps them
as the games come (ties: the first come), so that only their boards are ever drawn.
"""
from __future__ import annotations

import heapq
import os
import re
from dataclasses import dataclass, field

from pdn_tools.play.check import Checked, line_text, move_labels
from pdn_tools.rules.fen import to_fen
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.search import NOT_JUDGED, WALKED_INTO, Evaluations, eval_text, judge
from pdn_tools.rules.variants import lidraughts_variant
from pdn_tools.text.model import Game
from pdn_tools.text.results import Outcome, outcome

PLIES_AFTER = 10            # the game went on at least this many plies after the move
SHOWN = 20                  # moves the audit page lists
_GAMETYPE = re.compile(r"\s*(\d{1,9})")


@dataclass(frozen=True)
class SecondLook:
    """A move worth a second look (plain values: it travels from worker processes)."""

    swing: int                  # centi-men the move keeps less than the best move (a man: 100)
    forced: bool                # either score is a forced end (no legal move): the swing is no count of men
    file: str
    game: int                   # its index in the file
    white: str
    black: str
    line: int                   # the move's place in the file
    column: int
    ply: int
    plies: int                  # the game's main-line plies
    move: str                   # '12... 28x19'
    line_moves: tuple[str, ...]     # the move and the opponent's shot, as PDN
    eval: str                   # the search's score after the move, White's view: '-3.00'
    result: str                 # the game's result as written
    mover_outcome: str          # 'won', 'drew', 'lost' or '' (the side that played the move)
    variant: str
    fen: str                    # the position before the move
    squares: tuple[int, ...]    # the move's start and landing squares
    alpha: bool                 # squares named by file and rank

    def rank(self) -> tuple[bool, int]:
        """The order of the list, biggest first: swings in men, then forced ends."""
        return not self.forced, self.swing

    def name(self) -> str:
        return players(self.white, self.black, self.file, self.game)


def players(white: str, black: str, file: str, index: int) -> str:
    """`White – Black` (`?` for a missing one), or `OCA.pdn, game 17` when neither is named."""
    if white or black:
        return f"{white or '?'} \u2013 {black or '?'}"
    return f"{os.path.basename(file)}, game {index}"


def second_looks(checked: Checked, evaluate: Evaluations) -> tuple[tuple[SecondLook, ...], int]:
    """The moves of a valid game's main line worth a second look (`evaluate`: the run's searches), and
    how many of its moves were not judged (a search went past the node budget)."""
    game, result = checked.game, checked.replay
    if result is None or not result.ok or not isinstance(game, Game) or result.variant is None or _other_rules(game):
        return (), 0
    plies = result.plies
    judged = judge([(ply.before, ply.move, ply.after) for ply in plies], evaluate)
    notated = game.main_line()
    alpha = bool(notated) and notated[0].squares[0][:1].isalpha()
    first = result.variant.first
    stated = outcome(checked.record.result)
    out = []
    label = move_labels(result)
    for ply, judgement in zip(plies, judged):
        if judgement.kind != WALKED_INTO or len(plies) - ply.number < PLIES_AFTER:
            continue
        assert judgement.score is not None                                       # judged: its searches complete
        best, reply = _score(evaluate, ply.before), _score(evaluate, ply.after)   # the swing: best + reply
        forced = eval_text(best).startswith("#") or eval_text(reply).startswith("#")
        mover = ("" if stated is None else "drew" if stated == Outcome.DRAW
                 else "won" if (stated == Outcome.FIRST) == (ply.before.turn == first) else "lost")
        out.append(SecondLook(
            best + reply, forced, game.file, game.index, game.tag("White") or "", game.tag("Black") or "",
            ply.notated.line, ply.notated.column, ply.number, len(plies), label(ply.number),
            line_text(ply.before, judgement.line), eval_text(judgement.score), checked.record.result, mover,
            result.variant.name, to_fen(ply.before, alpha), (ply.move.start, *ply.move.path), alpha))
    return tuple(out), sum(judgement.kind == NOT_JUDGED for judgement in judged)


def _score(evaluate: Evaluations, position: Position) -> int:
    """The search's score of a position of a judged move (its search was complete)."""
    result = evaluate(position)
    assert result is not None and result.score is not None
    return result.score


def _other_rules(game: Game) -> bool:
    """Whether the game's GameType names lidraughts' own rules whose goal is not material."""
    found = _GAMETYPE.match(game.tag("GameType") or "")
    entry = lidraughts_variant(int(found.group(1))) if found else None
    return entry is not None and not entry[1].results_checked


@dataclass
class Biggest:
    """The `size` biggest swings of the moves added, the first come first among equal swings."""

    size: int = SHOWN
    heap: list[tuple[tuple[bool, int], int, SecondLook]] = field(default_factory=list)  # (rank, -arrival, look)
    added: int = 0

    def add(self, look: SecondLook) -> None:
        self.added += 1
        entry = (look.rank(), -self.added, look)
        if len(self.heap) < self.size:
            heapq.heappush(self.heap, entry)
        elif entry[:2] > self.heap[0][:2]:
            heapq.heapreplace(self.heap, entry)

    def ordered(self) -> list[SecondLook]:
        """The moves kept, the biggest swing first."""
        return [look for _, _, look in sorted(self.heap, key=lambda entry: entry[:2], reverse=True)]
