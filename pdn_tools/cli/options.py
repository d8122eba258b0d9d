"""Option groups as decorators, each delivering one frozen object: `Reading` (what to read and how
to check it, the same options in the same order for every command that reads games) and `Writing`
(-o FILE, --partial).  Commands build on these; a new reading option is one field and one line here."""
from __future__ import annotations

import functools
import os
from typing import IO, TYPE_CHECKING, Any, Callable, Iterable, Mapping, NamedTuple, Sequence

import click

from pdn_tools.cli.choices import DEFAULT_RULES, MAX_GAME_BYTES, MAX_JOBS, RULE_SETS
from pdn_tools.running.output import EXIT_USAGE

if TYPE_CHECKING:
    from pdn_tools.play.checking import Checking
    from pdn_tools.rules.core import Engine
    from pdn_tools.rules.variants import RuleSet, Variant
    _ParamType = click.ParamType[Variant]
else:
    _ParamType = click.ParamType        # generic for type checkers only before click 8.2

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]
Option = Callable[[Any], Any]           # what click.option and click.argument return
QUIET_HELP = "No progress line and no closing tally; errors and notes of changes made stay."


class VariantType(_ParamType):
    """A variant named by name, alias or GameType number (`--variant` of every command)."""

    name = "variant"

    def convert(self, value: str | Variant, param: click.Parameter | None, ctx: click.Context | None) -> Variant:
        from pdn_tools.rules.variants import VARIANTS, Variant, variant_by_name

        if isinstance(value, Variant):
            return value
        variant = variant_by_name(value)
        if variant is None:
            self.fail(f"unknown variant {value!r}; known: {', '.join(sorted(VARIANTS))}", param, ctx)
        return variant


VARIANT = VariantType()


class OneLineError(click.ClickException):
    """A usage error said in one line, `pdn: message` (exit 2), without the usage text."""

    exit_code = EXIT_USAGE

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"pdn: {self.message}", file=file, err=True)


class Seconds(click.FloatRange):
    """A number of seconds above 0 and at most a day: NaN, which every comparison of a range lets
    through, is refused (a timeout of `nan`, `inf` or 1e300 ended in a traceback)."""

    def __init__(self) -> None:
        super().__init__(0, 24 * 3600, min_open=True)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if seconds != seconds:
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return seconds


class Needs(click.Option):
    """An option that means something only with another option or value: `needs(params)` (the command's
    parameters) says whether the command line gives it that; given without it, the command ends before
    any work (exit 2, `OPTION goes with ...`: `what`) instead of ignoring it (see cli/run.py's Command)."""

    def __init__(self, *args: Any, needs: Callable[[Mapping[str, Any]], bool], what: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.needs, self.what = needs, what


def _folder_named(params: Mapping[str, Any]) -> bool:
    """Whether a folder is among PATHS (or a path that is not there, which its own error names)."""
    return any(path != "-" and (os.path.isdir(path) or not os.path.lexists(path)) for path in params["paths"])


def _file_named(params: Mapping[str, Any]) -> bool:
    return params["output"] not in (None, "-")


class Reading(NamedTuple):
    """What a command reads and how: PATHS and --glob, --max-game-bytes, --strict, --encoding,
    --variant, --rules, --jobs (with the hidden --start-method), --dask and --quiet (an option a command does
    not have keeps its default)."""

    paths: tuple[str, ...] = ()
    globs: tuple[str, ...] = ()
    max_game_bytes: int = MAX_GAME_BYTES
    strict: bool = False
    encoding: str | None = None
    variant: Variant | None = None
    rules: RuleSet | None = None            # the draws by these rules, else each variant's own
    jobs: int = 1
    start_method: str | None = None         # how --jobs workers start (None: the platform's default)
    dask: str | None = None
    quiet: bool = False

    def checking(self, engine: Engine | None = None) -> Checking:
        """How the games read are checked: --strict, --variant and --rules, on `engine` (None: the
        environment's, PDN_TOOLS_PURE); made once a command and passed down."""
        from pdn_tools.play.checking import Checking
        from pdn_tools.rules.core import engine_from_environment

        return Checking(self.strict, self.variant, self.rules, engine or engine_from_environment())


class Writing(NamedTuple):
    """Where a command writes: stdout, or -o FILE atomically (--partial: even when an input is cut)."""

    output: str | None = None
    partial: bool = False

    def to_stdout(self) -> bool:
        return self.output in (None, "-")


def _rule_set(ctx: click.Context, param: click.Parameter, value: str) -> RuleSet:
    from pdn_tools.rules.variants import RULE_SETS as rule_sets

    return rule_sets[value]


def _encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from pdn_tools.text.decoding import known_encoding
    try:
        return known_encoding(value)
    except LookupError as error:
        raise click.BadParameter(str(error)) from None


def _dask_address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--dask checked before anything is read: a scheduler address or local[:N]."""
    if value is None:
        return None
    from pdn_tools.running.distributed import DaskError, check_address

    try:
        return check_address(value)
    except DaskError as error:
        raise OneLineError(str(error)) from None


strict_option = click.option("--strict", is_flag=True, help="Report tolerated quirks of real files as errors.")
encoding_option = click.option("--encoding", callback=_encoding, metavar="NAME",
                               help="Read the input in this encoding instead of detecting it.")
variant_option = click.option("--variant", type=VARIANT, metavar="NAME",
                              help="Rules to use instead of the GameType tag (name or GameType number).")
rules_option = click.option(
    "--rules", type=click.Choice(list(RULE_SETS)), default=DEFAULT_RULES, show_default=True, callback=_rule_set,
    help="Draw rules to check results by: " + "; ".join(f"{name}: {line}" for name, line in RULE_SETS.items())
         + " (docs/rules.md).")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True,
                           help="Worker processes; output keeps the input order.")
# How the workers of --jobs start: the platform's default (fork on Linux up to Python 3.13, forkserver from
# 3.14), or the one named; hidden: for the tests, which run every --jobs path under each (docs/inputs.md).
start_method_option = click.option("--start-method", type=click.Choice(["fork", "forkserver", "spawn"]), hidden=True)
dask_option = click.option("--dask", metavar="ADDRESS", callback=_dask_address,
                           help="Run on a Dask cluster: its scheduler (tcp://host:8786), or local[:N] for N "
                                "local workers; the workers read the files (same paths, or URLs).")
paths_options: list[Option] = [
    click.argument("paths", nargs=-1, type=click.Path()),
    click.option("--glob", "globs", multiple=True, metavar="PATTERN", cls=Needs, needs=_folder_named,
                 what="picks files in folders: none of PATHS is a folder",
                 help="Files of a folder to read (repeatable)  [default: *.pdn and *.pdn.gz/.bz2/.xz/.zst].")]
ceiling_option = click.option(
    "--max-game-bytes", type=click.IntRange(1), default=MAX_GAME_BYTES, show_default=True, metavar="N",
    help="A game longer than N characters is reported as too large (game-too-large) and not read; memory stays "
         "bounded.")
_READING_FIELDS = ("paths", "globs", "max_game_bytes", "strict", "encoding", "variant", "rules", "jobs",
                   "start_method", "dask", "quiet")


def _grouped(options: Sequence[Option], name: str, make: Callable[..., object],
             fields: tuple[str, ...]) -> Decorator:
    """A decorator adding `options` (in this order in --help) and handing the command one object
    `name`, made by `make` from the values of `fields` it has."""
    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(function)
        def command(**params: Any) -> Any:
            values = {field: params.pop(field) for field in fields if field in params}
            return function(**params, **{name: make(**values)})
        wrapped: Callable[..., Any] = command
        for option in reversed(options):
            wrapped = option(wrapped)
        return wrapped
    return decorate


def reading_options(paths: bool = True, replay: bool = True, jobs: bool = True,
                    dask: bool = False, quiet: str | None = QUIET_HELP) -> Decorator:
    """The reading options a command has, always in this order, delivered as `reading: Reading`:
    PATHS and --glob (`paths`), --max-game-bytes, --strict (`replay`), --encoding, --variant and --rules
    (`replay`: a command that replays games checks their results, by rules it is given), --jobs, --dask,
    and --quiet with its help text (None: no --quiet)."""
    options: list[Option] = [*(paths_options if paths else []), ceiling_option,
               *([strict_option] if replay else []), encoding_option,
               *([variant_option, rules_option] if replay else []),
               *([jobs_option, start_method_option] if jobs else []), *([dask_option] if dask else []),
               *([click.option("--quiet", "-q", is_flag=True, help=quiet)] if quiet else [])]
    return _grouped(options, "reading", Reading, _READING_FIELDS)


def writing_options(partial: bool = True, metavar: str = "FILE",
                    help: str = "Write to FILE (atomically; FILE.gz .bz2 .xz .zst compressed) instead of stdout.",
                    **kind: Any) -> Decorator:
    """-o FILE (its metavar, help and type), and --partial when the command reads games, delivered as
    `writing: Writing`."""
    options: list[Option] = [click.option("--output", "-o", metavar=metavar, help=help, callback=_named_output,
                                          **kind)]
    if partial:
        options.append(click.option("--partial", is_flag=True, cls=Needs, needs=_file_named,
                                    what="goes with -o FILE: it writes FILE even when an input is cut",
                                    help="Write -o FILE even when an input is cut or changes while read "
                                         "(its complete games; exit 2 still)."))
    return _grouped(options, "writing", Writing, ("output", "partial"))


def _named_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """-o names a file, or - for stdout: an empty name is a usage error (it was a folder for some
    commands and stdout for others)."""
    if value == "":
        raise click.BadParameter("an empty name; give a file name, or - for standard output")
    return value


def format_option(registry: Iterable[str], default: str | None, help: str,
                  names: tuple[str, ...] = ("--format", "fmt")) -> Option:
    """--format: the name of a writer class in `registry` (its names; adding a format adds a choice); with no
    `default`, the command chooses (its help says how)."""
    return click.option(*names, type=click.Choice(list(registry)), default=default,
                        show_default=default is not None, help=help)


def shots_given(params: Mapping[str, Any]) -> bool:
    """--depth is --shots' option."""
    return bool(params["shots"])
