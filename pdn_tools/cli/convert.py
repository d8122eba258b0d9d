"""`pdn convert` and `pdn annotate`: the games of PATHS written again, canonical or annotated."""
from __future__ import annotations

import contextlib
import functools
import sys
from typing import TYPE_CHECKING, Any, Iterator, Mapping, TextIO, TypeVar

import click

from pdn_tools.cli.options import (Needs, OneLineError, Seconds, Reading, Writing, format_option, reading_options,
                                  shots_given, writing_options)
from pdn_tools.cli.choices import CONVERT_FORMATS, ENGINE_DEPTH, SHOTS_DEPTH, SHOTS_NODES
from pdn_tools.cli.run import Run, command
from pdn_tools.running.files import temporary_folder
from pdn_tools.running.output import EXIT_USAGE

if TYPE_CHECKING:      # a run imports them, not `pdn convert --help` (docs/start-up.md)
    from pdn_tools.running import batch
    from pdn_tools.running.engine import HubEngine, Limits
    from pdn_tools.running.per_worker import PerWorker
    from pdn_tools.running.terminal import Terminal
    from pdn_tools.running.writing import Tally

T = TypeVar("T")


def _drop(ctx: click.Context, param: click.Parameter, value: str | None) -> frozenset[str]:
    from pdn_tools.play.notation import DROPPABLE
    names = frozenset(name.strip() for name in (value or "").split(",") if name.strip())
    unknown = sorted(names - set(DROPPABLE))
    if unknown:
        raise click.BadParameter(f"cannot drop {', '.join(unknown)}; choose from {', '.join(DROPPABLE)}")
    return names


@command("convert", [
    "pdn convert games.pdn -o clean.pdn                 # canonical PDN 3.0",
    "pdn convert --to jsonl --jobs 2 folder/ > games.jsonl",
    "pdn convert --fix-results games.pdn -o fixed.pdn"])
@format_option(CONVERT_FORMATS, "pdn",
               "Canonical PDN, one JSON object per game, or one `file:game<TAB>ply<TAB>FEN` line per ply.",
               ("--format", "--to", "to"))
@click.option("--captures", type=click.Choice(["short", "full"]),
              help="Write captures start-end (every landing square only when ambiguous), or every landing square.")
@click.option("--squares", type=click.Choice(["numeric", "alpha"]),
              help="Write squares as numbers or as a1.. (without it: as each game writes them).")
@click.option("--separator", type=click.Choice(["x", ":"]), help="Capture separator (default x).")
@click.option("--fix-results", is_flag=True,
              help="Write the Result the final position settles, when it differs (noted on stderr).")
@click.option("--drop", callback=_drop, metavar="comments,variations,nags", help="Leave these out.")
@click.option("--keep-invalid", is_flag=True, help="Pass games that do not convert through unchanged.")
@click.option("--in-place", is_flag=True, help="Rewrite each input file (atomically; compressed again as it was).")
@writing_options(metavar="OUT", help="Output file, written atomically (OUT.gz .bz2 .xz .zst compressed); - for stdout "
                                      "(default).")
@reading_options(dask=True)
def convert(to: str, captures: str | None, squares: str | None, separator: str | None, fix_results: bool,
            drop: frozenset[str], keep_invalid: bool, in_place: bool, writing: Writing, reading: Reading) -> None:
    """Convert every game of PATHS (files, folders of *.pdn, or - for stdin), game by game.

    A game that cannot be read, or that does not replay when the output needs a replay
    (--to jsonl/fen, --captures, --squares, --separator, --fix-results), is reported on
    stderr and left out, or passed through with --keep-invalid.
    """
    from pdn_tools.commands import convert as conversion
    from pdn_tools.play.notation import Style
    from pdn_tools.running.terminal import games
    from pdn_tools.running.writing import Tally, rewrite_files

    pdn = conversion.WRITERS[to].pdn
    if in_place and (writing.output is not None or not pdn or not reading.paths or "-" in reading.paths):
        raise click.UsageError("--in-place rewrites the PDN files named: not with -o, --to jsonl/fen or stdin")
    if keep_invalid and not pdn:
        raise click.UsageError("--keep-invalid passes games through as PDN: only with --to pdn")
    unwritten = [name for name, value in (("--captures", captures), ("--squares", squares),
                                          ("--separator", separator), ("--drop", drop),
                                          ("--fix-results", fix_results)) if value]
    unwritten = [name for name in unwritten if name not in conversion.WRITERS[to].writes]
    if unwritten:               # the main line's positions, or its moves alone: nothing to apply them to
        changes = "change" if len(unwritten) > 1 else "changes"
        raise OneLineError(f"--to {to} does not write what {' and '.join(unwritten)} {changes}")
    if in_place and reading.dask:
        raise click.UsageError("--in-place rewrites files here: not with --dask")
    run = Run(reading, progress=False)
    options = conversion.Options(to, Style(captures, squares, separator, drop, fix_results), keep_invalid,
                                 run.checking)
    work = functools.partial(conversion.convert_game, options=options)
    if fix_results and pdn and not (captures or squares or separator or drop):
        if reading.dask:
            raise click.UsageError("--fix-results alone rewrites the bytes of each file here: not with --dask")
        tally = _fix_results_only(run, writing, in_place)
    elif in_place:
        tally = Tally(rewrite_files(run.inputs, work, reading.jobs, run.terminal.note, run.checking,
                                    reading.start_method))
    else:
        with run.output(writing) as out:
            tally = _write_converted(run, work, out)
    written = "rewritten in place" if in_place else \
        f"{games(tally.games)} read, {tally.games - tally.left_out:,} written"
    run.terminal.tally(written + (f", {tally.failed:,} with errors" if tally.failed else ""))
    run.failed += tally.failed
    sys.exit(run.exit_code())


def _write_converted(run: Run, work: batch.Work[Any], out: TextIO) -> Tally:
    """convert's games written to `out`, their notes on stderr (with workers, --jobs or --dask, the games of
    each part of a file come back as one text; with one job, each game, as it comes); the games read and
    failed."""
    from pdn_tools.running.writing import write_games, write_parts, written

    if run.reading.jobs <= 1 and run.reading.dask is None:
        return write_games(run.results(work), out, run.terminal.note)
    return write_parts(run.results(work, fold=written), out, run.terminal.note)


def _fix_results_only(run: Run, writing: Writing, in_place: bool) -> Tally:
    """convert --fix-results with no other change: each file's bytes with only its wrong results
    rewritten, to stdout, -o FILE or (--in-place, only when something changed) the file itself, compressed as
    it is (with --jobs, each file's games fixed on the workers); the games read and those left with an error,
    a file that cannot be written counted with the unreadable inputs."""
    from pdn_tools.commands.fix_results import fix_file
    from pdn_tools.running.pool import ordered_map
    from pdn_tools.running.writing import Tally, rewrite_file
    from pdn_tools.text.source import NotPdn

    reading, terminal = run.reading, run.terminal
    failed = count = 0
    with run.output(Writing() if in_place else writing) as out, \
            ordered_map(reading.jobs, reading.start_method) as mapper:
        for path, data in run.inputs.contents(streams=not in_place):
            try:
                fixed = fix_file(data, "<stdin>" if path == "-" else path, run.checking, reading.encoding, mapper)
            except NotPdn as error:     # bytes the codec named fails on
                run.inputs.cannot_read(path, str(error))
                continue
            for line in fixed.report_lines():
                terminal.note(line)
            failed += fixed.failed
            count += len(fixed.games)
            if not in_place:
                out.flush()
                out.buffer.write(fixed.data)
            elif fixed.data != data and not rewrite_file(path, fixed.data, terminal.note):
                run.inputs.unreadable += 1
    return Tally(failed, 0, count)


def _engine_given(params: Mapping[str, Any]) -> bool:
    """--engine-depth, --engine-time and --engine-timeout are --engine's options."""
    return params["engine"] is not None


@command("annotate", [
    "pdn annotate --all games.pdn -o annotated.pdn",
    "pdn annotate --fen --forced --result - < games.pdn",
    "pdn annotate --engine 'scan hub' --engine-depth 12 games.pdn   # a Hub engine's [%eval] and lines"])
@click.option("--fen", is_flag=True, help="[%fen ...] after each move: the position it leads to.")
@click.option("--moves", is_flag=True, help="[%moves N] after each move: the legal moves the mover had.")
@click.option("--forced", is_flag=True, help="$7 after a move that was the only legal one.")
@click.option("--captures", is_flag=True, help="[%captured N] after a capture: the pieces it took.")
@click.option("--draws", is_flag=True, help="[%draw ...] where a draw rule's count starts or ends.")
@click.option("--ply-count", is_flag=True, help="Set the PlyCount tag.")
@click.option("--result", is_flag=True, help="Set an unknown Result the rules decide (noted on stderr).")
@click.option("--gametype", is_flag=True, help="Add a missing GameType tag (noted on stderr).")
@click.option("--notes", type=click.Choice(["grouped", "each"]), default="grouped", show_default=True,
              help="Notes on GameType tags added: each message once per file with its count, or one a game "
              "(a Result set is noted for each game).")
@click.option("--all", "everything", is_flag=True, help="Every annotation but --result, --shots and --engine.")
@click.option("--shots", is_flag=True, help="$1 a shot, $2 a missed shot, $4 a move into a shot, each with "
              "its line as a variation, and [%eval ...] after each move, from a search (docs/analysis.md); "
              "[%unjudged nodes N] instead where a search went past --nodes.")
@click.option("--depth", type=click.IntRange(0, 40), cls=Needs, needs=shots_given, what="goes with --shots",
              help=f"--shots' search depth in quiet plies (captures, and up to 2 sacrifices the opponent must "
                   f"take, are free)  [default: {SHOTS_DEPTH}]")
@click.option("--nodes", type=click.IntRange(1), cls=Needs, needs=shots_given, what="goes with --shots", metavar="N",
              help=f"--shots' node budget for each search: a move whose search goes past it is not judged, and "
                   f"says so (docs/analysis.md)  [default: {SHOTS_NODES}]")
@click.option("--engine", metavar="CMD",
              help="[%eval] after each move and the best line where it differs, from a Hub engine "
                   "(e.g. 'scan hub' or 'pdn hub'); CMD is split into words and run without a shell.")
@click.option("--engine-depth", cls=Needs, needs=_engine_given, what="goes with --engine",
              type=click.IntRange(1), metavar="N",
              help=f"Plies the engine searches  [default: {ENGINE_DEPTH}].")
@click.option("--engine-time", cls=Needs, needs=_engine_given, what="goes with --engine",
              type=Seconds(), metavar="SECONDS",
              help="Seconds the engine searches a position instead of a depth (not reproducible).")
@click.option("--engine-timeout", cls=Needs, needs=_engine_given, what="goes with --engine",
              type=Seconds(), default=60.0, show_default=True,
              metavar="SECONDS", help="The longest wait for an engine's answer to one position.")
@writing_options()
@reading_options(dask=True)
def annotate(fen: bool, moves: bool, forced: bool, captures: bool, draws: bool, ply_count: bool, result: bool,
             gametype: bool, notes: str, everything: bool, shots: bool, depth: int | None, nodes: int | None,
             engine: str | None,
             engine_depth: int | None, engine_time: float | None, engine_timeout: float, writing: Writing,
             reading: Reading) -> None:
    """Annotate every valid game of PATHS and write PDN to stdout; other games pass unchanged.
    Annotating an annotated game replaces the old annotations."""
    from pdn_tools.commands.annotate import Options as Annotations, annotate_game
    from pdn_tools.rules.search import Evaluations
    from pdn_tools.running.per_worker import PerWorker, annotated
    from pdn_tools.running.terminal import GroupedNotes, validity

    depth = SHOTS_DEPTH if depth is None else depth
    nodes = SHOTS_NODES if nodes is None else nodes
    options = Annotations(fen or everything, moves or everything, forced or everything, captures or everything,
                          draws or everything, ply_count or everything, result, gametype or everything, shots, depth,
                          nodes)
    if not options.any() and engine is None:
        raise click.UsageError("choose what to annotate: --fen, --moves, --forced, --captures, --draws, "
                               "--ply-count, --result, --gametype, --shots, --engine or --all")
    if shots and engine is not None:
        raise click.UsageError("--shots and --engine both write [%eval]: choose one")
    limits = _engine_limits(engine_depth, engine_time, engine_timeout)
    run = Run(reading)
    with run.output(writing), _hub_engine(engine, limits) as hub:
        searches = PerWorker(functools.partial(Evaluations, depth, nodes)) if shots else None
        work = functools.partial(annotate_game, options=options) if searches is None and hub is None else \
            functools.partial(annotated, options=options, evaluate=searches, engine=hub)
        grouped = GroupedNotes(run.terminal, each=notes == "each")      # a tag added to every game: one line
        run.inputs.note = grouped.before            # an input cut or unreadable: said after its games' notes
        games = run.reported(work)
        for record, (text, noted) in games if hub is None else _engine_errors(games, run.terminal):
            run.terminal.out(text, end="")
            for where, message, alike in noted:
                grouped.add(record.file, where, message, alike)
        grouped.close()
        code = run.done()
    run.terminal.tally(validity(run.games, run.failed, unreadable=run.inputs.unreadable))
    sys.exit(code)


def _engine_limits(depth: int | None, move_time: float | None, timeout: float) -> Limits:
    """annotate's engine options, checked."""
    from pdn_tools.running.engine import Limits

    if depth is not None and move_time is not None:
        raise click.UsageError("choose --engine-depth or --engine-time, not both")
    return Limits(depth, move_time, timeout)


@contextlib.contextmanager
def _hub_engine(command: str | None, limits: Limits) -> Iterator[PerWorker[HubEngine] | None]:
    """The engine of --engine, one a process that annotates (this one, or each worker of --jobs and
    --dask); this process's ended and reaped when the command ends (by an error or Ctrl-C too), the
    workers' when they end, and any left (its worker killed, or busy as the run ends) killed then."""
    from pdn_tools.play.hub import EngineError
    from pdn_tools.running.engine import HubEngine, end_engines_left
    from pdn_tools.running.per_worker import PerWorker

    if command is None:
        yield None
        return
    try:
        HubEngine(command, limits)          # the command checked before anything is read
    except EngineError as error:
        raise click.UsageError(str(error)) from None
    with temporary_folder("pdn-engines-") as registry:
        engines = PerWorker(functools.partial(HubEngine, command, limits, registry))
        try:
            yield engines
        finally:
            engines.close()
            end_engines_left(registry)      # a worker's engine its worker did not end (killed, or busy)


def _engine_errors(results: Iterator[T], terminal: Terminal) -> Iterator[T]:
    """`results`, ending the command (exit 2) with one line on an engine's failure (the progress
    line erased first)."""
    from pdn_tools.play.hub import EngineError

    try:
        yield from results
    except EngineError as error:
        terminal.close()
        click.echo(f"pdn: {error}", err=True)
        sys.exit(EXIT_USAGE)
