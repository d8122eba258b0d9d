"""What the steps that validating cannot skip cost on OCA, each timed alone (best of 3 runs).

    python benchmarks/bench_floor.py

Validating OCA must at least: scan the text with the grammar's terminals, run the LALR
parser once per game, make one model element per move and move number, make one
position per ply, and look for a compulsory capture before every quiet move.  Each line
times only that step, in this process and on this machine, so their sum is a lower
bound for `pdn validate` built the way it is (CPython, Lark, one object per element).
"""
from __future__ import annotations

import time
from pathlib import Path

from lark import Token

from pdn_tools import read_games
from pdn_tools.text.grammar import parser
from pdn_tools.text.model import NotatedMove, MoveNumber
from pdn_tools.rules.movegen import Position
from pdn_tools.play.replay import replay

OCA = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "english" / "OCA_2.0.pdn"


def best(step, *args) -> float:
    times = []
    for _ in range(3):
        start = time.process_time()
        step(*args)
        times.append(time.process_time() - start)
    return min(times)


def scan(text: str) -> None:
    for _ in parser().scanner.finditer(text):
        pass


def lark_per_game(games: int) -> None:
    pdn = parser()
    tokens = [Token("TAGS", '[Event "x"]', 0, 1, 1), Token("MOVES", "1.", 12, 1, 13), Token("STAR", "*", 15, 1, 16)]
    for _ in range(games):
        pdn.lark.parse(tokens, start="start")


def elements(runs: list[str]) -> None:
    for run in runs:
        for piece in run.split():
            if piece[-1] == ".":
                MoveNumber(1, False, piece, 1, 1)
            else:
                NotatedMove(piece, (piece, piece), False, "", 1, 1)


def positions(before: list[Position]) -> None:
    for position in before:
        position._after(0, 1, 2, 0)


def capture_checks(before: list[Position]) -> None:
    for position in before:
        position.has_capture()


def main() -> None:
    text = OCA.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n")
    tokens = [m for m in parser().scanner.finditer(text) if m.lastgroup == "MOVES"]
    runs = [m.group() for m in tokens]
    games = [game for game in read_games(OCA)]
    plies = [ply for game in games for ply in replay(game).plies]
    quiet = [ply.before for ply in plies if not ply.move.captured]
    steps = [
        ("scan the text (grammar terminals, one regex)", best(scan, text)),
        (f"LALR parse, {len(games):,} games of three tokens", best(lark_per_game, len(games))),
        ("one element per move and move number", best(elements, runs)),
        (f"one position per ply ({len(plies):,})", best(positions, [ply.before for ply in plies])),
        (f"capture check before each quiet move ({len(quiet):,})", best(capture_checks, quiet)),
    ]
    for label, seconds in steps:
        print(f"{seconds:6.2f} s  {label}")
    print(f"{sum(s for _, s in steps):6.2f} s  sum: a lower bound for validating OCA on one core")


if __name__ == "__main__":
    main()
