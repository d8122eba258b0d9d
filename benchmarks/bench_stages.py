"""Where validating a file goes, stage by stage, with the compiled reading of the common game and
without it (every game through Lark), each stage timed alone (CPU seconds, best of 3 runs).

    python benchmarks/bench_stages.py [FILE]        # OCA of the corpus (PDN_CORPUS) by default

Stages, each including the ones before it: `read` splits the file into games (decoding, scanning,
cutting), `parse` makes each a Game, `check` replays it and makes its record, `json` writes the
record's line.  The compiled engine only (the pure engine has no fast reading).
"""
from __future__ import annotations

import io
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pdn_tools.commands.report import json_line
from pdn_tools.play.check import check
from pdn_tools.rules.core import Engine
from pdn_tools.text.reader import parse_raw, read_raw

CORPUS = Path(os.environ.get("PDN_CORPUS") or Path(__file__).resolve().parent.parent.parent / "shared" / "corpus")
OCA = CORPUS / "english" / "OCA_2.0.pdn"
COMPILED = Engine(True)
STAGES = ("read", "parse", "check", "json")


@dataclass(frozen=True)
class LarkOnly:
    """The compiled engine's reading without its fast reading of the common game."""

    keeps_runs: bool = True
    moves_end: Any = COMPILED.moves_end
    plain_run: Any = COMPILED.plain_run
    fast_game: Any = None


def run(data: bytes, reading: Any, stages: int) -> None:
    for index, (raw, notes) in enumerate(read_raw(io.BytesIO(data), engine=reading), 1):
        if stages > 1:
            game = parse_raw(raw, index, False, notes, reading)
            if stages > 2:
                record = check(game, engine=COMPILED).record
                if stages > 3:
                    json_line(record)


def best(data: bytes, reading: Any, stages: int) -> float:
    times = []
    for _ in range(3):
        start = time.process_time()
        run(data, reading, stages)
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else OCA
    data = path.read_bytes()
    print(f"{path.name}: CPU s to the end of each stage, best of 3")
    print(f"{'stage':<8}{'fast reading':>14}{'Lark only':>12}")
    for stages, name in enumerate(STAGES, 1):
        print(f"{name:<8}{best(data, COMPILED, stages):>14.3f}{best(data, LarkOnly(), stages):>12.3f}")


if __name__ == "__main__":
    main()
