"""One CLI shape: every command that reads games takes the reading options in one order, delivered
as frozen objects; every --format is a writer class in its registry."""
import click
import pytest

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
