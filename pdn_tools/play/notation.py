"""Notation: the text of a replayed move in a chosen style, canonical tag order, canonical games.

A canonical game has the standard tags first, move numbers made again from the ply
(counted from the game's first player), and, when a style asks for it, every move
written again from the legal move the replay resolved it to.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from pdn_tools.text.codes import Code
from pdn_tools.text.model import (Comment, Diagnostic, Element, Game, NotatedMove, MoveNumber, MoveRun, Nag,
                                  Placeholder, Variation, movetext_runs)
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.play.replay import Replay
from pdn_tools.play.result_check import board_verdict, meaning
from pdn_tools.play.variant_choice import gametype_candidates
from pdn_tools.rules.fen import to_fen
from pdn_tools.rules.variants import PerVariant, Variant
from pdn_tools.text.results import off_board, outcome, stated_result
from pdn_tools.text.walk import Path, walk
from pdn_tools.text.writer import (MOVE, OTHER, RUN, WIDTH, atom, numbered_text, tail_of, terminator_of, write_game,
                                   written_game)

FIRST_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN")
DROPPABLE = ("comments", "variations", "nags")


@dataclass(frozen=True, slots=True)
class Style:
    """How to write a game; None keeps what the game has."""

    captures: str | None = None          # 'short' or 'full'
    squares: str | None = None           # 'numeric' or 'alpha'
    separator: str | None = None         # capture separator, 'x' or ':'
    drop: frozenset[str] = frozenset()   # of DROPPABLE
    fix_results: bool = False

    def __post_init__(self) -> None:
        """A value pdn cannot write is refused here (a typo would write the game's own notation)."""
        for name, value, choices in (("captures", self.captures, ("short", "full")),
                                     ("squares", self.squares, ("numeric", "alpha")),
                                     ("separator", self.separator, ("x", ":"))):
            if value is not None and value not in choices:
                raise ValueError(f"Style {name} must be None or one of {', '.join(map(repr, choices))}, not {value!r}")
        if isinstance(self.drop, str) or not set(self.drop) <= set(DROPPABLE):
            raise ValueError(f"Style drop must be a set of {', '.join(map(repr, DROPPABLE))}, not {self.drop!r}")

    @property
    def rewrites_moves(self) -> bool:
        return (self.captures, self.squares, self.separator) != (None, None, None)

    @property
    def needs_replay(self) -> bool:
        return self.rewrites_moves or self.fix_results


def ambiguous(before: Position, move: Move) -> bool:
    """Whether start and end squares name captures of different pieces (PDN 3.0 restriction 8)."""
    taken = {frozenset(m.captured) for m in before.legal_moves() if m.start == move.start and m.end == move.end}
    return len(taken) > 1


def move_text(before: Position, move: Move, style: Style = Style(), alpha: bool | None = None) -> str:
    """`move` (legal in `before`) as PDN text.

    Short captures give start and end, with every landing square only when the
    capture is ambiguous; full captures give every landing square.  The move
    generator's landing squares are PDN's canonical ones (the square where the
    path turns, or directly behind the captured piece on a straight stretch).
    Squares in algebraic notation (`alpha` True) or numeric (False); None: as
    `style.squares` says, else the variant's own.
    """
    variant = before.variant
    if alpha is None and style.squares is not None:
        alpha = style.squares == "alpha"
    squares: tuple[int, ...] = (move.start, move.end)
    if move.captured and (style.captures == "full" or ambiguous(before, move)):
        squares = (move.start, *move.path)
    separator = (style.separator or "x") if move.captured else "-"
    return separator.join(variant.square_text(square, alpha) for square in squares)


def canonical_tags(tags: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """FIRST_TAGS in their order, then the others in their original order."""
    return [tags[index] for index in tag_order(tuple([name for name, _ in tags]))]


@functools.lru_cache(maxsize=4096)
def tag_order(names: tuple[str, ...]) -> tuple[int, ...]:
    """Where each tag of canonical_tags comes from, for tags of these names (games of a file
    have the same few)."""
    rank = {name: i for i, name in enumerate(FIRST_TAGS)}
    return tuple(sorted(range(len(names)), key=lambda index: rank.get(names[index], len(rank))))


def result_fixes(game: Game, result: Replay) -> tuple[str | None, str | None]:
    """(Result tag, terminator) to write instead of the game's, each None when it stays.

    Only a result the final position or a draw rule settles is written, a stated
    result meaning the same outcome is left as it is, and so is the result of a game
    a tag says was decided off the board (see `kept_notes`).
    """
    return (None, None) if off_board(game.tags) is not None else _settled(game, result)


def _settled(game: Game, result: Replay) -> tuple[str | None, str | None]:
    """(Result tag, terminator) the board settles, each None when the game's says the same."""
    computed = result.computed_result()
    if computed is None:
        return None, None
    truth = outcome(computed)
    new_tag = None if outcome(game.tag("Result")) == truth else computed
    new_end = None if outcome(game.result) == truth else computed
    return new_tag, new_end


def fix_notes(game: Game, fixes: tuple[str | None, str | None]) -> list[Diagnostic]:
    """What --fix-results changed, located at the Result tag (never rewrite a Result silently)."""
    line, column = game.tag_position("Result")
    notes = []
    for what, old, new in (("Result tag", game.tag("Result"), fixes[0]), ("terminator", game.result, fixes[1])):
        if new is not None:
            shown = "missing" if old is None else repr(old)
            notes.append(Diagnostic(Code.FIXED_RESULT, f"{what} {shown} set to {new!r}, as the final "
                                    f"position settles it", line, column))
    return notes


def kept_notes(game: Game, result: Replay) -> list[Diagnostic]:
    """What --fix-results left as written, though the board settles otherwise, because a tag says
    the game was decided off the board; located at the Result tag."""
    decided = off_board(game.tags)
    truth = result.outcome() if decided is not None else None
    if decided is None or truth is None or result.variant is None:
        return []
    fixes, (line, column) = _settled(game, result), game.tag_position("Result")
    notes = []
    for what, old, new in (("Result tag", game.tag("Result"), fixes[0]), ("terminator", game.result, fixes[1])):
        if new is not None:
            shown = "missing" if old is None else f"{old!r} ({meaning(old, result.variant)})"
            notes.append(Diagnostic(Code.KEPT_RESULT, f"{what} {shown} left as written, as {decided[0]} "
                                    f"{decided[1]!r} says the game was decided off the board, though "
                                    f"{board_verdict(result, truth)}", line, column))
    return notes


def canonical_game(game: Game, result: Replay | None = None, style: Style = Style()) -> Game:
    """A copy of `game` in canonical form (see the module docstring)."""
    canonical = canonical_head(game, result, style)
    variant = None if result is None else result.variant
    alpha = None if variant is None else written_alpha(game, variant, style)
    canonical.elements = _Numbering(result, style, alpha).line(game.elements, _start_index(game, result))
    return canonical


def canonical_text(game: Game, result: Replay | None = None, style: Style = Style(),
                   rewritten: list[Element | MoveRun] | None = None) -> str:
    """`write_game(canonical_game(game, result, style))`, written from the runs of moves kept as
    text when the main line holds only moves, move numbers, comments and NAGs (and variations
    the style drops) and the style keeps the moves as written, or `rewritten` gives the main
    line with its moves as the style writes them: no model element per move (and on the
    compiled engine, no string per move: the scanner's `numbered_text`)."""
    movetext = movetext_runs(game) if rewritten is None else rewritten
    pieces = None if style.rewrites_moves and rewritten is None else _numbered_pieces(movetext, style.drop)
    if pieces is None:
        return write_game(canonical_game(game, result, style))
    tags, terminator = head_tags(game, result, style)        # canonical_head's, no Game made
    before, after = (game.before, game.after) if "comments" not in style.drop else ([], [])
    ending = tail_of(terminator or terminator_of(_first(tags, "Result")), after)
    engine = None if result is None or result.start is None else result.start.engine
    numbered = engine.numbered_text if engine is not None else None
    return written_game(before, tags, (numbered or numbered_text)(pieces, _start_index(game, result), ending, WIDTH))


def _first(tags: list[tuple[str, str]], name: str) -> str | None:
    """The first value of tag `name` of `tags` (as Game.tag), else None."""
    for key, value in tags:
        if key == name:
            return value
    return None


def canonical_head(game: Game, result: Replay | None, style: Style) -> Game:
    """The canonical game's tags, terminator and outer comments, with no movetext."""
    tags, terminator = head_tags(game, result, style)
    keep_comments = "comments" not in style.drop
    return Game(tags=tags, result=terminator, before=game.before if keep_comments else [],
                after=game.after if keep_comments else [], line=game.line, index=game.index, file=game.file,
                warnings=game.warnings)


def head_tags(game: Game, result: Replay | None, style: Style) -> tuple[list[tuple[str, str]], str | None]:
    """canonical_head's tags and terminator (convert --to jsonl needs no more of it: no Game made)."""
    tags = game.tags                    # not changed: _set_tag and canonical_tags make new lists
    terminator = game.result
    if style.fix_results and result is not None:
        new_tag, new_end = result_fixes(game, result)
        if new_tag is not None:
            tags = _set_tag(tags, "Result", new_tag)
        terminator = new_end or terminator
    if result is not None:
        tags = variant_tags(game, tags, result, style)
    return canonical_tags(tags), terminator


def _numbered_pieces(movetext: list[Element | MoveRun] | list[Element],
                     drop: frozenset[str]) -> list[tuple[int, str]] | None:
    """The pieces of the canonical main line (_Numbering.line's elements) for
    `writer.numbered_text`, None when the main line holds what only _Numbering follows (a
    variation kept, a setup, a placeholder).  With no setup, the replay's positions alternate
    sides as the text's plies do, so the numbers come from the count of moves alone."""
    out: list[tuple[int, str]] = []
    for element in movetext:
        if type(element) is MoveRun:
            out.append((RUN, element.text))
        elif type(element) is NotatedMove:
            out.append((MOVE, element.text + element.strength))
        elif isinstance(element, (Comment, Nag)):
            if ("comments" if type(element) is Comment else "nags") not in drop:
                out.append((OTHER, atom(element)))
        elif not (isinstance(element, MoveNumber) or isinstance(element, Variation) and "variations" in drop):
            return None
    return out


def variant_tags(game: Game, tags: list[tuple[str, str]], result: Replay, style: Style) -> list[tuple[str, str]]:
    """`tags` saying what the replay found, so that the written game reads back as itself: the
    full GameType of the variant (the notation the moves are written in) unless the game's own
    names that variant and notation, and the FEN in the squares the style asks for."""
    variant, start = result.variant, result.start
    if variant is None or start is None or not (result.complete or result.ok):
        return tags                     # moves that do not replay say nothing sure of the variant
    gametype = written_gametype(game, result, style)
    if gametype is not None:
        tags = _set_tag(tags, "GameType", gametype)
    if style.squares is not None and game.tag("FEN") is not None:
        tags = _set_tag(tags, "FEN", to_fen(start, written_alpha(game, variant, style)))
    return tags


def written_gametype(game: Game, result: Replay, style: Style) -> str | None:
    """The GameType value variant_tags sets (the first GameType tag's, else a new one at the end);
    None when the game's stays."""
    variant = result.variant
    if variant is None or result.start is None or not (result.complete or result.ok):
        return None
    alpha = written_alpha(game, variant, style)
    return _GAMETYPES.get(variant, (game.tag("GameType") or "", alpha))


# (the variant, (GameType value, alpha)) -> _gametype_written's answer: a file's games repeat a few
_GAMETYPES: PerVariant[tuple[str, bool], str | None] = PerVariant(
    lambda variant, key: _gametype_written(key[0], variant, key[1]), most=4096)


def _gametype_written(gametype: str, variant: Variant, alpha: bool) -> str | None:
    """The GameType value variant_tags writes for a game whose tag is `gametype` ("" when none),
    replayed as `variant`, its moves in algebraic notation or not (`alpha`); None: it stays."""
    declared = _NOTATION.search(gametype)
    number = _NUMBER.match(gametype)
    if number is not None and gametype_candidates(gametype) != (variant,):     # choose_variant's candidates
        number = None
    if number is None or (variant.alpha if declared is None else declared.group(1) != "N") != alpha:
        full = variant.gametype_text(alpha)         # a number naming the variant stays (lidraughts' 96)
        return full if number is None else number.group(1) + full[full.index(","):]
    return None


_NOTATION = re.compile(r",\s*([ANS])[0-3]")     # the notation field of a full GameType
_NUMBER = re.compile(r"\s*([0-9]+)")              # its type number


def written_alpha(game: Game, variant: Variant, style: Style) -> bool:
    """Whether the canonical game's moves are in algebraic notation: as `--squares` asks, else
    as the game's first move is written (a style that rewrites the moves without `--squares`
    keeps their squares, as plain convert does); a game with no move: the variant's own."""
    if style.squares is not None:
        return style.squares == "alpha"
    for element in movetext_runs(game):
        if type(element) is MoveRun and ("-" in element.text or "x" in element.text):
            return False                            # a run with a move (numbers have none): square numbers
        if isinstance(element, NotatedMove):
            return element.squares[0][:1].isalpha()
    return variant.alpha


def _set_tag(tags: list[tuple[str, str]], name: str, value: str) -> list[tuple[str, str]]:
    """`tags` with the first `name` set to `value` (added when missing)."""
    names = [tag for tag, _ in tags]
    if name not in names:
        return [*tags, (name, value)]
    index = names.index(name)
    return [*tags[:index], (name, value), *tags[index + 1:]]


def _start_index(game: Game, result: Replay | None) -> int:
    """0 when the game's first player moves first, 1 when the second player does."""
    if result is not None and result.start is not None:
        return int(result.start.turn != result.start.variant.first)
    first = next((e for e in game.elements if isinstance(e, (MoveNumber, NotatedMove, Placeholder))), None)
    return int(isinstance(first, MoveNumber) and first.black)


class _Numbering:
    """Elements with move numbers made again (index: plies from the first player's first move)."""

    def __init__(self, result: Replay | None, style: Style, alpha: bool | None = None) -> None:
        self.resolved = {} if result is None else result.moves()
        self.first = result.variant.first if result is not None and result.variant is not None else None
        self.style = style
        self.alpha = alpha              # the squares of the moves the style rewrites (written_alpha)

    def line(self, elements: list[Element], index: int) -> list[Element]:
        """`elements` numbered again from ply `index`, with what the style drops left out."""
        root: list[Element] = []
        outs = [root]               # per open line: the elements written so far
        shifts = [0]                # per open line: plies the replay added to the text's count
        drop = self.style.drop
        lines = walk(elements, ply=index)
        for frame in lines:
            element, out = frame.element, outs[-1]
            if isinstance(element, (NotatedMove, Placeholder)):
                number = self._adjust(element, frame.path, frame.ply + shifts[-1])
                shifts[-1] = number - frame.ply
                if number % 2 == 0 or not out or not isinstance(out[-1], (NotatedMove, Placeholder)):
                    out.append(MoveNumber(number // 2 + 1, number % 2 == 1))
                out.append(self._move(element, frame.path))
            elif isinstance(element, Variation):
                if frame.closing:
                    if "variations" not in drop:
                        outs.pop()
                        shifts.pop()
                elif "variations" in drop:
                    lines.skip()
                else:
                    inner: list[Element] = []
                    out.append(Variation(inner, element.result))
                    outs.append(inner)
                    shifts.append(shifts[-1])
            elif isinstance(element, Comment):
                if "comments" not in drop:
                    out.append(element)
            elif isinstance(element, Nag):
                if "nags" not in drop:
                    out.append(element)
            elif not isinstance(element, MoveNumber):
                out.append(element)
        return root

    def _adjust(self, element: NotatedMove | Placeholder, path: Path, index: int) -> int:
        """Skip a ply when the replay says the other player made this move (after a setup,
        or a variation standing for the next move rather than the one before it)."""
        known = self.resolved.get(path)
        if known is None or self.first is None:
            return index
        return index + ((known[0].turn == self.first) != (index % 2 == 0))

    def _move(self, element: NotatedMove | Placeholder, path: Path) -> NotatedMove | Placeholder:
        known = self.resolved.get(path)
        if known is None or not self.style.rewrites_moves or not isinstance(element, NotatedMove):
            return element
        text = move_text(*known, self.style, self.alpha)
        return NotatedMove(text, tuple(_SEPARATORS.split(text)), bool(known[1].captured), element.strength,
                       element.line, element.column)


_SEPARATORS = re.compile(r"[-x:]")
