"""Input built to hurt: numbers of thousands of digits, unclosed brackets on long lines, very
long lines and move runs.  Nothing raises, every game is reported at its place, scanning
time grows linearly with the input and memory with the longest game, not the longest line."""
import io
import json
import time
import tracemalloc

import pytest
from click.testing import CliRunner

from pdn_tools import Game, ReadError, read_games
from pdn_tools.cli import cli
from pdn_tools.text import decoding
from pdn_tools.text.codes import Code

HUGE = "9" * 5000                 # more digits than Python's int() accepts from a string
NEXT = '\n\n[Event "next"]\n[GameType "20"]\n1. 32-28 19-23 *\n'


def read(text: str, strict: bool = False) -> list:
    return list(read_games(io.BytesIO(text.encode()), strict=strict, name="t.pdn"))


def validate(text: str, *options: str) -> tuple[int, list[dict]]:
    done = CliRunner().invoke(cli, ["validate", "--format", "jsonl", *options, "-"], input=text.encode())
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exc_info
    return done.exit_code, [json.loads(line) for line in done.output.splitlines()]


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("movetext, what, column", [(f"1. 32-28 {HUGE}. 19-23 *", "move number", 10),
                                                    (f"1. 32-28 ${HUGE} 19-23 *", "NAG", 10),
                                                    (f"{HUGE}... 19-23 *", "move number", 1)])
def test_a_number_of_thousands_of_digits_is_a_located_error(movetext, what, column, strict):
    games = read(f'[Event "huge"]\n{movetext}' + NEXT, strict)
    assert isinstance(games[0], ReadError) and isinstance(games[1], Game)
    assert str(games[0]) == f"t.pdn:2:{column}: game 1: {what} of 5000 digits (at most 4300)"


@pytest.mark.parametrize("tag, code", [(f'[GameType "{HUGE}"]', Code.BAD_GAMETYPE),
                                       (f'[GameType "20,W,{HUGE},10,N2,0"]', None),
                                       (f'[GameType "²"]', Code.BAD_GAMETYPE),
                                       (f'[GameType "20"]\n[FEN "W:W{HUGE}:B1"]', Code.BAD_FEN),
                                       ('[GameType "20"]\n[FEN "W:W²:B1"]', Code.BAD_FEN)])
def test_numbers_in_tags_never_raise(tag, code):
    status, records = validate(f"{tag}\n1. 32-28 19-23 *" + NEXT)
    assert [r["game"] for r in records] == [1, 2] and records[1]["ok"]
    if code is not None:
        assert records[0]["errors"][0]["code"] == code and records[0]["errors"][0]["line"] in (1, 2)
    assert status in (0, 1)


@pytest.mark.parametrize("name", [HUGE, "²", "٣"])
def test_variant_option_with_an_absurd_number_is_a_usage_error(name):
    done = CliRunner().invoke(cli, ["validate", "--variant", name, "-"], input=b"1. 32-28 *\n")
    assert done.exit_code == 2 and "unknown variant" in done.output


# ---- time: linear in the input ---------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "[" + "a " * 150_000,                       # an unclosed '[' on a 300 KB line (32 KB took 25 s)
    "[a " * 100_000,                            # many of them
    "{" * 300_000,                              # unclosed comments
    "1. 32-28 " + "{ [a " * 60_000,             # both, in movetext
    "[Event \"" * 40_000,                       # unclosed quotes
    "1" * 1_000_000,                            # a digit run
    "1-0" * 300_000,
    " " * 1_000_000 + "1. 32-28",               # white space
])
@pytest.mark.slow
def test_scanning_a_hostile_line_takes_linear_time(line):
    start = time.process_time()
    games = read(f'[Event "x"]\n{line}\n' + NEXT)
    assert time.process_time() - start < 60      # quadratic scanning would take hours here
    assert games[-1].tag("Event") == "next" and isinstance(games[-1], Game)


# ---- memory: bounded by the longest game ------------------------------------------------------

def _peak(data: bytes) -> tuple[int, int]:
    """(games read, peak traced memory in bytes) while reading `data`."""
    tracemalloc.start()
    try:
        count = sum(1 for _ in read_games(io.BytesIO(data)))
        return count, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_many_tiny_games_on_one_line_take_memory_of_a_block_not_of_the_line(monkeypatch):
    monkeypatch.setattr(decoding, "BLOCK", 1 << 14)
    game = b'[GameType "20"] 1. 32-28 *'
    count, peak = _peak((game + b" ") * 20_000)            # 540 KB on one line, 33 blocks
    assert count == 20_000
    assert peak < 4_000_000                             # the line's tokens alone took ~20 MB


@pytest.mark.slow
def test_one_long_move_run_costs_memory_of_its_moves_not_of_its_scanning():
    data = b'[GameType "20"]\n' + b"1. 32-28 19-23 2. 28x19 14x23 " * 20_000 + b"*\n"   # 600 KB, 80,000 moves
    count, peak = _peak(data)
    assert count == 1
    assert peak < 60 * len(data)                      # was ~500 bytes per character
