"""What --dask costs: `pdn validate --format jsonl` over the corpus with --jobs 1, --dask local:1, local:2.

    python benchmarks/bench_dask.py                      # the whole shared corpus
    python benchmarks/bench_dask.py --repeat 3 PATH...   # other files or folders, best of 3 rounds

Each run is a child process (`python -m pdn_tools`); the figures are its wall time (cluster start included)
and the CPU time of the process and everything it started (workers, scheduler); the output of every run must
be byte-identical to --jobs 1.  The machine is shared: compare the ratios of one run, and say how loaded the
machine was (the load average is printed with each run).  With --repeat N the three runs go round N times,
interleaved, and the best wall and CPU time of each are kept (a loaded machine only ever slows a run down).
"""
from __future__ import annotations

import argparse
import hashlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("PDN_CORPUS") or ROOT.parent / "shared" / "corpus")


def timed(arguments: list[str], environment: dict[str, str]) -> tuple[float, float, str, int]:
    """Wall time, CPU time (the run and all it started), digest of stdout and line count of one run."""
    with tempfile.TemporaryFile() as out:
        before = _children_cpu()
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pdn_tools", *arguments], stdout=out, stderr=subprocess.DEVNULL,
                       env=environment, check=False)
        wall = time.perf_counter() - start
        out.seek(0)
        data = out.read()
    return wall, _children_cpu() - before, hashlib.sha256(data).hexdigest(), data.count(b"\n")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("paths", nargs="*", default=[str(CORPUS)])
    options.add_argument("--repeat", type=int, default=1, help="rounds; the best time of each run is kept")
    arguments = options.parse_args()
    environment = dict(os.environ)
    print(f"cores {os.cpu_count()}, load average before {os.getloadavg()[0]:.2f}")
    runs = {"--jobs 1": ["--jobs", "1"], "--dask local:1": ["--dask", "local:1"],
            "--dask local:2": ["--dask", "local:2"]}
    best: dict[str, tuple[float, float]] = {}
    base_digest = ""
    for round_number in range(1, arguments.repeat + 1):
        for label, extra in runs.items():
            load = os.getloadavg()[0]
            wall, cpu, digest, lines = timed(["validate", "--format", "jsonl", *extra, *arguments.paths], environment)
            base_digest = base_digest or digest
            walls, cpus = best.get(label, (wall, cpu))
            best[label] = min(walls, wall), min(cpus, cpu)
            same = "identical" if digest == base_digest else "DIFFERENT"
            print(f"round {round_number} {label:16} wall {wall:7.2f} s  cpu {cpu:7.2f} s  load {load:4.2f}  "
                  f"{lines} records, {same}", flush=True)
    base_wall, base_cpu = best["--jobs 1"]
    for label, (wall, cpu) in best.items():
        print(f"best {label:16} wall {wall:7.2f} s ({wall / base_wall:4.2f}x of --jobs 1)  "
              f"cpu {cpu:7.2f} s ({cpu / base_cpu:4.2f}x)")
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
