"""Looking at every position of a file through the library against `pdn validate`, measured in
the same run: the script below (read, replay, `ply.after.pieces()` of both sides at every ply
of the main line) should take at most twice validate's CPU time (issue 29).

    python benchmarks/bench_library.py                  # OCA_2.0.pdn of the corpus
    python benchmarks/bench_library.py --repeat 3 FILE  # the best of three runs of each
    PDN_TOOLS_PURE=1 python benchmarks/bench_library.py # on the pure-Python engine

Each side runs in a child process (`python -c SCRIPT`, `python -m pdn_tools validate`), output
thrown away; the figures are CPU seconds (user + system) of the child and their ratio.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("PDN_CORPUS") or ROOT.parent / "shared" / "corpus")

# What a user writes to look at every position of a file (docs/library.md, "Walk the positions").
SCRIPT = """
import sys
from pdn_tools import Game, read_games, replay

men = kings = plies = 0
for game in read_games(sys.argv[1]):
    if not isinstance(game, Game):
        continue
    for ply in replay(game).mainline():
        for colour in ("W", "B"):
            on_board, crowned = ply.after.pieces(colour)
            men += len(on_board)
            kings += len(crowned)
        plies += 1
print(plies, men, kings)
"""


# Bytecode written and kept, as an installed package has it and as run.py measures (PYTHONDONTWRITEBYTECODE,
# set on some machines, makes every run compile the package's modules again, validate's more of them).
ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def cpu_seconds(args: list[str], repeat: int) -> float:
    """The least CPU time (user + system) of `repeat` runs of `python ARGS` in a child process."""
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              cwd=ROOT, env=ENVIRONMENT, check=False)
        if done.returncode > 1:         # 1: validate found invalid games
            sys.exit(f"python {' '.join(args[:3])} failed:\n{done.stderr.decode(errors='replace')}")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(CORPUS / "english" / "OCA_2.0.pdn"))
    parser.add_argument("--repeat", type=int, default=1)
    options = parser.parse_args()
    validate = cpu_seconds(["-m", "pdn_tools", "validate", options.path], options.repeat)
    script = cpu_seconds(["-c", SCRIPT, options.path], options.repeat)
    engine = "pure" if os.environ.get("PDN_TOOLS_PURE") == "1" else "compiled"
    print(f"engine {engine}: validate {validate:.2f} s CPU, every position {script:.2f} s CPU, "
          f"ratio {script / validate:.2f}")


if __name__ == "__main__":
    main()
