"""Time and memory grow linearly in every dimension of an archive.

For each construct of the grammar and each dimension of an archive (nesting depth, runs of white
space, comments, NAGs, move numbers and placeholders, tags, line and game length, games, files,
the same inside .gz/.bz2/.xz/.zst), inputs of size n and 4n are read through the library (read_games)
and through `pdn validate` (the CLI's Python entry), in this run: 4 times the input may cost at
most LIMIT times the CPU time and the peak traced memory (tracemalloc).  CPU time (the cycle
collector off) is the best of up to REPEATS runs (taken again only while the ratio is over the
limit), so load on the machine does not fail a linear reader.  The scanner's block is made
small (decoding.BLOCK), so a cost per block that grows with what came before shows at these
sizes.  One game of the 4n input takes at most PER_CHARACTER bytes a character (docs/reliability.md).

PDN_COMPLEXITY_SCALE (a number, default 1) multiplies every n; PDN_COMPLEXITY_TABLE names a file
to which each measure adds a line: dimension, path, n, 4n, time ratio, memory ratio.
"""
from __future__ import annotations

import bz2
import gc
import gzip
import io
import json
import lzma
import os
import time
import tracemalloc
from pathlib import Path
from typing import Callable

import pytest
import zstandard
from click.testing import CliRunner

from pdn_tools import read_games
from pdn_tools.cli import cli
from pdn_tools.rules.core import Engine
from pdn_tools.text.source import input_bytes
from pdn_tools.text import decoding

pytestmark = pytest.mark.slow       # run by .ci/run with the whole suite, not in the fast subset
SCALE = float(os.environ.get("PDN_COMPLEXITY_SCALE", "1"))
TABLE = os.environ.get("PDN_COMPLEXITY_TABLE")
LIMIT = 6.0                      # for 4 times the input; quadratic growth gives 16
PER_CHARACTER = 750              # peak traced bytes per character of one game, at most (docs/reliability.md)
REPEATS = 7

HEAD = '[Event "e"]\n[GameType "20"]\n\n'
# A king each, stepping back and forth: any number of legal moves (the draw rules end the game
# early; every move is still replayed).
KINGS = '[Event "e"]\n[GameType "20"]\n[FEN "W:WK50:BK1"]\n\n'
FRISIAN_KINGS = '[Event "e"]\n[GameType "40"]\n[FEN "W:WK50:BK1"]\n\n'


def _game(movetext: str, head: str = HEAD) -> str:
    return f"{head}{movetext}\n"


def _games(n: int) -> str:
    return "".join(_game(f"1. 32-28 19-23 2. 28x19 14x23 {['1-0', '0-1', '*'][i % 3]}") + "\n" for i in range(n))


# Each dimension: its name, n at scale 1, and the text of an archive of size n.
DIMENSIONS: dict[str, tuple[int, Callable[[int], str]]] = {
    "nesting (": (1_500, lambda n: _game("1. 32-28 " + "(32-28 " * n + ")" * n + " *")),
    "nesting {": (8_000, lambda n: _game("1. 32-28 " + "{" * n + "}" * n + " *")),
    "nesting [": (4_000, lambda n: _game("1. 32-28 " + "[" * n + "]" * n + " *")),
    "white space run": (60_000, lambda n: _game("1. 32-28" + " " * n + " 19-23 *")),
    "line-end run": (60_000, lambda n: _game("1. 32-28" + "\n" * n + " 19-23 *")),
    "comment run": (6_000, lambda n: _game("1. 32-28 " + "{c} " * n + "19-23 *")),
    "NAG run": (6_000, lambda n: _game("1. 32-28 " + "$1 " * n + "19-23 *")),
    "move-number run": (6_000, lambda n: _game("1. 32-28 " + "1... " * n + "19-23 *")),
    "'-' run": (10_000, lambda n: _game("1. 32-28 " + "-" * n + " *")),
    "tag count": (3_000, lambda n: "".join(f'[T{i} "v"]\n' for i in range(n)) + "\n1. 32-28 *\n"),
    "tag sections parted by blank lines": (2_000, lambda n: "".join(f'[T{i} "v"]\n\n' for i in range(n)) + "1. 32-28 *\n"),
    "tag value length": (60_000, lambda n: '[Event "' + "v" * n + '"]\n\n1. 32-28 *\n'),
    "line length": (24_000, lambda n: _game("1. 32-28 {" + "word " * n + "} *")),
    "game length": (1_000, lambda n: _game("1. 50-45 1-6 2. 45-50 6-1 " * n + "*", KINGS)),
    "game count": (300, _games),
}
COMPRESSED = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress, ".zst": zstandard.compress}
COMPRESSED_DIMENSIONS = ["nesting (", "white space run", "game count"]


def _size(n: int) -> int:
    return max(1, int(n * SCALE))


def _cpu(run: Callable[[], object]) -> float:
    gc.collect()
    gc.disable()             # the cycle collector's passes over a growing heap are not the reader's
    try:
        start = time.process_time()
        run()
        return time.process_time() - start
    finally:
        gc.enable()


def _peak(run: Callable[[], object]) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _check_linear(name: str, path: str, n: int, small: Callable[[], object], large: Callable[[], object],
                  characters: int = 0) -> None:
    """`large` (4n) costs at most LIMIT times what `small` (n) costs, in CPU time and peak memory;
    `characters`: large reads one game of that many, which takes at most PER_CHARACTER bytes each."""
    peak = _peak(large)
    memory = peak / max(1, _peak(small))
    times = [(_cpu(small), _cpu(large))]
    while min(t for _, t in times) / max(1e-3, min(t for t, _ in times)) > LIMIT and len(times) < REPEATS:
        times.append((_cpu(small), _cpu(large)))
    ratio = min(t for _, t in times) / max(1e-3, min(t for t, _ in times))
    if TABLE:
        with open(TABLE, "a", encoding="utf-8") as table:
            table.write(f"{name}\t{path}\t{n}\t{4 * n}\t{ratio:.2f}\t{memory:.2f}\n")
    assert ratio <= LIMIT, f"{name} ({path}): time x{ratio:.1f} for 4x the input"
    assert memory <= LIMIT, f"{name} ({path}): memory x{memory:.1f} for 4x the input"
    if characters:
        assert peak <= PER_CHARACTER * characters, f"{name} ({path}): {peak / characters:.0f} bytes a character"


def _library(path: Path) -> Callable[[], object]:
    def run() -> int:
        with open(path, "rb") as raw:
            return sum(1 for _ in read_games(input_bytes(raw)))
    return run


def _validate(*paths: Path) -> Callable[[], object]:
    def run() -> str:
        done = CliRunner().invoke(cli, ["validate", "--format", "jsonl", *map(str, paths)])
        assert done.exit_code in (0, 1) and done.exception is None or isinstance(done.exception, SystemExit)
        return done.output
    return run


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decoding, "BLOCK", 1 << 12)


def _write(folder: Path, name: str, text: str, suffix: str = "") -> Path:
    path = folder / f"{name}.pdn{suffix}"
    data = text.encode("utf-8")
    path.write_bytes(COMPRESSED[suffix](data) if suffix else data)
    return path


@pytest.mark.parametrize("suffix, dimension", [("", name) for name in DIMENSIONS] +
                         [(suffix, name) for suffix in COMPRESSED for name in COMPRESSED_DIMENSIONS])
@pytest.mark.parametrize("reader", ["library", "validate"])
def test_cost_grows_linearly(dimension: str, suffix: str, reader: str, tmp_path: Path) -> None:
    base, make = DIMENSIONS[dimension]
    n = _size(base)
    text = make(4 * n)
    small, large = _write(tmp_path, "small", make(n), suffix), _write(tmp_path, "large", text, suffix)
    run = _library if reader == "library" else _validate
    run(_write(tmp_path, "warm", _games(1), suffix))()     # parser built; neither input in a cache
    _check_linear(dimension + suffix, reader, n, run(small), run(large), 0 if dimension == "game count" else len(text))


@pytest.mark.parametrize("reader", ["library", "validate"])
def test_cost_grows_linearly_with_the_number_of_files(reader: str, tmp_path: Path) -> None:
    n = _size(30)
    folders = []
    for count in (n, 4 * n):
        folder = tmp_path / str(count)
        folder.mkdir()
        for index in range(count):
            _write(folder, f"f{index}", _games(2))
        folders.append(folder)

    def library(folder: Path) -> Callable[[], object]:
        files = sorted(folder.iterdir())
        return lambda: [sum(1 for _ in read_games(path)) for path in files]

    run = library if reader == "library" else _validate
    run(folders[0])()                     # parser built (the files' games are all alike)
    _check_linear("number of files", reader, n, run(folders[0]), run(folders[1]))


def test_the_dimensions_really_grow() -> None:
    """Each generator's text of 4n is about 4 times its text of n (else a ratio proves nothing)."""
    long_games = {name: (base, make) for name, (base, make, *_) in LONG_GAMES.items()}
    for name, (base, make) in {**DIMENSIONS, **FAST_DIMENSIONS, **long_games}.items():
        ratio = len(make(4 * base)) / len(make(base))
        assert 3 <= ratio <= 4.3, name


# ---- the ceiling on one game: --max-game-bytes ---------------------------------------------------

LONG = _game("1. 32-28 {" + "x" * 300 + "} 19-23 *")
AROUND = HEAD + "1. 32-28 *\n\n"


def test_a_game_over_the_ceiling_is_a_located_error_and_reading_goes_on() -> None:
    from pdn_tools import Game, ReadError
    from pdn_tools.text.codes import Code

    data = (AROUND + LONG + "\n" + AROUND).encode()
    games = list(read_games(io.BytesIO(data), name="t.pdn", max_game_bytes=200))
    assert [type(game).__name__ for game in games] == ["Game", "ReadError", "Game"]
    error = games[1]
    assert isinstance(error, ReadError) and error.code == Code.GAME_TOO_LARGE
    assert str(error) == "t.pdn:6:1: game 2: game longer than 200 characters: not read (--max-game-bytes)"
    assert all(isinstance(game, Game) for game in read_games(io.BytesIO(data)))    # the default is large


def test_validate_reports_a_game_over_the_ceiling_and_goes_on(tmp_path: Path) -> None:
    path = _write(tmp_path, "a", AROUND + LONG + "\n" + AROUND)
    done = CliRunner().invoke(cli, ["validate", "--max-game-bytes", "200", str(path)])
    assert done.exit_code == 1
    assert f"{path}:6:1: game 2: game longer than 200 characters: not read (--max-game-bytes) [game-too-large]" \
        in done.output
    done = CliRunner().invoke(cli, ["validate", "--format", "jsonl", "--max-game-bytes", "200", str(path)])
    records = [json.loads(line) for line in done.output.splitlines()]
    assert [(r["game"], r["ok"]) for r in records] == [(1, True), (2, False), (3, True)]
    assert records[1]["errors"][0]["code"] == "game-too-large" and records[1]["errors"][0]["line"] == 6
    assert CliRunner().invoke(cli, ["validate", str(path)]).exit_code == 0
    done = CliRunner().invoke(cli, ["validate", "-j", "2", "--max-game-bytes", "200", str(path)])   # read by workers
    assert done.exit_code == 1 and "a.pdn:6:1: game 2: game longer than 200 characters" in done.output


def test_a_game_over_the_ceiling_keeps_memory_of_the_ceiling_not_of_the_game() -> None:
    huge = _game("1. 32-28 " + "{c} " * 25_000 + "*").encode()        # 100 KB of comments
    list(read_games(io.BytesIO(huge[:1000])))                           # warm: the parser built
    small, large = (_peak(lambda: list(read_games(io.BytesIO(huge), max_game_bytes=limit))) for limit in (1000, 10**9))
    assert small * 5 < large


def test_max_game_bytes_must_be_positive() -> None:
    done = CliRunner().invoke(cli, ["validate", "--max-game-bytes", "0", "-"], input=b"")
    assert done.exit_code == 2 and "--max-game-bytes" in done.output


# ---- at the default block -----------------------------------------------------------------------------

# The small block above cuts a long run into runs of one block and keeps a large game off the compiled
# reading of the common game (text/_fast.c, which takes a game one block holds): these are measured at
# the default block, not scaled (4n must stay within one block).
DEFAULT_BLOCK = 1 << 18


def _at_the_default_block(make: Callable[[int], str], n: int, tmp_path: Path,
                          monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The inputs of size n and 4n, written, with the reader's block at its default."""
    monkeypatch.setattr(decoding, "BLOCK", DEFAULT_BLOCK)
    text = make(4 * n)
    assert len(text) < DEFAULT_BLOCK
    return _write(tmp_path, "small", make(n)), _write(tmp_path, "large", text)


# Games the compiled reading takes at once: their cost per item must not grow with the items before it.
FAST_DIMENSIONS: dict[str, tuple[int, Callable[[int], str]]] = {
    "escaped white space, zero-padded moves": (4_800, lambda n: '[Event "x"]\n' + "05-10 {}\\r\n" * n + "*\n"),
    "comments between runs": (2_500, lambda n: '[Event "x"]\n' + "1. 32-28 {c} 19-23 {d} " * n + "*\n"),
    "games glued to results": (1_500, lambda n: "".join(f'[Event "{i}"]\n1. 32-28 19-23 *' for i in range(n)) + "\n"),
}


@pytest.mark.parametrize("dimension", list(FAST_DIMENSIONS))
def test_the_common_game_read_at_once_costs_linearly(dimension: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from test_fast_read import fast_taken

    n, make = FAST_DIMENSIONS[dimension]
    small, large = _at_the_default_block(make, n, tmp_path, monkeypatch)

    def compiled(path: Path) -> Callable[[], object]:       # the compiled reading, whatever PDN_TOOLS_PURE says
        return lambda: sum(1 for _ in read_games(path, engine=Engine(True)))

    assert fast_taken(compiled(large)), f"{dimension}: the large game was not read at once (it would prove nothing)"
    _check_linear(dimension, "library, read at once", n, compiled(small), compiled(large))


def _kings_to_an_error(n: int) -> str:
    """A king each stepping back and forth, then an illegal move: its board shows every move before it."""
    return _game("1. 50-45 1-6 2. 45-50 6-1 " * n + "3. 50-49 *", KINGS)


# Long games through `pdn validate`: n, the game, the options, the exit code.  Each cost the square of
# its length before (x12 and x9.5 for 4 times the moves): a label each ('12... 28x19') found from the
# game's start for the board at an error, and a line each counted from its run's start for a move the
# core leaves to Python (every move of a Frisian game, under its king-move limit).
LONG_GAMES: dict[str, tuple[int, Callable[[int], str], list[str], int]] = {
    "error at the end, its board": (2_000, _kings_to_an_error, ["--show-board"], 1),
    "error at the end, the audit page": (2_000, _kings_to_an_error, ["--format", "html"], 1),
    "Frisian game length": (2_000, lambda n: _game("1. 50-45 1-6 2. 45-50 6-1 " * n + "*", FRISIAN_KINGS), [], 0),
}


@pytest.mark.parametrize("dimension", list(LONG_GAMES))
def test_a_long_game_costs_linearly(dimension: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    n, make, options, code = LONG_GAMES[dimension]
    small, large = _at_the_default_block(make, n, tmp_path, monkeypatch)

    def run(path: Path) -> Callable[[], object]:
        def validate() -> str:
            done = CliRunner().invoke(cli, ["validate", *options, str(path)])
            assert done.exit_code == code, done.output
            return done.output
        return validate
    run(small)()                            # the variant's tables built: neither measure pays for them
    _check_linear(dimension, "validate", n, run(small), run(large))
