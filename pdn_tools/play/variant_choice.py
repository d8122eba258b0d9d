"""Which variants a game is replayed as: an override, its GameType or Variant tag, else the ones
its squares fit (inferred)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable, NamedTuple

from pdn_tools.text.codes import Code
from pdn_tools.text.numbers import number as read_number
from pdn_tools.text.patterns import lazy
from pdn_tools.text.model import Diagnostic, Element, Game, NotatedMove as Notated, MoveRun, movetext_runs
from pdn_tools.rules.variants import (Hint, Variant, algebraic_variants, inferred_variants, lidraughts_variant,
                                      variant_by_gametype, variant_by_name)

if TYPE_CHECKING:
    from pdn_tools.play.checking import Checking

_GAMETYPE = lazy(r"\s*(\d+)\s*(?:,\s*([WB])\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([ANS][0-3])\s*(?:,\s*([01]))?)?\s*\Z")
_GAMETYPE_NUMBER = lazy(r"\s*(\d+)")


class Choice(NamedTuple):
    """The variants a game may be replayed as (several when inferred), diagnostics about the
    choice, and whether its result is checked (not for lidraughts' own games of other rules).
    No candidate with a diagnostic means the GameType is unknown."""

    candidates: list[Variant]
    notes: list[Diagnostic]
    check_results: bool = True


def choose_variant(game: Game, checking: Checking | None = None) -> Choice:
    """The variants `game` may be replayed as, from `checking`'s variant, its tags or its moves (the
    compiled core of `checking`'s engine reads runs of moves kept as text faster; the choice is the same;
    None: no variant given, no core)."""
    if checking is not None and checking.variant is not None:
        return Choice([checking.variant], [])
    gametype = game.tag("GameType")
    if gametype is not None:
        candidates, said, checked = _gametype_reading(gametype)
        line, column = game.tag_position("GameType")
        return Choice(list(candidates), [Diagnostic(code, message, line, column) for code, message in said], checked)
    named = game.tag("Variant")
    if named:
        variant = variant_by_name(named)     # lidraughts' and playstrategy's names are aliases
        if variant is not None:
            return Choice([variant], [])
    core = None if checking is None else checking.engine.core
    return Choice(list(_inferred(game, run_hint if core is None else core.moves_hint)), [])


def gametype_candidates(gametype: str) -> tuple[Variant, ...]:
    """The variants a game whose GameType tag is `gametype` may be replayed as (choose_variant's
    candidates when no variant is given), read once a value."""
    return _gametype_reading(gametype)[0]


# What a GameType value says, read once a value (a file's games repeat a few): the candidates, the
# diagnostics about it (code, message: the tag's place is the game's), whether results are checked.
GametypeReading = tuple[tuple[Variant, ...], tuple[tuple[Code, str], ...], bool]


@lru_cache(maxsize=4096)
def _gametype_reading(gametype: str) -> GametypeReading:
    """What the GameType value `gametype` says (see choose_variant)."""
    match = _GAMETYPE.match(gametype)
    found = (match or _GAMETYPE_NUMBER.match(gametype))
    gametype_number = read_number(found.group(1), 9) if found else None
    variant = None if gametype_number is None else variant_by_gametype(gametype_number)
    lidraughts = None if gametype_number is None else lidraughts_variant(gametype_number)
    if lidraughts is not None:
        rules, entry = lidraughts
        note = f"lidraughts GameType {gametype!r} ({entry.title}): moves checked by {rules.name} rules"
        return (rules,), ((Code.GAMETYPE, note + ("" if entry.results_checked else ", results not checked")),), \
            entry.results_checked
    if variant is None:
        return (), ((Code.BAD_GAMETYPE, f"unknown GameType {gametype!r}"),), True
    if match is None:
        return (variant,), ((Code.GAMETYPE, f"malformed GameType {gametype!r}; read as {variant.name}"),), True
    if match.group(3) and (read_number(match.group(3), 9), read_number(match.group(4), 9)) != (variant.cols,
                                                                                     variant.rows):
        return (variant,), ((Code.GAMETYPE, f"GameType {gametype!r}: board size does not match "
                             f"{variant.name} ({variant.cols}x{variant.rows})"),), True
    return (variant,), (), True


def _inferred(game: Game, run_hint: RunHint) -> tuple[Variant, ...]:
    """The variants a game without GameType is tried as, from the squares it uses: algebraic
    squares on every board they fit (when its numbers fit 8x8), else the numeric board size."""
    top, side = _moves_hint(movetext_runs(game), _HINTED_MOVES, run_hint)
    fen = game.tag("FEN")
    if fen:
        fen_top, fen_side = _squares_hint(fen, re.findall(r"[a-l]\d{1,2}|\d+", fen))
        top, side = max(top, fen_top), max(side, fen_side)
    return _hinted_variants(top, side)


@lru_cache(maxsize=1024)
def _hinted_variants(top: int, side: int) -> tuple[Variant, ...]:
    """The variants tried for the highest square number `top` (-1: none) and the board side `side`
    the algebraic squares need (0: none)."""
    if side and top <= 32:
        return algebraic_variants(side)
    size = 72 if top > 50 else 50 if top > 32 or top < 0 and not side else 32
    return inferred_variants(Hint(size, False))


_HINTS: dict[str, tuple[int, int]] = {}      # move text -> (highest square number or -1, board side or 0)
_HINTED_MOVES = 60                           # the first moves of the main line tell the board
_RUN_MOVES = lazy(r"[0-9]+(?:[-x] ?[0-9]+)+")  # the moves of a MoveRun's text
_DIGITS = lazy(r"[0-9]+")
_HINT_TEXT = 1024                            # where the moves of the hint are looked for first


def _moves_hint(movetext: list[Element | MoveRun], wanted: int, run_hint: RunHint) -> tuple[int, int]:
    """The highest square number (-1: none) and the board side its algebraic squares need (0:
    none), over the first `wanted` moves of the main line (runs kept as text included, read
    by `run_hint`)."""
    highest, side, moves = -1, 0, 0
    for element in movetext:
        if type(element) is MoveRun:           # square numbers only
            count, top = run_hint(element.text, wanted - moves)
            moves += count
        elif type(element) is Notated:
            top, needs = _HINTS.get(element.text) or _squares_hint(element.text, element.squares)
            side = needs if needs > side else side
            moves += 1
        else:
            continue
        highest = top if top > highest else highest
        if moves >= wanted:
            break
    return highest, side


def run_hint(text: str, wanted: int) -> tuple[int, int]:
    """(moves, highest square number or -1) over the first `wanted` moves of a MoveRun's text
    (the compiled core's moves_hint does the same)."""
    texts = _RUN_MOVES.findall(text, 0, _HINT_TEXT)
    if len(texts) <= wanted and len(text) > _HINT_TEXT:      # the last may be cut
        texts = _RUN_MOVES.findall(text)
    del texts[wanted:]
    return len(texts), max(map(int, _DIGITS.findall(" ".join(texts))), default=-1)


RunHint = Callable[[str, int], tuple[int, int]]      # run_hint, or the compiled core's moves_hint


def _squares_hint(text: str, squares: Iterable[str]) -> tuple[int, int]:
    hint = _HINTS.get(text)
    if hint is None:
        if len(_HINTS) > 4096:
            _HINTS.clear()
        numbers = [int(square) for square in squares if square.isdigit()]
        side = max((_side(square) for square in squares if square[:1].isalpha()), default=0)
        hint = _HINTS[text] = (max(numbers, default=-1), side)
    return hint


def _side(square: str) -> int:
    """The files and ranks a board needs to hold the algebraic `square` ('j10': 10)."""
    rank = _DIGITS.search(square)
    return max(ord(square[0].lower()) - ord("a") + 1, int(rank.group()) if rank else 0)
