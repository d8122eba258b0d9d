"""One CLI shape: every command that reads games takes the reading options in one order, delivered
as frozen objects; every --format is a writer class in its registry."""
import sys

import click
import pytest
from click.testing import CliRunner

from pdn_tools.cli import cli
from pdn_tools.cli.options import Reading, Writing
from pdn_tools.cli.perft import VARIANT_FORMATS
from pdn_tools.cli.archive import STATS_FORMATS
from pdn_tools.cli.validate import FORMATS
from pdn_tools.commands.archive import ROWS
from pdn_tools.commands.convert import WRITERS

READING = ["paths", "globs", "max_game_bytes", "strict", "encoding", "variant", "rules", "jobs", "start_method", "dask",
           "quiet"]
WRITING = ["output", "partial"]


READERS = sorted(name for name, command in cli.commands.items()
                 if {"paths", "path"} & {param.name for param in command.params})


@pytest.mark.parametrize("name", READERS)
def test_reading_and_writing_options_come_last_in_one_order(name):
    names = [param.name for param in cli.commands[name].params]
    shared = [n for n in names if n in READING + WRITING]
    assert shared == [n for n in WRITING + READING if n in shared], names
    own = names[:len(names) - len(shared)] if name != "diagram" else names[1:len(names) - len(shared)]
    assert len(READERS) == 9 and not set(own) & set(READING + WRITING), f"{name}: shared options after its own ones: {names}"


@pytest.mark.parametrize("made", [Reading(), Writing()])
def test_option_objects_are_frozen(made):
    with pytest.raises(AttributeError):     # a frozen dataclass's FrozenInstanceError is one too
        made.strict = True


@pytest.mark.parametrize("command, option, registry", [
    ("validate", "fmt", FORMATS), ("convert", "to", WRITERS), ("list", "fmt", ROWS), ("stats", "fmt", STATS_FORMATS),
    ("variants", "fmt", VARIANT_FORMATS)])
def test_every_format_is_a_class_in_its_registry(command, option, registry):
    param = next(p for p in cli.commands[command].params if p.name == option)
    assert isinstance(param.type, click.Choice) and list(param.type.choices) == list(registry)
    assert all(isinstance(writer, type) for writer in registry.values())


_HUB = f"{sys.executable} -m pdn_tools hub"
_WITH = {                     # what a numeric option needs beside it to be taken (Needs, required options)
    ("validate", "depth"): ["--shots", "--format", "jsonl"], ("validate", "nodes"): ["--shots", "--format", "jsonl"],
    ("annotate", "depth"): ["--shots"], ("annotate", "nodes"): ["--shots"],
    ("annotate", "engine_depth"): ["--engine", _HUB], ("annotate", "engine_time"): ["--engine", _HUB],
    ("annotate", "engine_timeout"): ["--engine", _HUB],
    ("perft", "depth"): ["--variant", "english", "--fen", "W:W:B"], ("diagram", "size"): ["--format", "svg"]}
_NUMERIC = [(name, param) for name, command in sorted(cli.commands.items()) for param in command.params
            if isinstance(param.type, (click.types._NumberParamTypeBase))]


@pytest.mark.parametrize("name, param", _NUMERIC, ids=[f"{name} {param.opts[0]}" for name, param in _NUMERIC])
def test_every_number_option_given_a_huge_an_infinite_or_no_number_runs_or_is_a_usage_error(name, param, tmp_path):
    """A number past what the command can take is a usage error or is taken, never a traceback:
    `diagram --game 10**23` (islice's index), `validate --jobs 10**23` (a semaphore's C int) and
    `annotate --engine-timeout 1e300`, `inf` or `nan` (a time out of range) ended in one.  NaN is
    no number of seconds: refused."""
    values = ["99999999999999999999999"] if isinstance(param.type, click.types.IntParamType) else ["1e300", "inf", "nan"]
    paths = [] if name in ("hub", "perft", "variants") else ["samples/english.pdn"]
    if name == "split":
        paths = ["-o", str(tmp_path / "parts"), *paths]
    for value in values:
        result = CliRunner().invoke(cli, [name, param.opts[0], value, *_WITH.get((name, param.name), []), *paths],
                                    input="")
        assert result.exit_code in (0, 1, 2) and isinstance(result.exception, (SystemExit, type(None))), \
            (value, result.output, result.exception)
        assert "Traceback" not in result.output and (value != "nan" or result.exit_code == 2), (value, result.output)
