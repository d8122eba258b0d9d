"""What --dask costs: `pdn validate --format jsonl` over the corpus with --jobs 1, --dask local:1, local:2.

    python benchmarks/bench_dask.py                      # the whole shared corpus
    python benchmarks/bench_dask.py PATH...              # other files or folders

Each run is a child process (`python -m pdn_tools`); the figures are its wall time (cluster start included)
and the CPU time of the process and everything it started (workers, scheduler); the output of every run must
be byte-identical to --jobs 1.  The machine is shared: compare the ratios of one run, and say how loaded the
machine was (the load average is printed).
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
    arguments = options.parse_args()
    environment = dict(os.environ)
    print(f"cores {os.cpu_count()}, load average before {os.getloadavg()[0]:.2f}")
    runs = {"--jobs 1": ["--jobs", "1"], "--dask local:1": ["--dask", "local:1"],
            "--dask local:2": ["--dask", "local:2"]}
    base_wall, base_digest = 0.0, ""
    for label, extra in runs.items():
        wall, cpu, digest, lines = timed(["validate", "--format", "jsonl", *extra, *arguments.paths], environment)
        if not base_digest:
            base_wall, base_digest = wall, digest
        same = "identical" if digest == base_digest else "DIFFERENT"
        print(f"{label:16} wall {wall:7.2f} s ({base_wall / wall:4.2f}x)  cpu {cpu:7.2f} s  "
              f"{lines} records, {same}", flush=True)
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
