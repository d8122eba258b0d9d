"""Start-up cost of the command line, as ratios to Python importing its libraries (best of N, one run).

    python benchmarks/bench_start.py              # best of 20 runs of each command
    python benchmarks/bench_start.py --runs 50

Each command runs as a child process: `pdn --version`, `pdn --help` and `pdn validate --help` against
`python -c "import click"`, `pdn validate` of a one-game file against `python -c "import lark"`
(targets: 1.3x, 1.3x, 1.3x and 1.5x; issue 28).  The figure is the child's CPU time (user + system),
and its instructions when `perf stat` can count them (not on most virtual machines).  The
commands take turns, so that a busy machine slows them alike; the best of N is kept.  The
parser cache and the modules' bytecode are written by a first run, as after an install.

`start_figures()` returns the figures (benchmarks/run.py reports them).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ONE_GAME = ROOT / "samples" / "international.pdn"
# Where the commands run: a folder without `pdn_tools` (`python -m pdn_tools`, used where `python` has no `pdn`
# script, imports the package of the current folder first, which would override `--tree`).
HERE = ROOT / "samples"
# Each ratio: a pdn command, the command it is compared with, and the target (issue 28).
RATIOS = {"version": ("import click", 1.3), "help": ("import click", 1.3), "validate --help": ("import click", 1.3),
          "validate": ("import lark", 1.5)}


def commands(python: str) -> dict[str, list[str]]:
    """The commands timed, by name: the references and pdn's (its console script beside `python`)."""
    script = Path(python).parent / "pdn"
    pdn = [str(script)] if script.exists() else [python, "-m", "pdn_tools"]
    return {"python": [python, "-c", "pass"],
            "import click": [python, "-c", "import click"],
            "import lark": [python, "-c", "import lark"],
            "version": [*pdn, "--version"],
            "help": [*pdn, "--help"],
            "validate --help": [*pdn, "validate", "--help"],
            "validate": [*pdn, "validate", str(ONE_GAME)]}


# Bytecode written and kept, as an installed package has it (PYTHONDONTWRITEBYTECODE, set on some
# machines, makes every start compile the package's modules again).
ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def cpu_time(command: list[str], env: dict[str, str] = ENVIRONMENT) -> float:
    """The CPU time of one run of `command` (its output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env, check=True, cwd=HERE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def instructions(command: list[str], env: dict[str, str] = ENVIRONMENT) -> int | None:
    """The user-space instructions of one run of `command`, by `perf stat`; None where perf cannot count them."""
    if shutil.which("perf") is None:
        return None
    done = subprocess.run(["perf", "stat", "-x", ",", "-e", "instructions:u", *command], stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True, cwd=HERE)
    for line in done.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("instructions") and fields[0].isdigit():
            return int(fields[0])
    return None


def start_figures(python: str = sys.executable, runs: int = 20, tree: Path | None = None
                  ) -> dict[str, dict[str, float]]:
    """{"cpu": seconds, "instructions": counts (empty without perf), "ratios": {"cpu ...": x,
    "instructions ...": x}}, each the best of `runs` runs, taking turns; with `tree`, the pdn_tools
    of that source tree (on PYTHONPATH) instead of the one `python` has installed."""
    named = commands(python)
    env = ENVIRONMENT if tree is None else {**ENVIRONMENT, "PYTHONPATH": str(tree)}
    for command in named.values():         # bytecode and the parser cache written, as after an install
        cpu_time(command, env)
    cpu: dict[str, float] = {name: float("inf") for name in named}
    counts: dict[str, float] = {}
    counted = instructions(named["python"], env) is not None
    for _ in range(runs):
        for name, command in named.items():
            cpu[name] = min(cpu[name], cpu_time(command, env))
            if counted:
                counts[name] = min(counts.get(name, float("inf")), instructions(command, env) or float("inf"))
    ratios = {}
    for name, (reference, _) in RATIOS.items():
        ratios[f"cpu {name}"] = cpu[name] / cpu[reference]
        if counted:
            ratios[f"instructions {name}"] = counts[name] / counts[reference]
    return {"cpu": cpu, "instructions": counts, "ratios": ratios}


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=20, help="runs of each command; the best is kept")
    options.add_argument("--python", default=sys.executable, help="the Python whose pdn is timed")
    options.add_argument("--tree", type=Path, help="time the pdn_tools of this source tree (e.g. a checkout of main)")
    arguments = options.parse_args()
    figures = start_figures(arguments.python, arguments.runs, arguments.tree)
    print(f"best of {arguments.runs}, load {os.getloadavg()[0]:.1f}")
    for name, seconds in figures["cpu"].items():
        counted = figures["instructions"].get(name)
        print(f"  {name:<14} {seconds * 1000:7.1f} ms CPU" + (f"  {counted / 1e6:7.1f} M instructions" if counted else ""))
    for name, (reference, target) in RATIOS.items():
        for measure in ("cpu", "instructions"):
            ratio = figures["ratios"].get(f"{measure} {name}")
            if ratio is not None:
                print(f"  {name} / {reference} ({measure}): {ratio:.2f}x  (target {target}x)")


if __name__ == "__main__":
    main()
