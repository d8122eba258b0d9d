"""Signals: Ctrl-C ends a run at once and quietly, by SIGINT as any program; SIGTERM and SIGHUP unwind it
(temporary files removed, workers stopped) and end it by that signal."""
from __future__ import annotations

import _thread
import contextlib
import os
import signal
import sys
from types import FrameType
from typing import Any, NoReturn

from pdn_tools.running.output import remove_temporaries

ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: the blocks under way unwind (temporary files removed,
    workers stopped), then the process ends by that signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def clean_up_on_signals() -> None:
    """Turn SIGTERM and SIGHUP into Terminated (unless they are ignored, as under nohup)."""
    for signum in ENDING_SIGNALS:
        if signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _terminate)


def _terminate(signum: int, frame: FrameType | None) -> NoReturn:
    for other in ENDING_SIGNALS:           # a second signal must not interrupt the clean-up
        signal.signal(other, signal.SIG_IGN)
    remove_temporaries()
    raise Terminated(signum)


def end_on_first_interrupt() -> None:
    """Ctrl-C ends the run: the first raises KeyboardInterrupt, and those after it are ignored while
    the run unwinds (temporary files removed, workers stopped), so that a Ctrl-C held down does not
    interrupt the clean-up; then end_interrupted.  One that lands where Python cannot raise it (a weakref
    callback, as of the import lock of a module loaded as the command runs) is delivered again once
    Python is out of there (_redeliver_lost_interrupts), not lost.
    A Ctrl-C ignored from the start (a script's background job, as the shell starts it) stays ignored."""
    sys.unraisablehook = _redeliver_lost_interrupts
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, _interrupt)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    if frame is not None and frame.f_code is _redeliver_lost_interrupts.__code__:
        _deliver_later()            # raised inside the hook, it would be lost again, and printed
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _redeliver_lost_interrupts(unraisable: Any) -> None:
    """sys.unraisablehook: a KeyboardInterrupt raised where it could not propagate (a weakref callback, a
    `__del__`) goes unsaid, and the Ctrl-C is delivered again to the main thread, by another thread so
    that it lands once this hook has returned; anything else is reported as Python reports it."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        signal.signal(signal.SIGINT, _interrupt)
        _deliver_later()
    else:
        sys.__unraisablehook__(unraisable)


def _deliver_later() -> None:
    """Ctrl-C sent again to this thread (the main thread: Python raises KeyboardInterrupt nowhere else) by
    a new thread, which waits for the interpreter's lock: this thread is past the code that called this
    when its handler runs, and a wait it is in (a read, a pool) is interrupted.  As the interpreter shuts
    down, no thread starts: the process is ending anyway."""
    with contextlib.suppress(RuntimeError):
        _thread.start_new_thread(signal.pthread_kill, (_thread.get_ident(), signal.SIGINT))


def ending_signal(error: BaseException) -> int | None:
    """The signal `error` comes from: a KeyboardInterrupt (SIGINT) or a Terminated, or an exception raised
    by one or while one was handled (Python 3.11 turns a KeyboardInterrupt raised in `__set_name__`, as a
    class is made by an import under way, into `RuntimeError: Error calling __set_name__`); None if none."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return signal.SIGINT
        if isinstance(cause, Terminated):
            return cause.signum
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def end_interrupted() -> NoReturn:
    """End as Ctrl-C ends a program, killed by SIGINT (the clean-up done): a shell shows 130 and stops
    a script or a loop (`for f in *.pdn; do pdn validate "$f"; done`), where an exit status of 130
    would let the loop go on to the next file.  Another Ctrl-C meanwhile is ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    end_by_signal(signal.SIGINT)


_CHILD_SECONDS = 2             # the longest wait for a child killed, or a thread tearing a pool down (at once)


def end_by_signal(signum: int) -> NoReturn:
    """End the process by `signum`, as it would have ended without a handler (multiprocessing's shared
    objects released first: _release_shared)."""
    _release_shared()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
    sys.exit(128 + signum)                  # not reached where the signal ends the process


def _release_shared() -> None:
    """Before this process ends by a signal, what a normal exit does for multiprocessing, without its
    waits for work: the children (a pool's workers, which end with this process anyway: running/workers.py)
    killed and waited for, the other threads that are not daemons (a pool's manager thread, which tears
    its queues down once its workers are gone) waited for a moment, then multiprocessing's finalizers of
    exit priority 0 and more run.  So the named semaphores of a pool's queues are unlinked and unregistered
    from the resource tracker of the forkserver and spawn start methods (fork needs none), which would
    otherwise say on stderr that it cleaned up 'leaked semaphore objects'.  The children go first: one
    still starting would not find the semaphores (a traceback of its own)."""
    if "multiprocessing" not in sys.modules:        # no child, nothing shared
        return
    import multiprocessing
    import threading
    from multiprocessing import util

    children = multiprocessing.active_children()
    for child in children:
        child.kill()
    for child in children:
        child.join(_CHILD_SECONDS)
    for thread in threading.enumerate():
        if not thread.daemon and thread is not threading.current_thread():
            thread.join(_CHILD_SECONDS)
    util._run_finalizers(0)     # type: ignore[attr-defined]  # private: the first step of its exit function
