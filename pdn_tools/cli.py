"""The `pdn` command line.

Exit codes: 0 every game is valid, 1 some game is invalid, 2 usage error or an
input that cannot be read.  Reports go to stdout, progress and notes to stderr.
"""
from __future__ import annotations

import contextlib
import functools
import itertools
import os
import re
import sys
from typing import IO, TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Protocol, Sequence, TextIO, TypeVar

import click

from pdn_tools.commands import archive
from pdn_tools.running import batch
from pdn_tools.play import board as diagrams
from pdn_tools.commands import report
from pdn_tools.commands.annotate import Options as Annotations, annotate_game
from pdn_tools.commands.archive import Criteria
from pdn_tools.running import output as streams
from pdn_tools.running.output import atomic_output
from pdn_tools.text.names import printable
from pdn_tools.text.writer import game_text
from pdn_tools.running.terminal import Terminal, games, validity
from pdn_tools.text.codes import Code, Severity
from pdn_tools.text.model import ReadError
from pdn_tools.text.results import RESULTS, Outcome
from pdn_tools.rules.fen import FenError, parse_fen
from pdn_tools.rules.movegen import Position, divide, perft as count_leaves
from pdn_tools.text.reader import MAX_GAME_BYTES, parse_raw
from pdn_tools.play.check import Checked, Record, check
from pdn_tools.rules.variants import DEFAULT_RULES, RULE_SETS, VARIANTS, RuleSet, Variant, variant_by_name
from pdn_tools.running.batch import EXIT_INVALID, EXIT_OK, EXIT_USAGE

T = TypeVar("T")
WARNING_CODES = [code.value for code in Code if code.severity == Severity.WARNING]
EXIT_CLOSED_PIPE = 128 + 13             # as a process ended by SIGPIPE


if TYPE_CHECKING:
    from pdn_tools.running import writing

    _ParamType = click.ParamType[Variant]
else:
    _ParamType = click.ParamType        # generic for type checkers only before click 8.2


class VariantType(_ParamType):
    """A variant named by name, alias or GameType number (`--variant` of every command)."""

    name = "variant"

    def convert(self, value: str | Variant, param: click.Parameter | None, ctx: click.Context | None) -> Variant:
        if isinstance(value, Variant):
            return value
        variant = variant_by_name(value)
        if variant is None:
            self.fail(f"unknown variant {value!r}; known: {', '.join(sorted(VARIANTS))}", param, ctx)
        return variant


VARIANT = VariantType()
variant_option = click.option("--variant", type=VARIANT, metavar="NAME",
                              help="Rules to use instead of the GameType tag (name or GameType number).")
rules_option = click.option(
    "--rules", type=click.Choice(list(RULE_SETS)), default=DEFAULT_RULES.name, show_default=True,
    callback=lambda ctx, param, value: RULE_SETS[value],
    help="Draw rules to check results by: " + "; ".join(f"{r.name}: {r.description}" for r in RULE_SETS.values())
         + " (README: Rules and their sources).")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
                           help="Worker processes; output keeps the input order.")
def _encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from pdn_tools.text.decoding import known_encoding
    try:
        return known_encoding(value)
    except LookupError:
        raise click.BadParameter(f"unknown encoding {value!r} (a Python codec name: cp1251, latin-1, utf-16 ...)") \
            from None


encoding_option = click.option("--encoding", callback=_encoding, metavar="NAME",
                               help="Read the input in this encoding instead of detecting it.")


class OneLineError(click.ClickException):
    """A usage error said in one line, `pdn: message` (exit 2), without the usage text."""

    exit_code = EXIT_USAGE

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"pdn: {self.message}", err=True)


def _not_to_terminal(output: str | None) -> None:
    """Binary data and whole pages go to a file, not to a terminal (as gzip refuses to): said before
    any work."""
    if output in (None, "-") and sys.stdout.isatty():
        raise OneLineError("not written to a terminal; use -o FILE")


def _dask_address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--dask checked before anything is read: a scheduler address or local[:N]."""
    if value is None:
        return None
    from pdn_tools.running.distributed import DaskError, check_address

    try:
        return check_address(value)
    except DaskError as error:
        raise OneLineError(str(error)) from None


dask_option = click.option("--dask", metavar="ADDRESS", callback=_dask_address,
                           help="Run on a Dask cluster: its scheduler (tcp://host:8786), or local[:N] for N "
                                "local workers; the workers read the files (same paths, or URLs).")
quiet_option = click.option("--quiet", "-q", is_flag=True,
                            help="No progress line and no closing tally; errors and notes of changes made stay.")
strict_option = click.option("--strict", is_flag=True,
                             help="Report tolerated quirks of real files as errors.")


def _paths(command: Any) -> Any:
    """PATHS (files, folders, - for stdin) and --glob, for a command that reads games."""
    command = click.option("--max-game-bytes", type=click.IntRange(1), default=MAX_GAME_BYTES, show_default=True,
                           expose_value=False, callback=_keep_max_game_bytes, metavar="N",
                           help="A game longer than N characters is reported as too large (game-too-large) "
                                "and not read; memory stays bounded.")(command)
    command = click.option("--glob", "globs", multiple=True, metavar="PATTERN",
                           help="Files of a folder to read (repeatable)  "
                                "[default: *.pdn and *.pdn.gz/.bz2/.xz].")(command)
    return click.argument("paths", nargs=-1, type=click.Path())(command)


def _keep_max_game_bytes(ctx: click.Context, param: click.Parameter, value: int) -> int:
    ctx.meta["max_game_bytes"] = value        # read by _inputs, beside the paths it goes with
    return value


def _inputs(paths: tuple[str, ...], globs: tuple[str, ...], progress: bool | None = None,
            encoding: str | None = None, out: TextIO | None = None, quiet: bool = False,
            summary: bool = False) -> tuple[batch.Inputs, Terminal]:
    """The inputs named, and the terminal their reports go to (with a progress line and a closing
    tally on a terminal, unless quiet).  No path while stdin is a terminal is a usage error: nothing
    would come."""
    if not paths and sys.stdin.isatty():
        raise click.UsageError("name the files or folders to read (or - for stdin)")
    inputs = batch.Inputs(paths, globs or batch.DEFAULT_GLOBS, encoding=encoding,
                          max_game_bytes=click.get_current_context().meta.get("max_game_bytes", MAX_GAME_BYTES))
    click.get_current_context().meta.setdefault(_READ, []).append(inputs)
    terminal = Terminal(inputs, progress, out, quiet=quiet, summary=summary)
    inputs.note = terminal.note
    return inputs, terminal


_READ, _PARTIAL = "pdn.inputs", "pdn.partial"      # the command's inputs, and --partial, in its context's meta


def _complete() -> bool:
    """Whether the command's -o FILE may be written: no input ended before its end (cut, changed
    while read), or --partial asks for the games read."""
    meta = click.get_current_context().meta
    return bool(meta.get(_PARTIAL)) or not any(inputs.cut for inputs in meta.get(_READ, []))


@contextlib.contextmanager
def _writing(output: str | None) -> Iterator[TextIO]:
    """stdout, or the file OUTPUT written atomically (it replaces the old one only once complete,
    and only when no input was cut unless --partial); one that cannot be written ends the
    command (exit 2)."""
    if output in (None, "-"):
        yield sys.stdout
        return
    try:
        with atomic_output(output, _complete) as stream:
            yield stream
    except OSError as error:
        _cannot_write(output, error)


def _keep_partial(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    ctx.meta[_PARTIAL] = value


partial_option = click.option("--partial", is_flag=True, expose_value=False, callback=_keep_partial,
                              help="Write -o FILE even when an input is cut or changes while read "
                                   "(its complete games; exit 2 still).")


def output_option(command: Any) -> Any:
    """-o FILE, and --partial, for a command that reads games."""
    command = partial_option(command)
    return click.option("--output", "-o", metavar="FILE", help="Write to FILE (atomically) instead of stdout.")(command)


def _refuse_overwriting_inputs(params: dict[str, Any]) -> None:
    """End the command (exit 2) before it reads anything when a file it would write (-o FILE, a part
    `split` writes in its folder) is one of its inputs, by whatever path."""
    if params.get("folder") is not None:
        outputs = archive.earlier_parts(params["folder"], params["prefix"])
    else:
        outputs = [params["output"]] if params.get("output") not in (None, "-") else []
    if "paths" in params:
        named = batch.Inputs(params["paths"], params.get("globs") or batch.DEFAULT_GLOBS).named_files()
    else:
        named = iter([params["path"]] if "path" in params else [])
    clash = streams.overwritten_input(outputs, named)
    if clash is not None:
        output, path = clash
        shown = "standard input" if path == "-" else printable(path)
        click.echo(f"pdn: cannot write {printable(output)}: it is the input {shown}; write elsewhere "
                   "(only convert --in-place rewrites its inputs)", err=True)
        sys.exit(EXIT_USAGE)


class _Command(click.Command):
    """A pdn command: one whose outputs are refused when they are its inputs (see above)."""

    def invoke(self, ctx: click.Context) -> Any:
        _refuse_overwriting_inputs(ctx.params)
        return super().invoke(ctx)


class _Group(click.Group):
    command_class = _Command


def _runner(inputs: batch.Inputs, jobs: int, strict: bool, variant: Variant | None, dask: str | None,
            terminal: Terminal, rules: RuleSet | None = None) -> batch.Runner:
    """The command's runner: on this machine, or on a Dask cluster when --dask names one."""
    return batch.Runner(inputs, jobs, strict, variant, _backend(dask, terminal) if dask else None, rules)


def _backend(dask: str | None, terminal: Terminal, fold: Callable[[list[Any]], Any] | None = None) -> batch.Backend:
    """`batch.run`, or the same results from a Dask cluster when --dask names one (with `fold`, one
    `fold(results)` a part of a file instead, folded on the workers)."""
    if dask is None:
        return batch.run if fold is None else functools.partial(batch.run, fold=fold)

    def on_dask(inputs: batch.Inputs, work: batch.Work[Any], jobs: int, strict: bool) -> Iterator[Any]:
        from pdn_tools.running import distributed

        if jobs > 1:
            raise click.UsageError("--dask runs on the cluster's workers: not with --jobs")
        if not inputs.paths or "-" in inputs.paths:
            raise click.UsageError("--dask: the workers read files by name, not standard input")
        progress = distributed.Progress(inputs)
        terminal.source = progress              # the progress line follows the ranges that came back
        try:
            with distributed.connect(dask) as client:
                if fold is None:
                    yield from distributed.run(client, inputs, work, strict, progress=progress)
                else:
                    yield from distributed.run_folded(client, inputs, work, fold, strict, progress=progress)
        except distributed.DaskError as error:
            click.echo(printable(f"pdn: {error}"), err=True)
            sys.exit(EXIT_USAGE)
    return on_dask


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pdn-tools")
def cli() -> None:
    """Read, validate and convert draughts games in PDN."""


@cli.command()
@_paths
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl", "html"]), default="text", show_default=True,
              help="One line per problem, one JSON object per game (every warning in it), "
                   "or a self-contained HTML audit page.")
@strict_option
@encoding_option
@variant_option
@rules_option
@click.option("--warnings", "warning_mode", type=click.Choice(["grouped", "each", "none"]), default="grouped",
              show_default=True, help="Text report: warnings counted per file and code, one by one, or none.")
@click.option("--quiet", "-q", is_flag=True,
              help="Only errors: --warnings none, and no progress line or closing tally.")
@click.option("--ignore", multiple=True, type=click.Choice(WARNING_CODES), metavar="CODE",
              help="Leave this warning code out of the text report (repeatable); errors always show.")
@click.option("--summary", is_flag=True,
              help="End with a table of games per variant and problems per code, and the tally line on stderr "
                   "even when it is not a terminal.")
@click.option("--show-board", is_flag=True,
              help="Under each move error, the board before the move and the legal moves there.")
@output_option
@jobs_option
@dask_option
def validate(paths: tuple[str, ...], globs: tuple[str, ...], fmt: str, strict: bool, encoding: str | None,
             variant: Variant | None, rules: RuleSet, warning_mode: str, quiet: bool, ignore: tuple[str, ...], summary: bool,
             show_board: bool, output: str | None, jobs: int, dask: str | None) -> None:
    """Check every game of PATHS (files, folders, or - for stdin): each move legal, the result right.

    Text output gives every error, in file order, and by default one line per warning code
    and file (its first place and count).  Compressed files (.gz, .bz2, .xz) are read as they are.
    """
    if show_board and fmt != "text":
        raise click.UsageError("--show-board goes with --format text")
    if fmt == "html":
        _not_to_terminal(output)
        inputs, terminal = _inputs(paths, globs, encoding=encoding, quiet=quiet, summary=summary)
        runner = _runner(inputs, jobs, strict, variant, dask, terminal, rules)
        _tally_validity(terminal, _audit_page(runner, terminal, output), inputs)
        sys.exit(runner.exit_code())
    totals = report.Summary()
    text = report.TextReport("none" if quiet else warning_mode, frozenset(ignore))
    with _writing(output) as out:
        inputs, terminal = _inputs(paths, globs, encoding=encoding, out=out, quiet=quiet, summary=summary)
        runner = _runner(inputs, jobs, strict, variant, dask, terminal, rules)
        if dask or jobs > 1:
            _validate_folded(runner, dask, terminal, fmt, text, show_board, totals)
        elif fmt == "jsonl":
            for record, json_line in runner.run(report.checked_json_line):
                totals.add(record)
                terminal.out(json_line)
                terminal.game_done()
        else:
            for record, boards in runner.run(diagrams.boards_at_errors if show_board else batch.no_work):
                totals.add(record)
                for line in text.lines(record, functools.partial(report.lines_with_boards, boards=boards or [])):
                    terminal.out(line)
                terminal.game_done()
        for line in text.close() if fmt == "text" else []:
            terminal.out(line)
        if summary:
            for line in [report.json_line({"summary": totals.as_dict()})] if fmt == "jsonl" else totals.lines():
                terminal.out(line)
        terminal.close()
    _tally_validity(terminal, totals, inputs)
    sys.exit(runner.exit_code())


def _tally_validity(terminal: Terminal, totals: report.Summary, inputs: batch.Inputs) -> None:
    """validate's closing line: `36,287 games, 67 invalid in 41 files`."""
    terminal.tally(validity(totals.games, totals.games - totals.valid, len(totals.invalid_files), inputs.unreadable))


def _validate_folded(runner: batch.Runner, dask: str | None, terminal: Terminal, fmt: str,
                     text: report.TextReport, show_board: bool, totals: report.Summary) -> None:
    """validate with workers (--jobs or --dask): they send the report of each part of a file (JSON lines, or
    text lines with its warnings grouped) as one text with its summary, so this process writes them and
    adds up."""
    if fmt == "jsonl":
        for lines in _folded(runner, dask, terminal, report.checked_json_line, report.json_lines):
            terminal.out(lines.text, end="")
            totals.merge(lines.summary)
        return
    fold = functools.partial(report.text_part, warnings=text.mode, ignore=text.ignore,
                             render=report.lines_with_boards)
    for part in _folded(runner, dask, terminal, diagrams.boards_at_errors if show_board else batch.no_work, fold):
        terminal.out(text.add_part(part), end="")
        totals.merge(part.summary)


class _Part(Protocol):
    """What a cluster's worker sends back for a range's games: a value with their summary."""

    @property
    def summary(self) -> report.Summary: ...


P = TypeVar("P", bound=_Part)


def _folded(runner: batch.Runner, dask: str | None, terminal: Terminal, work: Callable[[Checked], Any],
            fold: Callable[[list[Any]], P]) -> Iterator[P]:
    """The runner's `work` on its workers (--jobs, or the cluster's), the results of each part of a file
    folded there into one value (this process has nothing to do per game); the runner and the progress
    line count their games."""
    task = functools.partial(batch.checked_work, work=work, variant=runner.variant, strict=runner.strict,
                             rules=runner.rules)
    for part in _backend(dask, terminal, fold)(runner.inputs, task, runner.jobs, runner.strict):
        runner.games += part.summary.games
        runner.failed += part.summary.games - part.summary.valid
        yield part
        terminal.game_done(part.summary.games)


def _audit_page(runner: batch.Runner, terminal: Terminal, output: str | None) -> report.Summary:
    """Validate into the HTML audit page, written to `output` (else stdout); its counts."""
    from pdn_tools.commands import html_report

    page = html_report.AuditPage()
    for record, game in runner.run(html_report.audit_game):
        page.add(record, game)
        terminal.game_done()
    terminal.close()
    _write_page(output, page.write)
    return page.summary


def _write_page(output: str | None, write: Callable[[IO[str]], None]) -> None:
    """Write a page to stdout, or atomically to the file `output`."""
    with _writing(output) as out:
        write(out)


@cli.command()
@click.option("--variant", type=VARIANT, required=True, metavar="NAME", help="Variant name or number.")
@click.option("--depth", type=click.IntRange(0), required=True, help="Plies to search.")
@click.option("--fen", help="Start position (default: the variant's initial position).")
@click.option("--divide", "split", is_flag=True, help="Also count below each first move.")
@click.option("--keep-duplicates", is_flag=True,
              help="Count captures that differ only in the order of the pieces taken separately.")
@click.option("--output", "-o", metavar="FILE", help="Write to FILE (atomically) instead of stdout.")
def perft(variant: Variant, depth: int, fen: str | None, split: bool, keep_duplicates: bool,
          output: str | None) -> None:
    """Count the leaf nodes of the move tree, one line per depth: `depth <d> <count>`."""
    try:
        position = parse_fen(variant, fen) if fen else Position.initial(variant)
    except FenError as error:
        raise click.BadParameter(f"{error.message} (at column {error.column + 1})", param_hint="--fen")
    with _writing(output) as out:
        if split:
            for move, count in divide(position, depth, keep_duplicates):     # in the variant's notation
                squares = (variant.square_text(move.start), variant.square_text(move.end))
                out.write(f"{('x' if move.captured else '-').join(squares)} {count}\n")
        for d in range(1, depth + 1):
            out.write(f"depth {d} {count_leaves(position, d, keep_duplicates)}\n")
            out.flush()


def _drop(ctx: click.Context, param: click.Parameter, value: str | None) -> frozenset[str]:
    from pdn_tools.play.notation import DROPPABLE
    names = frozenset(name.strip() for name in (value or "").split(",") if name.strip())
    unknown = sorted(names - set(DROPPABLE))
    if unknown:
        raise click.BadParameter(f"cannot drop {', '.join(unknown)}; choose from {', '.join(DROPPABLE)}")
    return names


@cli.command()
@_paths
@click.option("--format", "--to", "to", type=click.Choice(["pdn", "jsonl", "fen"]), default="pdn",
              show_default=True,
              help="Canonical PDN, one JSON object per game, or one `file:game<TAB>ply<TAB>FEN` line per ply.")
@click.option("--captures", type=click.Choice(["short", "full"]),
              help="Write captures start-end (every landing square only when ambiguous), or every landing square.")
@click.option("--squares", type=click.Choice(["numeric", "alpha"]), help="Write squares as numbers or as a1..")
@click.option("--separator", type=click.Choice(["x", ":"]), help="Capture separator (default x).")
@click.option("--fix-results", is_flag=True,
              help="Write the Result the final position settles, when it differs (noted on stderr).")
@click.option("--drop", callback=_drop, metavar="comments,variations,nags", help="Leave these out.")
@click.option("--keep-invalid", is_flag=True, help="Pass games that do not convert through unchanged.")
@click.option("--output", "-o", metavar="OUT", help="Output file, written atomically; - for stdout (default).")
@partial_option
@click.option("--in-place", is_flag=True, help="Rewrite each input file (atomically).")
@strict_option
@encoding_option
@variant_option
@rules_option
@jobs_option
@dask_option
@quiet_option
def convert(paths: tuple[str, ...], globs: tuple[str, ...], to: str, captures: str | None, squares: str | None,
            separator: str | None, fix_results: bool, drop: frozenset[str], keep_invalid: bool, output: str | None,
            in_place: bool, strict: bool, encoding: str | None, variant: Variant | None, rules: RuleSet,
            jobs: int, dask: str | None, quiet: bool) -> None:
    """Convert every game of PATHS (files, folders of *.pdn, or - for stdin), game by game.

    A game that cannot be read, or that does not replay when the output needs a replay
    (--to jsonl/fen, --captures, --squares, --separator, --fix-results), is reported on
    stderr and left out, or passed through with --keep-invalid.
    """
    from pdn_tools.commands import convert as conversion
    from pdn_tools.play.notation import Style
    from pdn_tools.running import writing

    if in_place and (output is not None or to != "pdn" or not paths or "-" in paths):
        raise click.UsageError("--in-place rewrites the PDN files named: not with -o, --to jsonl/fen or stdin")
    if keep_invalid and to != "pdn":
        raise click.UsageError("--keep-invalid passes games through as PDN: only with --to pdn")
    if in_place and dask:
        raise click.UsageError("--in-place rewrites files here: not with --dask")
    options = conversion.Options(to, Style(captures, squares, separator, drop, fix_results), keep_invalid,
                                 variant, strict, rules)
    work = functools.partial(conversion.convert_game, options=options)
    inputs, terminal = _inputs(paths, globs, progress=False, encoding=encoding, quiet=quiet)
    note = terminal.note
    if fix_results and to == "pdn" and not (captures or squares or separator or drop):
        if dask:
            raise click.UsageError("--fix-results alone rewrites the bytes of each file here: not with --dask")
        tally = _fix_results_only(inputs, terminal, output, in_place, variant, strict, encoding, rules)
    elif in_place:
        tally = writing.Tally(writing.rewrite_files(inputs, work, jobs, strict, note))
    elif output in (None, "-"):
        tally = _write_converted(inputs, work, jobs, strict, dask, terminal, sys.stdout)
    else:
        try:
            with atomic_output(output, _complete) as out:
                tally = _write_converted(inputs, work, jobs, strict, dask, terminal, out)
        except OSError as error:
            _cannot_write(output, error)
    written = "rewritten in place" if in_place else \
        f"{games(tally.games)} read, {tally.games - tally.left_out:,} written"
    terminal.tally(written + (f", {tally.failed:,} with errors" if tally.failed else ""))
    sys.exit(batch.exit_code(inputs.unreadable, tally.failed))


def _write_converted(inputs: batch.Inputs, work: batch.Work[Any], jobs: int, strict: bool, dask: str | None,
                     terminal: Terminal, out: TextIO) -> writing.Tally:
    """convert's games written to `out`, their notes on stderr (with workers, --jobs or --dask, the games of
    each part of a file come back as one text; with one job, each game); the games read and failed."""
    from pdn_tools.running import writing

    parts = _backend(dask, terminal, writing.written)(inputs, work, jobs, strict)
    return writing.write_parts(parts, out, terminal.note)


def _fix_results_only(inputs: batch.Inputs, terminal: Terminal, output: str | None, in_place: bool,
                      variant: Variant | None, strict: bool, encoding: str | None, rules: RuleSet) -> writing.Tally:
    """convert --fix-results with no other change: each file's bytes with only its wrong results
    rewritten, to stdout, -o FILE or (--in-place, only when something changed) the file itself;
    the games read and those left with an error."""
    from pdn_tools.commands.fix_results import fix_file
    from pdn_tools.running import writing

    failed = count = 0
    with _writing(None if in_place else output) as out:
        for path, data in inputs.contents(streams=not in_place):
            fixed = fix_file(data, "<stdin>" if path == "-" else path, variant, strict, encoding, rules)
            for line in fixed.report_lines():
                terminal.note(line)
            failed += fixed.failed
            count += len(fixed.games)
            if not in_place:
                out.flush()
                out.buffer.write(fixed.data)
            elif fixed.data != data and batch.compressed(path):
                terminal.note(f"pdn: {printable(path)} is compressed: left unchanged (write the fixed games with -o)")
                failed += 1
            elif fixed.data != data:
                _write(path, [fixed.data])
    return writing.Tally(failed, 0, count)


# ---- annotate, diagram and the archive tools ---------------------------------------------------

class _Reported:
    """A command's per-game work over PATHS with validate's reporting: errors on stderr (in file
    order, games named), a progress line on a terminal; the runner's exit code."""

    def __init__(self, paths: tuple[str, ...], globs: tuple[str, ...], jobs: int = 1, strict: bool = False,
                 variant: Variant | None = None, encoding: str | None = None, out: TextIO | None = None,
                 rules: RuleSet | None = None, quiet: bool = False) -> None:
        inputs, self.terminal = _inputs(paths, globs, encoding=encoding, out=out, quiet=quiet)
        self.runner = batch.Runner(inputs, jobs, strict, variant, rules=rules)

    def run(self, work: Callable[[Checked], T]) -> Iterator[tuple[Record, T]]:
        """(record, work(checked)) for each game."""
        for record, value in self.runner.run(work):
            for line in report.text_lines(record, warnings=False):
                self.terminal.note(line)
            yield record, value
            self.terminal.game_done()

    def done(self) -> int:
        """The exit code, once the output is complete."""
        self.terminal.close()
        return self.runner.exit_code()


@cli.command("annotate")
@_paths
@click.option("--fen", is_flag=True, help="[%fen ...] after each move: the position it leads to.")
@click.option("--moves", is_flag=True, help="[%moves N] after each move: the legal moves the mover had.")
@click.option("--forced", is_flag=True, help="$7 after a move that was the only legal one.")
@click.option("--captures", is_flag=True, help="[%captured N] after a capture: the pieces it took.")
@click.option("--draws", is_flag=True, help="[%draw ...] where a draw rule's count starts or ends.")
@click.option("--ply-count", is_flag=True, help="Set the PlyCount tag.")
@click.option("--result", is_flag=True, help="Set an unknown Result the rules decide (noted on stderr).")
@click.option("--gametype", is_flag=True, help="Add a missing GameType tag (noted on stderr).")
@click.option("--all", "everything", is_flag=True, help="Every annotation but --result.")
@output_option
@strict_option
@encoding_option
@variant_option
@rules_option
@jobs_option
@quiet_option
def annotate_command(paths: tuple[str, ...], globs: tuple[str, ...], fen: bool, moves: bool, forced: bool,
                     captures: bool, draws: bool, ply_count: bool, result: bool, gametype: bool, everything: bool,
                     output: str | None, strict: bool, encoding: str | None, variant: Variant | None,
                     rules: RuleSet, jobs: int, quiet: bool) -> None:
    """Annotate every valid game of PATHS and write PDN to stdout; other games pass unchanged.
    Annotating an annotated game replaces the old annotations."""
    options = Annotations(fen or everything, moves or everything, forced or everything, captures or everything,
                          draws or everything, ply_count or everything, result, gametype or everything)
    if not options.any():
        raise click.UsageError("choose what to annotate: --fen, --moves, --forced, --captures, --draws, "
                               "--ply-count, --result, --gametype or --all")
    with _writing(output) as out:
        checked = _Reported(paths, globs, jobs, strict, variant, encoding, out, rules, quiet)
        for _, (text, notes) in checked.run(functools.partial(annotate_game, options=options)):
            checked.terminal.out(text, end="")
            for note in notes:
                checked.terminal.note(note)
        code = checked.done()
    checked.terminal.tally(validity(checked.runner.games, checked.runner.failed, unreadable=checked.runner.inputs.unreadable))
    sys.exit(code)


@cli.command()
@click.argument("path", default="-")
@click.option("--game", "number", type=click.IntRange(1), default=1, show_default=True, help="Game of PATH.")
@click.option("--ply", type=click.IntRange(0), help="Plies played: 0 is the start  [default: the last].")
@click.option("--format", "fmt", type=click.Choice(["text", "svg", "png"]),
              help="Text board or picture  [default: from the suffix of -o FILE (.svg, .png), else text].")
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="File to write (atomically).")
@click.option("--size", type=click.IntRange(64, 8192), metavar="PIXELS",
              help="Width of the picture  [default: 50 pixels a square].")
@click.option("--labels", type=click.Choice(["numbers", "algebraic"]),
              help="Square names  [default: the variant's notation].")
@click.option("--flip", is_flag=True, help="Black at the bottom.")
@strict_option
@encoding_option
@variant_option
def diagram(path: str, number: int, ply: int | None, fmt: str | None, output: str | None, size: int | None,
            labels: str | None, flip: bool, strict: bool, encoding: str | None, variant: Variant | None) -> None:
    """Draw the position after a ply of one game of PATH (a file or - for stdin)."""
    if os.path.isdir(path):
        raise click.BadParameter(f"{printable(path)} is a folder: name one file", param_hint="PATH")
    if path == "-" and sys.stdin.isatty():
        raise click.UsageError("name the file to draw from (or - for stdin)")
    if fmt == "png" and output is None:
        _not_to_terminal(output)
    inputs = batch.Inputs((path,), encoding=encoding)
    found = next(itertools.islice(inputs.raw_games(), number - 1, None), None)
    if found is None:
        if inputs.unreadable:
            sys.exit(EXIT_USAGE)
        raise click.BadParameter(f"{printable(path)} has fewer than {number} games", param_hint="--game")
    game = parse_raw(found[0], found[1], strict, found[2])
    checked = check(game, variant, strict)
    record, replayed = checked.record, checked.replay
    for line in report.text_lines(record, warnings=False):
        click.echo(line, err=True)
    if replayed is None:
        sys.exit(EXIT_INVALID)
    alpha = None if labels is None else labels == "algebraic"
    try:
        board = diagrams.board_after(replayed, ply, alpha, flip)
    except diagrams.DiagramError as error:
        raise click.BadParameter(f"{printable(game.file)}:{game.line}: game {number}: {error}", param_hint="--ply")
    try:
        picture = diagrams.picture(replayed, board, fmt or diagrams.format_for(output), ply, size)
    except diagrams.MissingExtra as error:
        click.echo(f"pdn: {error}", err=True)
        sys.exit(EXIT_USAGE)
    if output:
        _write(output, [picture])
    elif isinstance(picture, bytes):
        sys.stdout.buffer.write(picture)
    else:
        click.echo(picture, nl=False)
    sys.exit(EXIT_OK if record.ok else EXIT_INVALID)


def _write(path: str, texts: Sequence[str | bytes]) -> None:
    """Write a file atomically (texts, or bytes such as a PNG); one that cannot be written ends
    the command (exit 2)."""
    try:
        with atomic_output(path) as stream:
            for text in texts:
                if isinstance(text, bytes):
                    stream.buffer.write(text)
                else:
                    stream.write(text)
    except OSError as error:
        _cannot_write(path, error)


def _cannot_write(path: str, error: OSError) -> NoReturn:
    click.echo(f"pdn: cannot write {printable(path)}: {error.strerror or error}", err=True)
    sys.exit(EXIT_USAGE)


def _patterns(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
              ) -> tuple[tuple[str, re.Pattern[str]], ...]:
    out = []
    for value in values:
        name, equals, pattern = value.partition("=")
        if not equals or not name:
            raise click.BadParameter(f"{value!r} is not NAME=REGEX")
        out.append((name, _compile(pattern, param)))
    return tuple(out)


def _pattern(ctx: click.Context, param: click.Parameter, value: str | None) -> re.Pattern[str] | None:
    return None if value is None else _compile(value, param)


def _result(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and value not in RESULTS and value not in Outcome.__members__.values() and value != "?":
        known = ", ".join([*RESULTS, *Outcome.__members__.values()])
        raise click.BadParameter(f"{value!r} is not a result; known: {known}")
    return value


@cli.command("list")
@_paths
@click.option("--format", "fmt", type=click.Choice(["tsv", "csv", "jsonl"]), default="tsv", show_default=True,
              help="Tab-separated with a header row, CSV with a header row, or one JSON object per game.")
@output_option
@encoding_option
@quiet_option
def list_command(paths: tuple[str, ...], globs: tuple[str, ...], fmt: str, output: str | None,
                 encoding: str | None, quiet: bool) -> None:
    """List the games of PATHS, one row each: file, line, game (its index in the file), White,
    Black, Result (else the terminator), Date, Event, Round, GameType.  Reads the tags only:
    games are neither parsed nor checked."""
    with _writing(output) as out:
        inputs, terminal = _inputs(paths, globs, encoding=encoding, out=out, quiet=quiet)
        rows = archive.Rows(fmt)
        for line in rows.header():
            terminal.out(line, end="")
        for raw, index, _ in inputs.raw_games():
            terminal.out(rows.row(archive.listing_row(raw, index)), end="")
            terminal.game_done()
        terminal.close()
    terminal.tally(f"{games(terminal.games)} listed")
    sys.exit(batch.exit_code(inputs.unreadable, 0))


def _compile(pattern: str, param: click.Parameter) -> re.Pattern[str]:
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error as error:
        raise click.BadParameter(f"bad regular expression {pattern!r}: {error}", param=param)


@cli.command("filter")
@_paths
@click.option("--tag", "tags", multiple=True, callback=_patterns, metavar="NAME=REGEX",
              help="Keep games whose tag NAME matches REGEX (searched, any case); repeatable.")
@click.option("--player", callback=_pattern, metavar="REGEX", help="Keep games where White or Black matches.")
@click.option("--result", callback=_result, metavar="RESULT",
              help="Keep games with this outcome, however written: 2-0 finds 1-0 and 1:0 too; or first, second, draw.")
@click.option("--replayed-as", "wanted", type=VARIANT, metavar="NAME",
              help="Keep games replayed as this variant (their GameType, else inferred, else --variant).")
@click.option("--valid/--invalid", default=None, help="Keep only valid, or only invalid, games.")
@click.option("--min-plies", type=click.IntRange(0), help="Keep games at least this long.")
@click.option("--max-plies", type=click.IntRange(0), help="Keep games at most this long.")
@click.option("--position", metavar="FEN", help="Keep games whose main line reaches this position.")
@output_option
@strict_option
@variant_option
@encoding_option
@jobs_option
@quiet_option
def filter_command(paths: tuple[str, ...], globs: tuple[str, ...], tags: tuple[tuple[str, re.Pattern[str]], ...],
                   player: re.Pattern[str] | None, result: str | None, wanted: Variant | None,
                   valid: bool | None, min_plies: int | None, max_plies: int | None, position: str | None,
                   output: str | None, strict: bool, variant: Variant | None, encoding: str | None,
                   jobs: int, quiet: bool) -> None:
    """Write the games of PATHS that meet every criterion given, as PDN.

    Criteria on tags, players and result read the tags alone: only the games that meet them
    are parsed, none is replayed or checked.  The others (--replayed-as, --valid/--invalid,
    --min/max-plies, --position) replay every game and report invalid ones on stderr.
    """
    if position is not None:
        _check_fen(position, variant or wanted)
    criteria = Criteria(tags, player, result, wanted, valid, min_plies, max_plies, position)
    with _writing(output) as out:
        if criteria.needs_game() and not criteria.needs_replay():
            code, terminal, matched = _filter_by_tags(paths, globs, criteria, strict, encoding, out, quiet)
        else:
            checked = _Reported(paths, globs, jobs, strict, variant, encoding, out, quiet=quiet)
            terminal, matched = checked.terminal, 0
            for _, text in checked.run(functools.partial(archive.filter_game, criteria=criteria)):
                if text is not None:
                    matched += 1
                    checked.terminal.out(text, end="")
            code = checked.done()
    terminal.tally(f"{matched:,} of {games(terminal.games)} matched")
    sys.exit(code)


def _filter_by_tags(paths: tuple[str, ...], globs: tuple[str, ...], criteria: Criteria, strict: bool,
                    encoding: str | None, out: TextIO, quiet: bool) -> tuple[int, Terminal, int]:
    """filter's fast path: tags decide, games are parsed only when they match, never replayed;
    the exit code, the terminal and the games matched."""
    inputs, terminal = _inputs(paths, globs, encoding=encoding, out=out, quiet=quiet)
    unread = matched = 0
    for raw, index, notes in inputs.raw_games():
        game = archive.tag_filtered(raw, index, notes, criteria, strict)
        if isinstance(game, ReadError):
            unread += 1
            for line in report.text_lines(check(game).record, warnings=False):
                terminal.note(line)
        elif game is not None:
            matched += 1
            terminal.out(game_text(game), end="")
        terminal.game_done()
    terminal.close()
    return batch.exit_code(inputs.unreadable, unread), terminal, matched


def _check_fen(fen: str, variant: Variant | None) -> None:
    """A usage error unless `fen` is a position of `variant` (of some variant when None)."""
    errors = []
    for candidate in [variant] if variant else VARIANTS.values():
        try:
            parse_fen(candidate, fen)
            return
        except FenError as error:
            errors.append(error)
    first = errors[0]
    raise click.BadParameter(f"{first.message} (at column {first.column + 1})", param_hint="--position")


@cli.command()
@_paths
@click.option("--by", type=click.Choice(["moves", "moves+tags"]), default="moves", show_default=True,
              help="Games are the same when their moves are, or their moves and tags.")
@click.option("--report", "listing", is_flag=True, help="List the duplicates instead of dropping them.")
@output_option
@strict_option
@encoding_option
@variant_option
@jobs_option
@quiet_option
def dedupe(paths: tuple[str, ...], globs: tuple[str, ...], by: str, listing: bool, output: str | None, strict: bool,
           encoding: str | None, variant: Variant | None, jobs: int, quiet: bool) -> None:
    """Write the games of PATHS without repeats (the first of each kept), or list the repeats."""
    seen: dict[bytes, str] = {}         # hash -> the first game's place (kept for --report only)
    work = functools.partial(archive.dedupe_game, with_tags=by == "moves+tags")
    with _writing(output) as out:
        checked = _Reported(paths, globs, jobs, strict, variant, encoding, out, quiet=quiet)
        for record, (digest, text) in checked.run(work):
            where = f"{printable(record.file)}:{record.line}: game {record.game}"
            if digest not in seen:
                seen[digest] = where if listing else ""
                if not listing:
                    checked.terminal.out(text, end="")
            elif listing:
                checked.terminal.out(f"{where}: duplicate of {seen[digest]}")
        code = checked.done()
    checked.terminal.tally(f"{games(checked.terminal.games)}, {checked.terminal.games - len(seen):,} duplicates")
    sys.exit(code)


@cli.command()
@_paths
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default="text", show_default=True,
              help="Lines, one JSON object, or a self-contained HTML page with charts.")
@output_option
@strict_option
@encoding_option
@variant_option
@rules_option
@jobs_option
@dask_option
@quiet_option
def stats(paths: tuple[str, ...], globs: tuple[str, ...], fmt: str, output: str | None, strict: bool,
          encoding: str | None, variant: Variant | None, rules: RuleSet, jobs: int, dask: str | None,
          quiet: bool) -> None:
    """Count the games of PATHS per variant, result and year, with validity and average length."""
    if fmt == "html":
        _not_to_terminal(output)
    totals = archive.Stats()
    checked = _Reported(paths, globs, jobs, strict, variant, encoding, rules=rules, quiet=quiet)
    if dask or jobs > 1:
        for part in _folded(checked.runner, dask, checked.terminal, archive.stats_game, archive.stats_part):
            for line in part.notes:
                checked.terminal.note(line)
            totals.merge(part.stats)
    else:
        for record, year in checked.run(archive.stats_game):
            totals.add(record, year)
    code = checked.done()
    if fmt == "html":
        from pdn_tools.commands import html_report

        _write_page(output, functools.partial(html_report.stats_page, totals))
    else:
        lines = [report.json_line(totals.as_dict())] if fmt == "json" else totals.lines()
        _write_page(output, lambda out: out.writelines(line + "\n" for line in lines))
    runner = checked.runner
    checked.terminal.tally(validity(runner.games, runner.failed, unreadable=runner.inputs.unreadable))
    sys.exit(code)


def _file_prefix(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A prefix that keeps the files in the -o folder: a name, with no folder part (so neither
    `../x` nor `/abs/x`, nor `..\\x` as Windows reads it), and that shows as it is: no control or
    invisible format character (see `printable`)."""
    if "/" in value or "\\" in value:
        raise click.BadParameter(f"{printable(value)!r} would write outside the -o folder; give a file name "
                                 f"prefix without '/' or '\\'")
    if printable(value) != value:
        raise click.BadParameter(f"'{printable(value)}' holds control or invisible characters (shown escaped); "
                                 f"give a file name prefix of visible characters")
    return value


@cli.command()
@_paths
@click.option("--out", "-o", "folder", required=True, type=click.Path(file_okay=False),
              help="Folder for the files (made if missing).")
@click.option("--per", type=click.IntRange(1), default=1, show_default=True, help="Games per file.")
@click.option("--prefix", default="game", show_default=True, callback=_file_prefix,
              help="File names: PREFIX-00001.pdn, ... (a name, not a path: files stay in the folder)")
@click.option("--force", is_flag=True, help="Replace the parts of an earlier split in the folder.")
@strict_option
@encoding_option
@variant_option
@jobs_option
@quiet_option
def split(paths: tuple[str, ...], globs: tuple[str, ...], folder: str, per: int, prefix: str, force: bool,
          strict: bool, encoding: str | None, variant: Variant | None, jobs: int, quiet: bool) -> None:
    """Write the games of PATHS into files of PER games each, atomically; print each file's path.

    A folder that holds parts of an earlier split (PREFIX-NNNNN.pdn) is refused unless --force:
    then the parts this split does not write again are removed at the end."""
    earlier = archive.earlier_parts(folder, prefix)
    if earlier and not force:
        shown = ", ".join(os.path.basename(name) for name in earlier[:3]) + (", ..." if len(earlier) > 3 else "")
        raise click.UsageError(f"{printable(folder)} holds {len(earlier)} parts of an earlier split ({shown}): "
                               "--force to replace them, or choose another folder or --prefix")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        _cannot_write(folder, error)
    checked = _Reported(paths, globs, jobs, strict, variant, encoding, quiet=quiet)
    texts: list[str] = []
    written = 0

    def flush() -> None:
        nonlocal written
        written += 1
        target = os.path.join(folder, f"{prefix}-{written:05d}.pdn")
        _write(target, texts)
        texts.clear()
        checked.terminal.out(printable(target))

    for _, text in checked.run(archive.pass_game):
        texts.append(text)
        if len(texts) == per:
            flush()
    if texts:
        flush()
    fresh = {os.path.join(folder, f"{prefix}-{number:05d}.pdn") for number in range(1, written + 1)}
    for name in set(earlier) - fresh:           # parts of the earlier split this one did not replace
        os.unlink(name)
    code = checked.done()
    checked.terminal.tally(f"{games(checked.terminal.games)} in {written:,} files")
    sys.exit(code)


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="An aligned table, or one JSON object per variant (one a line).")
def variants(fmt: str) -> None:
    """List the variants pdn knows: name, GameType number, board, notation and other names.

    Any of the names, or the GameType number, goes after --variant.
    """
    rows = [(variant.name, variant.gametype, f"{variant.rows}x{variant.cols}",
             "algebraic" if variant.alpha else "numeric", variant.aliases) for variant in VARIANTS.values()]
    if fmt == "json":
        for name, gametype, board, notation, aliases in rows:
            click.echo(report.json_line({"name": name, "gametype": gametype, "board": board, "notation": notation,
                                         "aliases": list(aliases)}))
        return
    for line in report.table(("variant", "GameType", "board", "notation", "also"),
                             [(*row[:4], ", ".join(row[4])) for row in rows]):
        click.echo(line.rstrip())


# Each command's line in `pdn --help`: a whole sentence (click would cut the first one of the help).
SUMMARIES = {
    "validate": "Check every game: each move legal, each result right.",
    "convert": "Write the games as canonical PDN, JSON lines or FEN lines.",
    "annotate": "Annotate every valid game: positions, legal moves, captures.",
    "diagram": "Draw the position after a ply of one game, as text, SVG or PNG.",
    "list": "List the games, one row of their tags each.",
    "filter": "Write the games that meet every criterion given.",
    "dedupe": "Write the games without repeats, or list the repeats.",
    "stats": "Count the games per variant, result and year.",
    "split": "Write the games into files of N games each.",
    "perft": "Count the leaf nodes of the move tree of a position.",
    "variants": "List the variants with their GameType, board and notation.",
}
for _name, _summary in SUMMARIES.items():
    cli.commands[_name].short_help = _summary
cli.epilog = "\b\nExamples:\n" + "\n".join("  " + example for example in [
    "pdn validate games.pdn archive/          # errors; a tally line at the end",
    "pdn convert --to jsonl games.pdn > games.jsonl",
    "pdn filter --player sijbrands archive/ -o his.pdn",
    "pdn stats --format html archive/ -o stats.html",
    "pdn variants                             # names and GameType numbers for --variant",
    "pdn COMMAND --help                       # options and examples of a command"])

EXAMPLES = {
    "validate": ["pdn validate games.pdn archive/            # errors, and warnings counted per file",
                 "pdn validate --warnings each --ignore inferred-variant OCA_2.0.pdn",
                 "pdn validate --format jsonl --summary --jobs 2 archive/ -o report.jsonl"],
    "list": ["pdn list OCA_2.0.pdn | sort -t$'\\t' -k4 | less -S     # by White",
             "pdn list --format csv archive/ -o games.csv",
             "pdn list --format jsonl games.pdn.gz | jq -r .Event | sort | uniq -c"],
    "filter": ["pdn filter --player sijbrands --result 2-0 archive/ -o won.pdn   # also finds 1-0",
               "pdn filter --tag 'Event=world|wk' --min-plies 40 --valid archive.pdn",
               "pdn filter --position 'B:W29,31-33,35-50:B1-20' archive.pdn"],
    "convert": ["pdn convert games.pdn -o clean.pdn                 # canonical PDN 3.0",
                "pdn convert --to jsonl --jobs 2 folder/ > games.jsonl",
                "pdn convert --fix-results games.pdn -o fixed.pdn"],
    "annotate": ["pdn annotate --all games.pdn -o annotated.pdn",
                 "pdn annotate --fen --forced --result - < games.pdn"],
    "diagram": ["pdn diagram games.pdn --game 3 --ply 24             # text board after ply 24 of game 3",
                "pdn diagram games.pdn --game 3 -o final.svg"],
    "dedupe": ["pdn dedupe a.pdn b.pdn -o merged.pdn",
               "pdn dedupe --report --by moves+tags archive/"],
    "stats": ["pdn stats archive/",
              "pdn stats --format json OCA_2.0.pdn | jq .outcomes",
              "pdn stats --format html -o stats.html archive/"],
    "split": ["pdn split --per 100 -o parts/ archive.pdn",
              "pdn split --force --prefix round -o parts/ tournament.pdn"],
    "variants": ["pdn variants --format text        # name, GameType, board, notation, other names",
                 "pdn variants --format json | jq -r 'select(.board == \"8x8\") | .name'"],
    "perft": ["pdn perft --variant international --depth 6",
              "pdn perft --variant english --depth 3 --fen 'B:W18:B14' --divide"],
}
for _name, _examples in EXAMPLES.items():
    cli.commands[_name].epilog = "\b\nExamples:\n" + "\n".join("  " + example for example in _examples)


def main() -> None:
    """Entry point.  A closed pipe (`pdn ... | head`) ends quietly with 141, as by SIGPIPE;
    stdout that cannot be written (a full disk, closed) is one line naming <stdout>, exit 2;
    Ctrl-C ends quietly with 130; SIGTERM and SIGHUP remove temporary files, then end the
    process.  A stderr that cannot be written (closed, full) loses its messages, not the
    command: the exit code is the command's, or 2 where it would have been 0."""
    streams.guard_standard_streams()
    code: int | str | None = 0
    try:
        _run()
    except SystemExit as done:
        code = done.code
    sys.exit(EXIT_USAGE if code in (0, None) and streams.stderr_lost() else code)


def _run() -> None:
    streams.name_stdout_errors()
    streams.clean_up_on_signals()
    try:
        try:
            cli.main(standalone_mode=False)
        finally:
            sys.stdout.flush()          # a closed pipe shows here, not at interpreter exit
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        error.show()
        sys.exit(EXIT_USAGE)
    except click.Abort:
        sys.exit(130)
    except (streams.ClosedPipe, BrokenPipeError):
        streams.discard_stdout()
        sys.exit(EXIT_CLOSED_PIPE)
    except streams.CannotWrite as error:
        if error.filename == streams.STDOUT:
            streams.discard_stdout()
        click.echo(f"pdn: cannot write {printable(error.filename)}: {error.strerror}", err=True)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        sys.exit(130)
    except streams.Terminated as stop:
        streams.end_by_signal(stop.signum)
