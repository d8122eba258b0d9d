"""The lifetime of a pool's worker processes: Ctrl-C left to the main process, ended with it."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

from pdn_tools.running.signals import ENDING_SIGNALS
from pdn_tools.running.tasks import Counts

_PR_SET_PDEATHSIG = 1                # prctl option: the signal a process gets when its parent ends
_WATCH_SECONDS = 0.5                 # how often a worker without that signal looks for its parent


def start_worker(parent: int, counts: Counts | None = None) -> None:
    """Workers ignore Ctrl-C, which the main process handles (no traceback from each worker; it comes
    blocked from the pool, pool._ctrl_c_held, and is let through once ignored), end by SIGTERM and SIGHUP
    as usual, and end when the main process (`parent`) does; `counts`: the shared game counts of ranges."""
    Counts.worker = counts
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    for signum in ENDING_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    end_with_parent(parent)


def end_with_parent(parent: int, kernel: bool = True) -> None:
    """End this process (a worker) when `parent` ends, even by SIGKILL.  A worker `parent` started
    itself (by fork or spawn) has the kernel's parent-death signal on Linux (`kernel`); one a fork server
    started (forkserver: its parent is the server, which outlives `parent` while workers hold its pipe),
    or one without that signal, has a thread that waits for `parent` to end: for the end of multiprocessing's
    pipe from it, else for a new parent."""
    ended = _parent_sentinel(parent)
    own = os.getppid() == parent
    if not own and ended is None:           # the parent ended already (or is not this one's)
        os._exit(1)
    if not (own and kernel and _parent_death_signal()):
        threading.Thread(target=_watch_parent, args=(parent, ended), name="parent-watch", daemon=True).start()
    if own and os.getppid() != parent:      # the parent ended before either was in place
        os._exit(1)


def _parent_sentinel(parent: int) -> int | None:
    """The pipe end multiprocessing gave this process that shows `parent`'s end (None: not a process
    `parent` made through multiprocessing)."""
    import multiprocessing

    process = multiprocessing.parent_process()
    return process.sentinel if process is not None and process.pid == parent else None


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


def _watch_parent(parent: int, ended: int | None) -> None:
    if ended is not None:
        from multiprocessing.connection import wait

        wait([ended])
    else:
        while os.getppid() == parent:
            time.sleep(_WATCH_SECONDS)
    os._exit(1)
