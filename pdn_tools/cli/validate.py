"""`pdn validate`: every game checked, reported as text lines, JSON lines or an HTML audit page (one
class per --format, in FORMATS)."""
from __future__ import annotations

import functools
import sys
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Callable, ClassVar, NamedTuple

import click

from pdn_tools.cli.options import (Needs, Reading, Writing, format_option, reading_options, shots_given,
                                  writing_options)
from pdn_tools.cli.choices import SHOTS_DEPTH, SHOTS_NODES, WARNING_CODES
from pdn_tools.cli.run import Run, command, not_to_terminal, write_page

if TYPE_CHECKING:      # a run imports them, not `pdn validate --help` (docs/start-up.md)
    from pdn_tools.commands import report
    from pdn_tools.play.check import Checked
    from pdn_tools.rules.search import Evaluations
    from pdn_tools.running.per_worker import PerWorker


class Options(NamedTuple):
    """validate's own options: how the text report shows warnings, and what it adds."""

    warnings: str = "grouped"
    ignore: frozenset[str] = frozenset()
    summary: bool = False
    show_board: bool = False
    shots: int | None = None            # --shots' search depth, in JSON lines or the page (None: no --shots)
    nodes: int = SHOTS_NODES            # --shots' node budget a search

    def searches(self) -> PerWorker[Evaluations] | None:
        """The searches of --shots: a cache per worker process."""
        if self.shots is None:
            return None
        from pdn_tools.rules.search import Evaluations
        from pdn_tools.running.per_worker import PerWorker

        return PerWorker(functools.partial(Evaluations, self.shots, self.nodes))


class Format(ABC):
    """One --format of validate: it writes the report of a run's games (a new format is one subclass
    and its line in FORMATS)."""

    page: ClassVar[bool] = False        # a whole page: never to a terminal, said before any work

    def __init__(self, options: Options, quiet: bool) -> None:
        from pdn_tools.commands import report

        self.options, self.quiet = options, quiet
        self.totals = report.Summary()

    @abstractmethod
    def validate(self, run: Run, writing: Writing) -> report.Summary:
        """Write the report of the run's games; their counts."""


class Lines(Format):
    """A report written line by line as the games come; `each` for one job, `folded` for workers
    (--jobs, --dask: they send the report of each part of a file as one text with its summary)."""

    def validate(self, run: Run, writing: Writing) -> report.Summary:
        with run.output(writing):
            if run.reading.dask or run.reading.jobs > 1:
                self.folded(run)
            else:
                self.each(run)
            for line in self.closing([path for path, _ in run.inputs.unread]):
                run.terminal.out(line)
            run.terminal.close()
        return self.totals

    @abstractmethod
    def each(self, run: Run) -> None:
        """The report of each game as it comes."""

    @abstractmethod
    def folded(self, run: Run) -> None:
        """The report of each part of a file, made by the workers."""

    @abstractmethod
    def closing(self, unread: list[str]) -> list[str]:
        """The lines that end the report (`unread`: the inputs not read to their end)."""


class TextLines(Lines):
    """One line per problem, in file order; warnings grouped per file and code, one by one, or none."""

    def __init__(self, options: Options, quiet: bool) -> None:
        from pdn_tools.commands import report
        from pdn_tools.running import batch

        super().__init__(options, quiet)
        if options.show_board:
            from pdn_tools.play.error_boards import boards_at_errors
        self.text = report.TextReport("none" if quiet else options.warnings, options.ignore)
        self.work = boards_at_errors if options.show_board else batch.no_work

    def each(self, run: Run) -> None:
        from pdn_tools.commands import report

        for record, boards in run.checked(self.work):
            self.totals.add(record)
            for line in self.text.lines(record, functools.partial(report.lines_with_boards, boards=boards or [])):
                run.terminal.out(line)
            run.terminal.game_done()

    def folded(self, run: Run) -> None:
        from pdn_tools.commands import report

        fold = functools.partial(report.text_part, warnings=self.text.mode, ignore=self.text.ignore,
                                 render=report.lines_with_boards)
        for part in run.folded(self.work, fold):
            run.terminal.out(self.text.add_part(part), end="")
            self.totals.merge(part.summary)

    def closing(self, unread: list[str]) -> list[str]:
        return self.text.close() + (self.totals.lines() if self.options.summary else [])


class JsonLines(Lines):
    """One JSON object per game, every warning in it; --summary: one more with the counts."""

    def lines(self) -> Callable[[Checked], str]:
        """The work: a game's JSON line, with its shots when asked."""
        from pdn_tools.commands import report

        searches = self.options.searches()
        if searches is None:
            return report.checked_json_line
        from pdn_tools.running.per_worker import shots_line

        return functools.partial(shots_line, evaluate=searches)

    def each(self, run: Run) -> None:
        for record, json_line in run.checked(self.lines()):
            self.totals.add(record)
            run.terminal.out(json_line)
            run.terminal.game_done()

    def folded(self, run: Run) -> None:
        from pdn_tools.commands import report

        for lines in run.folded(self.lines(), report.json_part):
            run.terminal.out(lines.text, end="")
            self.totals.merge(lines.summary)

    def closing(self, unread: list[str]) -> list[str]:
        from pdn_tools.commands import report

        counts = {**self.totals.as_dict(), "unreadable": unread}
        return [report.json_line({"summary": counts})] if self.options.summary else []


class AuditPageFormat(Format):
    """A self-contained HTML audit page, written once every game is in."""

    page = True

    def validate(self, run: Run, writing: Writing) -> report.Summary:
        from pdn_tools.commands import html_report
        from pdn_tools.running.files import temporary_file
        from pdn_tools.running.per_worker import audited

        spool = functools.partial(temporary_file, "w+", "utf-8")   # one that cannot be made: a line, exit 2
        page = html_report.AuditPage(depth=self.options.shots, spool=spool)
        for record, (game, (looks, unjudged)) in run.checked(functools.partial(audited, evaluate=self.options.searches())):
            page.add(record, game)
            page.add_looks(looks, unjudged)
            run.terminal.game_done()
        run.terminal.close()
        page.unread = tuple(run.inputs.unread)
        write_page(run, writing, page.write)
        return page.summary


FORMATS: dict[str, type[Format]] = {"text": TextLines, "jsonl": JsonLines, "html": AuditPageFormat}


@command("validate", [
    "pdn validate games.pdn archive/            # errors, and warnings counted per file",
    "pdn validate --warnings each --ignore inferred-variant OCA_2.0.pdn",
    "pdn validate --format jsonl --summary --jobs 2 archive/ -o report.jsonl"])
@format_option(FORMATS, "text", "One line per problem, one JSON object per game (every warning in it), "
                                "or a self-contained HTML audit page.")
@click.option("--warnings", "warning_mode", type=click.Choice(["grouped", "each", "none"]), default="grouped",
              show_default=True, help="Text report: warnings counted per file and code, one by one, or none.")
@click.option("--ignore", multiple=True, type=click.Choice(list(WARNING_CODES)), metavar="CODE",
              help="Leave this warning code out of the text report (repeatable); errors always show.")
@click.option("--summary", is_flag=True,
              help="End with a table of games per variant and problems per code, and the tally line on stderr "
                   "even when it is not a terminal.")
@click.option("--show-board", is_flag=True, cls=Needs, needs=lambda params: params["fmt"] == "text",
              what="goes with --format text",
              help="Under each move error, the board before the move and the legal moves there.")
@click.option("--shots", is_flag=True, cls=Needs, needs=lambda params: params["fmt"] != "text",
              what="goes with --format jsonl or html",
              help="With --format jsonl: the moves a search judges shots, missed shots "
              "or moves into a shot, and those it could not judge within --nodes, in a \"shots\" field "
              "(docs/analysis.md); with --format html: the moves "
              "worth a second look (docs/second-look.md).")
@click.option("--depth", type=click.IntRange(0, 40), cls=Needs, needs=shots_given, what="goes with --shots",
              help=f"--shots' search depth in quiet plies  [default: {SHOTS_DEPTH}]")
@click.option("--nodes", type=click.IntRange(1), cls=Needs, needs=shots_given, what="goes with --shots", metavar="N",
              help=f"--shots' node budget for each search: a move whose search goes past it is not judged, and "
                   f"says so (docs/analysis.md)  [default: {SHOTS_NODES}]")
@writing_options()
@reading_options(dask=True, quiet="Only errors: --warnings none, and no progress line or closing tally.")
def validate(fmt: str, warning_mode: str, ignore: tuple[str, ...], summary: bool, show_board: bool, shots: bool,
             depth: int | None, nodes: int | None, writing: Writing, reading: Reading) -> None:
    """Check every game of PATHS (files, folders, or - for stdin): each move legal, the result right.

    Text output gives every error, in file order, and by default one line per warning code
    and file (its first place and count).  Compressed files (.gz, .bz2, .xz, .zst) are read as they are.
    """
    searched = (SHOTS_DEPTH if depth is None else depth) if shots else None
    form = FORMATS[fmt](Options(warning_mode, frozenset(ignore), summary, show_board, searched,
                                SHOTS_NODES if nodes is None else nodes), reading.quiet)
    if form.page:
        not_to_terminal(writing)
    from pdn_tools.running.terminal import validity

    run = Run(reading, summary=summary)
    totals = form.validate(run, writing)
    run.terminal.tally(validity(totals.games, totals.games - totals.valid, len(totals.invalid_files),
                                run.inputs.unreadable))
    sys.exit(run.exit_code())
