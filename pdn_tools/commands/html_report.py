"""HTML pages: the audit report of `validate --format html` and the archive summary of
`stats --format html`.

Each page is one self-contained file: inline CSS and SVG, no script, nothing fetched.
The audit report streams: the worker processes send back, for each invalid game, only
the strings its section needs (`audit_game`); the main process writes each section to
a temporary file as it comes and keeps nothing but counts.  The summary, which needs the
counts of every game, is written first when the page is put together (`AuditPage.write`),
then the sections are copied from the temporary file in pages of `PAGE` games, each page
a collapsed `<details>` but the first, so that a report of 10,000 invalid games opens fast:
past the first page, each board waits as raw text in a `<script type="text/x-svg">` (the
browser only scans it for its end tag) that a few lines of inline script draw when its game
is opened.
"""
from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any, Iterable

from pdn_tools.commands import archive, report
from pdn_tools.play import board as diagram
from pdn_tools.play.check import Checked, Record
from pdn_tools.rules.variants import variant_by_name
from pdn_tools.text.model import Game, ReadError
from pdn_tools.text.names import markup
from pdn_tools.text.results import LABELS, NO_RESULT, outcome

PAGE = 200                  # invalid games per collapsed section
OPEN_GAMES = 5              # games shown open at the top of the first section


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
    boards: tuple[diagram.ErrorBoard, ...]
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
    boards = tuple(diagram.error_boards(result, with_svg=True))
    alpha = result.variant.alpha
    moves = game.main_line()
    if moves:
        alpha = moves[0].squares[0][:1].isalpha()
    final, label = "", ""
    if not boards and result.final is not None:
        board = diagram.board_after(result, None, alpha)
        final = diagram.svg(board, "last position", shared=True)
        label = diagram.caption_lines(result)[1]
    replayed = diagram.moves_text(result, len(result.plies)) if result.plies else ""
    return InvalidGame(_tag(game, "White"), _tag(game, "Black"), _tag(game, "Event"), _tag(game, "Date"),
                       result.variant.name, alpha, boards, final, label, replayed)


def _tag(game: Game | None, name: str) -> str:
    return (game.tag(name) or "") if game is not None else ""


# ---- the audit page ------------------------------------------------------------------------------

@dataclass
class _FileCounts:
    games: int = 0
    valid: int = 0


@dataclass
class AuditPage:
    """The audit report, built game by game; `write` puts the page together."""

    title: str = "PDN audit report"
    summary: report.Summary = field(default_factory=report.Summary)
    files: dict[str, _FileCounts] = field(default_factory=dict)
    invalid: int = 0
    defined: set[str] = field(default_factory=set)
    spool: IO[str] = field(default_factory=lambda: tempfile.TemporaryFile("w+", encoding="utf-8"))

    def add(self, record: Record, game: InvalidGame | None) -> None:
        """Count a game; an invalid one gets its section (one line of the spool)."""
        self.summary.add(record)
        counts = self.files.setdefault(record.file, _FileCounts())
        counts.games += 1
        counts.valid += record.ok
        if game is None:
            return
        self.invalid += 1
        section = self._definitions(game) + _game_section(self.invalid, record, game, self.invalid > PAGE)
        self.spool.write(section.replace("\n", " ") + "\n")

    def _definitions(self, game: InvalidGame) -> str:
        """The squares of a board kind the first time a game needs them."""
        variant = variant_by_name(game.variant)
        if variant is None or not (game.boards or game.final):
            return ""
        key = f"{variant.name}-{game.alpha}"
        if key in self.defined:
            return ""
        self.defined.add(key)
        return diagram.defs([(variant, game.alpha, False)], pieces=False)

    def write(self, out: IO[str]) -> None:
        """The whole page: summary first, then the invalid games in collapsed pages."""
        out.write(_head(self.title))
        out.write(diagram.defs([], pieces=True))
        out.write(_audit_summary(self))
        out.write(f'<section class="invalid"><h2>Invalid games ({self.invalid})</h2>\n')
        if not self.invalid:
            out.write('<p class="none">Every game is valid.</p>\n')
        self.spool.seek(0)
        for number, line in enumerate(self.spool, 1):
            if number % PAGE == 1:
                if number > 1:
                    out.write("</details>\n")
                last = min(number + PAGE - 1, self.invalid)
                opened = ' open=""' if number == 1 else ""
                out.write(f'<details class="page"{opened}><summary>Invalid games {number}\u2013{last}</summary>\n')
            out.write(line)
        if self.invalid:
            out.write("</details>\n")
        out.write("</section>\n</body>\n</html>\n")
        self.spool.close()


def _audit_summary(page: AuditPage) -> str:
    summary = page.summary
    invalid = summary.games - summary.valid
    parts = [f"<h1>{markup(page.title)}</h1>",
             f'<p class="totals"><span class="games">{summary.games}</span> games \u00b7 '
             f'<span class="valid">{summary.valid}</span> valid \u00b7 '
             f'<span class="invalid">{invalid}</span> invalid</p>',
             '<section class="summary">']
    parts.append(_table("files", "Files", ("file", "games", "valid", "invalid"),
                        [(name, c.games, c.valid, c.games - c.valid) for name, c in page.files.items()]))
    parts.append(_table("variants", "Variants", ("variant", "games", "valid", "invalid"),
                        [(name, n, n - summary.invalid_variants[name], summary.invalid_variants[name])
                         for name, n in sorted(summary.variants.items())]))
    parts.append(_chart("codes", "Errors by code", summary.errors.most_common()))
    parts.append(_chart("invalid-variants", "Invalid games by variant", summary.invalid_variants.most_common()))
    if summary.warnings:
        parts.append(_chart("warnings", "Warnings by code", summary.warnings.most_common()))
    parts.append("</section>")
    return "\n".join(parts) + "\n"


def _game_section(number: int, record: Record, game: InvalidGame, later: bool) -> str:
    """One invalid game, on one line: a collapsed <details> whose summary names it; `later`
    games keep their boards in templates until opened."""
    code, message = (record.errors[0].code, record.errors[0].message) if record.errors else ("", "")
    place = f"{record.file}:{record.line}"
    players = f"{game.white or '?'} \u2013 {game.black or '?'}"
    opened = ' open=""' if number <= OPEN_GAMES else ""
    head = (f'<details class="game" id="game-{number}" data-code="{markup(code)}"{opened}>'
            f'<summary><span class="number">{number}</span> <span class="place">{markup(place)}</span> '
            f'<span class="players">{markup(players)}</span> <span class="code">{markup(code)}</span> '
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


def _board_block(board: diagram.ErrorBoard, later: bool) -> str:
    moves = f"{markup(board.played)} <mark>{markup(board.label)}</mark>"
    legal = " ".join(f"<code>{markup(move)}</code>" for move in board.legal) or "none"
    return (f'<div class="position"><figure class="board">{_waiting(board.svg, later)}'
            f'<figcaption>before {markup(board.label)}</figcaption></figure>'
            f'<div class="moves-box"><p class="moves">{moves}</p>'
            f'<p class="legal">Legal moves ({len(board.legal)}): {legal}</p></div></div>')


def _short(message: str, limit: int = 90) -> str:
    return message if len(message) <= limit else message[:limit - 1] + "\u2026"


# ---- the stats page ------------------------------------------------------------------------------

def stats_page(stats: archive.Stats, out: IO[str], title: str = "PDN archive summary") -> None:
    """`stats --format html`: variants, results by outcome, games per year, errors by code."""
    data = stats.as_dict()
    outcomes: Counter[str] = Counter()
    for result, count in stats.results.items():
        stated = outcome(result)
        outcomes[LABELS[stated] if stated is not None else NO_RESULT] += count
    out.write(_head(title))
    out.write(f"<h1>{markup(title)}</h1>\n")
    out.write(f'<p class="totals"><span class="games">{data["games"]}</span> games \u00b7 '
              f'<span class="valid">{data["valid"]}</span> valid \u00b7 '
              f'<span class="invalid">{data["invalid"]}</span> invalid \u00b7 '
              f'average length {data["average_plies"]} plies</p>\n<section class="summary">\n')
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
    body = "".join("<tr>" + "".join(f'<td{number if isinstance(v, int) else ""}>{markup(str(v))}</td>'
                                    for v in row) + "</tr>" for row in rows)
    return f'<table class="{kind}"><caption>{markup(title)}</caption><tr>{cells}</tr>{body}</table>'


def _chart(kind: str, title: str, items: list[tuple[str, int]]) -> str:
    """A horizontal bar chart: a bar per item, as long as its count against the largest."""
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
        parts.append(f'<text x="{label_width - 6}" y="{y + 15}" text-anchor="end">{markup(_short(label, 26))}</text>'
                     f'<rect class="bar" data-label="{markup(label)}" data-value="{count}" x="{label_width}" '
                     f'y="{y + 2}" width="{width:.1f}" height="{row - 6}" fill="#3d7fc4"/>'
                     f'<text x="{label_width + width + 5:.1f}" y="{y + 15}">{count}</text>')
    parts.append("</svg></figure>")
    return "".join(parts)


def _years(years: Counter[str]) -> str:
    """A column per year from the first to the last (0000, as some files write an unknown
    date, counts as no year), labelled every 1, 5 or 10 years."""
    dated = {int(year): n for year, n in years.items() if year.isdigit() and int(year) > 0}
    undated = sum(years.values()) - sum(dated.values())
    title = "Games per year" + (f" ({undated} without a year)" if undated else "")
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
    parts.append(f'<text x="10" y="12">highest: {top} games</text></svg></figure>')
    return "".join(parts)


# An opened game draws the boards it holds as text (toggle does not bubble: caught on the way down).
_SCRIPT = """
document.addEventListener("toggle", (event) => {
  const game = event.target;
  if (!game.open || !game.classList || !game.classList.contains("game")) return;
  game.querySelectorAll("script.board").forEach((held) => {
    const drawn = document.createElement("template");
    drawn.innerHTML = held.textContent;
    held.replaceWith(drawn.content);
  });
}, true);
"""

_CSS = """
body{font-family:system-ui,'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:70em;padding:0 1em;color:#222}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.5em}
.totals{font-size:1.1em}.totals span{font-weight:bold}.totals .invalid{color:#b3261e}.totals .valid{color:#1e7b34}
.summary{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
table{border-collapse:collapse;font-size:.9em}caption{font-weight:bold;text-align:left;padding:.2em 0}
td,th{border:1px solid #ccc;padding:.15em .5em;text-align:left}td.num{text-align:right}
figure{margin:0}figcaption{font-weight:bold;font-size:.9em;padding:.2em 0}
details.page>summary{font-weight:bold;cursor:pointer;padding:.3em 0}
details.game{border:1px solid #ddd;border-radius:4px;margin:.3em 0;padding:.2em .6em}
details.game>summary{cursor:pointer;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
details.game .number{color:#777;display:inline-block;min-width:3em}
details.game .place{font-family:monospace}details.game .code{color:#b3261e;font-family:monospace}
.position{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start;margin:.5em 0}
.board svg{width:min(360px,90vw);height:auto}
.moves{font-family:monospace;max-width:36em;word-wrap:break-word}
.moves mark{background:#f6c8c4;color:#7a0f0a;font-weight:bold}
.legal code{margin-right:.4em}.errors{padding-left:1.2em}
"""
