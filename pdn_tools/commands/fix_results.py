"""`convert --fix-results` alone: the file as it was, but for the Result tag and terminator of
the games whose result the final position (or a draw rule) settles otherwise.

Every other byte stays: the file is decoded so that it encodes back to the same bytes, each
fix replaces the old result text where the reader found it, and the new result is written in
the game's own style (`1-0`, `2-0` or `1:0` families) so that tag and terminator agree.
"""
from __future__ import annotations

import functools
import io
import re
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator

from pdn_tools.commands import report
from pdn_tools.play.check import Record, check_by, problem
from pdn_tools.play.checking import Checking
from pdn_tools.play.notation import fix_notes, kept_notes, result_fixes
from pdn_tools.text.codes import Code
from pdn_tools.text.model import Diagnostic, Game
from pdn_tools.text.reader import RawGame, parse_raw, read_raw
from pdn_tools.text.results import Outcome, outcome, read_result

# Result spellings by family: the starting side's win, the other side's win, a draw.
_STYLES = (("1-0", "0-1", "1/2-1/2"), ("2-0", "0-2", "1-1"), ("1:0", "0:1", "1/2:1/2"))
_RESULT_TAG = re.compile(r'\[[ \t]*Result[ \t]*"([^"]*)"')
_LINE_END = re.compile(r"(\r\r?\n|\r|\n)")         # the reader's line ends (decoding.lines_of)
_BATCH = 200                    # games a worker fixes at a time (with --jobs)


@dataclass(frozen=True)
class Edit:
    """Replace `old` by `new` at (line, column) of the file (1-based); insert when `old` is ''."""

    line: int
    column: int
    old: str
    new: str


@dataclass(frozen=True)
class Fixed:
    """One game's edits, with the record and notes to report."""

    edits: tuple[Edit, ...]
    record: Record
    notes: tuple[Diagnostic, ...]


def in_style(result: str, game: Game) -> str:
    """`result` (a settled result) as the game writes it: the tag's or terminator's spelling when
    one of them already says it, else in the family of the game's spellings (`1-0`, `2-0`, `1:0`)."""
    stated = outcome(result)
    written = [seen for seen in (read_result(game.tag("Result")), game.result) if seen is not None]
    for seen in written:
        if stated is not None and outcome(seen) == stated:
            return seen
    for seen in written:
        for style in _STYLES:
            if seen in style and stated is not None:
                return style[[Outcome.FIRST, Outcome.SECOND, Outcome.DRAW].index(stated)]
    return result


def fix_game(raw: RawGame, index: int, notes: list[Diagnostic], checking: Checking) -> Fixed:
    """The edits that give one game the Result tag and terminator its position settles (none for
    a game with another error, or whose result is right); a missing tag or terminator stays so.
    `checking`: how it is read and checked."""
    terminator = next((t for t in reversed(raw.tokens) if t.type in ("RESULT", "STAR")), None)
    game = parse_raw(raw, index, checking.strict, notes, checking.engine)       # takes the tokens
    checked = check_by(game, checking)
    record, replayed = checked.record, checked.replay
    wrong_result_only = all(error.code == Code.WRONG_RESULT for error in record.errors)
    if not isinstance(game, Game) or replayed is None or not wrong_result_only:
        return Fixed((), record, ())
    new_tag, new_end = result_fixes(game, replayed)
    if new_tag is None and new_end is None:
        return Fixed((), record, tuple(kept_notes(game, replayed)))
    settled = in_style(new_tag or new_end or "", game)
    tag = game.tag("Result")
    edits = []
    if tag is not None and read_result(tag) != settled:
        line, column = game.tag_position("Result")
        edits.append(Edit(line, column, tag, settled))
    if terminator is not None and str(terminator) != settled:
        edits.append(Edit(terminator.line or 0, terminator.column or 0, str(terminator), settled))
    changed = (settled if tag is not None and read_result(tag) != settled else None,
               settled if terminator is not None and str(terminator) != settled else None)
    return Fixed(tuple(edits), record, tuple(fix_notes(game, changed)))


def apply(text: str, edits: list[Edit]) -> tuple[str, list[Edit]]:
    """`text` with the edits made, and the edits that did not find their old text (not made).
    Line numbers count CR CR LF, CR LF, CR and LF line ends as the reader does; a BOM is not a column."""
    parts = _LINE_END.split(text)
    lines, ends = parts[0::2], parts[1::2] + [""]
    shift = 1 if text.startswith("\ufeff") else 0
    missed = []
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        if not 0 < edit.line <= len(lines):
            missed.append(edit)
            continue
        row = lines[edit.line - 1]
        start = edit.column - 1 + (shift if edit.line == 1 else 0)
        if edit.old and row.startswith("[", start):          # a tag: its value inside the brackets
            match = _RESULT_TAG.match(row, start)
            if match is None or match.group(1) != edit.old:
                missed.append(edit)
                continue
            start = match.start(1)
        if not row.startswith(edit.old, start):
            missed.append(edit)
            continue
        lines[edit.line - 1] = row[:start] + edit.new + row[start + len(edit.old):]
    return "".join(line + end for line, end in zip(lines, ends)), missed


@dataclass(frozen=True)
class FileFix:
    """A file with its results fixed: its new bytes, each game's fix, and edits not made."""

    data: bytes
    games: tuple[Fixed, ...]
    missed: tuple[Edit, ...]

    def report_lines(self) -> list[str]:
        """Each game's errors other than its result, and each result changed, as validate says them."""
        lines = []
        for game in self.games:
            errors = tuple(error for error in game.record.errors if error.code != Code.WRONG_RESULT or not game.notes)
            lines += report.text_lines(replace(game.record, errors=errors, warnings=tuple(map(problem, game.notes))))
        name = self.games[0].record.file if self.games else ""
        lines += [f"{name}:{edit.line}:{edit.column}: {edit.old!r} not changed: the text there is not what was read"
                  for edit in self.missed]
        return lines

    @property
    def failed(self) -> int:
        """Games left with an error (another than a result fixed), and results that could not be fixed."""
        return sum(1 for game in self.games if not game.record.ok and not game.notes) + len(self.missed)


Batch = list[tuple[RawGame, int, list[Diagnostic]]]        # games read: each with its number and notes
Mapper = Callable[[Callable[[Batch], list[Fixed]], Iterable[Batch]], Iterable[list[Fixed]]]


def fix_games(games: Batch, checking: Checking) -> list[Fixed]:
    """`fix_game` of each game of a batch, in order."""
    return [fix_game(raw, index, notes, checking) for raw, index, notes in games]


def fix_file(data: bytes, name: str, checking: Checking | None = None, encoding: str | None = None,
             mapper: Mapper = map) -> FileFix:
    """The bytes of a PDN file with only the wrong results changed (see the module's note), read
    and checked by `checking` (None: the defaults, on the environment's engine); the games fixed in
    batches by `mapper` (`map`, or a pool's map that keeps the order: --jobs)."""
    checking = checking or Checking()
    games = read_raw(io.BytesIO(data), name=name, encoding=encoding, engine=checking.engine)
    work = functools.partial(fix_games, checking=checking)
    fixed = tuple(game for part in mapper(work, _batches(games)) for game in part)
    codec = games.codec
    text, missed = apply(data.decode(codec, "surrogateescape"), [edit for game in fixed for edit in game.edits])
    return FileFix(text.encode(codec, "surrogateescape"), fixed, tuple(missed))


def _batches(games: Iterable[tuple[RawGame, list[Diagnostic]]]) -> Iterator[Batch]:
    batch: Batch = []
    for index, (raw, notes) in enumerate(games, 1):
        batch.append((raw, index, notes))
        if len(batch) == _BATCH:
            yield batch
            batch = []
    if batch:
        yield batch
