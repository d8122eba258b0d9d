"""The archive tools: `pdn list`, `filter`, `dedupe`, `stats` and `split`."""
from __future__ import annotations

import errno
import functools
import os
import re
import sys
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar, Sequence, TextIO

import click

from pdn_tools.cli.options import VARIANT, Reading, Writing, format_option, reading_options, writing_options
from pdn_tools.cli.choices import LIST_FORMATS
from pdn_tools.cli.run import Run, cannot_write, command, not_to_terminal, write_file, write_page
from pdn_tools.running.terminal import games, validity
from pdn_tools.text.names import printable
from pdn_tools.text.results import RESULTS, Outcome

if TYPE_CHECKING:      # a run imports them, not `pdn COMMAND --help` (docs/start-up.md)
    from pdn_tools.commands import archive
    from pdn_tools.commands.archive import Criteria
    from pdn_tools.rules.variants import Variant
    from pdn_tools.text.model import Game, ReadError


@command("list", [
    "pdn list OCA_2.0.pdn | sort -t$'\\t' -k4 | less -S     # by White",
    "pdn list --format csv archive/ -o games.csv",
    "pdn list --format jsonl games.pdn.gz | jq -r .Event | sort | uniq -c"])
@format_option(LIST_FORMATS, "tsv",
               "Tab-separated with a header row, CSV with a header row, or one JSON object per game.")
@writing_options()
@reading_options(replay=False, jobs=False)
def list_command(fmt: str, writing: Writing, reading: Reading) -> None:
    """List the games of PATHS, one row each: file, line, game (its index in the file), White,
    Black, Result (else the terminator), Date, Event, Round, GameType.  Reads the tags only:
    games are neither parsed nor checked."""
    from pdn_tools.commands import archive
    from pdn_tools.text.reader import parse_raw

    run = Run(reading)
    terminal = run.terminal
    with run.output(writing):
        rows = archive.ROWS[fmt]()
        for line in rows.header():
            terminal.out(line, end="")
        for raw, index, notes in run.inputs.raw_games(run.checking.engine):
            terminal.out(rows.row(archive.listing_row(raw, index)), end="")
            if raw.too_large:       # listed by the tags read, reported as every command reports it
                _failed(run, parse_raw(raw, index, False, notes, run.checking.engine))
            terminal.game_done()
        terminal.close()
    terminal.tally(f"{games(terminal.games)} listed")
    sys.exit(run.exit_code())


def _compile(pattern: str, param: click.Parameter) -> re.Pattern[str]:
    """`pattern` compiled, case-insensitive; a usage error saying why when Python cannot compile it (its
    syntax, a repetition count past its limit, parentheses nested too deeply)."""
    try:
        return re.compile(pattern, re.IGNORECASE)
    except (re.error, OverflowError) as error:
        raise click.BadParameter(f"bad regular expression {pattern!r}: {error}", param=param) from None
    except RecursionError:
        raise click.BadParameter(f"bad regular expression {pattern!r}: nested too deeply",
                                 param=param) from None


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


@command("filter", [
    "pdn filter --player sijbrands --result 2-0 archive/ -o won.pdn   # also finds 1-0",
    "pdn filter --tag 'Event=world|wk' --min-plies 40 --valid archive.pdn",
    "pdn filter --position 'B:W29,31-33,35-50:B1-20' archive.pdn"])
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
@writing_options()
@reading_options()
def filter_command(tags: tuple[tuple[str, re.Pattern[str]], ...], player: re.Pattern[str] | None,
                   result: str | None, wanted: Variant | None, valid: bool | None, min_plies: int | None,
                   max_plies: int | None, position: str | None, writing: Writing, reading: Reading) -> None:
    """Write the games of PATHS that meet every criterion given, as PDN.

    Criteria on tags, players and result read the tags alone: only the games that meet them
    are parsed, none is replayed or checked.  The others (--replayed-as, --valid/--invalid,
    --min/max-plies, --position) replay every game and report invalid ones on stderr.
    """
    from pdn_tools.commands import archive
    from pdn_tools.commands.archive import Criteria

    if position is not None:
        _check_fen(position, reading.variant or wanted)
    criteria = Criteria(tags, player, result, wanted, valid, min_plies, max_plies, position)
    run = Run(reading)
    with run.output(writing):
        if criteria.needs_game() and not criteria.needs_replay():
            code, matched = _filter_by_tags(run, criteria)
        else:
            matched = 0
            for _, text in run.reported(functools.partial(archive.filter_game, criteria=criteria)):
                if text:
                    matched += 1
                    run.terminal.out(text, end="")
            code = run.done()
    run.terminal.tally(f"{matched:,} of {games(run.terminal.games)} matched")
    sys.exit(code)


def _filter_by_tags(run: Run, criteria: Criteria) -> tuple[int, int]:
    """filter's fast path: tags decide, games are parsed only when they match, never replayed;
    the exit code and the games matched."""
    from pdn_tools.commands import archive
    from pdn_tools.text.model import ReadError
    from pdn_tools.text.writer import game_text

    terminal = run.terminal
    matched = 0
    for raw, index, notes in run.inputs.raw_games(run.checking.engine):
        game = archive.tag_filtered(raw, index, notes, criteria, run.checking)
        if isinstance(game, ReadError):
            _failed(run, game)
        elif game is not None:
            matched += 1
            terminal.out(game_text(game), end="")
        terminal.game_done()
    terminal.close()
    return run.exit_code(), matched


def _failed(run: Run, game: Game | ReadError) -> None:
    """A game read but not replayed that could not be read: reported on stderr as validate reports it,
    counted as failed."""
    from pdn_tools.commands import report
    from pdn_tools.play.check import check_by

    run.failed += 1
    for line in report.text_lines(check_by(game, run.checking).record, warnings=False):
        run.terminal.note(line)


def _check_fen(fen: str, variant: Variant | None) -> None:
    """A usage error unless `fen` is a position of `variant` (of some variant when None); read, not set up
    on an engine: the run's is not chosen yet."""
    from pdn_tools.rules.fen import FenError, read_fen
    from pdn_tools.rules.variants import VARIANTS

    errors = []
    for candidate in [variant] if variant else VARIANTS.values():
        try:
            read_fen(candidate, fen)
            return
        except FenError as error:
            errors.append(error)
    first = errors[0]
    raise click.BadParameter(f"{first.message} (at column {first.column + 1})", param_hint="--position")


@command("dedupe", [
    "pdn dedupe a.pdn b.pdn -o merged.pdn",
    "pdn dedupe --report --by moves+tags archive/"])
@click.option("--by", type=click.Choice(["moves", "moves+tags"]), default="moves", show_default=True,
              help="Games are the same when their moves are, or their moves and tags.")
@click.option("--report", "listing", is_flag=True, help="List the duplicates instead of dropping them.")
@writing_options()
@reading_options()
def dedupe(by: str, listing: bool, writing: Writing, reading: Reading) -> None:
    """Write the games of PATHS without repeats (the first of each kept), or list the repeats."""
    from pdn_tools.commands import archive

    seen: dict[bytes, str] = {}         # hash -> the first game's place (kept for --report only)
    work = functools.partial(archive.dedupe_game, with_tags=by == "moves+tags")
    run = Run(reading)
    with run.output(writing):
        for record, (digest, text) in run.reported(work):
            where = f"{printable(record.file)}:{record.line}: game {record.game}"
            if digest not in seen:
                seen[digest] = where if listing else ""
                if not listing and text:
                    run.terminal.out(text, end="")
            elif listing:
                run.terminal.out(f"{where}: duplicate of {seen[digest]}")
        code = run.done()
    run.terminal.tally(f"{games(run.terminal.games)}, {run.terminal.games - len(seen):,} duplicates")
    sys.exit(code)


class StatsFormat(ABC):
    """One --format of `pdn stats` (a new format is one subclass and its line in STATS_FORMATS)."""

    page: ClassVar[bool] = False        # a whole page: never to a terminal, said before any work
    unread: Sequence[tuple[str, str]] = ()      # (path, note) of the inputs not read whole, for a page

    @abstractmethod
    def write(self, stats: archive.Stats, out: TextIO) -> None:
        """Write the counts."""


class StatsLines(StatsFormat):
    """Aligned tables."""

    def write(self, stats: archive.Stats, out: TextIO) -> None:
        out.writelines(line + "\n" for line in stats.lines())


class StatsJson(StatsFormat):
    """One JSON object."""

    def write(self, stats: archive.Stats, out: TextIO) -> None:
        from pdn_tools.commands import report

        out.write(report.json_line({**stats.as_dict(), "unreadable": [path for path, _ in self.unread]}) + "\n")


class StatsPage(StatsFormat):
    """A self-contained HTML page with charts."""

    page = True

    def write(self, stats: archive.Stats, out: TextIO) -> None:
        from pdn_tools.commands import html_stats

        html_stats.stats_page(stats, out, unread=self.unread)


STATS_FORMATS: dict[str, type[StatsFormat]] = {"text": StatsLines, "json": StatsJson, "html": StatsPage}


@command("stats", [
    "pdn stats archive/",
    "pdn stats --format json OCA_2.0.pdn | jq .outcomes",
    "pdn stats --format html -o stats.html archive/"])
@format_option(STATS_FORMATS, "text", "Lines, one JSON object, or a self-contained HTML page with charts.")
@writing_options()
@reading_options(dask=True)
def stats(fmt: str, writing: Writing, reading: Reading) -> None:
    """Count the games of PATHS per variant, result and year, with validity and average length."""
    from pdn_tools.commands import archive

    form = STATS_FORMATS[fmt]()
    if form.page:
        not_to_terminal(writing)
    totals = archive.Stats()
    run = Run(reading)
    if reading.dask or reading.jobs > 1:
        for part in run.folded(archive.stats_game, archive.stats_part):
            for line in part.notes:
                run.terminal.note(line)
            totals.merge(part.stats)
    else:
        for record, year in run.reported(archive.stats_game):
            totals.add(record, year)
    code = run.done()
    form.unread = run.inputs.unread
    write_page(run, writing, functools.partial(form.write, totals))
    run.terminal.tally(validity(run.games, run.failed, unreadable=run.inputs.unreadable))
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
    if value[:1] in ("", "-", "."):         # parts a shell's * passes as options (-00001.pdn), or skips (hidden)
        what = "hidden files" if value.startswith(".") else "files that start with '-'"
        raise click.BadParameter(f"'{value}' names {what} ({value}-00001.pdn); give a prefix that starts with a "
                                 "letter, a digit or '_'")
    return value


@command("split", [
    "pdn split --per 100 -o parts/ archive.pdn",
    "pdn split --force --prefix round -o parts/ tournament.pdn"])
@click.option("--out", "-o", "folder", required=True, type=click.Path(file_okay=False),
              help="Folder for the files (made if missing).")
@click.option("--per", type=click.IntRange(1), default=1, show_default=True, help="Games per file.")
@click.option("--prefix", default="game", show_default=True, callback=_file_prefix,
              help="File names: PREFIX-00001.pdn, ... (a name, not a path: files stay in the folder)")
@click.option("--force", is_flag=True, help="Replace the parts of an earlier split in the folder.")
@reading_options()
def split(folder: str, per: int, prefix: str, force: bool, reading: Reading) -> None:
    """Write the games of PATHS into files of PER games each, atomically; print each file's path.

    A folder that holds parts of an earlier split (PREFIX-NNNNN.pdn) is refused unless --force:
    then the parts this split does not write again are removed at the end."""
    from pdn_tools.commands import archive

    earlier = archive.earlier_parts(folder, prefix)
    if earlier and not force:
        shown = ", ".join(os.path.basename(name) for name in earlier[:3]) + (", ..." if len(earlier) > 3 else "")
        raise click.UsageError(f"{printable(folder)} holds {len(earlier)} parts of an earlier split ({shown}): "
                               "--force to replace them, or choose another folder or --prefix")
    try:
        os.makedirs(folder, exist_ok=True)
    except FileExistsError:         # there, and no folder: a device or a FIFO (click refuses a file)
        cannot_write(folder, NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)))
    except OSError as error:
        cannot_write(folder, error)
    run = Run(reading)
    texts: list[str] = []
    written = 0

    def flush() -> None:
        nonlocal written
        written += 1
        target = os.path.join(folder, f"{prefix}-{written:05d}.pdn")
        archive.unlink_if_not_a_file(target)     # a link (or FIFO) there is replaced, never written through
        write_file(target, texts)
        texts.clear()
        run.terminal.out(printable(target))

    for _, text in run.reported(archive.pass_game):
        if not text:                # not kept (reported): no game to write
            continue
        texts.append(text)
        if len(texts) == per:
            flush()
    if texts:
        flush()
    fresh = {os.path.join(folder, f"{prefix}-{number:05d}.pdn") for number in range(1, written + 1)}
    stale = sorted(set(earlier) - fresh)        # parts of the earlier split this one did not replace
    if stale and run.inputs.unreadable:         # a split cut short: the old parts are all that is left of them
        shown = os.path.basename(stale[0]) + (", ..." if len(stale) > 1 else "")
        parts = f"{len(stale):,} part" + ("s" if len(stale) > 1 else "")
        run.terminal.note(f"pdn: {folder}: kept the {parts} of the earlier split not written again ({shown}): "
                          "an input was not read to its end")
        stale = []
    for name in stale:
        os.unlink(name)
    code = run.done()
    run.terminal.tally(f"{games(run.terminal.games)} in {written:,} files")
    sys.exit(code)
