"""The `pdn` command line.

Exit codes: 0 every game is valid, 1 some game is invalid, 2 usage error or an
input that cannot be read.  Reports go to stdout, progress and notes to stderr.
"""
from __future__ import annotations

import functools
import os
import sys

import click

from . import batch, report
from .fen import FenError, parse_fen
from .movegen import Position, divide, perft as count_leaves
from .variants import VARIANTS, Variant, variant_by_name

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def _variant(ctx, param, value: str | None) -> Variant | None:
    if value is None:
        return None
    variant = variant_by_name(value)
    if variant is None:
        raise click.BadParameter(f"unknown variant {value!r}; known: {', '.join(sorted(VARIANTS))}")
    return variant


variant_option = click.option("--variant", callback=_variant, metavar="NAME",
                              help="Rules to use instead of the GameType tag (name or GameType number).")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
                           help="Worker processes; output keeps the input order.")
strict_option = click.option("--strict", is_flag=True,
                             help="Report tolerated quirks of real files as errors.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pdn-tools")
def cli() -> None:
    """Read, validate and convert draughts games in PDN."""


@cli.command()
@click.argument("paths", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text", show_default=True,
              help="One line per problem, or one JSON object per game.")
@strict_option
@variant_option
@click.option("--quiet", "-q", is_flag=True, help="Leave warnings out of the text report.")
@click.option("--summary", is_flag=True, help="End with counts per variant and per error code.")
@jobs_option
def validate(paths: tuple[str, ...], fmt: str, strict: bool, variant: Variant | None, quiet: bool,
             summary: bool, jobs: int) -> None:
    """Check every game of PATHS (files, folders of *.pdn, or - for stdin)."""
    inputs = batch.Inputs(paths)
    totals = report.Summary()
    progress = batch.Progress()
    work = functools.partial(report.check, variant=variant, strict=strict)
    for record in batch.run(inputs, work, jobs, strict):
        totals.add(record)
        progress.update(record["ok"])
        if fmt == "jsonl":
            click.echo(report.json_line(record))
        else:
            for line in report.text_lines(record, warnings=not quiet):
                click.echo(line)
    progress.close()
    if summary:
        lines = [report.json_line({"summary": totals.as_dict()})] if fmt == "jsonl" else totals.lines()
        for line in lines:
            click.echo(line)
    sys.exit(EXIT_USAGE if inputs.unreadable else EXIT_OK if totals.valid == totals.games else EXIT_INVALID)


@cli.command()
@click.option("--variant", callback=_variant, required=True, metavar="NAME", help="Variant name or number.")
@click.option("--depth", type=click.IntRange(0), required=True, help="Plies to search.")
@click.option("--fen", help="Start position (default: the variant's initial position).")
@click.option("--divide", "split", is_flag=True, help="Also count below each first move.")
@click.option("--keep-duplicates", is_flag=True,
              help="Count captures that differ only in the order of the pieces taken separately.")
def perft(variant: Variant, depth: int, fen: str | None, split: bool, keep_duplicates: bool) -> None:
    """Count the leaf nodes of the move tree, one line per depth: `depth <d> <count>`."""
    try:
        position = parse_fen(variant, fen) if fen else Position.initial(variant)
    except FenError as error:
        raise click.BadParameter(f"{error.message} (at column {error.column + 1})", param_hint="--fen")
    if split:
        for move, count in divide(position, depth, keep_duplicates):
            click.echo(f"{move} {count}")
    for d in range(1, depth + 1):
        click.echo(f"depth {d} {count_leaves(position, d, keep_duplicates)}")


def _drop(ctx, param, value: str | None) -> frozenset[str]:
    from .notation import DROPPABLE
    names = frozenset(name.strip() for name in (value or "").split(",") if name.strip())
    unknown = sorted(names - set(DROPPABLE))
    if unknown:
        raise click.BadParameter(f"cannot drop {', '.join(unknown)}; choose from {', '.join(DROPPABLE)}")
    return names


@cli.command()
@click.argument("paths", nargs=-1)
@click.option("--to", "to", type=click.Choice(["pdn", "jsonl", "fen"]), default="pdn", show_default=True,
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
@click.option("--in-place", is_flag=True, help="Rewrite each input file (atomically).")
@strict_option
@variant_option
@jobs_option
def convert(paths: tuple[str, ...], to: str, captures: str | None, squares: str | None, separator: str | None,
            fix_results: bool, drop: frozenset[str], keep_invalid: bool, output: str | None, in_place: bool,
            strict: bool, variant: Variant | None, jobs: int) -> None:
    """Convert every game of PATHS (files, folders of *.pdn, or - for stdin), game by game.

    A game that cannot be read, or that does not replay when the output needs a replay
    (--to jsonl/fen, --captures, --squares, --separator, --fix-results), is reported on
    stderr and left out, or passed through with --keep-invalid.
    """
    from . import convert as conversion
    from .notation import Style

    if in_place and (output is not None or to != "pdn" or not paths or "-" in paths):
        raise click.UsageError("--in-place rewrites the PDN files named: not with -o, --to jsonl/fen or stdin")
    if keep_invalid and to != "pdn":
        raise click.UsageError("--keep-invalid passes games through as PDN: only with --to pdn")
    options = conversion.Options(to, Style(captures, squares, separator, drop, fix_results), keep_invalid,
                                 variant, strict)
    work = functools.partial(conversion.convert, options=options)
    note = functools.partial(click.echo, err=True)
    inputs = batch.Inputs(paths)
    try:
        if in_place:
            failed = conversion.rewrite_files(inputs, work, jobs, strict, keep_invalid, note)
        elif output in (None, "-"):
            failed = conversion.write_all(batch.run(inputs, work, jobs, strict), sys.stdout, note)
        else:
            with conversion.atomic_output(output) as out:
                failed = conversion.write_all(batch.run(inputs, work, jobs, strict), out, note)
    except OSError as error:
        note(f"pdn: cannot write {error.filename or output}: {error.strerror or error}")
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_USAGE if inputs.unreadable else EXIT_INVALID if failed else EXIT_OK)


def main() -> None:
    """Entry point: quiet on a closed pipe (`pdn ... | head`) and on Ctrl-C."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        error.show()
        sys.exit(EXIT_USAGE)
    except click.Abort:
        sys.exit(130)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(EXIT_INVALID)
    except KeyboardInterrupt:
        sys.exit(130)
