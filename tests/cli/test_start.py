"""A fast start, checked by what is imported, not by time (docs/start-up.md): `pdn --version` and
`pdn --help` import no command, no parser and no rules; validating one game imports neither the
other commands nor what only some options need (the search, boards, workers, Dask, metadata)."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from hypothesis import given, strategies as st

from corpus import DATA
from pdn_tools import __version__
from pdn_tools.rules.core import compiled_module

# Runs the command line as `pdn ARGS...` in a fresh interpreter, then prints the modules it imported.
MODULES_AFTER = """
import sys
sys.argv = ["pdn", *sys.argv[1:]]
from pdn_tools.__main__ import main
try:
    main()
except SystemExit:
    pass
print(" ".join(sys.modules), file=sys.__stderr__)
"""
# Then prints what validating made at start that a one-game run on the compiled engine does without: the
# module-level regular expressions of pdn_tools compiled (text/patterns.py's `lazy`), the classes whose
# methods @dataclass compiled (text/records.py's `record` compiles none).
MADE = MODULES_AFTER + """
from pdn_tools.text.patterns import _Lazy
modules = [module for name, module in list(sys.modules.items()) if name.startswith("pdn_tools.")]
print(" ".join(sorted(f"{module.__name__}.{name}" for module in modules for name, value in vars(module).items()
                      if isinstance(value, _Lazy) and "compiled" in vars(value))), file=sys.__stderr__)
print(" ".join(sorted(f"{module.__name__}.{name}" for module in modules for name, value in vars(module).items()
                      if isinstance(value, type) and value.__module__ == module.__name__
                      and getattr(value, "__dataclass_params__", None) is not None
                      and value.__dataclass_params__.init)), file=sys.__stderr__)
"""
# What a start that only reports must not import: the parser, the rules, every command.
NO_WORK = ["lark", "pdn_tools.text.grammar", "pdn_tools.text.reader", "pdn_tools.rules", "pdn_tools.play",
           "pdn_tools.commands", "pdn_tools.running.batch", "pdn_tools.cli.validate", "pdn_tools.cli.convert",
           "pdn_tools.cli.archive", "pdn_tools.cli.diagram", "pdn_tools.cli.perft", "pdn_tools.cli.hub",
           "pdn_tools.cli.options", "pdn_tools.cli.run", "importlib.metadata", "json", "secrets", "ctypes",
           "multiprocessing", "concurrent.futures.process", "dask", "distributed", "html", "shutil", "bz2", "lzma",
           "dataclasses"]
# What validating a file (text report) does not need: other commands, the search, boards, workers, Dask.
NOT_FOR_VALIDATE = ["pdn_tools.cli.convert", "pdn_tools.cli.archive", "pdn_tools.cli.diagram",
                    "pdn_tools.cli.perft", "pdn_tools.cli.hub", "pdn_tools.commands.annotate",
                    "pdn_tools.commands.analysis", "pdn_tools.commands.archive", "pdn_tools.commands.convert",
                    "pdn_tools.commands.html_report", "pdn_tools.commands.hub_engine", "pdn_tools.play.board",
                    "pdn_tools.commands.html_page", "pdn_tools.commands.html_games",
                    "pdn_tools.commands.html_second_look", "pdn_tools.commands.html_stats",
                    "pdn_tools.play.hub", "pdn_tools.play.notation", "pdn_tools.rules.search",
                    "pdn_tools.running.engine", "pdn_tools.running.distributed", "pdn_tools.running.workers",
                    "pdn_tools.running.writing", "pdn_tools.running.tasks", "pdn_tools.text.ranges",
                    "importlib.metadata", "importlib.resources", "multiprocessing", "concurrent.futures.process",
                    "ctypes", "secrets", "csv", "html", "dask", "distributed", "resvg_py"]


def imported(*args: str) -> set[str]:
    """The modules `pdn ARGS...` imports."""
    done = subprocess.run([sys.executable, "-c", MODULES_AFTER, *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    return set(done.stderr.splitlines()[-1].split())


def made(*args: str, pure: bool = False) -> tuple[set[str], set[str]]:
    """The lazy patterns `pdn ARGS...` compiled, and the classes whose methods @dataclass compiled."""
    env = {key: value for key, value in os.environ.items() if key != "PDN_TOOLS_PURE"}
    done = subprocess.run([sys.executable, "-c", MADE, *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60, env=env | ({"PDN_TOOLS_PURE": "1"} if pure else {}))
    lines = done.stderr.splitlines()
    return set(lines[-2].split()), set(lines[-1].split())


def loaded(modules: set[str], names: list[str]) -> list[str]:
    """Those of `names` (a module, or a package and all its modules) that are among `modules`."""
    return [name for name in names if any(m == name or m.startswith(name + ".") for m in modules)]


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["-h"]])
def test_a_start_that_only_reports_imports_no_command(args):
    """`--version` names the engine: it looks for the compiled modules (rules/core.py, without the
    move generator, the variants or the parser)."""
    modules = imported(*args)
    assert "click" in modules and "pdn_tools.cli.main" in modules
    engine = ["pdn_tools.rules", "dataclasses"] if args == ["--version"] else []
    assert loaded(modules, NO_WORK) == engine
    if engine:
        assert {name for name in modules if name.startswith("pdn_tools.rules")} <= {
            "pdn_tools.rules", "pdn_tools.rules.core", "pdn_tools.rules.laws", "pdn_tools.rules._core"}


@pytest.mark.parametrize("args", [[], ["--format", "jsonl"], ["--show-board"]])
def test_validating_one_game_imports_only_what_validate_needs(args):
    modules = imported("validate", *args, str(DATA / "variants" / "20-international.pdn"))
    assert {"lark", "pdn_tools.cli.validate", "pdn_tools.play.check"} <= modules
    wanted = ["pdn_tools.play.board"] if "--show-board" in args else []     # boards only when asked for
    wanted += ["pdn_tools.play.notation"] if "--show-board" in args else []  # (their legal moves written)
    wanted += ["html"] if "--show-board" in args else []                    # (board.py imports it)
    assert loaded(modules, NOT_FOR_VALIDATE) == wanted
    assert ("json" in modules) == ("jsonl" in args)                          # JSON only when written


@pytest.mark.parametrize("pure", [False, True])
def test_validating_one_game_compiles_no_pattern_nor_dataclass_it_does_without(pure):
    """On the compiled engine a common game is read by the scanner alone: none of the reader's
    patterns for moves and tags is compiled (the pure engine's reading compiles some), only the
    GameType's; no class
    loaded had its methods compiled by @dataclass but play/replay.py's Replay."""
    patterns, classes = made("validate", str(DATA / "variants" / "20-international.pdn"), pure=pure)
    assert classes == {"pdn_tools.play.replay.Replay"}
    gametype = {"pdn_tools.play.variant_choice._GAMETYPE"}          # its GameType tag read
    assert patterns == gametype if not pure else patterns > gametype


def test_a_command_s_help_imports_no_other_command():
    modules = imported("validate", "--help")
    assert "pdn_tools.cli.validate" in modules
    assert loaded(modules, [name for name in NOT_FOR_VALIDATE if name != "importlib.resources"]) == []
    assert loaded(modules, ["shutil", "bz2", "lzma", "dataclasses"]) == []      # the page's width; option objects


# What no `pdn COMMAND --help` needs: the parser, the rules, the replay, the report and writers, the runner.
NOT_FOR_HELP = ["lark", "pdn_tools.text.grammar", "pdn_tools.text.reader", "pdn_tools.text.model",
                "pdn_tools.rules", "pdn_tools.play", "pdn_tools.commands", "pdn_tools.running.batch",
                "importlib.metadata", "json", "multiprocessing", "concurrent.futures.process", "ctypes", "dask",
                "distributed", "html", "pdn_tools.text.codes"]


@pytest.mark.parametrize("name", ["validate", "convert", "annotate", "diagram", "list", "filter", "dedupe",
                                  "stats", "split", "hub", "perft", "variants"])
def test_a_command_s_help_imports_neither_parser_nor_rules_nor_report(name):
    from pdn_tools.cli.main import COMMANDS

    assert name in COMMANDS
    modules = imported(name, "--help")
    assert f"pdn_tools.cli.{COMMANDS[name][0]}" in modules
    others = {f"pdn_tools.cli.{module}" for module, _, _ in COMMANDS.values()} - {f"pdn_tools.cli.{COMMANDS[name][0]}"}
    assert loaded(modules, [*NOT_FOR_HELP, *sorted(others)]) == []


def test_the_help_s_choices_and_defaults_are_their_sources():
    """cli/choices.py holds, as plain data, what the options show: each is what it stands for."""
    from pdn_tools.cli import choices
    from pdn_tools.commands.archive import ROWS
    from pdn_tools.commands.convert import WRITERS
    from pdn_tools.commands.hub_engine import MAX_DEPTH
    from pdn_tools.play.pictures import PICTURES
    from pdn_tools.rules.movegen import MAX_PERFT_DEPTH
    from pdn_tools.rules.search import SHOTS_DEPTH, SHOTS_NODES
    from pdn_tools.rules.variants import DEFAULT_RULES, RULE_SETS
    from pdn_tools.running.engine import DEFAULT_DEPTH
    from pdn_tools.running.pool import MAX_JOBS
    from pdn_tools.text.codes import Code, Severity
    from pdn_tools.text.reader import MAX_GAME_BYTES

    assert choices.MAX_GAME_BYTES == MAX_GAME_BYTES and choices.SHOTS_DEPTH == SHOTS_DEPTH
    assert choices.SHOTS_NODES == SHOTS_NODES and choices.MAX_PERFT_DEPTH == MAX_PERFT_DEPTH
    assert choices.MAX_JOBS == MAX_JOBS
    assert choices.ENGINE_DEPTH == DEFAULT_DEPTH and choices.HUB_MAX_DEPTH == MAX_DEPTH
    assert list(choices.CONVERT_FORMATS) == list(WRITERS) and list(choices.LIST_FORMATS) == list(ROWS)
    assert list(choices.PICTURE_FORMATS) == list(PICTURES) and choices.DEFAULT_RULES == DEFAULT_RULES.name
    assert choices.RULE_SETS == {name: rule_set.description for name, rule_set in RULE_SETS.items()}
    assert list(choices.WARNING_CODES) == [code.value for code in Code if code.severity == Severity.WARNING]


def test_the_group_lists_every_command_without_importing_it():
    """`pdn --help` writes the Commands section from cli/main.py's COMMANDS; each command's own
    summary (what `pdn COMMAND` is) is the one listed there."""
    from pdn_tools.cli.main import COMMANDS, SUMMARIES, cli

    assert set(COMMANDS) == set(cli.commands) == set(SUMMARIES)
    for name, command in cli.commands.items():
        assert command.name == name and command.summary == SUMMARIES[name]


@given(columns=st.one_of(st.none(), st.integers(-5, 300).map(str), st.sampled_from(["", "x", "80.5", " 90"])),
       terminal=st.one_of(st.none(), st.integers(0, 300)), max_width=st.integers(40, 200))
def test_the_help_is_as_wide_as_click_makes_it(columns, terminal, max_width):
    """`pdn` tells click the help's width (so that click does not import shutil to find it): the width click
    finds itself, whatever COLUMNS holds and whether stdout is a terminal (None: it is not) of any width."""
    from pdn_tools.cli.main import help_width

    def terminal_size(descriptor: int) -> os.terminal_size:
        if terminal is None:
            raise OSError("not a terminal")
        return os.terminal_size((terminal, 24))
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("COLUMNS", raising=False) if columns is None else patch.setenv("COLUMNS", columns)
        patch.setattr(os, "get_terminal_size", terminal_size)
        assert help_width(max_width) == click.HelpFormatter(max_width=max_width).width


def test_the_collector_waits_for_its_first_collection_then_has_its_usual_thresholds():
    """pdn's start makes no collection (pdn_tools/__main__.py); the first one puts the usual thresholds back."""
    program = """
import gc
usual = gc.get_threshold()
import pdn_tools.__main__ as start
assert gc.get_threshold() == (start.FIRST_COLLECTION, *usual[1:]) and start._first_collection in gc.callbacks
collected = gc.get_stats()[0]["collections"]
kept = [[] for _ in range(start.FIRST_COLLECTION // 2)]
assert gc.get_stats()[0]["collections"] == collected
kept += [[] for _ in range(start.FIRST_COLLECTION)]
assert gc.get_stats()[0]["collections"] > collected
assert gc.get_threshold() == usual and start._first_collection not in gc.callbacks
"""
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr



# `pdn ARGS...` with the compiled modules named in argv[1] (comma-separated) made impossible to import.
WITHOUT = """
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None                      # import raises ImportError, as for a module not built
sys.argv = ["pdn", *sys.argv[2:]]
from pdn_tools.__main__ import main
main()
"""


@pytest.mark.parametrize("pure, missing, engine", [
    ("", "", "engine: compiled core, compiled scanner"),
    ("", "pdn_tools.text._scan", "engine: compiled core, Python scanner (compiled one not built)"),
    ("1", "", "engine: pure Python, slower (PDN_TOOLS_PURE is set)"),
    ("0", "", "engine: compiled core, compiled scanner"),
    ("", "pdn_tools.rules._core,pdn_tools.text._scan",
     "engine: pure Python, slower (the compiled core is not built: install again with a C compiler and "
     "Python's headers)"),
])
def test_the_version_names_the_engine_that_runs(pure, missing, engine):
    """An install without a C compiler is slower, and pip says so only in its verbose output: `pdn
    --version` tells which engine runs, and why it is the pure one."""
    if compiled_module() is None and "rules._core" not in missing:
        pytest.skip("the compiled core is not built here")
    env = {**os.environ, "PDN_TOOLS_PURE": pure}
    done = subprocess.run([sys.executable, "-c", WITHOUT, missing or "-", "--version"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"pdn, version {__version__}\n{engine}\n", "")


@pytest.mark.parametrize("newer, engine", [
    ("rules/_movegen.c", "engine: pure Python, slower (the compiled core is older than its C sources: build it "
                         "again, pip install -e .)"),
    ("text/_scan.h", "engine: pure Python, slower (the compiled core is older than its C sources: build it "
                     "again, pip install -e .)"),
    ("text/_fast.c", "engine: compiled core, Python scanner (compiled one older than its C sources)"),
])
def test_a_compiled_module_older_than_its_sources_is_not_used(tmp_path, newer, engine):
    """A checkout pulled or switched to another branch without building again (an editable install) kept
    compiled modules of other sources, whose calls no longer fit the Python code: every reading command
    ended in a traceback (`ValueError: not enough values to unpack`).  A module older than a C source or
    header it is built from (setup.py's sources and depends) is not used, and `--version` says why."""
    if compiled_module() is None:
        pytest.skip("the compiled core is not built here")
    package = Path(compiled_module().__file__).parents[1]
    copied = tmp_path / "pdn_tools"
    shutil.copytree(package, copied, ignore=shutil.ignore_patterns("__pycache__"))
    built = max(path.stat().st_mtime for path in copied.rglob("*.so"))
    os.utime(copied / newer, (built + 10, built + 10))
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PDN_TOOLS_PURE": ""}
    version = subprocess.run([sys.executable, "-m", "pdn_tools", "--version"], env=env, capture_output=True,
                             text=True, timeout=60, cwd=tmp_path)
    assert (version.returncode, version.stdout, version.stderr) == (0, f"pdn, version {__version__}\n{engine}\n", "")
    game = DATA / "variants" / "20-international.pdn"
    done = subprocess.run([sys.executable, "-m", "pdn_tools", "validate", "--format", "jsonl", str(game)], env=env,
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    expected = subprocess.run([sys.executable, "-m", "pdn_tools", "validate", "--format", "jsonl", str(game)],
                              capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (expected.returncode, expected.stdout, expected.stderr)
