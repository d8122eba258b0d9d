"""running/pool.py: how a pool stops when its run ends early.  A worker's death (WorkerLost) waits for the
pool's manager thread: Python writes to that thread's wake-up pipe at exit without a lock (3.11, and 3.12 and
3.13 before gh-125451's: concurrent.futures.process._python_exit), and a pipe the thread was closing printed an
'OSError: [Errno 9] Bad file descriptor' traceback after pdn's message (1 run in 100 of the killed-worker
test, test_leftovers)."""
from __future__ import annotations

import os
import threading
from concurrent.futures.process import _ExecutorManagerThread

import pytest

from pdn_tools.running.output import WorkerLost
from pdn_tools.running.pool import ordered_map


def _dies_on_one(item: int) -> int:
    """A worker's work that ends its process on item 1, as a kill would."""
    if item == 1:
        os._exit(3)
    return item


def _managers() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if isinstance(thread, _ExecutorManagerThread)]


def test_a_pool_a_worker_died_in_is_stopped_with_its_manager_thread_ended() -> None:
    for _ in range(5):
        with pytest.raises(WorkerLost):
            with ordered_map(2) as mapped:
                list(mapped(_dies_on_one, range(4)))
        assert _managers() == []        # ended before the run goes on to its end (or to the interpreter's)
