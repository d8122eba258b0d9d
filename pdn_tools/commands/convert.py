"""Converting one game at a time (the work `pdn convert` hands to `batch.run`)."""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import ClassVar

from pdn_tools.commands import report
from pdn_tools.play.check import Checked, Problem, check_by, problem
from pdn_tools.play.checking import Checking
from pdn_tools.text import writer
from pdn_tools.text.codes import Code
from pdn_tools.text.model import (Comment, Element, Game, MoveNumber, MoveRun, Nag, ReadError, Variation,
                                  movetext_runs)
from pdn_tools.play.notation import (Style, canonical_game, canonical_head, canonical_text, fix_notes, head_tags,
                                     kept_notes, result_fixes, tag_order, written_alpha, written_gametype)
from pdn_tools.text.names import json_escaped, printable
from pdn_tools.rules import steps
from pdn_tools.rules.fen import to_fen
from pdn_tools.rules.variants import PerVariant, Variant
from pdn_tools.play.replay import Replay


@dataclass(frozen=True)
class Options:
    to: str = "pdn"                         # a name in WRITERS
    style: Style = Style()
    keep_invalid: bool = False
    checking: Checking = field(default_factory=Checking)     # how games are checked (on the environment's engine)


@dataclass(frozen=True)
class Converted:
    """One game's output: its text ('' when left out), notes for stderr, and whether it
    converted without a problem (a game written with a wrong Result did not)."""

    text: str
    notes: tuple[str, ...]
    ok: bool
    plies: int = 0

    @property
    def left_out(self) -> bool:
        return not self.text


RESULT_ERRORS = frozenset({Code.WRONG_RESULT})      # errors about the Result: the moves replay


def convert_game(game: Game | ReadError, options: Options) -> Converted:
    """Check and convert one game (the work `pdn convert` hands to `batch.run`)."""
    try:
        return convert(check_by(game, options.checking), options)
    except Exception as error:           # a bug must not end the batch: say which game
        where = f"{game.file}:{game.line}: game {game.index}"
        return Converted("", (f"{where}: cannot convert ({type(error).__name__}: {error}) [internal]",), False)


def convert(checked: Checked, options: Options) -> Converted:
    """Convert one checked game.  A game that cannot be read, or whose moves do not replay when
    the output needs a replay, is reported and left out (passed through with `keep_invalid`);
    any other game is written, its problems (a wrong Result) reported."""
    game, replayed, record = checked.game, checked.replay, checked.record
    style = options.style
    if style.fix_results:
        record = replace(record, errors=tuple(e for e in record.errors if e.code != Code.WRONG_RESULT))
    problems = tuple(report.text_lines(record, warnings=False)) if record.errors else ()
    replays = not record.errors or all(error.code in RESULT_ERRORS for error in record.errors)
    writes = _WRITING[options.to]
    needs_replay = not writes.pdn or style.needs_replay
    if isinstance(game, ReadError) or replayed is None or (needs_replay and not replays):
        if not options.keep_invalid:
            return Converted("", problems, False)
        text = writer.game_text(game)
        asked = style_options(style)
        kept = (f"{printable(game.file)}:{game.line}: game {game.index}: passed through as read (--keep-invalid), "
                f"not rewritten by {' '.join(asked)}",) if text and asked else ()
        return Converted(text, problems + kept, False)
    notes = problems
    if style.fix_results:
        fixes = fix_notes(game, result_fixes(game, replayed)) + kept_notes(game, replayed)
        notes += tuple(report.text_lines(replace(record, errors=(), warnings=tuple(map(problem, fixes)))))
    text = writes.text(game, replayed, style, record.errors)
    return Converted(text, notes, not record.errors, replayed.ply_count)


def style_options(style: Style) -> list[str]:
    """The convert options `style` stands for, as written on the command line: what a game passed
    through unchanged does not get."""
    given = [f"--captures {style.captures}" if style.captures else "",
             f"--squares {style.squares}" if style.squares else "",
             f"--separator {style.separator}" if style.separator else "",
             f"--drop {','.join(sorted(style.drop))}" if style.drop else "", "--fix-results" if style.fix_results else ""]
    return [option for option in given if option]


class GameWriter(ABC):
    """One output format of `pdn convert --to` (a new format is one subclass and its line in WRITERS)."""

    pdn: ClassVar[bool] = False         # writes PDN: games can pass through unchanged, files be rewritten
    writes: ClassVar[frozenset[str]] = frozenset({"--captures", "--squares", "--separator",      # style options
                                                  "--fix-results"})                             # it shows

    @abstractmethod
    def text(self, game: Game, replayed: Replay, style: Style, errors: tuple[Problem, ...]) -> str:
        """The text of one game, replayed, written canonical in `style`, with its errors (a wrong
        Result)."""


class PdnWriter(GameWriter):
    """Canonical PDN."""

    pdn = True
    writes = frozenset({"--captures", "--squares", "--separator", "--drop", "--fix-results"})

    def text(self, game: Game, replayed: Replay, style: Style, errors: tuple[Problem, ...]) -> str:
        rewritten = _rewritten(game, replayed, style) if style.rewrites_moves else None
        return canonical_text(game, replayed, style, rewritten)


class JsonWriter(GameWriter):
    """One JSON object per game (`json_game`)."""

    def text(self, game: Game, replayed: Replay, style: Style, errors: tuple[Problem, ...]) -> str:
        rewrites = style.rewrites_moves
        assert replayed.variant is not None
        named = replayed.variant.alpha if style.squares is None else style.squares == "alpha"     # paths, FENs
        written = None if rewrites and written_alpha(game, replayed.variant, style) != named else \
            _core_plies(replayed, named, f"json-{_captures(style)}" if rewrites else "json",
                        style.separator or "x" if rewrites else None)       # the core names texts as paths
        if written is not None:             # the head's tags alone: no canonical Game made
            if style.fix_results or style.squares is not None:
                tags, terminator = head_tags(game, replayed, style)
                return _json_line(game, _json_tags(tags), terminator, replayed, errors, _alpha(style), written)
            tagged = _json_tags(game.tags, written_gametype(game, replayed, style))     # head_tags' then
            return _json_line(game, tagged, game.result, replayed, errors, _alpha(style), written)
        texts = None             # the moves as written, each its ply's (no element made for the others)
        if rewrites:
            canonical = canonical_game(game, replayed, style)
            texts = [move.text for move in canonical.main_line()]
        else:
            canonical = canonical_head(game, replayed, style)
        return json_game(canonical, replayed, [error.as_dict() for error in errors], _alpha(style), texts)


class FenWriter(GameWriter):
    """One `file:game<TAB>ply<TAB>FEN` line per ply (`fen_lines`)."""

    writes = frozenset({"--squares"})

    def text(self, game: Game, replayed: Replay, style: Style, errors: tuple[Problem, ...]) -> str:
        return fen_lines(game, replayed, _alpha(style))


def _alpha(style: Style) -> bool | None:
    """Squares in algebraic notation (True), numeric (False) or the variant's own (None)."""
    return None if style.squares is None else style.squares == "alpha"


WRITERS: dict[str, type[GameWriter]] = {"pdn": PdnWriter, "jsonl": JsonWriter, "fen": FenWriter}
_WRITING = {name: kind() for name, kind in WRITERS.items()}         # one of each, made once


def json_game(game: Game, replayed: Replay, errors: list[dict[str, object]] | None = None,
              alpha: bool | None = None, texts: list[str] | None = None) -> str:
    """One JSON line: tags (the first of each name), variant, start FEN, every main-line
    ply with its text as written (or in `texts`) and the squares of the legal move it stands for,
    the result as stated, and the game's errors (as `validate` gives them: a wrong Result).  Squares
    are numbers in numeric notation and names ("c3") in algebraic (`alpha` None: the variant's own).
    (_json_line writes the same line from the moves the core wrote.)"""
    tags = dict(game.tags)
    if len(tags) < len(game.tags):                  # a name given twice: its first value
        tags = {}
        for name, value in game.tags:
            tags.setdefault(name, value)
    variant, start = replayed.variant, replayed.start
    assert variant is not None and start is not None                       # a replayed game
    named = variant.alpha if alpha is None else alpha
    fen, result = to_fen(start, named), writer.result(game)

    def squares(numbers: tuple[int, ...]) -> list[int] | list[str]:
        return [variant.square_text(n, True) for n in numbers] if named else list(numbers)

    if texts is None:
        texts = [ply.text for ply in replayed.plies]
    moves = [{"ply": ply.number, "text": text, "path": squares((ply.move.start, *ply.move.path)),
              "captured": squares(ply.move.captured), "fen": to_fen(ply.after, named)}
             for ply, text in zip(replayed.plies, texts)]
    return report.json_text({"file": game.file, "game": game.index, "tags": tags, "variant": variant.name, "fen": fen,
                             "moves": moves, "result": result, "errors": errors or []}) + "\n"


def _json_line(game: Game, tagged: tuple[str, str | None], terminator: str | None, replayed: Replay,
               errors: tuple[Problem, ...], alpha: bool | None, written: list[str]) -> str:
    """json_game's line for the canonical game whose tags _json_tags gives (`tagged`) and whose
    terminator is `terminator` (canonical_head's), its moves `written` by the core (see _core_plies)."""
    variant, start = replayed.variant, replayed.start
    assert variant is not None and start is not None                       # a replayed game
    pairs, tag = tagged
    result = writer.result_of(tag, terminator)
    fen = to_fen(start, variant.alpha if alpha is None else alpha)
    return f'{_json_head(game, pairs, variant.name, fen)}, "moves": [{", ".join(filter(None, written))}], ' \
           f'{_json_tail(result, [error.as_dict() for error in errors])}\n'


def _json_tags(tags: list[tuple[str, str]], gametype: str | None = None) -> tuple[str, str | None]:
    """The pairs of the JSON line's "tags" object of the canonical game of `tags` (canonical_tags'
    order, each name's first value) with the first GameType set to `gametype` (added when none;
    None: as it is), and the first Result tag's value (None: none)."""
    names = tuple([name for name, _ in tags])
    values = [value for _, value in tags]
    added = False
    if gametype is not None:
        if "GameType" in names:
            values[names.index("GameType")] = gametype
        else:
            values.append(gametype)
            added = True
    kept, result_at = _PAIRS.get((names, added)) or _pairs_plan(names, added)
    string = _STRING
    return ", ".join([prefix + string(values[index]) for index, prefix in kept]), \
        values[result_at] if result_at >= 0 else None


_STRING = json.encoder.encode_basestring         # a str as JSON, UTF-8 kept (the encoder's own, in C)
# (the tags' names of a game, whether a GameType is added) -> which values the JSON line's "tags" holds
# (each name's first, in canonical order), each with the text before it, and the index of the first Result
# (-1: none): a file's games repeat a few
_PAIRS: dict[tuple[tuple[str, ...], bool], tuple[tuple[tuple[int, str], ...], int]] = {}


def _pairs_plan(names: tuple[str, ...], added: bool) -> tuple[tuple[tuple[int, str], ...], int]:
    """_PAIRS' entry for `names` (and a GameType `added` after them), made (and kept)."""
    every = (*names, "GameType") if added else names
    first: dict[str, int] = {}
    for index in tag_order(every):
        first.setdefault(every[index], index)
    plan = (tuple([(index, f"{_STRING(name)}: ") for name, index in first.items()]), first.get("Result", -1))
    if len(_PAIRS) < 4096:
        _PAIRS[names, added] = plan
    return plan


def _json_head(game: Game, pairs: str, variant: str, fen: str) -> str:
    """json_game's line up to its moves (`report.json_text` of the fields before them, without
    the closing brace), written field by field, the tags' `pairs` given: the encoder took a
    quarter of json_game's time."""
    string = _STRING
    text = (f'{{"file": {report.json_name(game.file)}, "game": {game.index}, "tags": {{{pairs}}}, '
            f'"variant": {string(variant)}, "fen": {string(fen)}')
    return json_escaped(text)


def _json_tail(result: str, errors: list[dict[str, object]] | None) -> str:
    """json_game's line after its moves (`report.json_text` of the result and errors, without the
    opening brace)."""
    if errors or not result.isprintable():
        return report.json_text({"result": result, "errors": errors or []})[1:]
    return f'"result": {_STRING(result)}, "errors": []}}'


def fen_lines(game: Game, replayed: Replay, alpha: bool | None = None) -> str:
    """`file:game<TAB>ply<TAB>FEN` for the start position (ply 0) and after every main-line ply,
    squares in algebraic or numeric notation (`alpha` None: the variant's own)."""
    name = f"{printable(game.file)}:{game.index}"
    assert replayed.start is not None                                      # a replayed game
    first = f"{name}\t0\t{to_fen(replayed.start, alpha)}\n"
    assert replayed.variant is not None
    written = _core_plies(replayed, replayed.variant.alpha if alpha is None else alpha, "fen", name)
    if written is not None:
        return first + "".join(written)
    return first + "".join(f"{name}\t{ply.number}\t{to_fen(ply.after, alpha)}\n" for ply in replayed.plies)


_SKIPPED = (MoveNumber, Comment, Nag, Variation)       # what the main line's plies go past


def _rewritten(game: Game, replayed: Replay, style: Style) -> list[Element | MoveRun] | None:
    """The main line with each run's moves as `style` writes them (`notation.move_text`), written
    by the compiled core (see _core_plies), else None."""
    pieces = _core_plies(replayed, _named(game, replayed, style), _captures(style), style.separator or "x")
    if pieces is None:
        return None
    written = iter(pieces)
    return [MoveRun(next(written), element.line, element.column) if type(element) is MoveRun else element
            for element in movetext_runs(replayed.game)]


def _named(game: Game, replayed: Replay, style: Style) -> bool:
    """Whether `style` writes the replayed game's squares by their algebraic names: as `--squares`
    asks, else as the game writes them (`notation.written_alpha`, which its GameType says too)."""
    assert replayed.variant is not None
    return written_alpha(game, replayed.variant, style)


def _captures(style: Style) -> str:
    """How `style` writes captures: "full" (every landing square) or "short"."""
    return "full" if style.captures == "full" else "short"


def _core_plies(replayed: Replay, named: bool, form: str, extra: str | None) -> list[str] | None:
    """The main line's plies written by the compiled core, a piece per run (`steps.write_run` in
    `form`), when the main line up to its last ply resolved holds runs kept as text that the
    core plays whole, move numbers, comments, NAGs and variations (to its end when the form
    rewrites moves: every run played whole); else None (the plies are made one by one)."""
    position, variant, last = replayed.start, replayed.variant, replayed.ply_count
    if position is None or variant is None or not steps.runs_text(position):
        return None
    names = square_names(variant) if named else None
    whole = form in ("short", "full")
    limit = last + whole                # a move beyond the last resolved: not the core's to write
    pieces: list[str] = []
    number = 0
    for element in movetext_runs(replayed.game):
        if number == last and not whole:
            break
        if type(element) is MoveRun:
            text = element.text
            offset, count, after, written = steps.write_run(position, text, 0, number, limit, names, form, extra)
            number += count
            if offset < len(text) and (whole or number < last):     # a move the core leaves to Python
                return None
            position = after or position
            pieces.append(written)
        elif not isinstance(element, _SKIPPED):
            return None
    return pieces if number == last else None


def square_names(variant: Variant) -> tuple[str, ...]:
    """The algebraic name of each square number of `variant` (item 0 unused), kept per variant."""
    return _NAMES.get(variant, None)


_NAMES: PerVariant[None, tuple[str, ...]] = PerVariant(
    lambda variant, _: ("", *(variant.square_text(number, True) for number in range(1, variant.num_squares + 1))))
