"""Search benchmark: the shots of the "Tricks, traps and shots" file, and --shots on OCA.

    python benchmarks/bench_search.py                   # both parts at --shots' default depth
    python benchmarks/bench_search.py --depth 3 5 --deep 10 --games 500
    python benchmarks/bench_search.py --part tts        # or --part oca

TTS part, first moves: the file's positions are its games with a [FEN] tag ("TTS Example N",
18 of 90; the "TTS Game" entries are whole games from the start, their shot later).  A position
qualifies when a deep search (--deep plies, default 10) judges its first move a shot (`judge`:
it wins at least a man, or the game, by force, and no other move keeps a man more); it is found
when the search at --depth judges the same.  It prints each position (qualifying or not, with
the deep score of the move), how many qualify and are found, and the CPU time per position of
the judgement (two searches: before and after the move, a fresh cache for each position).
TTS part, all plies: the moves of every replayed game that the deep search judges shots, and how
many the search at --depth judges shots too.  OCA part: `annotate --shots`' work (judge every
ply, write the game) on the first --games games of OCA_2.0.pdn in this process (one core):
games/s, search nodes/s and the evaluation cache's hit rate.  Times are CPU times of this
process (time.process_time), so a busy machine does not count against them.  Every count is
reproducible: searches are limited by depth only.  The corpus folder is $PDN_CORPUS (default
/work/shared/corpus).
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

from pdn_tools.commands.annotate import SHOTS_DEPTH, SHOTS_NODES, Options, annotate_game  # noqa: E402
from pdn_tools.play.check import check  # noqa: E402
from pdn_tools.rules import core  # noqa: E402
from pdn_tools.rules.search import SHOT, Evaluations, eval_text, judge  # noqa: E402
from pdn_tools.text.reader import read_games  # noqa: E402

CORPUS = Path(os.environ.get("PDN_CORPUS", "/work/shared/corpus"))
TTS = CORPUS / "english" / "wiegerw-succeed-Tricks_traps_and_shots.pdn"
OCA = CORPUS / "english" / "OCA_2.0.pdn"


def tts(depths: list[int], deep: int) -> None:
    """The positions' first moves, then every ply: shots of the deep search found at `depths`."""
    games = []
    for game in read_games(str(TTS)):
        replay = check(game).replay
        if replay is None or not replay.ok or not replay.plies:
            print(f"game {game.index}: not replayed, left out")
            continue
        games.append((game, [(ply.before, ply.move, ply.after) for ply in replay.plies]))
    positions = [(game, plies[0]) for game, plies in games if game.tag("FEN") is not None]
    print(f"TTS positions ([FEN] games): {len(positions)} (engine: {core.engine_from_environment().name}); "
          f"first move judged at depth {deep} (deep) and {', '.join(map(str, depths))}:")
    qualifying, found, seconds = 0, dict.fromkeys(depths, 0), dict.fromkeys(depths, 0.0)
    for game, ply in positions:
        verdict = judge([ply], Evaluations(deep))[0]
        shot = verdict.kind == SHOT
        qualifying += shot
        marks = []
        for depth in depths:
            start = time.process_time()
            quick = judge([ply], Evaluations(depth))[0]
            seconds[depth] += time.process_time() - start
            found[depth] += shot and quick.kind == SHOT
            marks.append(f"d{depth} {'shot' if quick.kind == SHOT else '-'}")
        print(f"  {game.tag('Event')}: {ply[1]} deep {verdict.kind or '-'} ({eval_text(verdict.score)} for White); "
              + ", ".join(marks))
    print(f"  {qualifying} of {len(positions)} first moves qualify (a shot at depth {deep})")
    for depth in depths:
        print(f"  depth {depth}: found {found[depth]} of {qualifying} ({100 * found[depth] / max(qualifying, 1):.0f}%);"
              f" {1000 * seconds[depth] / max(len(positions), 1):.2f} ms of CPU per position")
    thorough = Evaluations(deep)
    targets, plies_found, count = 0, dict.fromkeys(depths, 0), 0
    for _, plies in games:
        count += len(plies)
        shots = [i for i, slow in enumerate(judge(plies, thorough)) if slow.kind == SHOT]
        targets += len(shots)
        for depth in depths:
            quick = judge(plies, Evaluations(depth))
            plies_found[depth] += sum(quick[i].kind == SHOT for i in shots)
    print(f"TTS plies: {len(games)} games replayed, {count} plies; {targets} shots by the depth-{deep} search")
    for depth in depths:
        print(f"  depth {depth}: found {plies_found[depth]} ({100 * plies_found[depth] / max(targets, 1):.0f}%)")


def oca(depth: int, games: int) -> None:
    """annotate --shots' work on the first `games` games of OCA, one process (each search under
    --shots' node budget, as the command's)."""
    evaluate = Evaluations(depth, SHOTS_NODES)
    options = Options(shots=True, depth=depth)
    checked = [check(game) for game in itertools.islice(read_games(str(OCA)), games)]
    wall, start = time.perf_counter(), time.process_time()
    for one in checked:
        annotate_game(one, options, evaluate)
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    lookups = evaluate.hits + evaluate.misses
    print(f"OCA: {len(checked)} games at depth {depth} in {seconds:.2f} s of CPU ({wall:.2f} s wall): "
          f"{len(checked) / seconds:.1f} games/s per core (engine: {core.engine_from_environment().name}; "
          "reading and replaying not counted)")
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
