"""The `pdn` group, its commands (one module per family) and the entry point: how the command ends
on a closed pipe, a full disk, Ctrl-C and SIGTERM."""
from __future__ import annotations

import sys

import click

from pdn_tools.cli import archive, convert, diagram, hub, perft, validate
from pdn_tools.cli.run import Command
from pdn_tools.running import output as streams
from pdn_tools.running.batch import EXIT_USAGE
from pdn_tools.text.names import printable

EXIT_CLOSED_PIPE = 128 + 13             # as a process ended by SIGPIPE
COMMANDS: list[Command] = [validate.validate, convert.convert, convert.annotate, diagram.diagram,
                           archive.list_command, archive.filter_command, archive.dedupe, archive.stats, archive.split,
                           hub.hub, perft.perft, perft.variants]


@click.group(commands=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pdn-tools")
def cli() -> None:
    """Read, validate and convert draughts games in PDN."""


cli.epilog = "\b\nExamples:\n" + "\n".join("  " + example for example in [
    "pdn validate games.pdn archive/          # errors; a tally line at the end",
    "pdn convert --to jsonl games.pdn > games.jsonl",
    "pdn filter --player sijbrands archive/ -o his.pdn",
    "pdn stats --format html archive/ -o stats.html",
    "pdn variants                             # names and GameType numbers for --variant",
    "pdn COMMAND --help                       # options and examples of a command"])
# Each command's line in `pdn --help`, and its examples (kept beside each command).
SUMMARIES = {command.name: command.summary for command in COMMANDS if command.name}
EXAMPLES = {command.name: list(command.examples) for command in COMMANDS if command.name}


def main() -> None:
    """Entry point.  A closed pipe (`pdn ... | head`) ends quietly with 141, as by SIGPIPE;
    stdout that cannot be written (a full disk, closed) is one line naming <stdout>, exit 2;
    Ctrl-C ends quietly, by SIGINT as any program (a shell shows 130); SIGTERM and SIGHUP remove
    temporary files, then end the process.  A stderr that cannot be written (closed, full) loses its messages, not the
    command: the exit code is the command's, or 2 where it would have been 0."""
    streams.end_on_first_interrupt()
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
        streams.end_interrupted()
    except (streams.ClosedPipe, BrokenPipeError):
        streams.discard_stdout()
        sys.exit(EXIT_CLOSED_PIPE)
    except streams.CannotWrite as error:
        if error.filename == streams.STDOUT:
            streams.discard_stdout()
        click.echo(f"pdn: cannot write {printable(error.filename)}: {error.strerror}", err=True)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        streams.end_interrupted()
    except streams.Terminated as stop:
        streams.end_by_signal(stop.signum)
