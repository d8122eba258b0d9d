"""How games are checked is one value (`play/checking.py`'s `Checking`: strict, variant, draw rules,
engine), made once at the command line's edge and passed down unchanged; the choices never travel
loose through the functions below the command line (issue 27: `strict` went through 45 functions,
`variant` through 37, as positional values)."""
import importlib
import inspect
import json
import pickle
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterator

import pytest
from click.testing import CliRunner

from pdn_tools.cli import cli
from pdn_tools.cli.options import Reading
from pdn_tools.play.check import check, check_by
from pdn_tools.play.checking import Checking
from pdn_tools.play.reading import read_text
from pdn_tools.rules import core
from pdn_tools.rules.variants import RULE_SETS, VARIANTS

LAYERS = ("play", "commands", "running")        # below the command line, above the reader and the rules
# The library's documented entry points take the choices as keywords and make one Checking of them:
ENTRY_POINTS = {
    "pdn_tools.play.check.check": "pdn_tools.check(game, variant, strict, rules, engine), docs/library.md",
    "pdn_tools.play.replay.replay": "pdn_tools.replay(game, override, strict, rules, engine), docs/library.md",
    "pdn_tools.play.reading.read_games": "pdn_tools.read_games(source, strict=...), the reader's own choices",
    "pdn_tools.play.reading.read_text": "pdn_tools.read_text(text, strict=...), the reader's own choices",
    "pdn_tools.running.distributed.validate": "validate(client, paths, variant=, strict=, ...), docs/dask.md",
}
# Values whose fields are data, not a choice of how to check:
DATA = {
    "pdn_tools.play.checking.Checking.__init__": "the value itself",
    "pdn_tools.play.replay.Replay.__init__": "the variant a game was replayed as (None: none fits)",
    "pdn_tools.commands.archive.Criteria.__init__": "filter --replayed-as: the variant a game must be",
}
LOOSE = ("Variant | None", "RuleSet | None", "RuleSet", "Engine | None")   # an override, draw rules, an engine to pick


def _functions(module: ModuleType) -> Iterator[tuple[str, Callable[..., object]]]:
    """The functions and methods a module defines, by their full names."""
    for value in vars(module).values():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(value):
            yield f"{module.__name__}.{value.__qualname__}", value
        elif inspect.isclass(value):
            for member in vars(value).values():
                if inspect.isfunction(member):
                    yield f"{module.__name__}.{member.__qualname__}", member


def _modules() -> Iterator[ModuleType]:
    for layer in LAYERS:
        package = importlib.import_module(f"pdn_tools.{layer}")
        for info in pkgutil.iter_modules(package.__path__):
            if info.name == "distributed":
                pytest.importorskip("distributed")
            yield importlib.import_module(f"pdn_tools.{layer}.{info.name}")


def test_no_function_below_the_command_line_takes_the_choices_loose():
    loose = []
    for module in _modules():
        for name, function in _functions(module):
            if name in ENTRY_POINTS or name in DATA:
                continue
            for parameter in inspect.signature(function).parameters.values():
                if parameter.name == "strict" or str(parameter.annotation) in LOOSE:
                    loose.append(f"{name}({parameter.name}: {parameter.annotation})")
    assert loose == [], "take a Checking instead: " + ", ".join(loose)


def test_the_entry_points_listed_exist_and_take_the_choices():
    for name in ENTRY_POINTS:
        module, _, function = name.rpartition(".")
        assert "strict" in inspect.signature(getattr(importlib.import_module(module), function)).parameters, name


@pytest.mark.parametrize("engine", [core.PURE, core.engine_from_environment()], ids=lambda e: e.name)
def test_a_checking_pickles_whole_for_the_workers(engine: core.Engine):
    checking = Checking(True, VARIANTS["english"], RULE_SETS["wcdf"], engine)
    again = pickle.loads(pickle.dumps(checking))
    assert again == checking and again.engine == engine and again.variant.name == "english"


def test_the_command_line_makes_it_once_from_its_reading_options():
    reading = Reading(strict=True, variant=VARIANTS["spanish"], rules=RULE_SETS["seeds"])
    assert reading.checking(core.PURE) == Checking(True, VARIANTS["spanish"], RULE_SETS["seeds"], core.PURE)


def test_a_checking_made_without_an_engine_reads_the_environment(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PDN_TOOLS_PURE", "1")
    assert Checking().engine == core.PURE and Reading().checking().engine == core.PURE


GAMES = """[Event "strict and lenient"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 3. 33-28 *

[Event "no GameType"]
1. 11-15 23-19 *
"""


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("variant", [None, "english"])
def test_the_entry_point_and_the_value_check_alike(strict: bool, variant: str | None):
    """check(game, variant, strict, rules, engine) is check_by(game, Checking(...)): the same record."""
    override = None if variant is None else VARIANTS[variant]
    for game in read_text(GAMES, strict=strict, engine=core.PURE):
        by_keywords = check(game, override, strict, RULE_SETS["wcdf"], core.PURE).record
        assert by_keywords == check_by(game, Checking(strict, override, RULE_SETS["wcdf"], core.PURE)).record


ROOT = Path(__file__).resolve().parents[2]
FILES = [str(ROOT / "tests" / "data" / "quirks.pdn"), str(ROOT / "samples" / "english.pdn")]


def _records(*options: str) -> list[dict[str, object]]:
    result = CliRunner().invoke(cli, ["validate", "--format", "jsonl", *options, *FILES])
    assert result.exit_code in (0, 1), result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("choice", [("--strict",), ("--variant", "international"), ("--variant", "english")],
                         ids=" ".join)
def test_each_choice_reaches_the_workers_in_the_one_value(choice: tuple[str, ...]):
    """The value made at the edge is the one the pool's workers check by: the records with --jobs 2
    are those with one job, and the choice changed them."""
    alone = _records(*choice)
    assert _records(*choice, "--jobs", "2") == alone and alone != _records()


@pytest.mark.parametrize("choice, value", [("variant", "russian"), ("rules", "fmjd"), ("engine", "pure"),
                                           ("engine", True)])
def test_a_choice_of_the_wrong_kind_is_a_type_error_saying_what_it_takes(choice: str, value: object):
    """check(game, variant='russian') failed deep in the replay with "'str' object has no attribute
    'draws'", and engine='pure' with "no attribute 'compiled'": every entry point makes a Checking,
    which refuses a choice of the wrong kind, naming it and what to pass."""
    [game] = read_text('[GameType "25"]\n1. c3-d4 f6-e5 *\n')
    with pytest.raises(TypeError, match=f"{choice} must be"):
        check(game, **{choice: value})
    with pytest.raises(TypeError, match=f"{choice} must be"):
        Checking(**{choice: value})
