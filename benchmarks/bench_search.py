"""Search benchmark: the shots of the "Tricks, traps and shots" file, and --shots on OCA.

    python benchmarks/bench_search.py                   # both parts at --shots' default depth
    python benchmarks/bench_search.py --depth 4 --deep 8 --games 500
    python benchmarks/bench_search.py --part tts        # or --part oca

TTS part: for every game of english/wiegerw-succeed-Tricks_traps_and_shots.pdn, the moves a
deeper search (--deep) judges shots are the targets; it prints how many of them the default
search (--depth) judges shots too, how many of the games' first moves are targets and are found
(the 18 "TTS Example" positions start with their shot; the "TTS Game" entries are whole games
from the start, their shot later), and the CPU time per position.  OCA part: `annotate --shots`'
work (judge every ply, write the game) on the first --games games of OCA_2.0.pdn in this
process (one core): games/s, search nodes/s and the evaluation cache's hit rate.  Times are CPU
times of this process (time.process_time), so a busy machine does not count against them.  The corpus
folder is $PDN_CORPUS (default /work/shared/corpus).
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pdn_tools.commands.annotate import SHOTS_DEPTH, Options, annotate_game  # noqa: E402
from pdn_tools.play.check import check  # noqa: E402
from pdn_tools.rules import core  # noqa: E402
from pdn_tools.rules.search import SHOT, Evaluations, judge  # noqa: E402
from pdn_tools.text.reader import read_games  # noqa: E402

CORPUS = Path(os.environ.get("PDN_CORPUS", "/work/shared/corpus"))
TTS = CORPUS / "english" / "wiegerw-succeed-Tricks_traps_and_shots.pdn"
OCA = CORPUS / "english" / "OCA_2.0.pdn"


def tts(depths: list[int], deep: int) -> None:
    """Targets (shots by the deep search) found at each of `depths`, overall and first moves."""
    thorough = Evaluations(deep)
    targets = firsts = games = positions = 0
    found, firsts_found, seconds = dict.fromkeys(depths, 0), dict.fromkeys(depths, 0), dict.fromkeys(depths, 0.0)
    for game in read_games(str(TTS)):
        replay = check(game).replay
        if replay is None or not replay.ok or not replay.plies:
            print(f"game {game.index}: not replayed, left out")
            continue
        games += 1
        plies = [(ply.before, ply.move, ply.after) for ply in replay.plies]
        positions += len(plies)
        shots = [i for i, slow in enumerate(judge(plies, thorough)) if slow.kind == SHOT]
        targets += len(shots)
        firsts += 0 in shots
        for depth in depths:
            start = time.process_time()
            quick = judge(plies, Evaluations(depth))
            seconds[depth] += time.process_time() - start
            found[depth] += sum(quick[i].kind == SHOT for i in shots)
            firsts_found[depth] += 0 in shots and quick[0].kind == SHOT
    print(f"TTS: {games} games replayed, {positions} positions; {targets} shots by the depth-{deep} search, "
          f"{firsts} of them first moves (engine: {core.ENGINE})")
    for depth in depths:
        print(f"  depth {depth}: found {found[depth]} ({100 * found[depth] / max(targets, 1):.0f}%), first moves "
              f"{firsts_found[depth]}; {1000 * seconds[depth] / max(positions, 1):.2f} ms per position")


def oca(depth: int, games: int) -> None:
    """annotate --shots' work on the first `games` games of OCA, one process."""
    evaluate = Evaluations(depth)
    options = Options(shots=True, depth=depth)
    checked = [check(game) for game in itertools.islice(read_games(str(OCA)), games)]
    wall, start = time.perf_counter(), time.process_time()
    for one in checked:
        annotate_game(one, options, evaluate)
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    lookups = evaluate.hits + evaluate.misses
    print(f"OCA: {len(checked)} games at depth {depth} in {seconds:.2f} s of CPU ({wall:.2f} s wall): "
          f"{len(checked) / seconds:.1f} games/s per core (engine: {core.ENGINE}; reading and replaying not counted)")
    print(f"  search nodes: {evaluate.searched} ({evaluate.searched / seconds:,.0f} nodes/s of annotating CPU time); "
          f"cache hits {evaluate.hits} of {lookups} lookups ({100 * evaluate.hits / max(lookups, 1):.1f}%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, nargs="+", default=[SHOTS_DEPTH], help="several for the TTS part")
    parser.add_argument("--deep", type=int, default=10)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--part", choices=["tts", "oca", "both"], default="both")
    args = parser.parse_args()
    if args.part in ("tts", "both"):
        tts(args.depth, args.deep)
    if args.part in ("oca", "both"):
        oca(args.depth[0], args.games)


if __name__ == "__main__":
    main()
