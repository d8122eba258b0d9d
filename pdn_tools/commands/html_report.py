"""HTML pages: the audit report of `validate --format html` and the archive summary of
`stats --format html`.

Each page is one self-contained file: inline CSS, SVG and a few lines of script, nothing
fetched; with script off, it shows the same.  The audit report starts with the answer: the
totals and the run, the files with problems (most errors first; a click on a heading sorts
the table), the invalid games grouped by the code of their first error (each bar of the
chart links to its group), with --shots the moves worth a second look (commands/second_look.py:
the biggest material swings, each with its board), and a block of `file:line: code`
references to copy.

The report streams: the worker processes send back, for each invalid game, only the strings
its section needs (`audit_game`); the main process writes each group's sections and the
references to temporary files as they come and keeps nothing but counts.  A group lists its
first `PER_CODE` games and counts the others (the references name them all), so that the
page of a large archive stays small; in a group, only the first game is open, and the boards
of the others wait as raw text in a `<script type="text/x-svg">` (the browser only scans it for
its end tag) that a few lines of script draw when their game is opened.
"""
from __future__ import annotations

import shlex
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import IO, Any, Iterable, Sequence

import pdn_tools
from pdn_tools.commands import archive, report
from pdn_tools.play import board_svg
from pdn_tools.play.board import Board, board_after, caption_lines
from pdn_tools.play.error_boards import ErrorBoard, error_boards, moves_text
from pdn_tools.commands.second_look import PLIES_AFTER, Biggest, SecondLook, players
from pdn_tools.play.check import Checked, Record
from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.search import MAN
from pdn_tools.rules.variants import variant_by_name
from pdn_tools.text.model import Game, ReadError
from pdn_tools.text.names import markup
from pdn_tools.text.results import LABELS, NO_RESULT, outcome

PER_CODE = 50               # invalid games listed per code; the others are counted and referenced


# ---- one invalid game, as the worker sends it back -----------------------------------------------

@dataclass(frozen=True)
class InvalidGame:
    """What the report shows of an invalid game (plain strings: it travels from worker processes)."""

    white: str
    black: str
    event: str
    date: str
    variant: str
    alpha: bool
    boards: tuple[ErrorBoard, ...]
    final: str              # SVG of the last position reached, when no move failed (e.g. a wrong result)
    final_label: str
    moves: str              # the main line as far as it was replayed


def audit_game(checked: Checked) -> InvalidGame | None:
    """For an invalid game, what its section of the report shows (work for the command line's `Run.checked`)."""
    game, result = checked.game, checked.replay
    if checked.ok:
        return None
    if result is None or isinstance(game, ReadError) or result.variant is None:
        tags = game if isinstance(game, Game) else None
        return InvalidGame(_tag(tags, "White"), _tag(tags, "Black"), _tag(tags, "Event"),
                           _tag(tags, "Date"), checked.record.variant, False, (), "", "", "")
    boards = tuple(error_boards(result, with_svg=True))
    alpha = result.variant.alpha
    moves = game.main_line()
    if moves:
        alpha = moves[0].squares[0][:1].isalpha()
    final, label = "", ""
    if not boards and result.final is not None:
        board = board_after(result, None, alpha)
        final = board_svg.svg(board, "last position", shared=True)
        label = caption_lines(result)[1]
    replayed = moves_text(result, len(result.plies)) if result.plies else ""
    return InvalidGame(_tag(game, "White"), _tag(game, "Black"), _tag(game, "Event"), _tag(game, "Date"),
                       result.variant.name, alpha, boards, final, label, replayed)


def _tag(game: Game | None, name: str) -> str:
    return (game.tag(name) or "") if game is not None else ""


# ---- the run a page reports ----------------------------------------------------------------------

@dataclass(frozen=True)
class Run:
    """What a page says of the run that made it: the command line, pdn-tools' version, the date."""

    command: str
    version: str
    date: str


def this_run(argv: Sequence[str] | None = None, now: datetime | None = None) -> Run:
    """The run of this process: `pdn` and its arguments (`sys.argv`) as a shell reads them, and now (UTC)."""
    args = sys.argv[1:] if argv is None else argv
    moment = now or datetime.now(timezone.utc)
    return Run(shlex.join(["pdn", *args]), pdn_tools.__version__, moment.strftime("%Y-%m-%d %H:%M UTC"))


def _run_line(run: Run) -> str:
    return (f'<p class="run"><code class="command">{markup(run.command)}</code>{_DOT}'
            f'pdn-tools <span class="version">{markup(run.version)}</span>{_DOT}'
            f'<span class="date">{markup(run.date)}</span></p>')


# ---- the audit page ------------------------------------------------------------------------------

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
    references: IO[str] = field(default_factory=_spool)         # `file:line: code`, a line per error
    depth: int | None = None                                    # --shots' search depth (None: no --shots)
    looks: Biggest = field(default_factory=Biggest)             # the moves worth a second look so far

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
            spool = self.sections.get(code) or self.sections.setdefault(code, _spool())
            first = self.groups[code] == 1
            section = self._definitions(game) + _game_section(self.invalid, record, game, first)
            spool.write(section.replace("\n", " ") + "\n")

    def add_looks(self, looks: Iterable[SecondLook]) -> None:
        """A game's moves worth a second look (--shots): the biggest kept."""
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
        out.write(_files_section(self.files))
        self._write_invalid(out)
        if self.depth is not None:
            self._write_second_look(out, self.depth)
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

    def _write_second_look(self, out: IO[str], depth: int) -> None:
        """The moves worth a second look: the rule, a table of them (each row links to its move),
        and each move with the board before it."""
        looks = self.looks.ordered()
        out.write(f'<section id="second-look"><h2>Moves worth a second look ({len(looks):,} of '
                  f'{_count(self.looks.added, "move")})</h2>\n<p class="rule">The moves a search of depth {depth} judges '
                  f'walked into a shot ($4), in valid games that went on at least {PLIES_AFTER} plies after '
                  f'the move, by the rules its moves are checked by: the {self.looks.size} with the biggest swing '
                  f'(the men the move keeps less than the best move), biggest first; a move whose scores are a '
                  f'forced end of the game (no count of men) comes after them. Players seldom play on long after losing material: such a '
                  f'move is more often a transcription error than a blunder, above all in a game the side '
                  f'that moved won or drew.</p>\n')
        if not looks:
            out.write('<p class="none">No move qualifies.</p>\n</section>\n')
            return
        heads = "".join(f"<th>{name}</th>" for name in ("", "swing", "game", "place", "move", "result"))
        rows = "".join(f'<tr><td class="num"><a href="#look-{number}">{number}</a></td>'
                       f'<td class="num swing">{_swing(look)}</td>'
                       f'<td class="players">{markup(look.name())}</td>'
                       f'<td class="place">{markup(f"{look.file}:{look.line}")}</td>'
                       f'<td class="move">{markup(look.move)}</td><td class="result">{_result(look)}</td></tr>'
                       for number, look in enumerate(looks, 1))
        out.write(f'<div class="scroll"><table class="looks"><thead><tr>{heads}</tr></thead>'
                  f'<tbody>{rows}</tbody></table></div>\n')
        for number, look in enumerate(looks, 1):
            out.write(self._squares(look.variant, look.alpha) + _look_section(number, look) + "\n")
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


def _count(number: int, noun: str, kind: str = "") -> str:
    """`1 game`, `1,645 games`; with a `kind`, the number in a span of that class."""
    shown = f'<span class="{kind}">{number:,}</span>' if kind else f"{number:,}"
    return f"{shown} {noun}" + ("" if number == 1 else "s")


def _validity(summary: report.Summary) -> str:
    """`36,287 games · 36,146 valid · 141 invalid`, each number in a span of its class."""
    return (f'{_count(summary.games, "game", "games")}{_DOT}<span class="valid">{summary.valid:,}</span> valid{_DOT}'
            f'<span class="invalid">{summary.games - summary.valid:,}</span> invalid')


def _audit_top(page: AuditPage) -> str:
    """The title, the totals, the run, and links to the sections."""
    summary = page.summary
    totals = (f'<p class="totals">{_count(len(page.files), "file", "files")}{_DOT}{_validity(summary)}{_DOT}'
              f'{_count(sum(summary.warnings.values()), "warning", "warnings")}</p>')
    links = [("files", "Files with problems"), ("invalid", "Invalid games")]
    links += [("second-look", "Moves worth a second look")] if page.depth is not None else []
    links += [("references", "References")] if summary.errors else []
    links += [("counts", "Counts by variant and code")]
    nav = _DOT.join(f'<a href="#{anchor}">{name}</a>' for anchor, name in links)
    return f'<h1>{markup(page.title)}</h1>\n{totals}\n{_run_line(page.run)}\n<nav class="contents">{nav}</nav>\n'


_FILE_COLUMNS = (("file", "text"), ("games", "number"), ("invalid", "number"), ("errors", "number"),
                 ("warnings", "number"), ("codes", "text"))
_SORTED = ' aria-sort="descending"'


def _files_section(files: dict[str, _FileCounts]) -> str:
    """The files with errors or warnings in a table (most errors first; a click on a heading sorts
    by that column), then the clean ones collapsed into one line."""
    troubled = sorted(counts.row(name) for name, counts in files.items() if counts.errors or counts.warnings)
    clean = [name for name, counts in files.items() if not (counts.errors or counts.warnings)]
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


def _game_section(number: int, record: Record, game: InvalidGame, first: bool) -> str:
    """Invalid game `number`, on one line: a <details> whose summary names it, open if it is the
    `first` of its group; the others keep their boards as text until opened."""
    code, message = (record.errors[0].code, record.errors[0].message) if record.errors else ("", "")
    place = f"{record.file}:{record.line}"
    later = not first
    opened = "" if later else ' open=""'
    head = (f'<details class="game" id="game-{number}" data-code="{markup(code)}"{opened}>'
            f'<summary><span class="number">{number}</span> <span class="place">{markup(place)}</span> '
            f'<span class="players">{markup(game_name(record, game))}</span> <span class="code">{markup(code)}</span> '
            f'<span class="message">{markup(_short(message))}</span></summary>')
    about = [f"game {record.game} of {markup(record.file)}", markup(game.variant)]
    about += [markup(value) for value in (game.event, game.date) if value]
    body = [f'<p class="about">{_DOT.join(about)}</p>', _errors(record)]
    body += [_board_block(board, later) for board in game.boards]
    if game.final:
        body.append(f'<div class="position"><figure class="board">{_waiting(game.final, later)}'
                    f'<figcaption>{markup(game.final_label)}</figcaption></figure>'
                    f'<div class="moves-box"><p class="moves">{markup(game.moves) or "no move"}</p></div></div>')
    elif not game.boards and game.moves:
        body.append(f'<p class="moves">{markup(game.moves)}</p>')
    return head + "".join(body) + "</details>"


def game_name(record: Record, game: InvalidGame) -> str:
    """`White – Black` (`?` for a missing one), or `OCA.pdn, game 17` when neither player is named."""
    return players(game.white, game.black, record.file, record.game)


def _swing(look: SecondLook) -> str:
    """`2.50 men`, or `a forced end` when a score is a win (no count of men)."""
    return "a forced end" if look.forced else f"{look.swing / MAN:.2f} men"


def _result(look: SecondLook) -> str:
    """`0-1, the side that moved won`, or `no result`."""
    said = f", the side that moved {look.mover_outcome}" if look.mover_outcome else ""
    return markup(look.result) + said if look.result else "no result"


def _look_section(number: int, look: SecondLook) -> str:
    """A move worth a second look: what and where it is, the board before it (the move tinted),
    and the line that wins the material."""
    variant = variant_by_name(look.variant)
    assert variant is not None                  # a name the worker's replay gave
    board = Board(parse_fen(variant, look.fen), alpha=look.alpha, attempt=look.squares)
    label = f"before {look.move}"
    place = f"{look.file}:{look.line}:{look.column}"
    about = [f"game {look.game} of {markup(look.file)}", markup(look.variant),
             f"ply {look.ply} of {look.plies}", f"result {_result(look)}",
             f"the search's score after the move: {markup(look.eval)}"]
    return (f'<div class="look" id="look-{number}"><h3><span class="number">{number}</span> '
            f'<span class="swing">{_swing(look)}</span> \u00b7 <span class="players">'
            f'{markup(look.name())}</span> \u00b7 <span class="move">{markup(look.move)}</span> \u00b7 '
            f'<code class="place">{markup(place)}</code></h3><p class="about">{_DOT.join(about)}</p>'
            f'<div class="position"><figure class="board">{board_svg.svg(board, label, shared=True)}'
            f'<figcaption>{markup(label)}</figcaption></figure><div class="moves-box"><p>The move and the '
            f'shot it walks into:</p><p class="moves line">{markup(" ".join(look.line_moves))}</p></div></div></div>')


_DOT = " \u00b7 "


def _errors(record: Record) -> str:
    items = []
    for problem in record.errors:
        where = f"{record.file}:{problem.line}:{problem.column}"
        move = f" (move {problem.move})" if problem.move is not None else ""
        items.append(f'<li><code class="where">{markup(where)}</code>{markup(move)}: '
                     f'<span class="text">{markup(problem.message)}</span> '
                     f'<span class="code">[{markup(problem.code)}]</span></li>')
    return f'<ul class="errors">{"".join(items)}</ul>'


def _waiting(picture: str, later: bool) -> str:
    """A board drawn at once, or kept as text until its game is opened."""
    return f'<script type="text/x-svg" class="board">{picture}</script>' if later else picture


def _board_block(board: ErrorBoard, later: bool) -> str:
    moves = f"{markup(board.played)} <mark>{markup(board.label)}</mark>"
    legal = " ".join(f"<code>{markup(move)}</code>" for move in board.legal) or "none"
    return (f'<div class="position"><figure class="board">{_waiting(board.svg, later)}'
            f'<figcaption>before {markup(board.label)}</figcaption></figure>'
            f'<div class="moves-box"><p class="moves">{moves}</p>'
            f'<p class="legal">Legal moves ({len(board.legal)}): {legal}</p></div></div>')


def _short(message: str, limit: int = 90) -> str:
    return message if len(message) <= limit else message[:limit - 1] + "\u2026"


# ---- the stats page ------------------------------------------------------------------------------

def stats_page(stats: archive.Stats, out: IO[str], title: str = "PDN archive summary",
               run: Run | None = None) -> None:
    """`stats --format html`: the totals and the run (this process's, unless given), then variants,
    results by outcome, games per year, errors by code."""
    summary = stats.summary
    outcomes: Counter[str] = Counter()
    for result, count in stats.results.items():
        stated = outcome(result)
        outcomes[LABELS[stated] if stated is not None else NO_RESULT] += count
    out.write(_head(title))
    out.write(f"<h1>{markup(title)}</h1>\n")
    warnings = _count(sum(summary.warnings.values()), "warning", "warnings")
    out.write(f'<p class="totals">{_validity(summary)}{_DOT}{warnings}{_DOT}'
              f'average length {stats.as_dict()["average_plies"]} plies</p>\n')
    out.write(_run_line(run or this_run()) + '\n<section class="summary">\n')
    out.write(_chart("variants", "Games by variant", sorted(stats.summary.variants.items(),
                                                            key=lambda item: -item[1])) + "\n")
    out.write(_chart("outcomes", "Results by outcome", outcomes.most_common()) + "\n")
    out.write(_table("results", "Results as written", ("result", "games"), stats.results.most_common()) + "\n")
    out.write(_years(stats.years) + "\n")
    if stats.summary.errors:
        out.write(_chart("codes", "Errors by code", stats.summary.errors.most_common()) + "\n")
    out.write("</section>\n</body>\n</html>\n")


# ---- parts of pages ------------------------------------------------------------------------------

def _head(title: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8"/>\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
            f"<title>{markup(title)}</title>\n<style>{_CSS}</style>\n<script>{_SCRIPT}</script>\n"
            f"</head>\n<body>\n")


def _table(kind: str, title: str, header: tuple[str, ...], rows: Iterable[tuple[Any, ...]]) -> str:
    cells = "".join(f"<th>{markup(name)}</th>" for name in header)
    number = ' class="num"'
    body = "".join("<tr>" + "".join(f'<td{number}>{v:,}</td>' if isinstance(v, int) else f"<td>{markup(str(v))}</td>"
                                    for v in row) + "</tr>" for row in rows)
    return f'<table class="{kind}"><caption>{markup(title)}</caption><tr>{cells}</tr>{body}</table>'


def _chart(kind: str, title: str, items: list[tuple[str, int]], link: str = "") -> str:
    """A horizontal bar chart: a bar per item, as long as its count against the largest; with a
    `link` prefix, each row links to the anchor `link` + its label."""
    if not items:
        return f'<figure class="chart {kind}"><figcaption>{markup(title)}</figcaption><p>none</p></figure>'
    label_width, bar_width, row = 170, 260, 22
    top = max(count for _, count in items) or 1
    height = row * len(items) + 4
    parts = [f'<figure class="chart {kind}"><figcaption>{markup(title)}</figcaption>'
             f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_width + bar_width + 70}" height="{height}" '
             f'font-size="12" font-family="sans-serif">']
    for index, (label, count) in enumerate(items):
        y = index * row + 2
        width = max(1.0, bar_width * count / top)
        drawn = (f'<text x="{label_width - 6}" y="{y + 15}" text-anchor="end">{markup(_short(label, 26))}</text>'
                 f'<rect class="bar" data-label="{markup(label)}" data-value="{count}" x="{label_width}" '
                 f'y="{y + 2}" width="{width:.1f}" height="{row - 6}" fill="#3d7fc4"/>'
                 f'<text x="{label_width + width + 5:.1f}" y="{y + 15}">{count:,}</text>')
        parts.append(f'<a href="#{markup(link + label)}">{drawn}</a>' if link else drawn)
    parts.append("</svg></figure>")
    return "".join(parts)


def _years(years: Counter[str]) -> str:
    """A column per year from the first to the last (0000, as some files write an unknown
    date, counts as no year), labelled every 1, 5 or 10 years."""
    dated = {int(year): n for year, n in years.items() if year.isdigit() and int(year) > 0}
    undated = sum(years.values()) - sum(dated.values())
    title = "Games per year" + (f" ({undated:,} without a year)" if undated else "")
    if not dated:
        return f'<figure class="chart years"><figcaption>{markup(title)}</figcaption><p>none</p></figure>'
    first, last = min(dated), max(dated)
    span = last - first + 1
    column = max(3, min(28, 900 // span))
    step = 1 if span <= 15 else 5 if span <= 60 else 10
    top = max(dated.values())
    base = 140
    parts = [f'<figure class="chart years"><figcaption>{markup(title)}</figcaption>'
             f'<svg xmlns="http://www.w3.org/2000/svg" width="{column * span + 40}" height="180" '
             f'font-size="11" font-family="sans-serif">'
             f'<line x1="10" y1="{base}" x2="{10 + column * span}" y2="{base}" stroke="#999999"/>']
    for year in range(first, last + 1):
        x = 10 + (year - first) * column
        count = dated.get(year, 0)
        if count:
            tall = max(1.0, 120 * count / top)
            parts.append(f'<rect class="bar" data-label="{year}" data-value="{count}" x="{x + 0.5:g}" '
                         f'y="{base - tall:.1f}" width="{max(column - 1, 1)}" height="{tall:.1f}" fill="#3d7fc4">'
                         f'<title>{year}: {count}</title></rect>')
        if year % step == 0 or span <= 15:
            parts.append(f'<line x1="{x + column / 2:g}" y1="{base}" x2="{x + column / 2:g}" y2="{base + 4}" '
                         f'stroke="#999999"/><text x="{x + column / 2:g}" y="{base + 16}" '
                         f'text-anchor="middle">{year}</text>')
    parts.append(f'<text x="10" y="12">highest: {top:,} games</text></svg></figure>')
    return "".join(parts)


# The script (no "<" or "&" in it: the page stays well-formed XML).  "js" on the root shows what
# needs it.  An opened game draws the boards it holds as text (toggle does not bubble: caught on
# the way down).  A click on a heading of a sortable table orders its rows by that column (numbers
# from the largest, text from A; a second click turns the order round); "Select all" selects the
# references.
_SCRIPT = """
document.documentElement.classList.add("js");
document.addEventListener("toggle", (event) => {
  const game = event.target;
  if (!game.open || !game.classList || !game.classList.contains("game")) return;
  game.querySelectorAll("script.board").forEach((held) => {
    const drawn = document.createElement("template");
    drawn.innerHTML = held.textContent;
    held.replaceWith(drawn.content);
  });
}, true);
document.addEventListener("click", (event) => {
  if (event.target.closest("button.select")) {
    window.getSelection().selectAllChildren(document.querySelector("pre.references"));
    return;
  }
  const head = event.target.closest("table.sortable th");
  if (!head) return;
  const numbers = head.dataset.sort === "number";
  const first = numbers ? "descending" : "ascending";
  const order = head.getAttribute("aria-sort") !== first ? first : numbers ? "ascending" : "descending";
  const sign = order === "ascending" ? 1 : -1;
  const body = head.closest("table").tBodies[0];
  const keyed = [...body.rows].map((row) => {
    const text = row.cells[head.cellIndex].textContent;
    return [numbers ? Number(text.replace(/,/g, "")) : text, row];
  });
  keyed.sort(numbers ? (a, b) => sign * (a[0] - b[0]) : (a, b) => sign * a[0].localeCompare(b[0]));
  const rows = document.createDocumentFragment();
  keyed.forEach((item) => rows.appendChild(item[1]));
  body.appendChild(rows);
  head.parentNode.querySelectorAll("th").forEach((cell) => cell.removeAttribute("aria-sort"));
  head.setAttribute("aria-sort", order);
});
"""

_CSS = """
body{font-family:system-ui,'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:70em;padding:0 1em;color:#222}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.5em}h3{font-size:1em;margin:1em 0 .3em}
.totals{font-size:1.1em;margin:.4em 0}.totals span{font-weight:bold}
.totals .invalid{color:#b3261e}.totals .valid{color:#1e7b34}.totals .warnings{color:#8a5a00}
.run{color:#555;font-size:.9em;margin:.4em 0}.run code{background:#f3f3f3;padding:0 .3em;word-break:break-all}
nav.contents{margin:.6em 0}
.summary{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
table{border-collapse:collapse;font-size:.9em}caption{font-weight:bold;text-align:left;padding:.2em 0}
td,th{border:1px solid #ccc;padding:.15em .5em;text-align:left}td.num{text-align:right}
.scroll{max-height:26em;overflow:auto;max-width:100%;display:inline-block;border-bottom:1px solid #ccc}
table.files thead th{position:sticky;top:0;background:#eee;white-space:nowrap}
table.files td:first-child{font-family:monospace;font-size:.9em}td.codes{font-size:.85em;color:#555}
.js th[data-sort]{cursor:pointer;user-select:none}
th[aria-sort=descending]::after{content:" \\25be"}th[aria-sort=ascending]::after{content:" \\25b4"}
details.clean{margin:.5em 0}details.clean>summary{cursor:pointer}details.clean li{font-family:monospace}
figure{margin:0}figcaption{font-weight:bold;font-size:.9em;padding:.2em 0}
svg a:hover rect{fill:#2a5d93}section.group:target>h3{background:#fff1a8}
div.look{border-top:1px solid #ddd;margin:.6em 0}div.look:target>h3{background:#fff1a8}
table.looks td.place{font-family:monospace;font-size:.9em}.rule{max-width:50em}
details.game{border:1px solid #ddd;border-radius:4px;margin:.3em 0;padding:.2em .6em}
details.game>summary{cursor:pointer;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
details.game .number{color:#777;display:inline-block;min-width:3em}
.place{font-family:monospace}.code{color:#b3261e;font-family:monospace}.more{font-style:italic}
.position{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start;margin:.5em 0}
.board svg{width:min(360px,90vw);height:auto}
.moves{font-family:monospace;max-width:36em;word-wrap:break-word}
.moves mark{background:#f6c8c4;color:#7a0f0a;font-weight:bold}
.legal code{margin-right:.4em}.errors{padding-left:1.2em}
pre.references{max-height:22em;overflow:auto;background:#f7f7f7;border:1px solid #ddd;padding:.5em}
button.select{display:none}.js button.select{display:inline}
"""
