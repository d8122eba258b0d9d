"""The Hub protocol of draughts engines (Scan, lidraughts): lines, positions, moves and scores.

A line is `command arg=value flag ...`; a value is quoted with `"` when it holds a space, `=`
or nothing (it cannot hold a `"`, nor a character `printable` escapes).  A position is the side to move (`W`/`B`) and one letter per square in number
order (`w` `b` men, `W` `B` kings, `e` empty).  A quiet move is `32-28`; a capture is
`from x to x taken x taken ...`, the taken squares in any order, or only `from x to` when
that names one capture.  Scores are in men from the side to move's view; Scan writes
+/-99.xx for the end of the game within (100 - 99.xx) * 100 plies and +/-89.xx for a won
endgame within (90 - 89.xx) * 100 plies.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pdn_tools.rules.movegen import Move, Position
from pdn_tools.rules.variants import Variant, lidraughts_variant
from pdn_tools.text.names import printable

_PIECES = {"w": "w", "b": "b", "W": "W", "B": "B"}
_VALUE = re.compile(r'\s*([^\s="]+)(?:\s*=\s*(?:"([^"]*)"|([^\s="]+)))?')
_COMMAND = re.compile(r'\s*([^\s="]+)')
_MOVE = re.compile(r"[0-9]+(?:-[0-9]+|(?:x[0-9]+)+)\Z")
END_SCORE = 99.0               # Scan's scores from +/-99 are a forced end of the game
# Our variants' names in the protocol: Scan's where it plays them, else ours; lidraughts'
# own rules (GameType 96-98) by Scan's names.
_HUB_NAMES = {"international": "normal"}
_LIDRAUGHTS_NAMES = {96: "bt", 97: "frisian", 98: "losing"}


class EngineError(Exception):
    """An engine that cannot give an analysis; the message says why."""


class HubError(ValueError):
    """A line, position, move or score that does not fit the protocol or the position."""


def hub_variant(variant: Variant, gametype: int | None = None) -> str:
    """The protocol's name of `variant` (a game's GameType number may name lidraughts' rules)."""
    if gametype is not None and lidraughts_variant(gametype) is not None:
        return _LIDRAUGHTS_NAMES[gametype]
    return _HUB_NAMES.get(variant.name, variant.name)


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """(command, {argument: value}) of a line; a flag's value is ''."""
    command = _COMMAND.match(line)
    if command is None or printable(line.replace("\t", " ")) != line.replace("\t", " "):
        raise HubError("not a Hub line")
    args: dict[str, str] = {}
    at = command.end()
    while line[at:].strip():
        found = _VALUE.match(line, at)
        if found is None:
            raise HubError("not a Hub line")
        args[found.group(1)] = found.group(2) if found.group(2) is not None else found.group(3) or ""
        at = found.end()
    return command.group(1), args


def format_line(command: str, *flags: str, **pairs: str) -> str:
    """A line: `command flag ... name=value ...` with values quoted where needed.  The protocol has
    no escape: a value's `"` is written `'`, and what `printable` escapes (a line break, a control
    or format character) as its escape, so that a value is one value and the line one line."""
    parts = [command, *flags]
    for name, value in pairs.items():
        value = printable(value).replace('"', "'")
        plain = value and not any(c.isspace() or c in '="' for c in value)
        parts.append(f"{name.replace('_', '-')}={value if plain else chr(34) + value + chr(34)}")
    return " ".join(parts)


def position_text(position: Position) -> str:
    """`position` in the protocol: the side to move and a letter per square."""
    squares = range(1, position.variant.num_squares + 1)
    return position.turn + "".join(position.piece_at(square) or "e" for square in squares)


def read_position(text: str, variant: Variant) -> Position:
    """The position a protocol string gives on `variant`'s board."""
    if len(text) != variant.num_squares + 1 or text[0] not in "WB":
        raise HubError(f"a {variant.name} position is W or B and {variant.num_squares} squares")
    pieces = {}
    for square, letter in enumerate(text[1:], 1):
        if letter != "e":
            if letter not in _PIECES:
                raise HubError(f"square {square}: {letter!r} is not w, b, W, B or e")
            pieces[square] = _PIECES[letter]
    return Position(variant, text[0], pieces)


def hub_move_text(move: Move) -> str:
    """`move` in the protocol: `32-28`, or a capture with its taken squares in increasing order."""
    if not move.captured:
        return f"{move.start}-{move.end}"
    return "x".join(str(square) for square in (move.start, move.end, *sorted(move.captured)))


def read_move(position: Position, text: str) -> Move:
    """The legal move of `position` a protocol move names; one that names none, or captures of
    different pieces, is an error."""
    if not _MOVE.match(text):
        raise HubError(f"{text!r} is not a move")
    squares = [int(square) for square in re.split("[-x]", text)]
    start, end, taken = squares[0], squares[1], frozenset(squares[2:])
    if len(taken) < len(squares) - 2:
        raise HubError(f"{text}: a square is taken twice")
    capture = "x" in text
    found = {frozenset(m.captured): m for m in position.legal_moves()
             if (m.start, m.end) == (start, end) and m.is_capture == capture
             and (not taken or frozenset(m.captured) == taken)}
    if not found:
        raise HubError(f"{text} is not a legal move")
    if len(found) > 1:
        raise HubError(f"{text} names {len(found)} captures: write the taken squares")
    return next(iter(found.values()))


def read_line_of_moves(position: Position, text: str) -> tuple[Move, ...]:
    """The moves of a line (a principal variation), each legal after the ones before it."""
    moves: list[Move] = []
    for word in text.split():
        try:
            move = read_move(position, word)
        except HubError as error:
            raise HubError(f"move {len(moves) + 1} of the line: {error}") from None
        moves.append(move)
        position = position.play(move)
    return tuple(moves)


@dataclass(frozen=True)
class Score:
    """An engine's score from the side to move's view: centi-men, or a forced end in `plies`
    (won when positive, lost when negative).  A won endgame (Scan's 89.xx) stays in centi-men."""

    centi: int = 0
    plies: int | None = None

    def negated(self) -> Score:
        return Score(-self.centi, None if self.plies is None else -self.plies)

    def text(self) -> str:
        """The `[%eval]` value: `+0.25`, `-1.00`, `0.00`; `#+N`/`#-N` for a forced end in N plies."""
        if self.plies is not None:
            return f"#{'+' if self.plies > 0 else '-'}{abs(self.plies)}"
        return "0.00" if self.centi == 0 else f"{self.centi / 100:+.2f}"


def read_score(text: str) -> Score:
    """A score in men as an engine writes it (`-0.25`, `99.93`, `-89.90`)."""
    try:
        men = float(text)
    except ValueError:
        raise HubError(f"score {text!r} is not a number") from None
    if not abs(men) < 100.0:
        raise HubError(f"score {text!r} is out of range")
    centi = round(men * 100)
    if abs(men) >= END_SCORE:
        return Score(centi, (1 if centi > 0 else -1) * max(10_000 - abs(centi), 1))
    return Score(centi)


def score_text(centi: int, win: int) -> str:
    """A search's score (centi-men, or +/-(`win` - plies) for a forced end) in men as Scan writes
    it: a forced end as 99.xx, any other score kept below Scan's 89.xx."""
    if abs(centi) > win - 10_000:
        plies = min(max(win - abs(centi), 1), 99)
        return f"{(10_000 - plies) * (1 if centi > 0 else -1) / 100:.2f}"
    return f"{max(-8_899, min(8_899, centi)) / 100:.2f}"


@dataclass(frozen=True)
class Analysis:
    """An engine's answer for a position: its score (None when it gave none) and its best line,
    which starts with the move it chose."""

    score: Score | None
    line: tuple[Move, ...]
