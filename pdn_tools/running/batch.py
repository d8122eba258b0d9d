"""Running one piece of work over every game of many inputs, in order, on several cores.

The main process reads and splits the input into games; parsing and the work on
each game run in worker processes when `jobs` > 1.  Results come back in input
order, and at most a few batches are in flight, so memory stays bounded.
"""
from __future__ import annotations

import ctypes
import fnmatch
import gc
import multiprocessing
import os
import signal
import stat
import sys
import threading
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Iterable, Iterator, TypeVar

from pdn_tools.running.output import ENDING_SIGNALS
from pdn_tools.text import ranges
from pdn_tools.text.names import printable
from pdn_tools.text.decoding import NotPdn as NotPdn     # distributed.py catches batch.NotPdn
from pdn_tools.text.decoding import CUT, compression, cut_of, input_bytes, watched
from pdn_tools.text.grammar import parser
from pdn_tools.text.model import Diagnostic, Game, ReadError
from pdn_tools.text.reader import MAX_GAME_BYTES, RawGame, parse_raw, read_raw

if TYPE_CHECKING:        # reading inputs does not load the rules: check is imported by the work
    from pdn_tools.play.check import Checked, Record
    from pdn_tools.rules.variants import RuleSet, Variant

T = TypeVar("T")
Item = TypeVar("Item")
Work = Callable[[Game | ReadError], T]
Fold = Callable[[list[T]], Item]    # what a worker sends back for the results of a part of a file
# A part's folded results, why reading stopped (if it did), its codec.
PartResults = tuple[Any, str | None, str | None]
_BATCH = 200                         # games sent to a worker at a time
_PR_SET_PDEATHSIG = 1                # prctl option: the signal a process gets when its parent ends
_WATCH_SECONDS = 0.5                 # how often a worker without that signal looks for its parent
EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def exit_code(unreadable: int, failed: int) -> int:
    """The exit code of every command: 2 when an input could not be read, else 1 when some
    game failed (was invalid, or did not convert), else 0."""
    return EXIT_USAGE if unreadable else EXIT_INVALID if failed else EXIT_OK


DEFAULT_GLOBS = ("*.pdn", "*.pdn.gz", "*.pdn.bz2", "*.pdn.xz")


def _note(text: str) -> None:
    print(printable(text), file=sys.stderr)


def decompressed(raw: BinaryIO) -> BinaryIO:
    """`raw` itself, or a stream of its decompressed bytes when it is gzip, bzip2 or xz data;
    NotPdn when what it holds is binary data rather than text (decoding.input_bytes, as the
    library reads)."""
    return input_bytes(raw)


def compressed(path: str) -> bool:
    """Whether the file `path` holds gzip, bzip2 or xz data."""
    with open(path, "rb") as raw:
        return compression(raw.read(8)) is not None


@dataclass
class Inputs:
    """The files named on the command line, folders expanded (files matching `globs`,
    compressed ones included); unreadable ones are noted.  Knows how far reading has got."""

    paths: tuple[str, ...]
    globs: tuple[str, ...] = DEFAULT_GLOBS
    note: Callable[[str], None] = _note
    unreadable: int = 0
    cut: int = 0                                   # of those, inputs that ended before their end
    current: str = ""                              # the file being read
    _done: int = 0                                 # bytes of the files read to their end
    _reading: BinaryIO | None = None               # the file being read, as bytes on disk
    _total: int | None = None
    encoding: str | None = None                    # the codec to read them in, else detected
    max_game_bytes: int = MAX_GAME_BYTES           # a longer game is reported as too large
    codecs: dict[str, str] = field(default_factory=dict)    # files read in another codec than UTF-8
    failed: set[str] = field(default_factory=set)           # files the workers could not read to their end

    def files(self, streams: bool = False) -> Iterator[str]:
        """The files to read, folders expanded.  A file named that is not a regular one (a FIFO
        such as `<(zcat x.pdn.gz)`, /dev/stdin, a device) is read through once as a stream when
        `streams`, else reported (rewriting in place or reading by byte ranges needs a regular
        file); one found in a folder is always reported."""
        for path in self.paths or ("-",):
            if path == "-":
                yield path
            elif os.path.isdir(path):
                yield from self._folder(path)
            elif os.path.isfile(path) and os.access(path, os.R_OK):
                yield path
            elif streams and os.path.exists(path) and not os.path.isfile(path):
                yield path                          # opening it says whether it can be read
            else:
                self.cannot_read(path, "no such file" if not os.path.lexists(path) else
                                 "not readable" if os.path.isfile(path) else "not a regular file")

    def named_files(self) -> Iterator[str]:
        """The files to read ('-': stdin), folders expanded, with no note for those that cannot be read."""
        for path in self.paths or ("-",):
            yield from self._matching(path)[0] if os.path.isdir(path) else [path]

    def cannot_read(self, path: str, reason: str) -> None:
        """Report an input that cannot be read (the batch goes on) and count it."""
        self.unreadable += 1
        self.cut += reason.startswith(CUT)
        self.note(f"pdn: cannot read {printable(path)}: {reason}")

    def _folder(self, path: str) -> list[str]:
        chosen, skipped, problems = self._matching(path)
        for name, reason in problems:
            self.cannot_read(name, reason)
        if not chosen and not problems:
            self.unreadable += 1
            names = ", ".join(os.path.relpath(name, path) for name in skipped[:5])
            more = f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
            found = f"skipped {names}{more}" if skipped else "it holds no files"
            self.note(f"pdn: nothing to read in {printable(path)}: no file matches {' '.join(self.globs)}; "
                      f"{found} (choose with --glob PATTERN)")
        return chosen

    def _matching(self, folder: str) -> tuple[list[str], list[str], list[tuple[str, str]]]:
        """(files below `folder` that match a glob, files that do not, and the matching entries
        and subfolders that cannot be read with the reason), sorted."""
        chosen: list[str] = []
        skipped: list[str] = []
        problems: list[tuple[str, str]] = []
        for found, kind, reason in folder_entries(folder):
            name = found.name.lower()
            wanted = any(fnmatch.fnmatchcase(name, pattern.lower()) for pattern in self.globs)
            if kind == "file":
                (chosen if wanted else skipped).append(str(found))
            elif kind == "folder" or (kind == "other" and wanted):
                problems.append((str(found), reason))
        return chosen, skipped, problems

    def raw_games(self) -> Iterator[tuple[RawGame, int, list[Diagnostic]]]:
        for path in self.files(streams=True):
            yield from self.raw_games_of(path)

    def raw_games_of(self, path: str) -> Iterator[tuple[RawGame, int, list[Diagnostic]]]:
        """The games of one input ('-': stdin), split but not parsed; a file that cannot be
        read (or not to its end) is noted."""
        self.current = "<stdin>" if path == "-" else path
        try:
            if path == "-":
                yield from self._games(decompressed(sys.stdin.buffer), path)
                return
            with watched(path) as raw:
                self._reading = raw if raw.seekable() else None     # a stream has no position
                yield from self._games(decompressed(raw), path)
                self._done += os.fstat(raw.fileno()).st_size
        except NotPdn as error:
            self.cannot_read(path, str(error))
        except OSError as error:
            self.cannot_read(path, _reason(error))
        finally:
            self._reading = None

    def read_by_workers(self, path: str, size: int) -> None:
        """Note that the workers read `size` bytes of `path` (for the progress line)."""
        self.current = path
        self._done += size

    def _games(self, stream: BinaryIO, path: str) -> Iterator[tuple[RawGame, int, list[Diagnostic]]]:
        games = read_raw(stream, name="<stdin>" if path == "-" else path, encoding=self.encoding,
                         max_game_bytes=self.max_game_bytes)
        for index, (raw, notes) in enumerate(games, 1):
            yield raw, index, notes
        if games.codec != "utf-8":
            self.codecs[path] = games.codec
        if games.cut is not None:
            self.cannot_read(path, games.cut.message)

    def contents(self, streams: bool = False) -> Iterator[tuple[str, bytes]]:
        """(path, its whole content, decompressed) for each input, for commands that rewrite files
        (named streams read too when `streams`: see `files`)."""
        for path in self.files(streams):
            try:
                if path == "-":
                    yield path, decompressed(sys.stdin.buffer).read()
                    continue
                with watched(path) as raw:
                    stream = decompressed(raw)
                    data = stream.read()
                reason = cut_of(stream)
                if reason is not None:
                    self.cannot_read(path, reason)
                    continue
                yield path, data
            except NotPdn as error:
                self.cannot_read(path, str(error))
            except OSError as error:
                self.cannot_read(path, str(getattr(error, "strerror", None) or error))

    def bytes_read(self) -> int:
        """Bytes read so far of the named files (on disk: compressed bytes for compressed files)."""
        return self._done + (self._reading.tell() if self._reading is not None else 0)

    def total_bytes(self) -> int | None:
        """The size of every file to read (None when that is only stdin)."""
        if self._total is None:
            sizes = []
            for path in self.paths:
                if os.path.isdir(path):
                    sizes += [os.path.getsize(name) for name in self._matching(path)[0]]
                elif path != "-" and os.path.isfile(path):
                    sizes.append(os.path.getsize(path))
            self._total = sum(sizes)
        return self._total or None


def _reason(error: BaseException) -> str:
    """Why a file could not be read (or not to its end), as `pdn: cannot read` says it."""
    return str(getattr(error, "strerror", None) or error or "truncated compressed data")


def folder_entries(folder: str) -> list[tuple[Path, str, str]]:
    """Every entry below `folder` but its subfolders, sorted, as (path, kind, reason): kind
    'file' (a regular file or a link to one), 'link' (a link to a folder: not followed),
    'other' (a FIFO, a device, a broken link: the reason says which), or 'folder' for a
    subfolder that cannot be listed (the reason says why).  The walk keeps its own stack:
    no depth is too deep."""
    found: list[tuple[Path, str, str]] = []
    stack = [Path(folder)]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(current / entry.name)
                    else:
                        found.append((current / entry.name, *_kind(entry)))
        except OSError as error:
            found.append((current, "folder", error.strerror or str(error)))
    return sorted(found)


def _kind(entry: os.DirEntry[str]) -> tuple[str, str]:
    try:
        mode = entry.stat().st_mode
    except FileNotFoundError:
        return "other", "no such file (a broken link)"
    except OSError as error:
        return "other", error.strerror or str(error)
    if stat.S_ISREG(mode):
        return "file", ""
    return ("link", "") if stat.S_ISDIR(mode) else ("other", "not a regular file")


def run_batch(work: Work[T], strict: bool, batch: list[tuple[RawGame, int, list[Diagnostic]]],
              fold: Fold[T, Any] = list) -> list[PartResults]:
    """A batch of one file's games split in the main process, worked on and folded."""
    return [(fold([work(parse_raw(raw, index, strict, notes)) for raw, index, notes in batch]), None, None)]


def batches(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    batch: list[Item] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def run(inputs: Inputs, work: Work[T], jobs: int = 1, strict: bool = False,
        fold: Fold[T, Any] | None = None) -> Iterator[Any]:
    """`work(game)` for every game of `inputs`, in input order; with `fold`, `fold(results)` of
    each part of one file that a worker took (a range, a whole file, a batch of games), folded
    there so that this process has nothing to do per game (one game a part when `jobs` is 1).

    With `jobs` > 1 the workers read the files themselves: small files go several to a task, and
    a large plain UTF-8 file is cut into byte ranges at game boundaries (text/ranges.py), each a
    task whose games are numbered after those of the ranges before it (workers pass the counts on
    through shared memory).  Only stdin, and large files that are compressed, in another
    encoding or without sync points, are split here and sent to the workers in batches of games."""
    parser()            # built once here, so that workers started by fork inherit it
    gc.freeze()         # the modules and the parser live to the end: the collector need not look at them again
    if jobs <= 1:
        for raw, index, notes in inputs.raw_games():
            result = work(parse_raw(raw, index, strict, notes))
            yield result if fold is None else fold([result])
        return
    counts = _Counts.shared()
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(os.getpid(), counts))
    pending: deque[tuple[Future[list[PartResults]], _Task]] = deque()
    try:
        for task in _tasks(inputs, jobs, strict, work, fold or list):
            pending.append((pool.submit(*task.call), task))
            if len(pending) > 2 * jobs:
                yield from _results(*pending.popleft(), inputs, fold is None)
        while pending:
            yield from _results(*pending.popleft(), inputs, fold is None)
    except BaseException:           # a closed pipe, Ctrl-C, or the caller stopped early:
        pool.shutdown(wait=False, cancel_futures=True)      # workers end after their task
        raise
    pool.shutdown()


_LEAST_RANGE = 1 << 16          # the least task: the last ones take a worker some 10 ms
_MOST_RANGE = 1 << 20           # the largest: a worker holds a task's games at once (some 15 MB for 1 MB)
_WHOLE_FILE = 2 * _MOST_RANGE   # a file that cannot be cut is read whole by a worker up to this size


@dataclass(frozen=True)
class _Task:
    """One piece of work for the pool: `call` (function and arguments), and the files (path, bytes)
    whose parts it reads, in the order of its outcomes (none: games split here)."""

    call: tuple[Any, ...]
    files: tuple[tuple[str, int], ...] = ()


def _tasks(inputs: Inputs, jobs: int, strict: bool, work: Work[T], fold: Fold[T, Any]) -> Iterator[_Task]:
    """The tasks for every input, in input order.  Each takes about a (2 * jobs)-th of the bytes
    not handed out yet, from _LEAST_RANGE to _MOST_RANGE (see shrinking_cuts): small files go
    several to a task, large plain UTF-8 files are cut into byte ranges."""
    paths = [(path, _size(path)) for path in inputs.files(streams=True)]    # size None: not a regular file
    left = sum(size or 0 for _, size in paths)          # bytes not handed out yet
    sequence = 0                      # ranges numbered across files, for the shared counts
    group: list[tuple[str, int]] = []
    group_bytes = group_share = 0     # the bytes of the group's files, and the bytes it is to take

    def files_task() -> _Task:
        return _Task((_read_files, [path for path, _ in group], inputs.encoding, work, strict, fold,
                      inputs.max_game_bytes), tuple(group))

    for path, known in paths:
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
            for games in batches(inputs.raw_games_of(path), _BATCH):
                yield _Task((run_batch, work, strict, games, fold))
        for number, (start, end, first_line, end_line) in enumerate(spans or []):
            yield _Task((_range_work, path, start, end, (first_line, end_line), sequence, number == 0, work,
                         strict, fold, _stamp(path), inputs.max_game_bytes), ((path, end - start),))
            sequence += 1
    if group:
        yield files_task()


def _stamp(path: str) -> tuple[int, int]:
    """(size, time of change) of the file `path` as its ranges are handed out ((-1, -1) when gone)."""
    try:
        info = os.stat(path)
    except OSError:
        return -1, -1
    return info.st_size, info.st_mtime_ns


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
    if len(cuts) <= 1 or not _plain_text(path):
        return []
    plain = encoding in (None, "utf-8") and not compressed(path)
    spans = _plain_ranges(path, cuts) if plain else None
    return [] if spans is None and size <= _WHOLE_FILE else spans


def _plain_ranges(path: str, cuts: list[tuple[int, int]]) -> list[tuple[int, int, int, int]] | None:
    """The ranges of a file read as UTF-8 with their lines at start and end; None when a range is not
    plain UTF-8 or no game is anchored in it."""
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


def _plain_text(path: str) -> bool:
    """Whether `path` is read as it is on disk, as text: not binary data (a worker says so)."""
    try:
        with open(path, "rb") as raw:
            decompressed(raw)
    except (NotPdn, OSError):
        return False
    return True


def _results(future: Future[list[PartResults]], task: _Task, inputs: Inputs, each: bool) -> Iterator[Any]:
    """A task's results (each game's when `each`, else each part's folded results); a file a worker could
    not read (or not to its end) is noted."""
    for number, (folded, problem, codec) in enumerate(future.result()):
        if task.files:
            path, size = task.files[number]
            inputs.read_by_workers(path, size)
            if problem is not None and path not in inputs.failed:       # once for a file of many ranges
                inputs.failed.add(path)
                inputs.cannot_read(path, problem)
            if codec not in (None, "utf-8"):
                inputs.codecs[path] = codec
        yield from folded if each else [folded]


def _read_files(paths: list[str], encoding: str | None, work: Work[T], strict: bool,
                fold: Fold[T, Any], max_game_bytes: int = MAX_GAME_BYTES) -> list[PartResults]:
    """Whole files read in a worker as `pdn` reads a file, and worked on: for each, its folded results,
    why reading stopped early if it did, and the codec it was read in."""
    outcomes: list[PartResults] = []
    for path in paths:
        results: list[T] = []
        codec = problem = None
        try:
            with watched(path) as raw:
                games = read_raw(decompressed(raw), name=path, encoding=encoding, max_game_bytes=max_game_bytes)
                for index, (game, notes) in enumerate(games, 1):
                    results.append(work(parse_raw(game, index, strict, notes)))
                codec = games.codec
                problem = games.cut.message if games.cut is not None else None
        except NotPdn as error:
            problem = str(error)
        except OSError as error:
            problem = _reason(error)
        outcomes.append((fold(results), problem, codec))
    return outcomes


def _range_work(path: str, start: int, end: int, lines: tuple[int, int], sequence: int, first: bool,
                work: Work[T], strict: bool, fold: Fold[T, Any], stamp: tuple[int, int],
                max_game_bytes: int = MAX_GAME_BYTES) -> list[PartResults]:
    """The games of a plain UTF-8 file anchored in [start, end), numbered after those of the
    ranges before it, worked on and folded; a file whose size or time of change differ from
    `stamp` (those when its ranges were handed out) once the range is read changed while read."""
    counts = _Counts.worker
    assert counts is not None
    games: ranges.Games = []
    try:
        games = ranges.read_range(path, start, end, *lines, path, max_game_bytes=max_game_bytes)
    except OSError as error:
        problem: str | None = _reason(error)
    else:
        now = _stamp(path)
        problem = None if now == stamp else (f"{CUT}: the file changed while it was read ({stamp[0]} bytes when "
                                             f"opened, {now[0]} now)")
    finally:            # the next range waits for this count, even when reading failed
        before = 0 if first else counts.wait(sequence - 1)
        counts.put(sequence, before + len(games))
    results = [work(parse_raw(raw, before + index, strict, notes)) for index, (raw, notes) in enumerate(games, 1)]
    return [(fold(results), problem, None)]


class _Counts:
    """Games read up to the end of each range (ranges numbered across files), in memory shared
    by the workers: a range's games are numbered once the range before it has counted its own.
    A ring: the ranges in flight are far fewer than its slots."""

    SLOTS = 4096
    worker: _Counts | None = None      # this worker's view (set when the worker starts)

    def __init__(self, numbers: Any, totals: Any) -> None:
        self.numbers, self.totals = numbers, totals

    @classmethod
    def shared(cls) -> _Counts:
        numbers = multiprocessing.Array(ctypes.c_longlong, [-1] * cls.SLOTS, lock=False)
        return cls(numbers, multiprocessing.Array(ctypes.c_longlong, cls.SLOTS, lock=False))

    def put(self, sequence: int, total: int) -> None:
        slot = sequence % self.SLOTS
        self.totals[slot] = total
        self.numbers[slot] = sequence          # written last: the total is there when it shows

    def wait(self, sequence: int) -> int:
        """The total of range `sequence`, once its worker has put it (it runs: it was handed out
        before the range waiting for it)."""
        slot = sequence % self.SLOTS
        while self.numbers[slot] != sequence:
            time.sleep(_COUNT_POLL)
        return int(self.totals[slot])


_COUNT_POLL = 0.0005


def checked_work(game: Game | ReadError, work: Callable[[Checked], T], variant: Variant | None,
                 strict: bool, rules: RuleSet | None = None) -> tuple[Record, T]:
    """Check one game and run `work` on it; only the record and the work's result travel back."""
    from pdn_tools.play.check import check

    checked = check(game, variant, strict, rules)
    return checked.record, work(checked)


def no_work(checked: Checked) -> None:
    """The work of a command that needs only the record (validate)."""


def _leave_interrupts() -> None:
    """Workers ignore Ctrl-C, which the main process handles (no traceback from each worker)."""


def _start_worker(parent: int, counts: _Counts | None = None) -> None:
    """Workers ignore Ctrl-C, which the main process handles (no traceback from each worker),
    end by SIGTERM and SIGHUP as usual, and end when the main process does; `counts`: the
    shared game counts of ranges."""
    _Counts.worker = counts
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in ENDING_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    end_with_parent(parent)


def end_with_parent(parent: int, kernel: bool = True) -> None:
    """End this process (a worker) when `parent` ends, even by SIGKILL: by the kernel's
    parent-death signal on Linux (`kernel`), else by a thread that watches for a new parent."""
    if not (kernel and _parent_death_signal()):
        threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()
    if os.getppid() != parent:              # the parent ended before either was in place
        os._exit(1)


def _parent_death_signal() -> bool:
    """Ask Linux for SIGKILL when the parent ends (prctl PR_SET_PDEATHSIG); whether it agreed."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)
