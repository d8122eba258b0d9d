"""Convert benchmark: games/s and plies/s for `pdn convert --to jsonl` of the OCA archive.

    python benchmarks/bench_convert.py               # single process, then --jobs 2
    python benchmarks/bench_convert.py --games 2000  # only the first 2000 games (quicker)

The work is what the command does (read, parse, replay, write JSON lines), run through
`batch.run`; the output is counted and thrown away.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pdn_tools.running import batch  # noqa: E402
from pdn_tools.commands.convert import Options, convert  # noqa: E402
from pdn_tools.play.checking import Checking  # noqa: E402
from pdn_tools.text.reader import read_raw  # noqa: E402

OCA = ROOT.parent / "shared" / "corpus" / "english" / "OCA_2.0.pdn"


def measure(path: Path, jobs: int) -> tuple[int, int, int, float]:
    """(games, converted, plies, seconds) for converting `path` to JSON lines."""
    work = functools.partial(convert, options=Options(to="jsonl"))
    games = converted = plies = 0
    start = time.perf_counter()
    for result in batch.run(batch.Inputs((str(path),)), work, jobs, checking=Checking()):
        games += 1
        converted += result.ok
        plies += result.plies
    return games, converted, plies, time.perf_counter() - start


def first_games(path: Path, count: int, folder: str) -> Path:
    """A file holding the first `count` games of `path`, as they were written."""
    sample = Path(folder) / f"first-{count}.pdn"
    raws = itertools.islice(read_raw(path), count)
    sample.write_text("".join(raw.text() + "\n" for raw, _ in raws), encoding="utf-8")
    return sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, help="Convert only the first N games of the archive.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = first_games(OCA, args.games, folder) if args.games else OCA
        print(f"pdn convert --to jsonl {OCA.name}" + (f" (first {args.games} games)" if args.games else ""))
        for jobs in (1, 2):
            games, converted, plies, seconds = measure(path, jobs)
            print(f"  jobs {jobs}: {games} games ({converted} converted), {plies} plies in {seconds:.1f} s: "
                  f"{games / seconds:,.0f} games/s, {plies / seconds:,.0f} plies/s")


if __name__ == "__main__":
    main()
