"""The archive summary of `stats --format html`: the totals and the run, then variants, results by
outcome, games per year, errors by code."""
from __future__ import annotations

from collections import Counter
from typing import IO, Sequence

from pdn_tools.commands import archive
from pdn_tools.commands.html_page import _DOT, Run, _chart, _count, _head, _run_line, _table, _unread_count, \
    _unread_list, _validity, this_run
from pdn_tools.text.names import markup
from pdn_tools.text.results import LABELS, NO_RESULT, outcome


def stats_page(stats: archive.Stats, out: IO[str], title: str = "PDN archive summary",
               run: Run | None = None, unread: Sequence[tuple[str, str]] = ()) -> None:
    """`stats --format html`: the totals and the run (this process's, unless given), the inputs
    `unread` (path, note) to their end, then variants, results by outcome, games per year, errors by code."""
    summary = stats.summary
    outcomes: Counter[str] = Counter()
    for result, count in stats.results.items():
        stated = outcome(result)
        outcomes[LABELS[stated] if stated is not None else NO_RESULT] += count
    out.write(_head(title))
    out.write(f"<h1>{markup(title)}</h1>\n")
    warnings = _count(sum(summary.warnings.values()), "warning", "warnings")
    out.write(f'<p class="totals">{_validity(summary)}{_DOT}{warnings}{_DOT}'
              f'average length {stats.as_dict()["average_plies"]} plies{_unread_count(unread)}</p>\n')
    out.write(_run_line(run or this_run()) + "\n" + _unread_list(unread) + '<section class="summary">\n')
    out.write(_chart("variants", "Games by variant", sorted(stats.summary.variants.items(),
                                                            key=lambda item: -item[1])) + "\n")
    out.write(_chart("outcomes", "Results by outcome", outcomes.most_common()) + "\n")
    out.write(_table("results", "Results as written", ("result", "games"), stats.results.most_common()) + "\n")
    out.write(_years(stats.years) + "\n")
    if stats.summary.errors:
        out.write(_chart("codes", "Errors by code", stats.summary.errors.most_common()) + "\n")
    out.write("</section>\n</body>\n</html>\n")


def _years(years: Counter[str]) -> str:
    """A column per year from the first to the last (`archive.stats_game`'s years), labelled every
    1, 5 or 10 years."""
    dated = {int(year): n for year, n in years.items() if year.isdigit()}
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
