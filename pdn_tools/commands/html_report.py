"""The audit report of `validate --format html`.

It starts with the answer: the totals and the run, the files with problems (most errors first; a
click on a heading sorts the table), the invalid games grouped by the code of their first error
(each bar of the chart links to its group; commands/html_games.py: a game's section), with --shots
the moves worth a second look (commands/html_second_look.py: the biggest material swings, each with
its board), and a block of `file:line: code` references to copy.  The parts every page shares are in
commands/html_page.py.

The report streams: the worker processes send back, for each invalid game, only the strings
its section needs (`audit_game`); the main process writes each group's sections and the
references to temporary files as they come and keeps nothing but counts.  A group lists its
first `PER_CODE` games and counts the others (the references name them all), so that the
page of a large archive stays small; in a group, only the first game is open, and the boards
of the others wait as raw text in a `<script type="text/x-svg">` (the browser only scans it for
its end tag) that a few lines of script draw when their game is opened.
"""
from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Callable, Iterable

from pdn_tools.commands import report
from pdn_tools.commands.html_games import InvalidGame, _game_section
from pdn_tools.commands.html_page import _DOT, Run, _chart, _count, _head, _run_line, _table, _unread_count, \
    _unread_list, _validity, this_run
from pdn_tools.commands.html_second_look import write_second_look
from pdn_tools.commands.second_look import Biggest, SecondLook
from pdn_tools.play import board_svg
from pdn_tools.play.check import Record
from pdn_tools.rules.variants import variant_by_name
from pdn_tools.text.names import markup

PER_CODE = 50               # invalid games listed per code; the others are counted and referenced


@dataclass
class _FileCounts:
    """A file's games, and its errors and warnings per code."""

    games: int = 0
    invalid: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    warnings: Counter[str] = field(default_factory=Counter)

    def add(self, record: Record) -> None:
        self.games += 1
        self.invalid += not record.ok
        self.errors.update(problem.code for problem in record.errors)
        self.warnings.update(problem.code for problem in record.warnings)

    def row(self, name: str) -> tuple[tuple[int, int, int, str], str]:
        """The file's row of the table, after its place in the order the page comes in (most errors
        first, then most warnings, most games)."""
        errors, warnings = sum(self.errors.values()), sum(self.warnings.values())
        codes = ", ".join([f'<span class="code">{markup(code)}</span> {n:,}' for code, n in self.errors.most_common()]
                          + [f"{markup(code)} {n:,}" for code, n in self.warnings.most_common()])
        return ((-errors, -warnings, -self.games, name),
                f'<tr><td>{markup(name)}</td><td class="num">{self.games:,}</td><td class="num">{self.invalid:,}</td>'
                f'<td class="num">{errors:,}</td><td class="num">{warnings:,}</td><td class="codes">{codes}</td></tr>')


def _spool() -> IO[str]:
    return tempfile.TemporaryFile("w+", encoding="utf-8")


@dataclass
class AuditPage:
    """The audit report, built game by game; `write` puts the page together.  Each invalid game
    goes in the group of its first error's code; a group lists its first `PER_CODE` games, and
    counts the others, which the references name."""

    title: str = "PDN audit report"
    run: Run = field(default_factory=this_run)
    summary: report.Summary = field(default_factory=report.Summary)
    files: dict[str, _FileCounts] = field(default_factory=dict)
    groups: Counter[str] = field(default_factory=Counter)       # invalid games per first error code
    invalid: int = 0
    defined: set[str] = field(default_factory=set)
    sections: dict[str, IO[str]] = field(default_factory=dict)  # code -> its games' sections, a line each
    spool: Callable[[], IO[str]] = _spool                       # makes a temporary text file
    references: IO[str] = field(init=False)                     # `file:line: code`, a line per error
    depth: int | None = None                                    # --shots' search depth (None: no --shots)
    looks: Biggest = field(default_factory=Biggest)             # the moves worth a second look so far
    unjudged: int = 0                                           # moves whose search went past the node budget
    unread: tuple[tuple[str, str], ...] = ()                    # (path, note) of each input not read whole

    def __post_init__(self) -> None:
        self.references = self.spool()

    def add(self, record: Record, game: InvalidGame | None) -> None:
        """Count a game; an invalid one gets its references and, while its group has room, its section."""
        self.summary.add(record)
        self.files.setdefault(record.file, _FileCounts()).add(record)
        for problem in record.errors:
            self.references.write(markup(f"{record.file}:{problem.line}: {problem.code}") + "\n")
        if game is None:
            return
        self.invalid += 1
        code = record.errors[0].code                # an invalid game has an error
        self.groups[code] += 1
        if self.groups[code] <= PER_CODE:
            spool = self.sections.get(code) or self.sections.setdefault(code, self.spool())
            first = self.groups[code] == 1
            section = self._definitions(game) + _game_section(self.invalid, record, game, first)
            spool.write(section.replace("\n", " ") + "\n")

    def add_looks(self, looks: Iterable[SecondLook], unjudged: int = 0) -> None:
        """A game's moves worth a second look (--shots): the biggest kept; and its count of moves not
        judged."""
        self.unjudged += unjudged
        for look in looks:
            self.looks.add(look)

    def _definitions(self, game: InvalidGame) -> str:
        """The squares of a board kind the first time a game needs them."""
        if not (game.boards or game.final):
            return ""
        return self._squares(game.variant, game.alpha)

    def _squares(self, name: str, alpha: bool) -> str:
        """The squares of a board kind, the first time the page needs them."""
        variant = variant_by_name(name)
        key = f"{name}-{alpha}"
        if variant is None or key in self.defined:
            return ""
        self.defined.add(key)
        return board_svg.defs([(variant, alpha, False)], pieces=False)

    def write(self, out: IO[str]) -> None:
        """The whole page: totals, files with problems, invalid games by code, references, counts."""
        out.write(_head(self.title))
        out.write(board_svg.defs([], pieces=True))
        out.write(_audit_top(self))
        out.write(_unread_list(self.unread))
        out.write(_files_section(self.files, {path for path, _ in self.unread}))
        self._write_invalid(out)
        if self.depth is not None:
            write_second_look(out, self.looks, self.depth, self._squares, self.unjudged)
        self._write_references(out)
        out.write(_counts_section(self.summary))
        out.write("</body>\n</html>\n")

    def _write_invalid(self, out: IO[str]) -> None:
        out.write(f'<section id="invalid"><h2>Invalid games ({self.invalid:,})</h2>\n')
        if not self.invalid:
            out.write('<p class="none">Every game is valid.</p>\n</section>\n')
            return
        out.write('<div class="summary">'
                  + _chart("codes", "Invalid games by error code", self.groups.most_common(), link="code-")
                  + _chart("invalid-variants", "Invalid games by variant", self.summary.invalid_variants.most_common())
                  + "</div>\n")
        for code, count in self.groups.most_common():
            out.write(f'<section class="group" id="code-{markup(code)}" data-code="{markup(code)}">'
                      f'<h3><span class="code">{markup(code)}</span>: {_count(count, "game")}</h3>\n')
            spool = self.sections.pop(code)
            spool.seek(0)
            out.writelines(spool)
            spool.close()
            if count > PER_CODE:
                out.write(f'<p class="more">and {_count(count - PER_CODE, "more game")} with {markup(code)}, '
                          f'not shown: <a href="#references">the references</a> name every one.</p>\n')
            out.write("</section>\n")
        out.write("</section>\n")

    def _write_references(self, out: IO[str]) -> None:
        errors = sum(self.summary.errors.values())
        if not errors:
            return
        out.write(f'<section id="references"><h2>References ({_count(errors, "error")})</h2>\n'
                  f'<p>A line per error, <code>file:line: code</code>, to copy into an editor or a script '
                  f'<button type="button" class="select">Select all</button></p>\n<pre class="references">')
        self.references.seek(0)
        out.writelines(self.references)
        self.references.close()
        out.write("</pre>\n</section>\n")


def _audit_top(page: AuditPage) -> str:
    """The title, the totals, the run, and links to the sections."""
    summary = page.summary
    totals = (f'<p class="totals">{_count(len(page.files), "file", "files")}{_DOT}{_validity(summary)}{_DOT}'
              f'{_count(sum(summary.warnings.values()), "warning", "warnings")}{_unread_count(page.unread)}</p>')
    links = [("unreadable", "Inputs not read")] if page.unread else []
    links += [("files", "Files with problems"), ("invalid", "Invalid games")]
    links += [("second-look", "Moves worth a second look")] if page.depth is not None else []
    links += [("references", "References")] if summary.errors else []
    links += [("counts", "Counts by variant and code")]
    nav = _DOT.join(f'<a href="#{anchor}">{name}</a>' for anchor, name in links)
    return f'<h1>{markup(page.title)}</h1>\n{totals}\n{_run_line(page.run)}\n<nav class="contents">{nav}</nav>\n'


_FILE_COLUMNS = (("file", "text"), ("games", "number"), ("invalid", "number"), ("errors", "number"),
                 ("warnings", "number"), ("codes", "text"))
_SORTED = ' aria-sort="descending"'


def _files_section(files: dict[str, _FileCounts], unread: set[str]) -> str:
    """The files with errors or warnings in a table (most errors first; a click on a heading sorts
    by that column), then the clean ones collapsed into one line (not those `unread` to their end)."""
    troubled = sorted(counts.row(name) for name, counts in files.items() if counts.errors or counts.warnings)
    clean = [name for name, counts in files.items() if not (counts.errors or counts.warnings or name in unread)]
    parts = [f'<section id="files"><h2>Files with problems ({len(troubled):,} of {len(files):,})</h2>']
    if troubled:
        heads = "".join(f'<th data-sort="{kind}"{_SORTED if name == "errors" else ""}>{name}</th>'
                        for name, kind in _FILE_COLUMNS)
        rows = "".join(row for _, row in troubled)
        parts.append(f'<div class="scroll"><table class="files sortable"><thead><tr>{heads}</tr></thead>'
                     f"<tbody>{rows}</tbody></table></div>")
    else:
        parts.append('<p class="none">No file has an error or a warning.</p>')
    if clean:
        listed = "".join(f"<li>{markup(name)}</li>" for name in clean)
        parts.append(f'<details class="clean"><summary>{_count(len(clean), "file")} without problems</summary>'
                     f"<ul>{listed}</ul></details>")
    parts.append("</section>\n")
    return "\n".join(parts)


def _counts_section(summary: report.Summary) -> str:
    """Games per variant, and every error and warning counted per code."""
    return ('<section id="counts"><h2>Counts by variant and code</h2><div class="summary">'
            + _table("variants", "Variants", ("variant", "games", "valid", "invalid"), summary.variant_rows())
            + _table("problems", "Problems by code", ("code", "kind", "count"), summary.code_rows())
            + (_chart("warnings", "Warnings by code", summary.warnings.most_common()) if summary.warnings else "")
            + "</div></section>\n")
