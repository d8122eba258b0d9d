"""The lifetime of a pool's worker processes: Ctrl-C left to the main process, ended with it."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

from pdn_tools.running.output import ENDING_SIGNALS
from pdn_tools.running.tasks import Counts

_PR_SET_PDEATHSIG = 1                # prctl option: the signal a process gets when its parent ends
_WATCH_SECONDS = 0.5                 # how often a worker without that signal looks for its parent


def start_worker(parent: int, counts: Counts | None = None) -> None:
    """Workers ignore Ctrl-C, which the main process handles (no traceback from each worker),
    end by SIGTERM and SIGHUP as usual, and end when the main process does; `counts`: the
    shared game counts of ranges."""
    Counts.worker = counts
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
