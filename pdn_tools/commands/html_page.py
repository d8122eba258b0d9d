"""The parts every HTML page shares: the head (CSS, script), the stamp of the run, counts, tables
and bar charts.

Each page is one self-contained file: inline CSS, SVG and a few lines of script, nothing
fetched; with script off, it shows the same.
"""
from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Sequence

import pdn_tools
from pdn_tools.commands import report
from pdn_tools.text.names import markup


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


_DOT = " \u00b7 "


def _count(number: int, noun: str, kind: str = "") -> str:
    """`1 game`, `1,645 games`; with a `kind`, the number in a span of that class."""
    shown = f'<span class="{kind}">{number:,}</span>' if kind else f"{number:,}"
    return f"{shown} {noun}" + ("" if number == 1 else "s")


def _validity(summary: report.Summary) -> str:
    """`36,287 games · 36,146 valid · 141 invalid`, each number in a span of its class."""
    return (f'{_count(summary.games, "game", "games")}{_DOT}<span class="valid">{summary.valid:,}</span> valid{_DOT}'
            f'<span class="invalid">{summary.games - summary.valid:,}</span> invalid')


def _unread_count(unread: Sequence[tuple[str, str]]) -> str:
    """`· 2 inputs unreadable` when some input could not be read (or not to its end), else ''."""
    return f'{_DOT}{_count(len(unread), "input", "unreadable")} unreadable' if unread else ""


def _unread_list(unread: Sequence[tuple[str, str]]) -> str:
    """The inputs not read (or not to their end), each with the reason stderr gave."""
    if not unread:
        return ""
    items = "".join(f'<li class="input">{markup(note.removeprefix("pdn: "))}</li>' for _, note in unread)
    return (f'<section id="unreadable"><h2>Inputs not read to their end ({len(unread):,})</h2>\n'
            f'<p>Their games after the point named are not counted in this page.</p>\n'
            f'<ul class="unreadable-inputs">{items}</ul>\n</section>\n')


def _short(message: str, limit: int = 90) -> str:
    return message if len(message) <= limit else message[:limit - 1] + "\u2026"


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
