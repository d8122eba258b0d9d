"""The engine is a value: chosen once where a program starts, handed down, never module state.

The same game read in any import order and under either engine is the same public Game; the
compiled and the pure engine, passed explicitly in one process, give the same records; every
Python twin a section of the compiled core names exists.
"""
from __future__ import annotations

import dataclasses
import importlib
import json
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from corpus import CORPUS, DATA, needs_corpus
from pdn_tools.play.check import check
from pdn_tools.play.replay import replay
from pdn_tools.rules import core
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.text.model import Game
from pdn_tools.text.reader import read_games, read_text

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.pdn"))
COMPILED = core.Engine(True)           # fails at once when the core was not built (CI has a compiler)
ENGINES = (COMPILED, core.PURE)

# Prints, for each game of the files named in argv, the repr of every public field of the Game
# (a field whose name does not start with '_'), after the imports the test puts first.
READ = """
import dataclasses, json, sys
{imports}
from pdn_tools.text.model import Game
from pdn_tools.text.reader import read_games
{engine}
public = [f.name for f in dataclasses.fields(Game) if not f.name.startswith("_")]
for path in sys.argv[1:]:
    for game in read_games(path{argument}):
        print(json.dumps([repr(getattr(game, name)) for name in public] if isinstance(game, Game) else repr(game)))
"""
IMPORT_ORDERS = ["", "import pdn_tools.rules.core", "import pdn_tools.play.replay", "import pdn_tools.cli"]
ENGINE_ARGUMENTS = [("", ""), ("from pdn_tools.rules.core import engine_from_environment",
                               ", engine=engine_from_environment()")]


def read_in_a_child(paths: list[str], imports: str, engine: tuple[str, str], pure: str) -> str:
    env = {**os.environ, "PDN_TOOLS_PURE": pure}
    program = READ.format(imports=imports, engine=engine[0], argument=engine[1])
    done = subprocess.run([sys.executable, "-c", program, *paths], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def sample_paths() -> list[str]:
    paths = [str(path) for path in SAMPLES] + [str(path) for path in sorted(DATA.glob("**/*.pdn"))]
    if CORPUS.is_dir():
        paths += [str(CORPUS / "english" / "wiegerw-succeed-gem.pdn"), str(CORPUS / "spec-tests")]
    return paths


@pytest.mark.slow
def test_a_game_read_is_the_same_in_any_import_order_and_on_either_engine() -> None:
    """Issue 27: importing rules/core.py used to switch the reader to keeping runs of moves as
    text, so a Game's public fields (its movetext) depended on import order and PDN_TOOLS_PURE.
    Every import order, engine and way of asking now gives the same public Game."""
    paths = [path for path in sample_paths() if Path(path).is_file()]
    first = read_in_a_child(paths, "", ENGINE_ARGUMENTS[0], "0")
    assert first.count("\n") > 20
    for imports in IMPORT_ORDERS:
        for engine in ENGINE_ARGUMENTS:
            for pure in ("0", "1"):
                assert read_in_a_child(paths, imports, engine, pure) == first, (imports, engine, pure)


def corpus_files() -> list[Path]:
    return [path for path in sorted(CORPUS.rglob("*.pdn"))[::10] if path.stat().st_size < 100_000]


def records(paths: list[Path], reading: core.Engine | None, replaying: core.Engine) -> list[str]:
    """The validation record of every game of `paths`, read with `reading`, replayed on `replaying`."""
    return [json.dumps(check(game, engine=replaying).record.as_dict(), default=str)
            for path in paths for game in read_games(path, engine=reading)]


@pytest.mark.slow
@needs_corpus
def test_both_engines_passed_in_one_process_give_the_same_records() -> None:
    """The differential test issue 27 asked for (impossible while the engine was module state):
    on corpus files, every way of reading (runs kept as text or not) with every engine replaying
    gives the same records, in one process."""
    paths = corpus_files()
    assert len(paths) > 20
    expected = records(paths, None, core.PURE)
    assert len(expected) > 300
    for reading in ENGINES:
        for replaying in ENGINES:
            assert records(paths, reading, replaying) == expected, (reading, replaying)


def test_both_engines_give_the_same_plies_and_positions() -> None:
    """Replays of the samples on each engine: the same plies (moves, positions before and after)
    and each position on the engine it was asked for."""
    for path in SAMPLES:
        for game in read_games(path, engine=COMPILED):
            assert isinstance(game, Game)
            compiled, pure = replay(game, engine=COMPILED), replay(game, engine=core.PURE)
            assert compiled.ok == pure.ok and compiled.ply_count == pure.ply_count
            assert [(p.move, p.before, p.after) for p in compiled.plies] == \
                [(p.move, p.before, p.after) for p in pure.plies]
            assert {p.after.engine for p in compiled.plies} <= {COMPILED}
            assert {p.after.engine for p in pure.plies} <= {core.PURE}


def test_runs_kept_as_text_are_no_part_of_the_public_game() -> None:
    """Read by the compiled engine (runs of moves kept as text inside) or by none, a game is equal,
    prints the same, pickles to the same game, and shows one movetext: `elements`."""
    text = "[Event \"e\"]\n1. 32-28 19-23 2. 28x19 14x23 {c} 3. 33-29 *"
    kept, plain = read_text(text, engine=COMPILED)[0], read_text(text)[0]
    assert isinstance(kept, Game) and isinstance(plain, Game)
    assert repr(kept) == repr(plain) and kept == plain
    assert pickle.loads(pickle.dumps(read_text(text, engine=COMPILED)[0])) == plain
    public = {name for name in dir(Game) if not name.startswith("_")}
    assert not public & {"movetext", "read_movetext"}
    assert [f.name for f in dataclasses.fields(Game) if "movetext" in f.name or f.name.startswith("_")] == ["_runs"]


def test_a_position_shows_a_library_user_what_he_needs() -> None:
    """The replayer's shortcuts live in rules/steps.py, not on Position."""
    public = {name for name in dir(Position) if not name.startswith("_")}
    assert not public & {"run", "run_text", "runs_text", "quiet_step", "capture_step"}
    assert {"legal_moves", "play", "captures", "moves_between", "engine", "on"} <= public


def test_a_position_on_another_engine_is_equal_and_plays_there() -> None:
    start = Position.initial(VARIANTS["international"], core.PURE)
    twin = start.on(COMPILED)
    assert twin == start and hash(twin) == hash(start) and twin.engine == COMPILED
    assert start.on(core.PURE) is start
    assert [str(m) for m in twin.legal_moves()] == [str(m) for m in start.legal_moves()]
    after = twin.play(twin.legal_moves()[0])
    assert after.engine == COMPILED


def test_the_engine_comes_from_the_environment_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PDN_TOOLS_PURE", "1")
    assert core.engine_from_environment() == core.PURE
    assert Position.initial(VARIANTS["english"]).engine == core.PURE      # the library's default
    assert Position.initial(VARIANTS["english"], COMPILED).engine == COMPILED
    monkeypatch.setenv("PDN_TOOLS_PURE", "0")
    assert core.engine_from_environment() == COMPILED
    monkeypatch.delenv("PDN_TOOLS_PURE")
    assert core.engine_from_environment() == COMPILED
    for unset in ("", " 0", "false", "No", "OFF"):       # what a shell script writes for 'not set'
        monkeypatch.setenv("PDN_TOOLS_PURE", unset)
        assert core.engine_from_environment() == COMPILED, unset
    for asked in ("true", "yes", " 1 ", "on", "2"):
        monkeypatch.setenv("PDN_TOOLS_PURE", asked)
        assert core.engine_from_environment() == core.PURE, asked
    assert pickle.loads(pickle.dumps(COMPILED)) == COMPILED      # it travels to worker processes
    with pytest.raises(dataclasses.FrozenInstanceError):
        COMPILED.compiled = False       # type: ignore[misc]


def test_no_module_of_the_reader_or_the_rules_keeps_a_switch() -> None:
    """The switches issue 27 found are gone: no single-item list at module level in text/ or
    rules/, no setter of reading state."""
    for folder in ("text", "rules", "play"):
        for path in sorted((ROOT / "pdn_tools" / folder).glob("*.py")):
            source = path.read_text(encoding="utf-8")
            assert not re.search(r"^_?[A-Z_]+(?:: [^=]+)? = \[[^\]\n]*\]\s*(?:#.*)?$", source, re.M), path
    from pdn_tools.text import grammar
    assert not hasattr(grammar, "keep_runs_as_text") and not hasattr(grammar, "scan_runs_with")


# ---- the compiled core's sections name their Python twins ----------------------------------------

C_SOURCES = sorted((ROOT / "pdn_tools").rglob("_*.[ch]"))
TWIN = re.compile(r"twin:\s*((?:\*\s*)?[\w.]+(?:,\s*(?:\*\s*)?[\w.]+)*)")


def twins() -> list[str]:
    return [re.sub(r"^\*\s*", "", name.strip()) for path in C_SOURCES
            for found in TWIN.findall(path.read_text(encoding="utf-8")) for name in found.split(",")]


def resolved(dotted: str) -> object:
    """The Python object a dotted name names: its longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ImportError(dotted)


def test_every_python_twin_named_in_the_compiled_core_exists() -> None:
    """Each section of the compiled core (pdn_tools/*/_*.c) says which Python code it mirrors
    (`twin: dotted.name`); renaming or removing that code must rename the twin too."""
    names = twins()
    assert len(names) >= 14
    for name in names:
        assert name.startswith("pdn_tools."), name
        assert callable(resolved(name)), name


def test_every_compiled_source_names_a_twin() -> None:
    """The split core keeps one file per Python twin: a C file that names none has lost its
    twin.  _search.c says `mirrors ... rules/search.py` in prose (the shots-search branch owns it)."""
    sources = [path for path in C_SOURCES if path.suffix == ".c" and path.name != "_search.c"]
    assert len(sources) >= 8
    for path in sources:
        assert TWIN.search(path.read_text(encoding="utf-8")), path


def test_the_compiled_core_names_no_private_attribute() -> None:
    """C makes and reads Python objects through the makers handed to it (core.Makers), never by
    a private attribute's name: renaming one changes Python only."""
    modules = {'"_core"', '"_scan"'}          # the extensions' own names
    for path in C_SOURCES:
        assert set(re.findall(r'"_[a-z]\w*"', path.read_text(encoding="utf-8"))) <= modules, path


def test_a_twin_that_is_gone_is_found() -> None:
    with pytest.raises(AttributeError):
        resolved("pdn_tools.rules.movegen.Position.quiet_step")


# ---- the engine is chosen once, at the command line's edge ---------------------------------------

EDGE_COMMANDS = [("validate",), ("validate", "--jobs", "2"), ("validate", "--format", "jsonl"), ("convert",),
                 ("convert", "--to", "jsonl", "--jobs", "2"), ("convert", "--fix-results"), ("annotate", "--fen"),
                 ("filter", "--valid"), ("filter", "--player", "e"), ("dedupe",), ("stats",), ("list",),
                 ("split", "--per", "5", "-o", "parts"), ("diagram",), ("filter", "--position", "W:W31,32:B1"),
                 ("validate", "--format", "html", "-o", "page.html")]


@pytest.mark.parametrize("args", EDGE_COMMANDS, ids=" ".join)
def test_a_command_reads_the_environment_once_at_its_edge(args: tuple[str, ...], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command picks its engine from PDN_TOOLS_PURE once, where it starts, and hands it down: a
    second look below the command line (in this process, or a worker's: they start after the first)
    fails the command."""
    from click.testing import CliRunner
    from pdn_tools.cli import cli

    looks: list[str] = []
    found = core._engine_for

    def once(pure: str) -> core.Engine:
        looks.append(pure)
        assert len(looks) == 1, "the environment was read again below the command line"
        return found(pure)

    monkeypatch.setattr(core, "_engine_for", once)
    monkeypatch.chdir(tmp_path)
    inputs = [ROOT / "samples" / "international.pdn"] if args[0] == "diagram" else \
        [ROOT / "samples", ROOT / "tests" / "data" / "show-board.pdn"]     # move errors: their boards drawn too
    result = CliRunner().invoke(cli, [*args, *map(str, inputs)])
    assert len(looks) == 1 and result.exit_code in (0, 1), result.exception        # 1: the invalid games
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception


def engines_of(checked: object) -> tuple[str, str]:
    """(the engine the game was read for, the one it was replayed on), by what each leaves: a compiled
    read keeps plain runs as text (the game's private `_runs`), a replay's positions hold their engine."""
    from pdn_tools.play.check import Checked
    assert isinstance(checked, Checked) and isinstance(checked.game, Game) and checked.replay is not None
    read = "compiled" if checked.game._runs is not None else "pure"
    final = checked.replay.final
    assert final is not None
    return read, final.engine.name


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_a_run_reads_and_replays_on_its_engine_whatever_the_environment_says(
        jobs: int, pure: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Run given an engine hands it to the reader and the replay, here and in its workers: the
    environment says the other engine and may not be read at all."""
    from pdn_tools.cli.options import Reading
    from pdn_tools.cli.run import Run

    engine, other = (core.PURE, "0") if pure else (COMPILED, "1")
    monkeypatch.setenv("PDN_TOOLS_PURE", other)

    def refused(value: str) -> core.Engine:
        raise AssertionError("the environment was read below the command line")

    monkeypatch.setattr(core, "_engine_for", refused)
    run = Run(Reading(paths=(str(ROOT / "samples" / "english.pdn"),), jobs=jobs), engine=engine)
    seen = {value for _, value in run.checked(engines_of)}
    assert seen == {(engine.name, engine.name)} and run.games > 0
