"""A scripted Hub engine for the tests: `pdn hub`'s answers (1 ply deep, whatever the level) with
one fault.

    python fake_hub.py MODE [PIDFILE]

MODE: ok, dead (ends at once), dies (ends at the third search), silent (never answers a
search), silent-start (never answers `hub`), garbage, unknown, illegal, ambiguous (a capture
as `from x to` only), shuffled (captured squares in reverse order), bad-pv, chatty (5,000
info lines first), stale (a second done after each), error, long-line, bad-score, init-error, normal-only (declares only international), no-score.
PIDFILE gets the process id, so that a test can see the process is gone (a folder: a file named by
the process id is made in it, one for each engine started).
"""
import os
import sys
import time

from pdn_tools.commands.hub_engine import Session

MODE = sys.argv[1]
if len(sys.argv) > 2:
    named = os.path.join(sys.argv[2], str(os.getpid())) if os.path.isdir(sys.argv[2]) else sys.argv[2]
    with open(named, "w") as pidfile:
        pidfile.write(f"{os.getpid()}\n")
if MODE == "dead":
    sys.stderr.write("fake: cannot find its data folder\n")
    sys.exit(3)


def reverse_captures(move: str) -> str:
    squares = move.split("x")
    return "x".join(squares[:2] + squares[:1:-1]) if len(squares) > 3 else move


def answer(session: Session, line: str, searches: int) -> list[str]:
    """The answers to `line` with the mode's fault."""
    command = line.split()[0] if line.split() else ""
    if command == "hub" and MODE == "silent-start":
        time.sleep(3600)
    if command == "level":                  # always 1 ply deep
        return []
    if command == "init" and MODE == "init-error":
        return ['error message="cannot load data/eval"']
    lines = session.answer(line)
    if command == "hub" and MODE == "normal-only":
        lines = [line if "name=variant" not in line else 'param name=variant value=normal type=enum values="normal"'
                 for line in lines]
    if command != "go":
        return lines
    info, done = lines
    move = done.split()[1].removeprefix("move=")
    if MODE == "dies" and searches == 3:
        sys.exit(4)
    if MODE == "silent":
        time.sleep(3600)
    faults = {
        "garbage": lambda: ['info score="0.10'], "unknown": lambda: [f"bestmove {move}"],
        "illegal": lambda: ["done move=1-2"], "error": lambda: ['error message="out of memory"'],
        "ambiguous": lambda: [f"done move={'x'.join(move.split('x')[:2])}"],
        "shuffled": lambda: [info.replace(move, reverse_captures(move)), f"done move={reverse_captures(move)}"],
        "bad-pv": lambda: [f'info score=0 pv="{move} 50-45"', done],
        "chatty": lambda: [f"info depth=1 nodes={n}" for n in range(5_000)] + [info, done],
        "long-line": lambda: ["info " + "x" * 200_000],
        "no-score": lambda: [done],
        "bad-score": lambda: ["info score=1e999", done],
        "stale": lambda: [info, done, "done move=1-2"],
    }
    return faults[MODE]() if MODE in faults else lines


def main() -> None:
    session = Session(1, "test")
    searches = 0
    for line in sys.stdin:
        searches += line.startswith("go")
        for out in answer(session, line.strip(), searches):
            sys.stdout.write(out + "\n")
        sys.stdout.flush()
        if session.quit:
            return


main()
