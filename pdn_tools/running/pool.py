"""Running one piece of work over every game of many inputs, in order, on several cores.

With `jobs` > 1 the workers (a process pool) read the files themselves, by tasks (running/tasks.py):
small files several to a task, a large plain UTF-8 file in byte ranges.  Results come back in input
order, and at most a few tasks are in flight, so memory stays bounded.
"""
from __future__ import annotations

import contextlib
import gc
import os
import signal
import stat
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, NamedTuple, TypeVar

from pdn_tools.rules.core import Engine
from pdn_tools.running.inputs import Inputs, Unread
from pdn_tools.running.output import WorkerLost
from pdn_tools.text.grammar import parser
from pdn_tools.text.reader import parse_raw
from pdn_tools.text.source import NotPdn, stored_as

if TYPE_CHECKING:       # the tasks and the byte ranges are imported for more than one job only
    from concurrent.futures import Future, ProcessPoolExecutor

    from pdn_tools.play.checking import Checking
    from pdn_tools.running.tasks import Fold, PartResults, Read, Task, Work

T = TypeVar("T")
Item = TypeVar("Item")
Mapper = Callable[[Callable[[Item], T], Iterable[Item]], Iterable[T]]
MAX_JOBS = 1024                 # --jobs, --dask local:N: more would be refused by the system or take minutes to start
_BATCH = 200                    # games sent to a worker at a time
_LEAST_RANGE = 1 << 16          # the least task: the last ones take a worker some 10 ms
_MOST_RANGE = 1 << 20           # the largest: a worker holds a task's games at once (some 15 MB for 1 MB)
_WHOLE_FILE = 2 * _MOST_RANGE   # a file that cannot be cut is read whole by a worker up to this size


def run(inputs: Inputs, work: Work[T], jobs: int = 1, fold: Fold[T, Any] | None = None, *,
        checking: Checking, start_method: str | None = None) -> Iterator[Any]:
    """`work(game)` for every game of `inputs`, in input order; with `fold`, `fold(results)` of
    each part of one file that a worker took (a range, a whole file, a batch of games), folded
    there so that this process has nothing to do per game (one game a part when `jobs` is 1).

    With `jobs` > 1 the workers read the files themselves: small files go several to a task, and
    a large plain UTF-8 file is cut into byte ranges at game boundaries (text/ranges.py), each a
    task whose games are numbered after those of the ranges before it (workers pass the counts on
    through shared memory).  Only stdin, and large files that are compressed, in another
    encoding or without sync points, are split here and sent to the workers in batches of games.
    The workers start by `start_method` (see `_pool`)."""
    parser()            # built once here (workers started by fork inherit it; others load it once each)
    gc.freeze()         # the modules and the parser live to the end: the collector need not look at them again
    if jobs <= 1:
        for raw, index, notes in inputs.raw_games(checking.engine):
            result = work(parse_raw(raw, index, checking.strict, notes, checking.engine))
            yield result if fold is None else fold([result])
        return
    from pdn_tools.running.tasks import Options, do_task     # processes: only for more than one job

    options = Options(checking, inputs.encoding, inputs.max_game_bytes)
    pool = _pool(jobs, start_method, counts=True)
    pending: deque[tuple[Future[list[PartResults]] | None, _Planned]] = deque()
    try:
        for planned in _tasks(inputs, jobs, checking.engine):
            if planned.unread:            # inputs found unreadable here: said in their place, after the tasks before
                pending.append((None, planned))
                continue
            with _ctrl_c_held(), _lost_worker():
                pending.append((pool.submit(do_task, planned.task, work, fold or list, options, planned.read,
                                            planned.before), planned))
            if len(pending) > 2 * jobs:
                yield from _results(*pending.popleft(), inputs, fold is None)
        while pending:
            yield from _results(*pending.popleft(), inputs, fold is None)
    except BaseException as error:  # a closed pipe, Ctrl-C, or the caller stopped early:
        _stop(pool, error)          # workers end after their task
        raise
    pool.shutdown()


@contextlib.contextmanager
def ordered_map(jobs: int, start_method: str | None = None) -> Iterator[Mapper[Any, Any]]:
    """`map`, or with `jobs` > 1 a map on a pool of that many workers (started by `start_method`, see
    `_pool`) that keeps the order, at most 2 * jobs items in flight (memory stays bounded), for work `run`
    does not fit (a whole file's games at once); the workers end with the block, at once on an error or
    Ctrl-C."""
    if jobs <= 1:
        yield map
        return
    parser()            # built once here (workers started by fork inherit it; others load it once each)
    pool = _pool(jobs, start_method, counts=False)

    def mapped(work: Callable[[Item], T], items: Iterable[Item]) -> Iterator[T]:
        pending: deque[Future[T]] = deque()
        for item in items:
            with _ctrl_c_held(), _lost_worker():
                pending.append(pool.submit(work, item))
            if len(pending) > 2 * jobs:
                yield _result(pending.popleft())
        while pending:
            yield _result(pending.popleft())
    try:
        yield mapped
    except BaseException as error:
        _stop(pool, error)
        raise
    pool.shutdown()


def _stop(pool: ProcessPoolExecutor, error: BaseException) -> None:
    """Stop `pool` as the run ends by `error`, without waiting for its workers' tasks; but a pool broken
    by a worker's death (WorkerLost) is waited for: its manager thread, which has killed the other
    workers, is closing its wake-up pipe, which CPython writes to at interpreter exit without a lock
    (_python_exit; a lock came with gh-125451, October 2024, to 3.12 and 3.13, not 3.11): an
    'OSError: [Errno 9] Bad file descriptor' traceback on stderr when the two met (1 run in 100)."""
    pool.shutdown(wait=isinstance(error, WorkerLost), cancel_futures=True)


def _pool(jobs: int, start_method: str | None, counts: bool) -> ProcessPoolExecutor:
    """A pool of `jobs` workers started by `start_method` ("fork", "forkserver", "spawn"; None: the platform's
    default, fork on Linux up to Python 3.13, forkserver from 3.14), each told this process's id and (with
    `counts`) the shared game counts of ranges, which travel to workers not started by fork pickled as
    they start.  Workers that do not inherit this process load the modules and the parser once each."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from pdn_tools.running.signals import start_resource_tracker
    from pdn_tools.running.tasks import Counts
    from pdn_tools.running.workers import start_worker

    context = multiprocessing.get_context(start_method)
    if context.get_start_method() != "fork":        # their semaphores are the tracker's
        start_resource_tracker()
    initargs = (os.getpid(), Counts.shared(context)) if counts else (os.getpid(),)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=start_worker, initargs=initargs)


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C held back (blocked, not lost) while a submit may start workers: they start with it
    blocked and ignore it before they let it through (start_worker), so that one pressed while a worker
    starts (a spawned interpreter's imports) is no traceback there; this process gets it at the end of
    the block.  A blocked signal is inherited by fork and kept by exec; a fork server started in the
    block (at a pool's first submit) keeps it blocked (it ignores Ctrl-C anyway) for the workers it forks."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


class _Planned(NamedTuple):
    """A task for the pool, and the files (path, bytes) whose parts it reads, in the order of its
    outcomes; or games split here (`read`, numbered after `before`), of no file's bytes; or no task, but
    inputs found unreadable here, to be said after the results of the tasks before."""

    task: Task
    files: tuple[tuple[str, int], ...] = ()
    read: Read | None = None
    before: int = 0
    unread: tuple[Unread, ...] = ()


def _tasks(inputs: Inputs, jobs: int, engine: Engine) -> Iterator[_Planned]:
    """The tasks for every input, in input order.  Each takes about a (2 * jobs)-th of the bytes
    not handed out yet, from _LEAST_RANGE to _MOST_RANGE (see shrinking_cuts): small files go
    several to a task, large plain UTF-8 files are cut into byte ranges."""
    from pdn_tools.running.tasks import Place, Range, Task, stamp

    entries = list(inputs.entries(streams=True))
    sizes = [None if isinstance(entry, Unread) else _size(entry) for entry in entries]  # None: not a regular file
    left = sum(size or 0 for size in sizes)             # bytes not handed out yet
    sequence = 0                      # ranges numbered across files, for the shared counts
    group: list[tuple[str, int]] = []
    group_bytes = group_share = 0     # the bytes of the group's files, and the bytes it is to take

    def files_task() -> _Planned:
        return _Planned(Task(files=tuple(Place(path, path) for path, _ in group)), tuple(group))

    for path, known in zip(entries, sizes):
        if isinstance(path, Unread):  # said after the games before it
            if group:
                yield files_task()
                group, group_bytes = [], 0
            yield _Planned(Task(), unread=(path,))
            continue
        size = known or 0
        spans = None if known is None else _ranges_of(path, size, inputs.encoding, jobs, left - size)
        if spans == []:               # a whole file: with the next ones while the group is under its share
            group_share = group_share if group else _share(left, jobs)
            group.append((path, size))
            group_bytes += size
            left -= size
            if group_bytes >= group_share:
                yield files_task()
                group, group_bytes = [], 0
            continue
        if group:
            yield files_task()
            group, group_bytes = [], 0
        left -= size
        if spans is None:             # split here: stdin, or a large file read as one stream
            unread: list[Unread] = []   # said after its last games, not as they are split
            for games in batches(inputs.held(inputs.raw_games_of(path, engine), unread), _BATCH):
                yield _Planned(Task(), read=([(raw, notes) for raw, _, notes in games], None), before=games[0][1] - 1)
            if unread:
                yield _Planned(Task(), unread=tuple(unread))
        for number, (start, end, first_line, end_line) in enumerate(spans or []):
            part = Range(Place(path, path), start, end, (first_line, end_line), sequence, number == 0, stamp(path))
            yield _Planned(Task(part=part), ((path, end - start),))
            sequence += 1
    if group:
        yield files_task()


def batches(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    batch: list[Item] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _size(path: str) -> int | None:
    """The size of `path` when it is a regular file (0 when it is gone: a worker says so), else None
    (stdin, a stream)."""
    if path == "-":
        return None
    try:
        info = os.stat(path)
    except OSError:
        return 0
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _share(left: int, jobs: int) -> int:
    """The bytes a task takes when `left` bytes are not handed out yet."""
    return min(_MOST_RANGE, max(_LEAST_RANGE, left // (2 * jobs)))


def _ranges_of(path: str, size: int, encoding: str | None, jobs: int, after: int = 0
               ) -> list[tuple[int, int, int, int]] | None:
    """How the workers read `path` (`size` bytes), followed by `after` bytes of other files: [(start,
    end, line at start, line at end)] of its ranges; [] when a worker reads it whole, as `pdn` reads a
    file, whatever it holds (a file within its share, or under _WHOLE_FILE); None when it is split here:
    a larger file that is compressed or not plain UTF-8 (its reading depends on all of it), or one with
    a range where no game starts (sync points too far apart: a worker would hold more than a range)."""
    cuts = shrinking_cuts(size, jobs, after)
    if len(cuts) <= 1:
        return []
    try:
        with open(path, "rb") as raw:
            kind = stored_as(raw)
    except (NotPdn, OSError):       # a worker says why
        return []
    spans = _plain_ranges(path, cuts) if encoding in (None, "utf-8") and kind is None else None
    return [] if spans is None and size <= _WHOLE_FILE else spans


def _plain_ranges(path: str, cuts: list[tuple[int, int]]) -> list[tuple[int, int, int, int]] | None:
    """The ranges of a file read as UTF-8 with their lines at start and end; None when a range is not
    plain UTF-8 or no game is anchored in it."""
    from pdn_tools.text import ranges

    spans, line = [], 1
    for start, end in cuts:
        fact = ranges.facts(path, start, end)
        if not (fact.plain and fact.anchors):
            return None
        spans.append((start, end, line, line + fact.line_breaks))
        line += fact.line_breaks
    return spans


def shrinking_cuts(size: int, jobs: int, after: int = 0) -> list[tuple[int, int]]:
    """[start, end) ranges covering `size` bytes followed by `after` bytes of other files, each a
    (2 * jobs)-th of what is left, from _LEAST_RANGE to _MOST_RANGE: the first are large (few tasks),
    the last small, so that when one worker takes the last range the others are not left waiting long
    for it (ranges of equal size left them idle for half a range on average, 6% of the work with
    2 jobs in 8 ranges)."""
    cuts, start = [], 0
    while start < size:
        length = _share(size - start + after, jobs)
        end = size if size - start < length + _LEAST_RANGE else start + length
        cuts.append((start, end))
        start = end
    return cuts


def _results(future: Future[list[PartResults]] | None, planned: _Planned, inputs: Inputs, each: bool
             ) -> Iterator[Any]:
    """A task's results (each game's when `each`, else each part's folded results), or the inputs found
    unreadable when it was planned (no future); a file a worker could not read (or not to its end) is noted
    after the results of the games it read, as one job notes it."""
    for unread in planned.unread:
        inputs.report(unread)
    if future is None:
        return
    parts: list[PartResults] = _result(future)
    for number, (folded, problem, codec) in enumerate(parts):
        path, size = planned.files[number] if planned.files else ("", 0)
        if planned.files:
            inputs.read_by_workers(path, size)
        yield from folded if each else [folded]
        if planned.files:
            if planned.task.part is None or planned.task.part.first:    # a file given again is read again
                inputs.failed.discard(path)
            if problem is not None and path not in inputs.failed:       # once for a file of many ranges
                inputs.failed.add(path)
                inputs.cannot_read(path, problem)
            if codec not in (None, "utf-8"):
                inputs.codecs[path] = codec


def _result(future: Future[T]) -> T:
    """A task's result; a worker that ended in the middle of one (killed) is a `WorkerLost`."""
    with _lost_worker():
        return future.result()


@contextlib.contextmanager
def _lost_worker() -> Iterator[None]:
    """A pool a worker ended in (killed) is a `WorkerLost`: in a task's result, and in a submit made after
    the pool saw it (which raised BrokenProcessPool itself: a traceback, not pdn's message)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        yield
    except BrokenProcessPool:
        raise WorkerLost("a worker process ended in the middle of its work (killed, or out of memory): "
                         "the output is not complete") from None
