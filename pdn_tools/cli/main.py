"""The `pdn` group, its commands (one module per family) and the entry point: how the command ends
on a closed pipe, a full disk, Ctrl-C and SIGTERM."""
from __future__ import annotations

import os
import signal
import sys
from importlib import import_module
from typing import TYPE_CHECKING, Iterator, Mapping, MutableMapping, Sequence, cast

import click

from pdn_tools import __version__
from pdn_tools.running import output as streams
from pdn_tools.running import signals
from pdn_tools.running.output import EXIT_USAGE

if TYPE_CHECKING:
    from pdn_tools.cli.run import Command

EXIT_CLOSED_PIPE = 128 + 13             # as a process ended by SIGPIPE
# Each command: the module of cli/ that defines it, its name there, and its line in `pdn --help` (a whole
# sentence: click would cut the first one of the help).  A command's module is imported only to run the
# command or show its help: `pdn --help` and `pdn --version` import none (docs/start-up.md).
COMMANDS: dict[str, tuple[str, str, str]] = {
    "validate": ("validate", "validate", "Check every game: each move legal, each result right."),
    "convert": ("convert", "convert", "Write the games as canonical PDN, JSON lines or FEN lines."),
    "annotate": ("convert", "annotate", "Annotate every valid game: positions, legal moves, captures."),
    "diagram": ("diagram", "diagram", "Draw the position after a ply of one game, as text, SVG or PNG."),
    "list": ("archive", "list_command", "List the games, one row of their tags each."),
    "filter": ("archive", "filter_command", "Write the games that meet every criterion given."),
    "dedupe": ("archive", "dedupe", "Write the games without repeats, or list the repeats."),
    "stats": ("archive", "stats", "Count the games per variant, result and year."),
    "split": ("archive", "split", "Write the games into files of N games each."),
    "hub": ("hub", "hub", "Run the built-in search as a Hub engine on stdin and stdout."),
    "perft": ("perft", "perft", "Count the leaf nodes of the move tree of a position."),
    "variants": ("perft", "variants", "List the variants with their GameType, board and notation.")}
SUMMARIES = {name: summary for name, (_, _, summary) in COMMANDS.items()}


class _Commands(Mapping[str, "Command"]):
    """COMMANDS by name, each module imported when one of its commands is first asked for."""

    def __getitem__(self, name: str) -> Command:
        module, attribute, _ = COMMANDS[name]
        command: Command = getattr(import_module(f"pdn_tools.cli.{module}"), attribute)
        return command

    def __iter__(self) -> Iterator[str]:
        return iter(COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS)


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """`pdn --version`: the version, then which engine runs (rules.core.engine_summary)."""
    if not value or ctx.resilient_parsing:
        return
    from pdn_tools.rules.core import engine_summary

    click.echo(f"pdn, version {__version__}\n{engine_summary()}")
    ctx.exit()


class Group(click.Group):
    """The pdn group: its commands loaded on demand (`commands` is read-only: none is added at run time)."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The Commands section, as click writes it, from SUMMARIES: no command is imported to list it."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, SUMMARIES[name]) for name in self.list_commands(ctx)])


@click.group(cls=Group, commands=cast(MutableMapping[str, click.Command], _Commands()),
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version, and the engine that runs, and exit.")
def cli() -> None:
    """Read, validate and convert draughts games in PDN."""


cli.epilog = "\b\nExamples:\n" + "\n".join("  " + example for example in [
    "pdn validate games.pdn archive/          # errors; a tally line at the end",
    "pdn convert --to jsonl games.pdn > games.jsonl",
    "pdn filter --player sijbrands archive/ -o his.pdn",
    "pdn stats --format html archive/ -o stats.html",
    "pdn variants                             # names and GameType numbers for --variant",
    "pdn COMMAND --help                       # options and examples of a command"])


def examples() -> dict[str, list[str]]:
    """Each command's examples (kept beside each command: this imports every command's module)."""
    return {name: list(command.examples) for name, command in _Commands().items()}


def main(noted: Sequence[int] = ()) -> None:
    """Entry point.  A closed pipe (`pdn ... | head`) ends quietly with 141, as by SIGPIPE;
    stdout that cannot be written (a full disk, closed) is one line naming <stdout>, exit 2;
    Ctrl-C ends quietly, by SIGINT as any program (a shell shows 130); SIGTERM and SIGHUP remove
    temporary files, then end the process.  A stderr that cannot be written (closed, full) loses its messages, not the
    command: the exit code is the command's, or 2 where it would have been 0.

    `noted`: the Ctrl-C noted while the command line loaded (`pdn_tools.__main__`), looked at once this
    function's handler is in, so that one landing in between is neither lost nor raised outside the guard."""
    try:
        signals.end_on_first_interrupt()
        if noted:
            raise KeyboardInterrupt
        streams.guard_standard_streams()
        code: int | str | None = 0
        try:
            _run()
        except SystemExit as done:
            code = done.code
        sys.exit(EXIT_USAGE if code in (0, None) and streams.stderr_lost() else code)
    except BaseException as error:
        signum = signals.ending_signal(error)
        if signum == signal.SIGINT:
            signals.end_interrupted()
        if signum is not None:
            signals.end_by_signal(signum)
        raise


def _show(error: click.ClickException) -> None:
    """Show a usage error as click words it, each line `printable`: click quotes the arguments
    given (`Got unexpected extra argument (...)`), which may hold escape sequences."""
    import io

    from pdn_tools.text.names import printable

    class Said(io.StringIO):
        def isatty(self) -> bool:       # so that click keeps the words as given (it strips escapes off a file)
            return True

    said = Said()
    error.show(said)
    sys.stderr.write("".join(printable(line) + "\n" for line in said.getvalue().splitlines()))
    sys.stderr.flush()


def help_width(max_width: int = 80) -> int:
    """The width click gives a help page, found as it finds it (the COLUMNS variable, else the terminal on
    stdout, else 80 columns; at most `max_width` - 2, at least 50) without importing shutil (6 ms a start, its
    compression modules with it), which click imports for a page whose width it is not told."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
        except (ValueError, OSError):
            columns = 0
        columns = columns or 80
    return max(min(columns, max_width) - 2, 50)


def _run() -> None:
    streams.name_stdout_errors()
    signals.clean_up_on_signals()
    try:
        try:
            cli.main(standalone_mode=False, terminal_width=help_width())
        finally:
            sys.stdout.flush()          # a closed pipe shows here, not at interpreter exit
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        _show(error)
        sys.exit(EXIT_USAGE)
    except click.Abort:
        signals.end_interrupted()
    except (streams.ClosedPipe, BrokenPipeError):
        streams.discard_stdout()
        sys.exit(EXIT_CLOSED_PIPE)
    except streams.CannotWrite as error:
        from pdn_tools.text.names import printable

        if error.filename == streams.STDOUT:
            streams.discard_stdout()
        click.echo(f"pdn: cannot write {printable(error.filename)}: {error.strerror}", err=True)
        sys.exit(EXIT_USAGE)
    except streams.WorkerLost as error:
        click.echo(f"pdn: {error}", err=True)
        sys.exit(EXIT_USAGE)
