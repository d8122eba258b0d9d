"""Perft benchmark: asserts published leaf counts (reference §6) and prints nodes per second.

    python benchmarks/bench_perft.py            # international d6, english d8, move-gen timings,
                                                # then both jobs on the compiled core and the pure
                                                # engine (child processes), with the ratio
    python benchmarks/bench_perft.py --deep     # also the deeper oracle counts (several minutes)
    python benchmarks/bench_perft.py --peers    # also py-draughts and pydraughts, with ratios

Peers run in throwaway virtualenvs under benchmarks/.venv-peers/<package> (created on first use
with `python -m venv` and `pip install <package>`; git-ignored, never a dependency).  Both peers
install a module named `draughts`, hence one venv each.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pdn_tools.rules import core  # noqa: E402
from pdn_tools.rules.fen import parse_fen  # noqa: E402
from pdn_tools.rules.movegen import Position, perft  # noqa: E402
from pdn_tools.rules.variants import VARIANTS  # noqa: E402

PEER_DIR = ROOT / "benchmarks" / ".venv-peers"

# (variant, depth, keep duplicates, published count)
QUICK = [("international", 6, False, 167140), ("english", 8, True, 845931)]
DEEP = [
    ("international", 7, False, 1049442),
    ("international", 8, False, 6483961),
    ("international", 8, True, 6483971),
    ("canadian", 7, False, 4369366),
    ("russian", 8, False, 929899),
    ("russian", 8, True, 929905),
    ("brazilian", 8, False, 907830),
    ("brazilian", 8, True, 907836),
    ("pool", 8, False, 929896),
    ("czech", 9, True, 3963671),
    ("spanish", 9, True, 3860866),
    ("italian", 9, True, 3860875),
    ("frisian", 7, False, 540126),
    ("frisian", 7, True, 550314),
    ("turkish", 6, False, 931312),
]

MIDDLEGAMES = {
    "international": "W:W27,28,30,32,33,34,35,37,38,39,40,42,43,44,45,48:"
                     "B6,7,8,9,12,13,14,15,16,17,18,19,20,23,24,26",
    "english": "B:W18,21,22,23,24,25,26,27,29,30,31:B1,2,3,5,6,7,9,10,11,12,14",
    "russian": "W:WK22,25,26,27,29:B5,6,7,10,11,K31",
}


def run_perft(name: str, depth: int, keep: bool, expected: int | None) -> float:
    pos = Position.initial(VARIANTS[name])
    t = time.perf_counter()
    nodes = perft(pos, depth, keep)
    dt = time.perf_counter() - t
    policy = "keep" if keep else "drop"
    status = "" if expected is None else ("ok" if nodes == expected else f"WRONG, expected {expected}")
    print(f"  {name:13} d{depth} {policy}: {nodes:>10} nodes {dt:7.2f} s "
          f"{nodes / dt:>10,.0f} nodes/s  {status}")
    if expected is not None and nodes != expected:
        raise SystemExit(f"perft mismatch for {name} depth {depth}")
    return nodes / dt


def api_perft(pos: Position, depth: int) -> int:
    """Perft through the public API only (legal_moves + play), as a replayer would use it."""
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(api_perft(pos.play(m), depth - 1) for m in moves)


def move_gen_timings() -> None:
    print("legal_moves() / has_capture() / play() per call:")
    for name, fen in MIDDLEGAMES.items():
        pos = parse_fen(VARIANTS[name], fen)
        move = pos.legal_moves()[0]
        n = 20000
        lm = timeit.timeit(pos.legal_moves, number=n) / n * 1e6
        hc = timeit.timeit(pos.has_capture, number=n) / n * 1e6
        pl = timeit.timeit(lambda: pos.play(move), number=n) / n * 1e6
        print(f"  {name:13} {lm:6.1f} us / {hc:5.2f} us / {pl:5.2f} us")
    print("random games (legal_moves + play per ply):")
    rng = random.Random(1)
    for name in ("international", "english", "russian"):
        plies = 0
        t = time.perf_counter()
        for _ in range(200):
            pos = Position.initial(VARIANTS[name])
            for _ in range(150):
                moves = pos.legal_moves()
                if not moves:
                    break
                pos = pos.play(rng.choice(moves))
                plies += 1
        dt = time.perf_counter() - t
        print(f"  {name:13} {plies / dt:>10,.0f} plies/s")


# -- compiled core against the pure engine ---------------------------------------------------

# Runs in a child process: argv = variant, depth, keep; prints the engine, nodes and seconds.
ENGINE_SCRIPT = r'''
import json, sys, time
from pdn_tools.rules import core
from pdn_tools.rules.movegen import Position, perft
from pdn_tools.rules.variants import VARIANTS
pos = Position.initial(VARIANTS[sys.argv[1]])
best = None
for _ in range(5):
    t = time.process_time()
    nodes = perft(pos, int(sys.argv[2]), sys.argv[3] == "keep")
    dt = time.process_time() - t
    best = dt if best is None else min(best, dt)
print(json.dumps({"engine": core.engine_from_environment().name, "nodes": nodes, "seconds": best}))
'''


def engine_perft(name: str, depth: int, keep: bool, pure: bool) -> dict:
    env = dict(os.environ, PDN_TOOLS_PURE="1" if pure else "0")
    proc = subprocess.run([sys.executable, "-c", ENGINE_SCRIPT, name, str(depth),
                           "keep" if keep else "drop"], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return json.loads(proc.stdout)


def compare_engines(jobs: list[tuple[str, int, bool, int]]) -> None:
    print("compiled core against the pure engine (CPU time, best of 5 in each child process):")
    for name, depth, keep, expected in jobs:
        fast, slow = engine_perft(name, depth, keep, False), engine_perft(name, depth, keep, True)
        if fast["engine"] != "compiled":
            raise SystemExit("the compiled core is not built: pip install -e . with a C compiler")
        for res in (fast, slow):
            if res["nodes"] != expected:
                raise SystemExit(f"perft mismatch for {name} depth {depth} ({res['engine']})")
        print(f"  {name:13} d{depth}: compiled {fast['seconds'] * 1e3:8.1f} ms, pure "
              f"{slow['seconds'] * 1e3:8.1f} ms: {slow['seconds'] / fast['seconds']:5.1f}x")


# -- peers -------------------------------------------------------------------------------------

# Runs inside a peer's venv: reads jobs as JSON on stdin, prints results as JSON.
PEER_SCRIPT = r'''
import json, sys, time
jobs = json.load(sys.stdin)
package = sys.argv[1]
out = []

def perft(board, depth, moves_of, push, pop):
    moves = moves_of(board)
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        push(board, m)
        n += perft(board, depth - 1, moves_of, push, pop)
        pop(board)
    return n

for job in jobs:
    variant, depth, mode = job["variant"], job["depth"], job["mode"]
    if package == "py-draughts":
        import draughts
        board = {"international": draughts.StandardBoard, "russian": draughts.RussianBoard,
                 "brazilian": draughts.BrazilianBoard, "frisian": draughts.FrisianBoard}[variant]()
        if mode == "turbo":
            from draughts.engines.turbo import perft_from_board
            t = time.perf_counter(); n = perft_from_board(board, depth)
        else:
            t = time.perf_counter()
            n = perft(board, depth, lambda b: b.legal_moves, lambda b, m: b.push(m),
                      lambda b: b.pop())
    else:
        from draughts import Board
        board = Board(variant={"international": "standard"}.get(variant, variant))
        t = time.perf_counter()
        n = perft(board, depth, lambda b: b.legal_moves(), lambda b, m: b.push(m),
                  lambda b: b.pop())
    out.append({**job, "nodes": n, "seconds": time.perf_counter() - t})
print(json.dumps(out))
'''

PEER_JOBS = {
    "py-draughts": [
        {"variant": "international", "depth": 6, "mode": "api"},
        {"variant": "international", "depth": 6, "mode": "turbo"},
        {"variant": "russian", "depth": 7, "mode": "api"},
        {"variant": "brazilian", "depth": 7, "mode": "api"},
        {"variant": "frisian", "depth": 5, "mode": "api"},
    ],
    "pydraughts": [
        {"variant": "international", "depth": 4, "mode": "api"},
        {"variant": "english", "depth": 5, "mode": "api"},
        {"variant": "russian", "depth": 5, "mode": "api"},
    ],
}
# py-draughts' AmericanBoard makes captures optional, so its English counts are not comparable.


def peer_python(package: str) -> Path:
    venv = PEER_DIR / package
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"  creating {venv} and installing {package} ...")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", package], check=True)
    return python


def run_peers() -> None:
    print("peers (same start positions; 'api' = legal moves + push/pop through the public API):")
    for package, jobs in PEER_JOBS.items():
        python = peer_python(package)
        proc = subprocess.run([str(python), "-c", PEER_SCRIPT, package], input=json.dumps(jobs),
                              capture_output=True, text=True, check=True)
        for res in json.loads(proc.stdout):
            pos = Position.initial(VARIANTS[res["variant"]])
            t = time.perf_counter()
            ours_api = api_perft(pos, res["depth"])
            ours_api_rate = ours_api / (time.perf_counter() - t)
            t = time.perf_counter()
            ours = perft(pos, res["depth"], keep_duplicates=True)
            ours_rate = ours / (time.perf_counter() - t)
            rate = res["nodes"] / res["seconds"]
            same = "same count" if res["nodes"] == ours else f"COUNT DIFFERS (ours {ours})"
            print(f"  {package:11} {res['variant']:13} d{res['depth']} {res['mode']:5} "
                  f"{res['nodes']:>8} nodes {rate:>10,.0f} nodes/s; ours: api "
                  f"{ours_api_rate:>9,.0f} ({ours_api_rate / rate:5.1f}x), perft "
                  f"{ours_rate:>10,.0f} ({ours_rate / rate:5.1f}x)  {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deep", action="store_true", help="deeper published counts too")
    parser.add_argument("--peers", action="store_true", help="compare with py-draughts, pydraughts")
    args = parser.parse_args()
    print(f"pdn_tools perft (Python {sys.version.split()[0]}, {core.engine_from_environment().name} engine):")
    for job in QUICK + (DEEP if args.deep else []):
        run_perft(*job)
    move_gen_timings()
    compare_engines(QUICK)
    if args.peers:
        run_peers()


if __name__ == "__main__":
    main()
