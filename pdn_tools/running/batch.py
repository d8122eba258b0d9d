"""Running one piece of work over every game of many inputs, in order, on several cores.

The main process reads and splits the input into games; parsing and the work on
each game run in worker processes when `jobs` > 1.  Results come back in input
order, and at most a few batches are in flight, so memory stays bounded.
"""
from __future__ import annotations

import os
import signal
import sys
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, TypeVar

from pdn_tools.text.grammar import parser
from pdn_tools.text.model import Game, ReadError
from pdn_tools.text.reader import RawGame, parse_raw, read_raw

T = TypeVar("T")
Work = Callable[[Game | ReadError], T]
_BATCH = 200                         # games sent to a worker at a time


@dataclass
class Inputs:
    """The files named on the command line, folders expanded; unreadable ones are noted."""

    paths: tuple[str, ...]
    unreadable: int = 0

    def files(self) -> Iterator[str]:
        for path in self.paths or ("-",):
            if path == "-":
                yield path
            elif os.path.isdir(path):
                yield from sorted(str(p) for p in Path(path).rglob("*")
                                  if p.is_file() and p.suffix.lower() == ".pdn")
            elif os.path.isfile(path) and os.access(path, os.R_OK):
                yield path
            else:
                self.unreadable += 1
                reason = "no such file" if not os.path.exists(path) else "not readable"
                print(f"pdn: cannot read {path}: {reason}", file=sys.stderr)

    def raw_games(self) -> Iterator[tuple[RawGame, int, list]]:
        for path in self.files():
            try:
                for index, (raw, notes) in enumerate(read_raw(path), 1):
                    yield raw, index, notes
            except OSError as error:
                self.unreadable += 1
                print(f"pdn: cannot read {path}: {error.strerror or error}", file=sys.stderr)


def run_batch(work: Work, strict: bool, batch: list[tuple[RawGame, int, list]]) -> list:
    return [work(parse_raw(raw, index, strict, notes)) for raw, index, notes in batch]


def batches(items: Iterable, size: int) -> Iterator[list]:
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def run(inputs: Inputs, work: Work, jobs: int = 1, strict: bool = False) -> Iterator[T]:
    """`work(game)` for every game of `inputs`, in input order."""
    games = inputs.raw_games()
    if jobs <= 1:
        for raw, index, notes in games:
            yield work(parse_raw(raw, index, strict, notes))
        return
    parser()            # built once here, so that workers started by fork inherit it
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_leave_interrupts)
    pending: deque = deque()
    try:
        for batch in batches(games, _BATCH):
            pending.append(pool.submit(run_batch, work, strict, batch))
            if len(pending) > 2 * jobs:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    except BaseException:           # a closed pipe, Ctrl-C, or the caller stopped early:
        pool.shutdown(wait=False, cancel_futures=True)      # workers end after their batch
        raise
    pool.shutdown()


def _leave_interrupts() -> None:
    """Workers ignore Ctrl-C, which the main process handles (no traceback from each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Progress:
    """A one-line game counter on stderr, shown only when stderr is a terminal."""

    def __init__(self, enabled: bool | None = None) -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.games = self.invalid = 0
        self.shown = 0.0

    def update(self, ok: bool) -> None:
        self.games += 1
        self.invalid += not ok
        now = time.monotonic()
        if self.enabled and now - self.shown > 0.2:
            self.shown = now
            sys.stderr.write(f"\r{self.games} games, {self.invalid} invalid")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write(f"\r{self.games} games, {self.invalid} invalid\n")
