"""Running per-game work on a Dask cluster (`pip install 'pdn-tools[dask]'`); workers read the files.

    from distributed import Client
    from pdn_tools.running.distributed import validate

    with Client("tcp://scheduler:8786") as client:       # or Client() for a local cluster
        for record in validate(client, ["archive/"]):
            print(report.json_line(record))

The client sends only file names and byte ranges, in tasks of about `range_bytes` each (a task costs
milliseconds of the client's, the scheduler's and a worker's time: the work of one should be seconds).
The work is the process pool's (running/tasks.py: `do_task`).  Small files are gathered into one task,
which reads each whole.  A bigger file is cut into ranges; for each, on the workers: `facts` counts its line
ends and checks its UTF-8 (a byte pass), `read_part` reads the games anchored in it (text/ranges.py) and
keeps them on the worker, a tiny task counts them, and the work task — on the same worker (the three are
pinned to one), given the number of games before the range through a chain of tiny sums — parses and works
on each game with its true game number and lines.  Results
come back in input order, the same as `--jobs 1`; at most `in_flight` tasks are out at once, so memory stays
bounded on the client and the workers.  A task whose worker is lost is recomputed by Dask from the files.
Paths must be readable by the workers under the same name (shared storage); URLs (s3://...) are read
through fsspec with the filesystem's package installed.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import operator
import os
import re
import signal
import threading
from collections import deque
from concurrent.futures import CancelledError
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, TypeVar

from pdn_tools.play.check import Record, record_of
from pdn_tools.play.checking import Checking
from pdn_tools.rules.core import Engine, engine_from_environment
from pdn_tools.rules.variants import RuleSet, Variant
from pdn_tools.running.inputs import Inputs, Unread
from pdn_tools.running.pool import MAX_JOBS
from pdn_tools.running.signals import ending_signal, start_resource_tracker
from pdn_tools.running.tasks import (Fold, Options, PartResults, Place, Range, Read, Task, Work, do_task, read_part,
                                     read_whole, stamp)
from pdn_tools.text import ranges
from pdn_tools.text.names import printable
from pdn_tools.text.reader import MAX_GAME_BYTES
from pdn_tools.text.source import NotPdn, reason, stored_as

if TYPE_CHECKING:
    from distributed import Client, Future

T = TypeVar("T")
C = TypeVar("C")
RANGE_BYTES = 2 << 20          # about 4,000 games of 500 bytes: seconds of work, milliseconds of scheduling


# What a local cluster leaves out: it has no dashboard, nothing served over HTTP, and these cost ~3% of a core in each process
# whether tasks run or not (so the more when the machine is loaded and a run takes longer).  A cluster of
# its own reads the same keys from its Dask configuration (docs/dask.md).
LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,             # the dashboard's profiler: a stack every 10 ms
    "distributed.admin.system-monitor.interval": "5s",       # the dashboard's CPU, memory and network figures
    "distributed.worker.memory.monitor-interval": "1s",      # the nanny's look at the worker's memory (0.1 s)
    "distributed.scheduler.work-stealing": False,            # it moves pinned reads (loosely pinned: see _submit)
    "distributed.scheduler.http.routes": [],                 # the HTTP servers Dask starts serve nothing
    "distributed.worker.http.routes": [],
}


class DaskError(Exception):
    """The cluster cannot be used: dask is not installed, or the scheduler cannot be reached."""


@dataclass(frozen=True)
class _Span:
    """One byte range of one file, as the client plans it."""

    location: str              # what the workers open: an absolute path or a URL
    shown: str                 # the file name in reports, as given on the command line
    number: int                # the range's place in its file
    start: int
    end: int
    stamp: tuple[int, int] | None = None     # a local file's (size, time of change) when planned

    def task(self) -> Task:
        return Task(part=Range(Place(self.location, self.shown), self.start, self.end, stamp=self.stamp))


def _spans(inputs: Inputs, range_bytes: int) -> Iterator[list[_Span] | Unread]:
    """The ranges of each input file, file by file (sizes come from the client's view of the files), and the
    inputs that cannot be read in their place."""
    for shown in _files(inputs):
        if isinstance(shown, Unread):
            yield shown
            continue
        try:
            planned = None if "://" in shown else stamp(shown)    # the ranges' reads check it has not changed
            size = _size(shown)
        except OSError as error:
            yield Unread(shown, str(error.strerror or error))
            continue
        location = shown if "://" in shown else os.path.abspath(shown)
        cuts = ranges.cut(size, -(-size // range_bytes))
        yield [_Span(location, shown, number, start, end, planned) for number, (start, end) in enumerate(cuts)]


def _groups(files: Iterable[list[_Span] | Unread], range_bytes: int) -> Iterator[list[_Span] | Unread]:
    """The input in groups of about `range_bytes`, in order: the ranges of a file of several ranges, or small
    files (one range each) gathered until they make about a range, so that each task has seconds of work
    (a task costs milliseconds of the client's, the scheduler's and a worker's time); an input that cannot
    be read comes in its place, between groups."""
    small: list[_Span] = []
    size = 0
    for spans in files:
        if isinstance(spans, Unread) or len(spans) > 1:
            if small:
                yield small
                small, size = [], 0
            yield spans
            continue
        small.append(spans[0])
        size += spans[0].end
        if size >= range_bytes:
            yield small
            small, size = [], 0
    if small:
        yield small


def _files(inputs: Inputs) -> Iterator[str | Unread]:
    """Local files as `Inputs` expands them, unreadable ones in their place (not said yet); URLs through
    fsspec (a folder gives its *.pdn files)."""
    for path in inputs.paths:
        if "://" in path:
            yield from _url_files(path)
            continue
        yield from Inputs((path,), inputs.globs).entries()


def _url_files(url: str) -> Iterator[str]:
    import fsspec

    filesystem, _, (root,) = fsspec.get_fs_token_paths(url)
    if not filesystem.isdir(root):
        yield url
        return
    protocol = url.split("://", 1)[0]
    for name in sorted(filesystem.find(root)):
        if name.lower().endswith(".pdn"):
            yield name if "://" in name else f"{protocol}://{name}"


def _size(shown: str) -> int:
    if "://" in shown:
        import fsspec

        filesystem, _, (path,) = fsspec.get_fs_token_paths(shown)
        return int(filesystem.size(path))
    return os.path.getsize(shown)


# ---- what runs on the workers besides do_task: a file's ranges planned, read and counted ---------------

def _plan(options: Options, first: _Span, *facts: ranges.Facts) -> tuple[bool, list[int]]:
    """From a file's range facts: whether it must be read whole (compressed, not text, not plain UTF-8:
    its decoding depends on all of it; or named another encoding), and the line at each range's start and
    at the end of the last."""
    lines, line = [1], 1
    for fact in facts:
        line += fact.line_breaks
        lines.append(line)
    plain = all(fact.plain for fact in facts) and options.encoding in (None, "utf-8")
    return not plain or not _as_stored(first.location), lines


def _as_stored(location: str) -> bool:
    """Whether the file is read as it is on disk (not decompressed, not refused as binary data)."""
    with ranges.open_binary(location) as raw:
        try:
            return stored_as(raw) is None
        except NotPdn:
            return False


def _read(span: _Span, plan: tuple[bool, list[int]], options: Options) -> Read:
    """A range's games (all the file's for its first range when it is read whole, else none)."""
    whole, lines = plan
    if whole:
        return read_whole(Place(span.location, span.shown), options) if span.start == 0 else ([], None)
    part = Range(Place(span.location, span.shown), span.start, span.end, (lines[span.number], lines[span.number + 1]),
                 stamp=span.stamp)
    return read_part(part, options)         # a file that changed since it was planned is said cut, as --jobs says it


def _count(read: Read) -> int:
    return len(read[0])


# ---- the client ----------------------------------------------------------------------------------------

class Progress:
    """How far the results have come (a ByteSource for the progress line): the file of the last range
    collected, and the bytes of the ranges collected."""

    def __init__(self, inputs: Inputs) -> None:
        self.inputs = inputs
        self.current = ""
        self.done = 0

    def bytes_read(self) -> int:
        return self.done

    def total_bytes(self) -> int | None:
        return self.inputs.total_bytes()


def run(client: Client, inputs: Inputs, work: Work[T], range_bytes: int = RANGE_BYTES,
        in_flight: int | None = None, progress: Progress | None = None, *, checking: Checking) -> Iterator[T]:
    """`work(game)` for every game of `inputs`, in input order, computed on the workers of `client`;
    `progress` follows the ranges collected."""
    for results in run_folded(client, inputs, work, list, range_bytes, in_flight, progress, checking=checking):
        yield from results


def run_folded(client: Client, inputs: Inputs, work: Work[T], fold: Fold[T, C],
               range_bytes: int = RANGE_BYTES, in_flight: int | None = None,
               progress: Progress | None = None, *, checking: Checking) -> Iterator[C]:
    """`fold` of the `work(game)` results of each file's games in a range, in input order, both computed on
    the workers: the client receives one value a range instead of one a game (say, the range's output as
    one text and its counts), so it has nothing to do per game."""
    limit = in_flight or 2 * max(1, len(client.nthreads()))
    shown = progress or Progress(inputs)
    options = Options(checking, inputs.encoding, inputs.max_game_bytes)
    pending: deque[tuple[list[_Span] | Unread, Future[Any] | None]] = deque()
    failed: set[str] = set()
    places = _Places(client)
    try:
        for group in _groups(_spans(inputs, range_bytes), range_bytes):
            if isinstance(group, Unread):           # said after the results of the groups before it
                pending.append((group, None))
                continue
            for spans, future in _submit(client, group, work, fold, options, places):
                pending.append((spans, future))
                if len(pending) > limit:
                    yield from _collect(*pending.popleft(), fold, inputs, failed, shown)
        while pending:
            yield from _collect(*pending.popleft(), fold, inputs, failed, shown)
    finally:
        client.cancel([future for _, future in pending if future is not None])


def _submit(client: Client, group: list[_Span], work: Work[T], fold: Fold[T, C], options: Options,
            places: _Places) -> Iterator[tuple[list[_Span], Future[Any]]]:
    """The work futures of a group, submitted as the caller asks for them: one task for small files, and
    for the ranges of one file a chain (byte facts, plan, read, game counts) ending in a work task each.
    A range's byte pass, read and work are pinned to one worker: its games never travel (and its bytes are
    read twice on one machine); pinned loosely, so that a lost worker's tasks run elsewhere."""
    if group[-1].number == 0:                   # small files: each one range, numbered 0
        files = Task(files=tuple(Place(span.location, span.shown) for span in group))
        yield group, client.submit(do_task, files, work, fold, options, pure=False)
        return
    pins = places.pins(len(group))
    facts = [client.submit(ranges.facts, s.location, s.start, s.end, pure=False, **pin) for s, pin in zip(group, pins)]
    plan = client.submit(_plan, options, group[0], *facts, pure=False)
    before: Any = 0
    for span, pin in zip(group, pins):
        games = client.submit(_read, span, plan, options, pure=False, **pin)
        yield [span], client.submit(do_task, span.task(), work, fold, options, games, before, True, pure=False,
                                    **pin)
        if span is not group[-1]:
            before = client.submit(operator.add, before, client.submit(_count, games, pure=False), pure=False)


class _Places:
    """The workers of a cluster in turn, one a thread, for the ranges of big files (asked again for each
    file, so that workers that joined get ranges too)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.turn = 0

    def pins(self, count: int) -> list[dict[str, Any]]:
        """The submit options of `count` ranges: each its worker, or anywhere while there is none."""
        threads = self.client.nthreads()
        places = [address for address in sorted(threads) for _ in range(threads[address])]
        if not places:
            return [{}] * count
        self.turn += count
        return [{"workers": [places[(self.turn - count + i) % len(places)]], "allow_other_workers": True}
                for i in range(count)]


def _collect(spans: list[_Span] | Unread, future: Future[Any] | None, fold: Fold[Any, C], inputs: Inputs,
             failed: set[str], progress: Progress) -> Iterator[C]:
    """The folded results of a task's ranges; a file that cannot be read (or not to its end) is noted once each
    time it is given; an input found unreadable on the client (no future) is noted."""
    if isinstance(spans, Unread):           # found unreadable on the client: no task, said in its place
        inputs.report(spans)
        return
    assert future is not None               # every group of ranges was submitted
    try:
        outcomes: list[PartResults] = future.result()
    except OSError as error:
        outcomes = [(fold([]), reason(error), None)] * len(spans)
    for span, (folded, problem, _) in zip(spans, outcomes):
        progress.current, progress.done = span.shown, progress.done + span.end - span.start
        yield folded
        if span.number == 0:                    # a file's first range: a file given again is read again
            failed.discard(span.shown)
        if problem is not None and span.shown not in failed:
            failed.add(span.shown)
            inputs.cannot_read(span.shown, problem)         # counted, and as cut when it was


LOOPBACK = "127.0.0.1"
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})")


def check_address(address: str) -> str:
    """`address` when it names a scheduler (tcp://HOST:PORT, HOST:PORT, or tls:// ws:// wss:// ucx://)
    or a local cluster (local, local:N); else a DaskError saying what is expected.  Checked before the
    input is read, without dask."""
    if address == "local" or address.startswith("local:"):
        _local_workers(address)
        return address
    found = _ADDRESS.fullmatch(address)
    if found is None or int(found.group(1)) > 65535:
        raise DaskError(f"--dask '{printable(address)}': not a scheduler address (tcp://HOST:PORT) nor local[:N]")
    return address


@contextlib.contextmanager
def connect(address: str) -> Iterator[Client]:
    """A client of the scheduler at `address`, or of a local cluster for `local` / `local:N` (N workers).
    Dask's own log lines are silenced (its tracebacks of shutdowns and lost connections): what goes wrong
    comes out as a DaskError naming the address; Ctrl-C while a cluster or client starts or closes is held
    until it has (interrupted there, Dask prints tracebacks at exit), then taken."""
    try:
        import dask
        from distributed import Client, KilledWorker, LocalCluster
        from distributed.comm.core import CommClosedError
        from distributed.utils import silence_logging_cmgr
    except ImportError:
        raise DaskError("--dask needs the dask extra: pip install 'pdn-tools[dask]'") from None
    check_address(address)
    local = address == "local" or address.startswith("local:")
    with contextlib.ExitStack() as stack:
        silenced = silence_logging_cmgr(logging.CRITICAL)
        silenced.__enter__()
        stack.push(_unless_ended_by_a_signal(silenced.__exit__))
        with _interrupts_held():
            if local:
                stack.enter_context(dask.config.set(LOCAL_CONFIG))
                # Everything on loopback: the scheduler, the workers and their nannies, and the HTTP
                # servers Dask always starts (no dashboard: it needs bokeh and costs CPU; the servers'
                # routes are off, so they serve nothing).
                cluster = LocalCluster(n_workers=_local_workers(address), threads_per_worker=1,
                                       processes=True, host=LOOPBACK, dashboard_address=None,
                                       worker_dashboard_address=f"{LOOPBACK}:0",
                                       scheduler_kwargs={"dashboard": False, "dashboard_address": f"{LOOPBACK}:0"},
                                       silence_logs=logging.CRITICAL)
                stack.callback(_closed, cluster)
                client = Client(cluster)
            else:
                try:
                    client = Client(address, timeout=10)
                except (OSError, TimeoutError) as error:
                    raise DaskError(f"cannot reach the Dask scheduler at {address}: {error}") from None
            stack.callback(_closed, client)
        try:
            yield client
        except (CancelledError, asyncio.CancelledError, CommClosedError):
            raise DaskError(f"lost the Dask scheduler at {address}: its results stopped coming") from None
        except KilledWorker as error:
            raise DaskError(f"the Dask workers of {address} died on one task "
                            f"({str(error).splitlines()[0]})") from None


def _closed(closing: Any) -> None:
    """Close a client or a cluster, Ctrl-C held until it is closed."""
    with _interrupts_held():
        closing.close()


def _unless_ended_by_a_signal(exit_block: Callable[..., bool | None]) -> Callable[..., bool | None]:
    """`exit_block` (a context manager's __exit__), not called when a signal ends the block: Dask's log lines
    stay silenced, as the process is ending, while Dask's threads see the workers killed by the same
    signal (`Worker process ... was killed by signal 15`, when SIGTERM came as a local cluster started)."""
    def exit_unless_ended(kind: Any, error: BaseException | None, trace: Any) -> bool | None:
        if error is not None and ending_signal(error) is not None:
            return False
        return exit_block(kind, error, trace)
    return exit_unless_ended


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C (SIGINT) held while the block runs: blocked in this thread (so it waits, pending, and is taken
    as KeyboardInterrupt at the end) and ignored, so that the processes started meanwhile (the local
    workers) ignore it for good.  A Ctrl-C at the terminal, sent to every process of the group, is taken
    by this one alone, which closes the cluster in order.  The threads Dask starts meanwhile keep it
    blocked too, so that it waits for this one: were one to receive it, ignored, it would be lost (a Ctrl-C
    while a cluster started, a second or two, was).  multiprocessing's resource tracker, when a process
    started first starts it, lets SIGINT through in that thread (Python 3.11 to 3.13 unblock it after
    blocking it around the start, whatever the mask was before): it is started before the block
    (start_resource_tracker)."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    start_resource_tracker()
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)       # a pending Ctrl-C is taken here


def _local_workers(address: str) -> int:
    count = address.partition(":")[2]
    if not count:
        return os.cpu_count() or 1
    if not count.isdigit() or int(count) < 1:
        raise DaskError(f"local:N needs a number of workers N >= 1, not '{printable(count)}'")
    if int(count) > MAX_JOBS:
        raise DaskError(f"local:N needs a number of workers N from 1 to {MAX_JOBS}, not '{printable(count)}'")
    return int(count)


def validate(client: Client, paths: Iterable[str], variant: Variant | None = None, strict: bool = False,
             range_bytes: int = RANGE_BYTES, in_flight: int | None = None,
             engine: Engine | None = None, rules: RuleSet | None = None,
             max_game_bytes: int = MAX_GAME_BYTES) -> Iterator[Record]:
    """The validation record of every game of `paths` (files or folders of *.pdn), in order, computed on
    the workers of the Dask `client` (the records of `pdn validate --format jsonl`), on `engine` (by
    default the environment's, as the library's other entry points); draws by `rules` (`--rules`),
    games over `max_game_bytes` reported too large (`--max-game-bytes`)."""
    checking = Checking(strict, variant, rules, engine or engine_from_environment())
    work = functools.partial(record_of, checking=checking)
    return run(client, Inputs(tuple(paths), max_game_bytes=max_game_bytes), work, range_bytes, in_flight,
               checking=checking)
