"""Archive benchmark (was run.py): reading, validating and converting real archives, with peers and a baseline.

    python benchmarks/bench_archive.py                    # OCA and the international files, jobs 1 and 2 (and OCA x4)
    python benchmarks/bench_archive.py --baseline REF     # also the same runs on git REF, with ratios
    python benchmarks/bench_archive.py --pure             # baseline: this tree on the pure engine (PDN_TOOLS_PURE=1)
    python benchmarks/bench_archive.py --peers            # also pydraughts and py-draughts on the same games
    python benchmarks/bench_archive.py --quick            # the first 3,000 games of OCA only

Every figure comes from a child process: CPU time (its own and its workers'), wall time and
peak memory (ru_maxrss), with the modules' bytecode written beforehand, as an installed
package has it.  Games and plies are the games read and their main-line moves.
The streaming check validates OCA once and five times over one pipe: peak memory must
not grow with the number of games.  Peers run in their own virtualenvs
(benchmarks/.venv-peers/<package>, as bench_perft.py makes them) on the game texts our
reader cut, so their figures leave out splitting the file; pydraughts, which is very slow,
gets the first 300 games of each set.  The machine is shared: compare ratios from one run.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_perft import peer_python  # noqa: E402

# Runs in a child process: argv = mode, jobs, paths...; prints one JSON object.
DRIVER = r'''
import json, os, resource, sys, time
mode, jobs, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
wall, cpu = time.perf_counter(), time.process_time()
games = plies = 0
report = sys.stdout
if mode == "read":
    from pdn_tools import read_games
    try:
        from pdn_tools.running.batch import Inputs
    except ImportError:                 # a baseline from before the layout in folders
        from pdn_tools.batch import Inputs
    for path in Inputs(tuple(paths)).files():
        for game in read_games(path):
            games += 1
            plies += len(game.main_line()) if hasattr(game, "main_line") else 0
else:
    from pdn_tools.cli import main
    report = os.fdopen(os.dup(1), "w")         # the figures go here; the command's output and notes to /dev/null
    errors = os.dup(2)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.dup2(1, 2)
    sys.argv = ["pdn", mode, "--jobs", jobs, *(["--format", "jsonl"] if mode == "validate" else []), *paths]
    try:
        main()
    except SystemExit:
        pass
    os.dup2(errors, 2)
own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"games": games, "plies": plies, "wall": time.perf_counter() - wall,
                  "cpu": time.process_time() - cpu + children.ru_utime + children.ru_stime,
                  "rss": max(own.ru_maxrss, children.ru_maxrss) / 1024}), file=report, flush=True)
'''

# Runs in a peer's virtualenv: stdin = {"variant", "texts"}; replays each game, prints one JSON object.
PEER = r'''
import json, sys, time
package, job = sys.argv[1], json.load(sys.stdin)
variant, texts = job["variant"], job["texts"]
games = plies = failed = 0
if package == "py-draughts":
    import re
    import draughts
    board_class = {"english": draughts.AmericanBoard, "international": draughts.StandardBoard}[variant]
    if variant == "english":      # py-draughts numbers the English board from the other side
        move = re.compile(r"(?<![\w.\-/])([0-9]{1,2}(?:[-x][0-9]{1,2})+)(?![\w\-/])")
        mirror = lambda m: m.group() if m.group() in ("1-0", "0-1") else re.sub(
            "[0-9]+", lambda n: str(33 - int(n.group())), m.group())
        texts = [move.sub(mirror, text) for text in texts]
    start = time.process_time()
    for text in texts:
        try:
            board = board_class.from_pdn(text)
            games += 1
            plies += len(board._moves_stack)
        except Exception:
            failed += 1
else:
    from draughts import Board, Move
    from draughts.PDN import PDNReader
    start = time.process_time()
    for text in texts:
        try:
            game = PDNReader(pdn_text=text).games[0]
            board = Board(variant={"english": "english", "international": "standard"}[variant])
            for move in game.moves:
                board.push(Move(board, pdn_move=move))
            games += 1
            plies += len(game.moves)
        except Exception:
            failed += 1
print(json.dumps({"games": games, "failed": failed, "plies": plies, "cpu": time.process_time() - start}))
'''


_COMPILED: set[Path] = set()        # trees whose modules have their bytecode written


def measure(tree: Path, mode: str, paths: list[str], jobs: int = 1, stdin: list[str] | None = None,
            pure: bool = False) -> dict:
    """One child-process run of `mode` over `paths` with the pdn_tools of `tree` (on the pure
    engine when `pure`)."""
    # Bytecode cached, as an installed package has it (PYTHONDONTWRITEBYTECODE, set on some machines,
    # made every start compile the package's modules again: a third of a start-up).
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONPATH": str(tree), "PDN_TOOLS_PURE": "1" if pure else "0"}
    if tree not in _COMPILED:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "pdn_tools")], env=env, check=True)
        _COMPILED.add(tree)
    command = [sys.executable, "-c", DRIVER, mode, str(jobs), *paths]
    child = subprocess.Popen(command, env=env, cwd=tree, stdout=subprocess.PIPE,
                             stdin=subprocess.PIPE if stdin else None)
    if stdin:
        _feed(child.stdin, stdin)          # the child prints only at the end: no deadlock
    out = child.stdout.read()
    child.wait()
    return json.loads(out)


def _feed(pipe, files: list[str]) -> None:
    with pipe:
        for path in files:
            with open(path, "rb") as handle:
                while block := handle.read(1 << 20):
                    pipe.write(block)


def best(tree: Path, mode: str, paths: list[str], jobs: int, repeat: int, pure: bool = False) -> dict:
    """The run with the least wall time out of `repeat` (the others were disturbed more)."""
    return min((measure(tree, mode, paths, jobs, pure=pure) for _ in range(repeat)), key=lambda r: r["wall"])


def line(label: str, result: dict, counts: dict, base: dict | None = None) -> str:
    games, plies = counts["games"], counts["plies"]
    text = (f"  {label:24} {result['wall']:7.2f} s wall {result['cpu']:7.2f} s cpu "
            f"{games / result['wall']:>9,.0f} games/s {plies / result['wall']:>11,.0f} plies/s "
            f"{result['rss']:6.0f} MB peak")
    if base is not None:
        text += f"   {base['wall'] / result['wall']:4.2f}x wall, {base['cpu'] / result['cpu']:4.2f}x cpu vs baseline"
    return text


def game_texts(paths: list[str], limit: int | None) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from pdn_tools.running.batch import Inputs
    from pdn_tools.text.reader import read_raw

    texts = []
    for path in Inputs(tuple(paths)).files():
        for raw, _ in read_raw(path):
            texts.append(raw.text())
            if limit and len(texts) >= limit:
                return texts
    return texts


def peers(name: str, variant: str, paths: list[str], tree: Path, repeat: int = 1) -> None:
    """Our validate and each peer on the same game texts, one after the other `repeat` times (once for
    pydraughts, which takes minutes), the least CPU of each: the machine's speed drifts between minutes."""
    for package, limit, runs in (("py-draughts", None, repeat), ("pydraughts", 300, 1)):
        texts = game_texts(paths, limit)
        job = json.dumps({"variant": variant, "texts": texts})
        ours_runs, peer_runs = [], []
        with tempfile.TemporaryDirectory() as folder:
            sample = Path(folder) / "sample.pdn"
            sample.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
            counts = measure(tree, "read", [str(sample)])
            for _ in range(runs):
                ours_runs.append(measure(tree, "validate", [str(sample)]))
                peer_runs.append(json.loads(subprocess.run([str(peer_python(package)), "-c", PEER, package], input=job,
                                                           capture_output=True, text=True, check=True).stdout))
        ours, peer = (min(found, key=lambda r: r["cpu"]) for found in (ours_runs, peer_runs))
        ours_rate, peer_rate = counts["plies"] / ours["cpu"], peer["plies"] / max(peer["cpu"], 1e-9)
        print(f"  {name} vs {package:11}: {len(texts)} games; peer replayed {peer['games']} "
              f"({peer['failed']} failed) at {peer_rate:>9,.0f} plies/s cpu; pdn validate "
              f"{ours_rate:>9,.0f} plies/s cpu ({ours_rate / max(peer_rate, 1e-9):5.1f}x)")


def baseline_tree(ref: str, folder: str) -> Path:
    """The pdn_tools and grammar of git `ref`, unpacked into `folder`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "pdn_tools", "grammars"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
    return Path(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REF", help="git commit to compare with")
    parser.add_argument("--pure", action="store_true",
                        help="baseline: this tree on the pure-Python engine (PDN_TOOLS_PURE=1)")
    parser.add_argument("--peers", action="store_true", help="pydraughts and py-draughts too")
    parser.add_argument("--quick", action="store_true", help="the first 3,000 games of OCA only")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each measurement (best is kept)")
    args = parser.parse_args()
    oca = str(CORPUS / "english" / "OCA_2.0.pdn")
    with tempfile.TemporaryDirectory() as folder:
        if args.quick:
            quick = Path(folder) / "oca-3000.pdn"
            quick.write_text("".join(t + "\n" for t in game_texts([oca], 3000)), encoding="utf-8")
            oca = str(quick)
        sets = [("OCA", [oca])] + ([] if args.quick else [("international", [str(CORPUS / "international")])])
        base = baseline_tree(args.baseline, tempfile.mkdtemp(dir=folder)) if args.baseline else None
        if args.pure:
            base = base or ROOT
            print(f"baseline: {'git ' + args.baseline if args.baseline else 'this tree'} on the pure engine")
        for name, paths in sets:
            counts = measure(ROOT, "read", paths)
            print(f"{name}: {counts['games']} games, {counts['plies']} plies")
            results = {}
            for label, mode, jobs in (("read", "read", 1), ("validate --jobs 1", "validate", 1),
                                      ("validate --jobs 2", "validate", 2), ("convert --jobs 1", "convert", 1)):
                reference = best(base, mode, paths, jobs, args.repeat, args.pure) if base else None
                results[label] = best(ROOT, mode, paths, jobs, args.repeat)
                print(line(label, results[label], counts, reference))
            one, two = results["validate --jobs 1"], results["validate --jobs 2"]
            print(f"  validate --jobs 2 vs --jobs 1: {one['wall'] / two['wall']:4.2f}x wall")
        if not args.quick:          # start-up is serial: on more games it weighs less
            bigger = Path(folder) / "oca-x4.pdn"
            with open(bigger, "wb") as out:       # copied a block at a time: a child's peak memory
                for _ in range(4):                # counts this process's (vfork), so it must stay small
                    with open(oca, "rb") as source:
                        shutil.copyfileobj(source, out)
                    out.write(b"\n\n")
            one, two = (best(ROOT, "validate", [str(bigger)], jobs, args.repeat) for jobs in (1, 2))
            print(f"OCA x4 (46 MB): validate --jobs 1 {one['wall']:.2f} s, --jobs 2 {two['wall']:.2f} s wall: "
                  f"{one['wall'] / two['wall']:4.2f}x")
        print("streaming (validate -, jobs 1): peak memory by number of games")
        for times in (1, 5):
            result = measure(ROOT, "validate", ["-"], 1, stdin=[oca] * times)
            print(f"  OCA x{times}: {result['wall']:7.2f} s wall {result['rss']:6.0f} MB peak")
        if args.peers:
            print("peers (replaying the same games; CPU time):")
            peers("OCA", "english", [oca], ROOT, args.repeat)
            if not args.quick:
                peers("international", "international", [str(CORPUS / "international")], ROOT, args.repeat)


if __name__ == "__main__":
    main()
