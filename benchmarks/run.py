"""Issue #28's figures in one run: every command's CPU time against `validate`, validate against
the pure engine, the start-up, peak memory and two jobs, each with its target, met or missed.

    python benchmarks/run.py                     # OCA and the international files (see below)
    python benchmarks/run.py --quick             # slices: 3,000 OCA games, 500 international ones
    python benchmarks/run.py --markdown          # also write the tables into docs/benchmarks.md
    python benchmarks/run.py --markdown README.md docs/benchmarks.md   # into each page's markers
    python benchmarks/run.py --tree ../main      # measure another checkout's pdn_tools (core built)

Every figure is a child process run as `pdn` runs (`python -c` calling pdn_tools.__main__ of a copy
of the checkout's pdn_tools with its bytecode written, as installed; output to /dev/null, the
caches warmed by a first run): its CPU time, user and system, its
workers' included (os.wait4), its wall time and its peak memory (ru_maxrss, the child's or a
worker's).  A ratio compares CPU times of the same run, so a busy machine weighs on both sides;
the figures are the least of `--repeat` rounds (each round runs every measurement once; one that
took more than CHEAP seconds runs in the first round only).  `--jobs 2` is the one figure of wall
time: it needs two idle cores, and the load average is printed with the table.  This process
imports nothing of pdn_tools: a child's peak memory counts the parent's (vfork).

How long: on main before issue #28's work, about 330 s of CPU (annotate --all 46 s, the converts
18-34 s each, the international files a quarter of it), 23 min of wall time on the shared 2-core
machine at load 10 (wall 3-4 times CPU); at the targets (every command within 1.5x validate) about
a third of that.  --quick took 4 min there: use it while working.
"""
from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("PDN_CORPUS") or ROOT.parent / "shared" / "corpus")
PAGE = ROOT / "docs" / "benchmarks.md"
BEGIN = "<!-- benchmarks/run.py --markdown writes from here; do not edit by hand -->"
END = "<!-- benchmarks/run.py --markdown writes up to here -->"
PDN = "import sys; from pdn_tools.__main__ import main; sys.exit(main())"
CHEAP = 5.0             # seconds of CPU: a measurement that took longer runs once
SHOTS_GAMES = 1000      # annotate --shots runs on the first games of OCA
COMMAND_TARGET = 1.5    # every command within 1.5x validate's CPU time (issue #28, 1)
LIBRARY_TARGET = 2.0    # a script looking at every position of OCA within 2x validate's CPU time (issue #29, 4)
LIBRARY_FIGURE = ("a script looking at every position (`replay(game).mainline()`, `ply.after.pieces()` of both "
                  "sides; benchmarks/bench_library.py) ÷ `validate`, CPU")

# Runs in a child with this checkout's pdn_tools: argv = out (or ""), limit (or 0), paths...; writes the
# first `limit` games of paths to `out` as they were written, prints the number of games read.
SLICE = r'''
import sys
from pdn_tools.running.batch import Inputs
from pdn_tools.text.reader import read_raw
out, limit, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
count, texts = 0, []
for path in Inputs(tuple(paths)).files():
    for raw, _ in read_raw(path):
        count += 1
        if out:
            texts.append(raw.text() + "\n")
        if count == limit:
            break
    if count == limit:
        break
if out:
    open(out, "w", encoding="utf-8").write("".join(texts))
print(count)
'''

# Runs in a child with the measured tree: where pdn_tools comes from and whether its core is built.
WHICH = "import pdn_tools; from pdn_tools.rules.core import compiled_module; " \
        "print(pdn_tools.__file__, compiled_module() is not None)"


@dataclass(frozen=True)
class Usage:
    """What one child process used."""
    cpu: float      # seconds, user and system, with its workers
    wall: float     # seconds
    rss: float      # MB, the peak of the child or of one of its workers
    code: int       # exit code


@dataclass(frozen=True)
class Archive:
    """A set of games the commands run on."""
    name: str
    paths: list[str]
    games: int
    fen: str                # a position `filter --position` looks for (reached in the set's games)
    one_file: bool          # `diagram` draws from one file


@dataclass(frozen=True)
class Target:
    """A bound a figure must keep: at most `most`, at least `least`."""
    most: float | None = None
    least: float | None = None

    def met(self, value: float) -> bool:
        return (self.most is None or value <= self.most) and (self.least is None or value >= self.least)


@dataclass(frozen=True)
class Figure:
    """One row of a table: what is measured, its values (one a column), the target, met or not."""
    name: str
    values: tuple[str, ...]
    target: str
    met: bool | None        # None: a figure with no target of its own


ARCHIVE_HEADER = ("figure", "OCA", "international", "target", "met")
OTHER_HEADER = ("figure", "measured", "target", "met")
MET = {True: "met", False: "**missed**", None: "—"}


def table(header: Sequence[str], figures: Sequence[Figure]) -> str:
    """A Markdown table of the figures, one row each."""
    def row(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"
    lines = [row(header), "|" + "---|" * len(header)]
    for figure in figures:
        if len(figure.values) != len(header) - 3:
            raise ValueError(f"{figure.name}: {len(figure.values)} values for {len(header) - 3} columns")
        lines.append(row((figure.name, *figure.values, figure.target, MET[figure.met])))
    return "\n".join(lines) + "\n"


def block(heading: str, archives: Sequence[Figure], others: Sequence[Figure]) -> str:
    """What --markdown writes between the markers: a line saying where and when, and the two tables."""
    return f"{heading}\n\n{table(ARCHIVE_HEADER, archives)}\n{table(OTHER_HEADER, others)}"


def insert(page: str, text: str) -> str:
    """`page` with `text` in place of what stands between its markers."""
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start or page.count(BEGIN) != 1 or page.count(END) != 1:
        raise ValueError(f"the page needs one {BEGIN!r} and, after it, one {END!r}")
    return page[:start + len(BEGIN)] + "\n" + text + page[end:]


class Tree:
    """A checkout's pdn_tools, run in child processes."""

    def __init__(self, checkout: Path, folder: Path) -> None:
        """The pdn_tools of `checkout`, copied into `folder` (with its built core) and its bytecode
        written there, as an installed package has it, without writing into the checkout."""
        self.path = folder
        shutil.copytree(checkout / "pdn_tools", folder / "pdn_tools", ignore=shutil.ignore_patterns("__pycache__"))
        self.env = {key: value for key, value in os.environ.items()
                    if key not in ("PYTHONDONTWRITEBYTECODE", "PDN_TOOLS_PURE")} | {"PYTHONPATH": str(folder)}
        found = subprocess.run([sys.executable, "-c", WHICH], env=self.env, cwd=folder, capture_output=True,
                               text=True, check=True).stdout.split()
        if not found[0].startswith(str(folder)) or found[1] != "True":
            sys.exit(f"{checkout}: pdn_tools comes from {found[0]}, its core built: {found[1]}")
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder / "pdn_tools")], env=self.env,
                       check=True)

    def python(self, code: str, *args: str, pure: bool = False, stdin: Sequence[str] = ()) -> Usage:
        """One run of `python -c CODE ARGS`, its output thrown away."""
        env = self.env | ({"PDN_TOOLS_PURE": "1"} if pure else {})
        start = time.perf_counter()
        with open(os.devnull, "wb") as null:
            child = subprocess.Popen([sys.executable, "-c", code, *args], env=env, cwd=self.path, stdout=null,
                                     stderr=null, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
            if child.stdin:
                _feed(child.stdin, stdin)
            _, status, used = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
        return Usage(used.ru_utime + used.ru_stime, time.perf_counter() - start, used.ru_maxrss / 1024,
                     child.returncode)

    def pdn(self, args: Sequence[str], pure: bool = False, stdin: Sequence[str] = ()) -> Usage:
        """One run of `pdn ARGS`."""
        return self.python(PDN, *args, pure=pure, stdin=stdin)


def _feed(pipe: IO[bytes], files: Sequence[str]) -> None:
    """Write the files into the child's stdin, then close it (a child that stops reading ends it)."""
    try:
        for path in files:
            with open(path, "rb") as handle:
                while chunk := handle.read(1 << 20):
                    pipe.write(chunk)
    except BrokenPipeError:
        pass
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass


Job = Callable[[], Usage]


def rounds(jobs: dict[str, Job], repeat: int, by_wall: bool = False) -> dict[str, Usage]:
    """Each job `repeat` times, one round after another (a slow minute of the machine hits every job
    alike), those that took more than CHEAP seconds once; the least CPU (or wall) time of each.  A
    job that ends in a usage error or an unreadable input (exit 2) stops the benchmark."""
    best: dict[str, Usage] = {}
    for turn in range(repeat):
        for name, job in jobs.items():
            if turn and best[name].cpu > CHEAP:
                continue
            used = job()
            print(f"  {name:58} {used.cpu:7.2f} s cpu {used.wall:7.2f} s wall {used.rss:5.0f} MB  exit {used.code}",
                  flush=True)
            if used.code > 1:
                sys.exit(f"{name}: exit {used.code}")
            if name not in best or (used.wall < best[name].wall if by_wall else used.cpu < best[name].cpu):
                best[name] = used
    return best


# The commands measured against `validate --format jsonl`: label, arguments before the paths
# ({fen}: the archive's position, {last}: its last game).
COMMANDS: list[tuple[str, list[str]]] = [
    ("list", ["list"]),
    ("filter --tag", ["filter", "--tag", "Event=world"]),
    ("filter --position", ["filter", "--position", "{fen}"]),
    ("stats", ["stats"]),
    ("convert --to pdn", ["convert", "--to", "pdn"]),
    ("convert --to jsonl", ["convert", "--to", "jsonl"]),
    ("convert --to fen", ["convert", "--to", "fen"]),
    ("convert --captures full --squares alpha --separator :",
     ["convert", "--captures", "full", "--squares", "alpha", "--separator", ":"]),
    ("convert --drop comments,variations,nags", ["convert", "--drop", "comments,variations,nags"]),
    ("convert --fix-results", ["convert", "--fix-results"]),
    ("annotate --all", ["annotate", "--all"]),
    ("dedupe", ["dedupe"]),
    ("diagram --game LAST --format svg", ["diagram", "--game", "{last}", "--format", "svg"]),
]
VALIDATE = ["validate", "--format", "jsonl"]


def command_args(args: list[str], archive: Archive) -> list[str] | None:
    """The command line of a command on an archive; None where it does not apply (diagram on a folder)."""
    if "{last}" in args and not archive.one_file:
        return None
    return [arg.format(fen=archive.fen, last=archive.games) for arg in args] + archive.paths


def ratio(numerator: Usage, denominator: Usage) -> float:
    return numerator.cpu / max(denominator.cpu, 1e-9)


def cell(value: float, numerator: float, denominator: float, unit: str = "s") -> str:
    return f"{value:.2f}x ({numerator:.2f} / {denominator:.2f} {unit})"


def per_set(name: str, values: dict[str, tuple[float, str]], targets: dict[str, Target], text: str) -> Figure:
    """A row of the archives' table from its (value, shown) on each archive measured ("—" in the
    others' columns), met when every archive with a target meets it."""
    shown = tuple(values[column][1] if column in values else "—" for column in ARCHIVE_HEADER[1:-2])
    checked = [targets[n].met(v) for n, (v, _) in values.items() if n in targets]
    return Figure(name, shown, text, all(checked) if checked else None)


def library_script() -> str:
    """What a user writes to look at every position of a file (benchmarks/bench_library.py's SCRIPT)."""
    spec = importlib.util.spec_from_file_location("bench_library", ROOT / "benchmarks" / "bench_library.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.SCRIPT)


def measure_archives(tree: Tree, archives: list[Archive], shots: Archive, repeat: int) -> list[Figure]:
    """The rows of the archives' table."""
    def run(args: list[str], pure: bool = False) -> Job:
        return lambda: tree.pdn(args, pure=pure)
    jobs: dict[str, Job] = {}
    for archive in archives:
        jobs[f"{archive.name}: validate --format jsonl"] = run(VALIDATE + archive.paths)
        jobs[f"{archive.name}: validate --format jsonl (pure)"] = run(VALIDATE + archive.paths, pure=True)
        for label, args in COMMANDS:
            line = command_args(args, archive)
            if line is not None:
                jobs[f"{archive.name}: {label}"] = run(line)
    script = library_script()
    for archive in archives:
        if archive.one_file:            # the script reads one file
            jobs[f"{archive.name}: every position (library)"] = \
                lambda paths=archive.paths: tree.python(script, *paths)
    jobs["OCA slice: annotate --shots"] = lambda: tree.pdn(["annotate", "--shots", *shots.paths])
    best = rounds(jobs, repeat)
    walls = rounds({f"{a.name}: validate --jobs {n}": run([*VALIDATE, "--jobs", str(n), *a.paths])
                    for a in archives for n in (1, 2)}, repeat, by_wall=True)
    figures = []
    rates = {a.name: a.games / best[f"{a.name}: validate --format jsonl"].cpu for a in archives}
    figures.append(per_set("`validate --format jsonl`: games/s (CPU)",
                           {n: (r, f"{r:,.0f}") for n, r in rates.items()}, {},
                           "≈ 30,000 on OCA on a quiet core"))
    pure = {}
    for a in archives:
        compiled, slow = best[f"{a.name}: validate --format jsonl"], best[f"{a.name}: validate --format jsonl (pure)"]
        pure[a.name] = (ratio(slow, compiled), cell(ratio(slow, compiled), slow.cpu, compiled.cpu))
    figures.append(per_set("`validate` compiled against pure (`PDN_TOOLS_PURE=1`), CPU", pure,
                           {"OCA": Target(least=8), "international": Target(least=6)},
                           "≥ 8x on OCA, ≥ 6x international"))
    def against_validate(label: str) -> dict[str, tuple[float, str]]:
        """The CPU time of job `label` on each archive measured, against validate's there."""
        values = {}
        for a in archives:
            used = best.get(f"{a.name}: {label}")
            if used is not None:
                base = best[f"{a.name}: validate --format jsonl"]
                values[a.name] = (ratio(used, base), cell(ratio(used, base), used.cpu, base.cpu))
        return values
    within = Target(most=COMMAND_TARGET)
    for label, _ in COMMANDS:
        figures.append(per_set(f"`{label}` ÷ `validate`, CPU", against_validate(label),
                               {a.name: within for a in archives}, f"≤ {COMMAND_TARGET}x"))
    values = against_validate("every position (library)")
    figures.append(per_set(LIBRARY_FIGURE, values,
                           {"OCA": Target(most=LIBRARY_TARGET)}, f"≤ {LIBRARY_TARGET}x on OCA"))
    shot = best["OCA slice: annotate --shots"]
    rate = shots.games / shot.cpu
    figures.append(per_set(f"`annotate --shots`: games/s (CPU, first {shots.games:,} games of OCA)",
                           {"OCA": (rate, f"{rate:,.0f} ({shot.cpu:.2f} s)")}, {"OCA": Target(least=100)},
                           "≥ 100 (issue #30)"))
    speed = {}
    for a in archives:
        one, two = walls[f"{a.name}: validate --jobs 1"], walls[f"{a.name}: validate --jobs 2"]
        speed[a.name] = (one.wall / two.wall, cell(one.wall / two.wall, one.wall, two.wall, "s wall"))
    figures.append(per_set("`validate --jobs 2` against `--jobs 1`, wall", speed, {"OCA": Target(least=1.8)},
                           "≥ 1.8x on OCA, on an idle machine"))
    return figures


def measure_others(tree: Tree, oca: Archive, one_game: str, repeat: int) -> list[Figure]:
    """The rows of the second table: start-up and memory."""
    starts: dict[str, Job] = {
        "python -c pass": lambda: tree.python("pass"),
        'python -c "import click"': lambda: tree.python("import click"),
        'python -c "import lark"': lambda: tree.python("import lark"),
        "pdn --version": lambda: tree.pdn(["--version"]),
        "pdn --help": lambda: tree.pdn(["--help"]),
        "pdn validate --help": lambda: tree.pdn(["validate", "--help"]),
        "pdn validate ONE-GAME.pdn": lambda: tree.pdn(["validate", one_game]),
    }
    best = rounds(starts, max(repeat, 1) * 4)
    figures = []
    for label, base, most in (("pdn --version", 'python -c "import click"', 1.3),
                              ("pdn --help", 'python -c "import click"', 1.3),
                              ("pdn validate --help", 'python -c "import click"', 1.3),
                              ("pdn validate ONE-GAME.pdn", 'python -c "import lark"', 1.5)):
        value = ratio(best[label], best[base])
        figures.append(Figure(f"`{label}` ÷ `{base}`, CPU",
                              (cell(value, best[label].cpu * 1000, best[base].cpu * 1000, "ms"),),
                              f"≤ {most}x", Target(most=most).met(value)))
    bare = best["python -c pass"].cpu * 1000
    figures.append(Figure("`python -c pass`, CPU", (f"{bare:.0f} ms",), "", None))
    streams = {times: tree.pdn(["validate", "--format", "jsonl", "-"], stdin=oca.paths * times) for times in (1, 5)}
    for times, used in streams.items():
        print(f"  {f'validate - (OCA x{times} on stdin)':58} {used.cpu:7.2f} s cpu {used.rss:5.0f} MB")
    once, five = streams[1].rss, streams[5].rss
    figures.append(Figure("peak memory, `validate -` streaming OCA once / five times",
                          (f"{once:.1f} / {five:.1f} MB",), "flat: five times ≤ once + 1 MB (33 MB in #28)",
                          five <= once + 1))
    return figures


def count(paths: Sequence[str], out: str = "", limit: int = 0) -> int:
    """The games of `paths` (with this checkout's reader), the first `limit` written to `out`."""
    env = {key: value for key, value in os.environ.items() if key != "PDN_TOOLS_PURE"} | {"PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SLICE, out, str(limit), *paths], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return int(done.stdout)


def archive(name: str, paths: list[str], fen: str, folder: Path, limit: int) -> Archive:
    """An archive of the corpus, or its first `limit` games in a file of `folder`."""
    if limit:
        out = str(folder / f"{name}-{limit}.pdn")
        return Archive(name, [out], count(paths, out, limit), fen, True)
    return Archive(name, paths, count(paths), fen, len(paths) == 1 and Path(paths[0]).is_file())


def load() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def commit(path: Path) -> str:
    """The commit `path` has checked out, and whether its pdn_tools differs from it: read when its pdn_tools is
    copied to be measured, so that the page names the code measured, not the commit when the page is written."""
    found = subprocess.run(["git", "-C", str(path), "log", "-1", "--format=%h %cs"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(path), "status", "--porcelain", "pdn_tools"], capture_output=True,
                           text=True).stdout.strip()
    return found.stdout.strip() + (" with changes not committed" if dirty else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="slices: the first 3,000 OCA games, 500 international")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (the least time of each figure is kept)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose pdn_tools is measured")
    parser.add_argument("--markdown", nargs="*", type=Path, metavar="PAGE",
                        help=f"write the tables between the markers of each PAGE ({PAGE.relative_to(ROOT)} "
                             "when none is named)")
    args = parser.parse_args()
    pages = (args.markdown or [PAGE]) if args.markdown is not None else []
    for page in pages:                  # a page without markers is refused before the long run
        try:
            insert(page.read_text(encoding="utf-8"), "")
        except (OSError, ValueError) as error:
            sys.exit(f"{page}: {error}")
    if not (CORPUS / "english" / "OCA_2.0.pdn").is_file():   # else every figure would be of 0 games
        sys.exit(f"no corpus at {CORPUS}: set PDN_CORPUS to the folder of the real PDN files")
    started, load_before = time.time(), load()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        measured = commit(args.tree)        # the code copied next is what every figure measures
        tree = Tree(args.tree.resolve(), folder / "tree")
        print(f"load average {load_before} ({os.cpu_count()} cores); pdn_tools of {args.tree} ({measured})")
        oca = archive("OCA", [str(CORPUS / "english" / "OCA_2.0.pdn")],
                      "B:W20,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
                      folder, 3000 if args.quick else 0)
        international = archive("international", [str(CORPUS / "international")],
                                "W:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                                "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23", folder, 500 if args.quick else 0)
        shots = archive("OCA", [str(CORPUS / "english" / "OCA_2.0.pdn")], "", folder,
                        SHOTS_GAMES // 5 if args.quick else SHOTS_GAMES)
        one_game = archive("one", [str(CORPUS / "english" / "OCA_2.0.pdn")], "", folder, 1).paths[0]
        print(f"OCA: {oca.games:,} games; international: {international.games:,} games")
        for warm in (["--help"], ["validate", one_game]):      # bytecode, the parser's cache
            tree.pdn(warm)
        archives = measure_archives(tree, [oca, international], shots, args.repeat)
        others = measure_others(tree, oca, one_game, args.repeat)
    when = datetime.datetime.fromtimestamp(started, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    heading = (f"`python benchmarks/run.py{' --quick' if args.quick else ''}` on {when}, pdn_tools at "
               f"{measured}; {os.cpu_count()} cores, load average {load_before} at the start and "
               f"{load()} at the end ({(time.time() - started) / 60:.0f} min); the least CPU time of "
               f"{args.repeat} round{'s' if args.repeat != 1 else ''} ({CHEAP:.0f}+ s runs once). "
               f"OCA: {oca.games:,} games, international: {international.games:,} games.")
    text = block(heading, archives, others)
    print("\n" + text)
    for page in pages:
        page.write_text(insert(page.read_text(encoding="utf-8"), text), encoding="utf-8")
        print(f"written into {page}")


if __name__ == "__main__":
    main()
