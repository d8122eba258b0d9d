"""The tags-only paths against validate, measured in the same run: `pdn list` and
`pdn filter --tag/--player/--result` must take at most a third of `pdn validate`'s time.

    python benchmarks/bench_tags.py                  # OCA_2.0.pdn of the corpus
    python benchmarks/bench_tags.py --repeat 3 FILE  # the best of three runs of each

Each command runs as `python -m pdn_tools ...` in a child process, output thrown away;
the figures are wall-clock seconds and the ratios to validate's time.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("PDN_CORPUS") or ROOT.parent / "shared" / "corpus")
COMMANDS = {
    "validate": ["validate"],
    "list": ["list"],
    "filter --tag": ["filter", "--tag", "Event=glasgow"],
    "filter --player --result": ["filter", "--player", "wyllie", "--result", "2-0"],
}


def seconds(args: list[str], path: str, repeat: int) -> float:
    """The best wall-clock time of `repeat` runs of `pdn ARGS PATH`."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pdn_tools", *args, path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=ROOT)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(CORPUS / "english" / "OCA_2.0.pdn"))
    parser.add_argument("--repeat", type=int, default=1)
    options = parser.parse_args()
    times = {name: seconds(args, options.path, options.repeat) for name, args in COMMANDS.items()}
    for name, took in times.items():
        print(f"{name:<26} {took:7.2f} s  {took / times['validate']:5.2f} of validate")


if __name__ == "__main__":
    main()
