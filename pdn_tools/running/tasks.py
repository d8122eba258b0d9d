"""One piece of work on a worker, the same for the process pool (running/pool.py) and for Dask
(running/distributed.py): a `Task` (whole files, or one byte range of a plain UTF-8 file) that
`do_task` reads, numbers, parses, works on game by game and folds."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, TypeVar

from pdn_tools.play.checking import Checking
from pdn_tools.text import ranges
from pdn_tools.text.model import Diagnostic, Game, ReadError
from pdn_tools.text.reader import MAX_GAME_BYTES, RawGame, parse_raw, read_raw
from pdn_tools.text.source import NotPdn, changed_while_read, input_bytes, reason, watched

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

T = TypeVar("T")
Item = TypeVar("Item")
Work = Callable[[Game | ReadError], T]
Fold = Callable[[list[T]], Item]    # what a worker sends back for the results of a part of a file
PartResults = tuple[Any, str | None, str | None]    # a part's folded results, why reading stopped (if it did), its codec
Read = tuple[ranges.Games, str | None]          # games read, and why reading stopped early (if it did)


@dataclass(frozen=True)
class Options:
    """How every task reads and parses: the run's `checking` (--strict, and the engine the reader
    reads for: chosen where the program starts), --encoding (None: detected), --max-game-bytes."""

    checking: Checking
    encoding: str | None = None
    max_game_bytes: int = MAX_GAME_BYTES


class Place(NamedTuple):
    """A file as a worker opens it (a local path or a URL) and as reports name it."""

    path: str
    shown: str


@dataclass(frozen=True)
class Range:
    """One byte range [start, end) of a plain UTF-8 file: the games anchored in it (text/ranges.py)."""

    place: Place
    start: int
    end: int
    lines: tuple[int, int] = (1, 1)     # the lines at start and at end
    sequence: int = 0                   # its place among the ranges of a pool's run: the shared counts' slot
    first: bool = True                  # the file's first range: its games are numbered from 1
    stamp: tuple[int, int] | None = None    # the file's (size, time of change) when the ranges were planned


@dataclass(frozen=True)
class Task:
    """Whole files, each read as `pdn` reads a file, or one byte range of a file."""

    files: tuple[Place, ...] = ()
    part: Range | None = None


def do_task(task: Task, work: Work[T], fold: Fold[T, Any], options: Options, read: Read | None = None,
            before: int = 0, keep: bool = False) -> list[PartResults]:
    """`work` on each game of `task`, folded: one outcome a file, or one for the range.  A range is read
    here and numbered after the games of the ranges before it (passed on by the pool's workers through
    shared memory), unless its games were `read` already (the main process split a stream, or a Dask task
    read the range), numbered after `before`; with `keep` those are left whole (parse_raw's `keep`): Dask
    holds them, and hands them to this task again when the worker that held its result is lost."""
    if read is None and task.part is not None:
        read, before = _read_counted(task.part, options)
    if read is not None:
        games, problem = read
        results = [work(parse_raw(raw, before + index, options.checking.strict, notes, options.checking.engine,
                                  keep=keep)) for index, (raw, notes) in enumerate(games, 1)]
        return [(fold(results), problem, None)]
    outcomes: list[PartResults] = []
    for place in task.files:
        found: list[T] = []
        problem, codec = _read_file(place, options, lambda raw, index, notes: found.append(
            work(parse_raw(raw, index, options.checking.strict, notes, options.checking.engine))))
        outcomes.append((fold(found), problem, codec))
    return outcomes


def read_whole(place: Place, options: Options) -> Read:
    """A file's games read from its start as `pdn` reads a file, split but not parsed; those read before
    a problem are kept."""
    games: ranges.Games = []
    problem, _ = _read_file(place, options, lambda raw, index, notes: games.append((raw, notes)))
    return games, problem


def _read_file(place: Place, options: Options, take: Callable[[RawGame, int, list[Diagnostic]], None]
               ) -> tuple[str | None, str | None]:
    """Each game of a file (decompressed when it is compressed) given to `take` as it is read; why reading
    stopped early (if it did) and the codec it was read in."""
    try:
        with ranges.open_binary(place.path) if "://" in place.path else watched(place.path) as raw:
            games = read_raw(input_bytes(raw), name=place.shown, encoding=options.encoding,
                             max_game_bytes=options.max_game_bytes, engine=options.checking.engine)
            for index, (game, notes) in enumerate(games, 1):
                take(game, index, notes)
        return (games.cut.message if games.cut is not None else None), games.codec
    except NotPdn as error:
        return str(error), None
    except OSError as error:
        return reason(error), None


def read_part(part: Range, options: Options) -> Read:
    """The games anchored in a range; a file whose size or time of change differ from `part.stamp` once
    the range is read changed while read."""
    try:
        games = ranges.read_range(part.place.path, part.start, part.end, *part.lines, part.place.shown,
                                  options.encoding, options.max_game_bytes, options.checking.engine)
    except OSError as error:
        return [], reason(error)
    now = stamp(part.place.path) if part.stamp is not None else None
    if part.stamp is None or now == part.stamp:
        return games, None
    assert now is not None
    return games, changed_while_read(part.stamp[0], now[0], min(part.end, max(now[0], part.start)))


def stamp(path: str) -> tuple[int, int]:
    """(size, time of change) of the file `path` ((-1, -1) when gone)."""
    try:
        info = os.stat(path)
    except OSError:
        return -1, -1
    return info.st_size, info.st_mtime_ns


def _read_counted(part: Range, options: Options) -> tuple[Read, int]:
    """A range read in a pool's worker, and the games before it: its count is put in the shared counts
    once the range before it has put its own."""
    counts = Counts.worker
    assert counts is not None
    read: Read = ([], None)
    try:
        read = read_part(part, options)
    finally:            # the next range waits for this count, even when reading failed
        before = 0 if part.first else counts.wait(part.sequence - 1)
        counts.put(part.sequence, before + len(read[0]))
    return read, before


class Counts:
    """Games read up to the end of each range (ranges numbered across files), in memory shared
    by the workers: a range's games are numbered once the range before it has counted its own.
    A ring: the ranges in flight are far fewer than its slots."""

    SLOTS = 4096
    POLL = 0.0005                      # seconds between looks at a count not put yet
    worker: Counts | None = None       # this worker's view (set when the worker starts)

    def __init__(self, numbers: Any, totals: Any) -> None:
        self.numbers, self.totals = numbers, totals

    @classmethod
    def shared(cls, context: BaseContext) -> Counts:
        """Counts in shared memory of `context` (the pool's), handed to its workers as they start."""
        import ctypes

        numbers = context.RawArray(ctypes.c_longlong, [-1] * cls.SLOTS)
        return cls(numbers, context.RawArray(ctypes.c_longlong, cls.SLOTS))

    def put(self, sequence: int, total: int) -> None:
        slot = sequence % self.SLOTS
        self.totals[slot] = total
        self.numbers[slot] = sequence          # written last: the total is there when it shows

    def wait(self, sequence: int) -> int:
        """The total of range `sequence`, once its worker has put it (it runs: it was handed out
        before the range waiting for it)."""
        slot = sequence % self.SLOTS
        while self.numbers[slot] != sequence:
            time.sleep(self.POLL)
        return int(self.totals[slot])
