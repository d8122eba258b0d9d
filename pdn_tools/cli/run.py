"""One command's run: `Run` owns its inputs, the terminal their reports go to, the backend that does
the per-game work (here, or on a Dask cluster), the games counted and the exit code; and the output
it writes (stdout, or -o FILE atomically).  Writing helpers every command shares are here too."""
from __future__ import annotations

import contextlib
import functools
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterator, NoReturn, Protocol, Sequence, TextIO, TypeVar

import click

from pdn_tools.running import files
from pdn_tools.running.files import atomic_output
from pdn_tools.running.output import EXIT_USAGE, CannotWrite
from pdn_tools.text.names import printable
from pdn_tools.cli.main import SUMMARIES
from pdn_tools.cli.options import Needs, OneLineError, Reading, Writing

if TYPE_CHECKING:      # a run imports them (its module's imports are paid by every `pdn COMMAND --help`)
    from pdn_tools.commands import report
    from pdn_tools.play.check import Checked, Record
    from pdn_tools.rules.core import Engine
    from pdn_tools.running import batch

T = TypeVar("T")


class _Part(Protocol):
    """What a worker sends back for a part of a file: a value with its games' summary."""

    @property
    def summary(self) -> report.Summary: ...


P = TypeVar("P", bound=_Part)


class Run:
    """A command's work over the inputs `reading` names: the inputs, the terminal (reports to `out`,
    else stdout; a progress line and a closing tally on a terminal unless quiet), the backend and the
    exit code; how every game is checked (`checking`, made here once from `reading`, on `engine`, else the
    environment's: chosen here and handed down).  No path while stdin is a terminal is a usage error:
    nothing would come."""

    def __init__(self, reading: Reading, out: TextIO | None = None, progress: bool | None = None,
                 summary: bool = False, engine: Engine | None = None) -> None:
        from pdn_tools.running import batch
        from pdn_tools.running.terminal import Terminal

        if not reading.paths and sys.stdin.isatty():
            raise click.UsageError("name the files or folders to read (or - for stdin)")
        self.reading = reading
        self.inputs = batch.Inputs(reading.paths, reading.globs or batch.DEFAULT_GLOBS, encoding=reading.encoding,
                                   max_game_bytes=reading.max_game_bytes)
        self.terminal = Terminal(self.inputs, progress, out, quiet=reading.quiet, summary=summary)
        self.inputs.note = self.terminal.note
        self.checking = reading.checking(engine)
        self.games = self.failed = 0

    def results(self, work: batch.Work[Any], fold: Callable[[list[Any]], Any] | None = None) -> Iterator[Any]:
        """The backend: `work` over the inputs by `batch.run`, or on the Dask cluster --dask names (with
        `fold`, one `fold(results)` a part of a file instead, folded on the workers)."""
        from pdn_tools.running import batch

        reading = self.reading
        if reading.dask is None:
            return batch.run(self.inputs, work, reading.jobs, fold=fold, checking=self.checking,
                             start_method=reading.start_method)
        return self._on_dask(reading.dask, work, fold)

    def _on_dask(self, address: str, work: batch.Work[Any], fold: Callable[[list[Any]], Any] | None
                 ) -> Iterator[Any]:
        from pdn_tools.running import distributed

        if self.reading.jobs > 1:
            raise click.UsageError("--dask runs on the cluster's workers: not with --jobs")
        if not self.inputs.paths or "-" in self.inputs.paths:
            raise click.UsageError("--dask: the workers read files by name, not standard input")
        progress = distributed.Progress(self.inputs)
        self.terminal.source = progress             # the progress line follows the ranges that came back
        try:
            with distributed.connect(address) as client:
                if fold is None:
                    yield from distributed.run(client, self.inputs, work, progress=progress, checking=self.checking)
                else:
                    yield from distributed.run_folded(client, self.inputs, work, fold, progress=progress,
                                                        checking=self.checking)
        except distributed.DaskError as error:
            click.echo(printable(f"pdn: {error}"), err=True)
            sys.exit(EXIT_USAGE)

    def _checked_work(self, work: Callable[[Checked], T]) -> batch.Work[tuple[Record, T]]:
        from pdn_tools.play.check import check_by
        from pdn_tools.running import batch

        return functools.partial(batch.checked_work, check=check_by, work=work, checking=self.checking)

    def checked(self, work: Callable[[Checked], T]) -> Iterator[tuple[Record, T]]:
        """(record, work(checked)) for each game, checked as `validate` does, in input order; an invalid
        game counts as failed."""
        for record, value in self.results(self._checked_work(work)):
            self.games += 1
            self.failed += not record.ok
            yield record, value

    def reported(self, work: Callable[[Checked], T]) -> Iterator[tuple[Record, T]]:
        """`checked`, with validate's reporting: errors on stderr (in file order, games named), the
        progress line counting."""
        from pdn_tools.commands import report

        for record, value in self.checked(work):
            for line in report.text_lines(record, warnings=False) if record.errors else ():
                self.terminal.note(line)
            yield record, value
            self.terminal.game_done()

    def folded(self, work: Callable[[Checked], Any], fold: Callable[[list[Any]], P]) -> Iterator[P]:
        """`work` on the workers (--jobs, or the cluster's), the results of each part of a file folded
        there into one value (this process has nothing to do per game); the games counted."""
        for part in self.results(self._checked_work(work), fold):
            self.games += part.summary.games
            self.failed += part.summary.games - part.summary.valid
            yield part
            self.terminal.game_done(part.summary.games)

    def exit_code(self) -> int:
        from pdn_tools.running import batch

        return batch.exit_code(self.inputs.unreadable, self.failed)

    def done(self) -> int:
        """The exit code, once the output is complete."""
        self.terminal.close()
        return self.exit_code()

    @contextlib.contextmanager
    def output(self, writing: Writing) -> Iterator[TextIO]:
        """`output(writing)`, the terminal's reports sent there; -o FILE is written only when no input
        ended before its end (cut, changed while read), unless --partial asks for the games read."""
        shown = self.terminal.out_stream
        with output(writing, lambda: writing.partial or not self.inputs.cut) as out:
            self.terminal.out_stream = out
            try:
                yield out
            finally:
                self.terminal.out_stream = shown


@contextlib.contextmanager
def output(writing: Writing, complete: Callable[[], bool] = lambda: True) -> Iterator[TextIO]:
    """stdout, or the file -o names written atomically: it replaces the old one only once the
    command is done and `complete()`; one that cannot be written ends the command (exit 2)."""
    if writing.output is None or writing.output == "-":
        yield sys.stdout
        return
    try:
        with atomic_output(writing.output, complete) as stream:
            yield stream
    except CannotWrite as error:        # the file it names: -o FILE's, or a temporary file
        cannot_write(error.filename, error)
    except OSError as error:
        cannot_write(writing.output, error)


def write_page(run: Run, writing: Writing, write: Callable[[TextIO], None]) -> None:
    """Write a page made of the run's games to stdout, or atomically to -o FILE."""
    with run.output(writing) as out:
        write(out)


def write_file(path: str, texts: Sequence[str | bytes]) -> None:
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
        cannot_write(path, error)


def cannot_write(path: str, error: OSError) -> NoReturn:
    click.echo(f"pdn: cannot write {printable(path)}: {error.strerror or error}", err=True)
    sys.exit(EXIT_USAGE)


def not_to_terminal(writing: Writing) -> None:
    """Binary data and whole pages go to a file, not to a terminal (as gzip refuses to), whether
    stdout is one or -o names one: said before any work."""
    if writing.to_stdout() and sys.stdout.isatty():
        raise OneLineError("not written to a terminal; use -o FILE")
    if writing.output is not None and not writing.to_stdout() and files.names_a_terminal(writing.output):
        raise OneLineError(f"cannot write {printable(writing.output)}: {files.TERMINAL}")


def _refuse_overwriting_inputs(params: dict[str, Any]) -> None:
    """End the command (exit 2) before it reads anything when a file it would write (-o FILE, a part
    `split` writes in its folder, the file standard output is: `pdn convert k/ > k/all.pdn` read its
    own output without end) is one of its inputs, by whatever path."""
    from pdn_tools.running import batch

    if params.get("folder") is not None:
        from pdn_tools.commands import archive

        outputs = [*archive.earlier_parts(params["folder"], params["prefix"]), "-"]
    else:
        outputs = [params.get("output") or "-"]
    if "paths" in params:
        named = batch.Inputs(params["paths"], params.get("globs") or batch.DEFAULT_GLOBS).named_files()
    else:
        named = iter([params["path"]] if "path" in params else [])
    clash = files.overwritten_input(outputs, named)
    if clash is not None:
        written, path = clash
        shown = "standard input" if path == "-" else printable(path)
        target = "standard output" if written == "-" else printable(written)
        click.echo(f"pdn: cannot write {target}: it is the input {shown}; write elsewhere "
                   "(only convert --in-place rewrites its inputs)", err=True)
        sys.exit(EXIT_USAGE)


def _refuse_options_alone(ctx: click.Context) -> None:
    """A usage error (exit 2) for an option given without the option or value it goes with (`Needs`)."""
    for param in ctx.command.params:
        given = param.name is not None and ctx.get_parameter_source(param.name) in (
            click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT)
        if given and isinstance(param, Needs) and not param.needs(ctx.params):
            raise click.UsageError(f"{param.opts[0]} {param.what}", ctx)


class Command(click.Command):
    """A pdn command: one whose options given without what they go with, and outputs that are its
    inputs, are refused (see above), with its line in `pdn --help` (`summary`, a whole sentence: click
    would cut the first one of the help) and its examples under its help."""

    def __init__(self, *args: Any, summary: str = "", examples: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.short_help = summary or None
        self.summary, self.examples = summary, tuple(examples)
        self.epilog = "\b\nExamples:\n" + "\n".join("  " + example for example in examples)

    def invoke(self, ctx: click.Context) -> Any:
        _refuse_options_alone(ctx)
        _refuse_overwriting_inputs(ctx.params)
        return super().invoke(ctx)


def command(name: str, examples: Sequence[str]) -> Callable[[Callable[..., Any]], Command]:
    """A pdn command named `name`, with its line in `pdn --help` (in cli/main.py's COMMANDS) and its examples."""
    return click.command(name, cls=Command, summary=SUMMARIES[name], examples=examples)
