"""Validation reports: one record per game, as text lines or JSON, and a summary."""
from __future__ import annotations

from collections import Counter
from dataclasses import field, replace
from functools import cache
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

from pdn_tools.play.check import Checked, Problem, Record
from pdn_tools.text.names import json_escaped, printable
from pdn_tools.text.records import record

if TYPE_CHECKING:
    from pdn_tools.play.error_boards import ErrorBoard


def game_label(record: Record) -> str:
    """`game 3 (Anna Visser – Bram de Wit, Open round 2)`: the index, and the name when tags give one."""
    return f"game {record.game} ({record.name})" if record.name else f"game {record.game}"


def problem_line(record: Record, problem: Problem, warning: bool) -> str:
    """`file:line:col: game N (name), ply P (move 12... 28x19): [warning: ]message [code]`, the input's
    text in it (file, names, move, what a message quotes) made `printable`."""
    where = game_label(record)
    if problem.ply:
        where += f", ply {problem.ply}"
        if problem.move is not None:
            where += f" (move {problem.move})"
    return printable(f"{record.file}:{problem.line}:{problem.column}: {where}: "
                     f"{'warning: ' if warning else ''}{problem.message} [{problem.code}]")


def numbered_lines(record: Record, warnings: bool = True) -> list[tuple[str, int | None]]:
    """A line for each error (and warning) of a game, in their order in the file, each with
    its error's index in the record's errors (None for a warning)."""
    problems: list[tuple[Problem, int | None]] = list(zip(record.errors, range(len(record.errors))))
    problems += [(problem, None) for problem in record.warnings] if warnings else []
    problems.sort(key=lambda item: (item[0].line, item[0].column))
    return [(problem_line(record, problem, index is None), index) for problem, index in problems]



def lines_with_boards(record: Record, boards: list[ErrorBoard] | None, warnings: bool = True) -> list[str]:
    """`validate`'s text lines, each move error followed by its board and the legal moves (none: no board)."""
    at_error = {board.error: board for board in boards or []}
    out = []
    for line, error in numbered_lines(record, warnings):
        out.append(line)
        board = at_error.get(error) if error is not None else None
        if board is not None:
            shown = [f"board before {board.label}:", *board.text.splitlines(),
                     f"legal moves ({len(board.legal)}): {' '.join(board.legal) or 'none'}"]
            out += ["    " + printable(row) for row in shown]
    return out


def text_lines(record: Record, warnings: bool = True) -> list[str]:
    """A line for each error (and warning) of a game, in their order in the file."""
    return [line for line, _ in numbered_lines(record, warnings)]


def first_of(first: str, count: int) -> str:
    """The line of the first of `count` alike in a file, with their count when there are more."""
    return first if count == 1 else f"{first} (first of {count:,} in this file)"


class TextReport:
    """validate's text report.  Every error, as its game comes; warnings one by one (`each`),
    grouped per file (`grouped`: one line per code, its first place in the file, with the
    count) or left out (`none`); `ignore` leaves warning codes out."""

    def __init__(self, warnings: str = "grouped", ignore: frozenset[str] = frozenset()) -> None:
        self.mode, self.ignore = warnings, ignore
        self.file: str | None = None
        self.groups: dict[str, tuple[int, str]] = {}      # code -> (count, line of its first warning)

    def lines(self, record: Record, render: Callable[..., list[str]] = text_lines) -> list[str]:
        """The lines to write once `record` is in (a file's groups when the next file starts);
        `render(record, warnings=...)` makes a game's own lines."""
        out = self.close() if record.file != self.file else []
        self.file = record.file
        shown = replace(record, warnings=tuple(w for w in record.warnings if w.code not in self.ignore))
        out += render(shown, warnings=self.mode == "each")
        if self.mode == "grouped":
            for problem in shown.warnings:
                count, first = self.groups.get(problem.code) or (0, problem_line(record, problem, True))
                self.groups[problem.code] = (count + 1, first)
        return out

    def close(self) -> list[str]:
        """The grouped warnings of the file read last."""
        lines = [first_of(first, count) for count, first in self.groups.values()]
        self.groups = {}
        return lines

    def add_part(self, part: TextPart) -> str:
        """The text to write for `part`: its games' lines, after the grouped warnings of the file before
        when the part starts another file; the part's grouped warnings join those of its file."""
        if part.file is None:
            return ""
        closed = self.close() if part.file != self.file else []
        self.file = part.file
        for code, (count, first) in part.groups.items():
            earlier, first = self.groups.get(code) or (0, first)
            self.groups[code] = (earlier + count, first)
        return "".join(line + "\n" for line in closed) + part.text


class TextPart(NamedTuple):          # not a dataclass: made at every start (see rules/draws.py)
    """validate's text report of one file's games in a range: their lines as one text, their warnings
    grouped (not yet written) and their summary; what a `--dask` worker sends back for a range, so that
    the client has nothing to do per game (`TextReport.add_part` writes it)."""

    file: str | None                    # None: no game
    text: str
    groups: dict[str, tuple[int, str]]
    summary: Summary


def text_part(results: Sequence[tuple[Record, Any]], warnings: str, ignore: frozenset[str],
              render: Callable[..., list[str]]) -> TextPart:
    """The TextPart of `(record, extra)` results of one file, in order: each game's lines are
    `render(record, extra, warnings=...)` (say, `lines_with_boards` and the boards)."""
    text, summary = TextReport(warnings, ignore), Summary()
    lines: list[str] = []
    for record, extra in results:
        summary.add(record)
        lines += text.lines(record, lambda shown, warnings: render(shown, extra, warnings=warnings))
    file = results[0][0].file if results else None
    return TextPart(file, "".join(line + "\n" for line in lines), text.groups, summary)


@cache
def _json() -> tuple[Callable[[object], str], Callable[[str], str]]:
    """The JSON encoder's `encode` and its string encoder, `json` imported when a run first writes JSON
    (a text report does not: docs/start-up.md).  One encoder for every line (json.dumps with options
    makes an encoder a call); no check for circular references: records and summaries are trees.  A
    str as JSON keeps its UTF-8 (the encoder's own, in C)."""
    import json

    return json.JSONEncoder(ensure_ascii=False, check_circular=False).encode, json.encoder.encode_basestring


def json_text(value: object) -> str:
    """`value` as JSON on one line, whatever line reader splits it, that nothing in it can act on a
    terminal (`json_escaped`: UTF-8 kept, what `printable` escapes as JSON escapes), valid UTF-8
    whatever file names it holds (a byte that is not UTF-8, a\\xffb.pdn, as \\udcff: json.loads
    gives the name os.fsencode turns into its bytes again)."""
    return json_escaped(_json()[0](value))


def json_name(name: str) -> str:
    """A file's name as a JSON string (`json_escaped`)."""
    return json_escaped(_json()[1](name))


def json_line(record: Record | dict[str, object]) -> str:
    """One JSON line: a record as `validate --format jsonl` writes it, or a summary."""
    return _record_json(record) if isinstance(record, Record) else json_text(record)


def _record_json(record: Record) -> str:
    """`json_text(record.as_dict())`, written field by field without making the dicts (validate
    writes one a game; the encoder took a tenth of its time)."""
    string = _json()[1]
    text = (f'{{"file": {json_name(record.file)}, "game": {record.game}, "name": {string(record.name)}, '
            f'"line": {record.line}, "variant": {string(record.variant)}, '
            f'"ok": {"true" if record.ok else "false"}, "plies": {record.plies}, '
            f'"result": {string(record.result)}, "errors": [{", ".join(map(_problem_json, record.errors))}], '
            f'"warnings": [{", ".join(map(_problem_json, record.warnings))}]}}')
    return json_escaped(text)


def _problem_json(problem: Problem) -> str:
    ply = "null" if problem.ply is None else problem.ply
    string = _json()[1]
    move = "" if problem.move is None else f', "move": {string(problem.move)}'
    return (f'{{"code": {string(problem.code)}, "message": {string(problem.message)}, "line": {problem.line}, '
            f'"column": {problem.column}, "ply": {ply}{move}}}')


def checked_json_line(checked: Checked) -> str:
    """A checked game's JSON line (work for `Run.checked`: encoded where the game was checked, a worker
    of --jobs or --dask, so that the main process only writes it)."""
    return json_line(checked.record)


@record()
class Summary:
    """Counts over a batch: games, valid games, problems per code and per variant."""

    games: int = 0
    valid: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    warnings: Counter[str] = field(default_factory=Counter)
    variants: Counter[str] = field(default_factory=Counter)
    invalid_variants: Counter[str] = field(default_factory=Counter)
    invalid_files: set[str] = field(default_factory=set)        # for the tally line, not in the report

    def __init__(self, games: int = 0, valid: int = 0, errors: Counter[str] | None = None,
                 warnings: Counter[str] | None = None, variants: Counter[str] | None = None,
                 invalid_variants: Counter[str] | None = None, invalid_files: set[str] | None = None) -> None:
        """Each counter or set left out (or None) is a new empty one."""
        self.games, self.valid = games, valid
        self.errors = Counter() if errors is None else errors
        self.warnings = Counter() if warnings is None else warnings
        self.variants = Counter() if variants is None else variants
        self.invalid_variants = Counter() if invalid_variants is None else invalid_variants
        self.invalid_files = set() if invalid_files is None else invalid_files

    def add(self, record: Record) -> None:
        self.games += 1
        self.valid += record.ok
        self.variants[record.variant] += 1
        if not record.ok:
            self.invalid_variants[record.variant] += 1
            self.invalid_files.add(record.file)
        for problem in record.errors:
            self.errors[problem.code] += 1
        for problem in record.warnings:
            self.warnings[problem.code] += 1

    def merge(self, other: Summary) -> None:
        """Add the counts of `other`, a summary of the games that follow these."""
        self.games += other.games
        self.valid += other.valid
        for mine, theirs in ((self.errors, other.errors), (self.warnings, other.warnings),
                             (self.variants, other.variants), (self.invalid_variants, other.invalid_variants)):
            mine.update(theirs)
        self.invalid_files |= other.invalid_files

    def headline(self) -> str:
        return f"{self.games:,} games, {self.valid:,} valid, {self.games - self.valid:,} invalid"

    def variant_rows(self) -> list[tuple[str, int, int, int]]:
        return [(variant, count, count - self.invalid_variants[variant], self.invalid_variants[variant])
                for variant, count in sorted(self.variants.items())]

    def code_rows(self) -> list[tuple[str, str, int]]:
        return ([(code, "error", n) for code, n in self.errors.most_common()]
                + [(code, "warning", n) for code, n in self.warnings.most_common()])

    def lines(self) -> list[str]:
        """The summary as aligned tables: games per variant, problems per code."""
        out = [self.headline(), ""] + table(("variant", "games", "valid", "invalid"), self.variant_rows())
        if self.errors or self.warnings:
            out += [""] + table(("code", "kind", "count"), self.code_rows())
        return out

    def as_dict(self) -> dict[str, object]:
        return {"games": self.games, "valid": self.valid, "variants": dict(self.variants),
                "invalid_by_variant": dict(self.invalid_variants), "errors": dict(self.errors),
                "warnings": dict(self.warnings)}


class JsonPart(NamedTuple):          # not a dataclass: made at every start (see rules/draws.py)
    """The JSON lines of a run of games as one text, and their summary: what a `--dask` worker sends back
    for a range, so that the client has nothing to do per game."""

    text: str
    summary: Summary


def json_part(results: list[tuple[Record, str]]) -> JsonPart:
    """The JSON lines and the summary of `(record, its JSON line)` results, in their order."""
    summary = Summary()
    for record, _ in results:
        summary.add(record)
    return JsonPart("".join(line + "\n" for _, line in results), summary)


def table(header: tuple[str, ...], rows: Sequence[tuple[str | int, ...]]) -> list[str]:
    """`rows` aligned in columns under `header`: numbers (with thousands separators) to the
    right, text (made `printable`) to the left."""
    numeric = [bool(rows) and all(isinstance(row[i], int) for row in rows) for i in range(len(header))]
    cells = [list(header)] + [[f"{value:,}" if isinstance(value, int) else printable(value) for value in row]
                              for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return ["  ".join(cell.rjust(width) if right else cell.ljust(width)
                      for cell, width, right in zip(row, widths, numeric)).rstrip() for row in cells]
