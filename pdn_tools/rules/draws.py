"""Draw rules of each variant: repetition, move counts without progress, endgame limits.

A `DrawTracker` is fed every position of a game's main line and reports the first
ply at which a rule declares the game drawn.  Counts are in plies (one player's
move); "25 moves each" is 50 plies.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:       # the variants hold their draw rules: no import of the move generator here
    from pdn_tools.rules.movegen import Position

# (men, kings) of the side that may win and of the side that defends
Material = tuple[int, int]


@dataclass(frozen=True)
class Endgame:
    """A material balance that must be won within `plies` from when it arises."""

    name: str
    plies: int
    test: Callable[[Material, Material], bool]     # (strong, weak) -> applies
    resets: bool = False                           # count again when material changes
    long_diagonal: bool = False                    # counts only from a lone king alone on it


@dataclass(frozen=True)
class DrawRules:
    repetitions: int = 3          # same position, same side to move, this many times (0 = none)
    quiet_plies: int = 0          # plies with only king moves and no capture (0 = none)
    quiet_name: str = ""
    endgames: tuple[Endgame, ...] = ()


def _lone_king(weak: Material) -> bool:
    return weak == (0, 1)


def _three_with_king(strong: Material, weak: Material) -> bool:
    men, kings = strong
    return _lone_king(weak) and kings >= 1 and men + kings == 3


def _two_or_less_with_king(strong: Material, weak: Material) -> bool:
    men, kings = strong
    return _lone_king(weak) and kings >= 1 and men + kings <= 2


def _kings_only(count: int) -> Callable[[Material, Material], bool]:
    return lambda strong, weak: _lone_king(weak) and strong == (0, count)


def _balance(low: int, high: int) -> Callable[[Material, Material], bool]:
    """Both sides have kings and low..high pieces in all (Russian 7.2.6)."""
    return lambda strong, weak: strong[1] > 0 and weak[1] > 0 and low <= sum(strong) + sum(weak) <= high


# FMJD Annex 1 (seed 002, seed 000 for Canadian): 25 moves each with kings only;
# 3 pieces with a king against a lone king: 16 moves each; 2 pieces or fewer: 5 moves each.
# Seed 002 also reads FMJD 6.4 as: once the lone king is the only piece on the long
# diagonal, at most five more moves each.
FMJD = DrawRules(3, 50, "25-move rule", (
    Endgame("16-move rule", 32, _three_with_king),
    Endgame("5-move rule", 10, _two_or_less_with_king),
    Endgame("5-move rule on the long diagonal", 10, _three_with_king, long_diagonal=True),
))
# FMJD-64 rules 7.2.3-7.2.8 (reference §4.3), also used for Brazilian by lidraughts.
RUSSIAN = DrawRules(3, 30, "15-move rule", (
    Endgame("3 kings against 1", 30, lambda s, w: _lone_king(w) and s[0] == 0 and s[1] >= 3),
    Endgame("5-move rule", 10, _two_or_less_with_king),
    Endgame("5-move rule on the long diagonal", 10, _three_with_king, long_diagonal=True),
    Endgame("30-move balance rule", 60, _balance(4, 5), resets=True),
    Endgame("60-move balance rule", 120, _balance(6, 7), resets=True),
))
# English: 40 moves each without a man moving or a piece taken (reference §4.3).
ENGLISH = DrawRules(3, 80, "40-move rule")
# Spanish (seed 003 rule 26a): three kings against one, at most 12 moves (24 plies)
# including the final capture; 40 king moves (20 each) without capture (reference §4.3).
SPANISH = DrawRules(3, 40, "40 king moves", (Endgame("forzosa (3 kings against 1)", 24, _kings_only(3)),))
ITALIAN = DrawRules(3, 80, "40 king moves each")
# American pool: 3 kings against 1 must win within 13 moves (reference §4.3).
POOL = DrawRules(3, 0, "", (Endgame("3 kings against 1", 26, _kings_only(3)),))
# Frisian: 2 kings against 1 within 7 moves; 1 king against 1: 2 moves each (lidraughts).
FRISIAN = DrawRules(3, 0, "", (
    Endgame("2 kings against 1", 14, _kings_only(2)),
    Endgame("1 king against 1", 4, _kings_only(1)),
))
REPETITION_ONLY = DrawRules(3)


@dataclass(frozen=True)
class DrawEvent:
    rule: str
    ply: int              # the game is drawn once this ply has been played
    claimable: bool       # repetition is claimed; the move limits apply by themselves


class DrawTracker:
    """Watches a main line and remembers the first draw by rule."""

    def __init__(self, start: Position) -> None:
        self.rules = start.variant.draws
        # Positions since the last irreversible move (a capture, or a man's step forward):
        # no earlier one can come back.  The table is filled only once a reversible move is
        # made, from `since`, the position that move left.
        self.seen: dict[Position, int] = {}
        self.since = start
        self.men_go_back = any(step not in ("f", "fl", "fr") for step in start.variant.man_steps)
        self.quiet = 0
        self.started: dict[str, tuple[int, tuple]] = {}     # endgame -> (ply it arose, material)
        self.event: DrawEvent | None = None
        if self.rules.endgames:
            self._endgames(0, start)        # a game set up in the ending counts from its first move

    def update(self, ply: int, position: Position, king_moved: bool, captured: bool) -> None:
        """Account for the position after `ply`, whose move moved a king or a man and
        captured or not."""
        if self.event is not None:
            return
        rules = self.rules
        quiet_king_move = king_moved and not captured
        if rules.repetitions:
            seen = self.seen
            if captured or not (king_moved or self.men_go_back):
                seen.clear()
                self.since = position
            else:
                if not seen:
                    seen[self.since] = 1
                count = seen[position] = seen.get(position, 0) + 1
                if count >= rules.repetitions:
                    self.event = DrawEvent(f"{rules.repetitions}-fold repetition", ply, True)
                    return
        if rules.quiet_plies:
            self.quiet = self.quiet + 1 if quiet_king_move else 0
            if self.quiet >= rules.quiet_plies:
                self.event = DrawEvent(rules.quiet_name, ply, False)
                return
        if rules.endgames:
            self._endgames(ply, position)

    def _endgames(self, ply: int, position: Position) -> None:
        if not position.has_kings():        # every endgame rule needs a king on the board
            return
        white, black = position.counts("W"), position.counts("B")
        for endgame in self.rules.endgames:
            applies = endgame.test(white, black) or endgame.test(black, white)
            material = (white, black)
            if not applies:
                continue
            begun = self.started.get(endgame.name)
            if begun is None and endgame.long_diagonal and not _alone_on_long_diagonal(position):
                continue
            if begun is None or (endgame.resets and begun[1] != material):
                self.started[endgame.name] = (ply, material)      # the move creating it is not counted
                continue
            if ply - begun[0] >= endgame.plies:
                self.event = DrawEvent(endgame.name, ply, False)
                return


def _alone_on_long_diagonal(position: Position) -> bool:
    """Whether a lone king is the only piece on the long diagonal (the double corner's
    a1 to the far corner: row + column = size - 1 seen with White at the bottom)."""
    variant = position.variant
    on_diagonal = [sq for sq in range(1, variant.num_squares + 1)
                   if sum(variant.coords(sq)) == variant.cols - 1 and position.piece_at(sq)]
    return len(on_diagonal) == 1 and position.piece_at(on_diagonal[0]).isupper() and any(
        position.counts(colour) == (0, 1) and on_diagonal[0] in position.pieces(colour)[1]
        for colour in ("W", "B"))
