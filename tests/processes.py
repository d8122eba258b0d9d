"""The processes a test started, seen through /proc: their children and descendants, whether one has
ended, waiting for a condition, feeding one's stdin."""
import contextlib
import os
import time
from pathlib import Path


def _parents() -> dict[int, int]:
    """Each process's parent."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                parents[int(entry)] = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
    return parents


def children(parent: int) -> list[int]:
    """The processes whose parent is `parent`."""
    return [pid for pid, its in _parents().items() if its == parent]


def descendants(root: int) -> list[int]:
    """The processes under `root` (a fork server's workers are not the main process's children)."""
    parents = _parents()
    found, frontier = [], [root]
    while frontier:
        frontier = [pid for pid, parent in parents.items() if parent in frontier]
        found += frontier
    return found


def ended(pid: int) -> bool:
    """Gone, or a zombie waiting for a parent that does not reap."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def wait_until(condition, seconds: float) -> bool:
    """Whether `condition()` holds within `seconds`, looked at every 20 ms."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def feed(stream, data: bytes) -> None:
    """Write `data` (more than the reader takes at a time, so batches reach the workers) and leave
    `stream` open, as a slow producer would."""
    with contextlib.suppress(OSError):
        stream.write(data)
        stream.flush()
