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

from pdn_tools.running.files import remove_temporaries

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


def _terminate(signum: int, frame: FrameType | None) -> None:
    if _in_hook(frame):
        _send_later(signum)         # raised inside the hook, it would be lost again, and printed
        return
    for other in ENDING_SIGNALS:           # a second signal must not interrupt the clean-up
        signal.signal(other, _unwinding)
    remove_temporaries()
    raise Terminated(signum)


def _unwinding(signum: int, frame: FrameType | None) -> None:
    """A second SIGTERM or SIGHUP as the run unwinds: nothing done.  A handler, not SIG_IGN, which a
    process started meanwhile would inherit across exec (a Dask worker a local cluster was starting: it
    outlived the run, then printed a traceback); a handler is reset there to the default."""


def end_on_first_interrupt() -> None:
    """Ctrl-C ends the run: the first raises KeyboardInterrupt, and those after it are ignored while
    the run unwinds (temporary files removed, workers stopped), so that a Ctrl-C held down does not
    interrupt the clean-up; then end_interrupted.  A Ctrl-C, SIGTERM or SIGHUP that lands where Python
    cannot raise it (a weakref callback, as of the import lock of a module loaded as the command runs) is
    sent again once Python is out of there (_send_lost_signals_again), not lost.
    A Ctrl-C ignored from the start (a script's background job, as the shell starts it) stays ignored."""
    sys.unraisablehook = _send_lost_signals_again
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, _interrupt)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    if _in_hook(frame):
        _send_later(signum)
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _send_lost_signals_again(unraisable: Any) -> None:
    """sys.unraisablehook: a KeyboardInterrupt or Terminated raised where it could not propagate (a
    weakref callback, a `__del__`, a collector's callback) goes unsaid, and its signal is sent again to
    the main thread, by another thread so that it lands once this hook has returned; anything else is
    reported as Python reports it."""
    error = unraisable.exc_value
    if isinstance(error, KeyboardInterrupt):
        signal.signal(signal.SIGINT, _interrupt)
        _send_later(signal.SIGINT)
    elif isinstance(error, Terminated):
        signal.signal(error.signum, _terminate)
        _send_later(error.signum)
    else:
        sys.__unraisablehook__(unraisable)


def _in_hook(frame: FrameType | None) -> bool:
    """Whether `frame` is _send_lost_signals_again's, or one it called."""
    while frame is not None:
        if frame.f_code is _send_lost_signals_again.__code__:
            return True
        frame = frame.f_back
    return False


def _send_later(signum: int) -> None:
    """`signum` sent again to this thread (the main thread: Python runs handlers nowhere else) by a new
    thread, which waits for the interpreter's lock: this thread is past the code that called this when
    its handler runs, and a wait it is in (a read, a pool) is interrupted.  As the interpreter shuts
    down, no thread starts: the process is ending anyway.  (Where there is no pthread_kill, Windows, the
    handler is called as if the signal had come, by _thread.interrupt_main.)"""
    with contextlib.suppress(RuntimeError):
        if hasattr(signal, "pthread_kill"):
            _thread.start_new_thread(signal.pthread_kill, (_thread.get_ident(), signum))
        else:
            _thread.start_new_thread(_thread.interrupt_main, (signal.Signals(signum),))


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


def start_resource_tracker() -> None:
    """multiprocessing's resource tracker (the process that removes the named semaphores of pools not started
    by fork, and of Dask's local workers, that a process ending left), started now if it is not running:
    - with SIGHUP blocked, which it keeps for good: it ignores SIGINT and SIGTERM itself, but a SIGHUP to the
      process group (a closed terminal) killed it, and the one started again as this process cleaned up
      printed a KeyError traceback for each semaphore it was told of but had not seen;
    - with its stderr on the null device: what it says is about multiprocessing's own bookkeeping (under
      load, a run ended by a signal had it warn of 'leaked semaphore objects' it then removed);
    - before SIGINT is held: its start lets SIGINT through in the thread that starts it, whatever the mask
      was (Python 3.11 to 3.13).
    A SIGHUP meanwhile waits, pending, until the tracker has started."""
    from multiprocessing import resource_tracker

    hang_up = {signal.SIGHUP} if hasattr(signal, "SIGHUP") and hasattr(signal, "pthread_sigmask") else set()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, hang_up) if hang_up else None
    try:
        stderr: int | None = os.dup(2)
    except OSError:                 # no stderr (a library's process may have closed it): the tracker has none
        stderr = None
    try:
        if stderr is not None:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, 2)
            finally:
                os.close(null)
        resource_tracker.ensure_running()
    finally:
        if stderr is not None:
            os.dup2(stderr, 2)
            os.close(stderr)
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


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
    otherwise have to clean them up (it says so: start_resource_tracker sends what it says to the null
    device, for a thread tearing a pool down may have unlinked one and not yet told it as the process
    ends).  The children go first: one still starting would not find the semaphores (a traceback of
    its own).  A thread may still be starting them (a local cluster's nannies, as the signal came while
    the cluster started): those it starts from now on have the null device for stderr (_silence_stderr),
    and those it has started and not yet registered are killed too (_kill_unregistered)."""
    if "multiprocessing" not in sys.modules:        # no child, nothing shared
        return
    import multiprocessing
    import threading
    from multiprocessing import util

    _silence_stderr()
    children = multiprocessing.active_children()
    _kill_unregistered()
    for child in children:
        child.kill()
    for child in children:
        child.join(_CHILD_SECONDS)
    for thread in threading.enumerate():
        if not thread.daemon and thread is not threading.current_thread():
            thread.join(_CHILD_SECONDS)
    util._run_finalizers(0)     # type: ignore[attr-defined]  # private: the first step of its exit function


def _silence_stderr() -> None:
    """Standard error (file descriptor 2) on the null device from now on, what is written to it so far
    flushed: a process ending by a signal has said what it had to, and the processes it starts from now on
    (inheriting it) have nothing to tell the user but that their parent is gone."""
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        if null != 2:                           # else 2 was closed, and is now the null device
            os.dup2(null, 2)
            os.close(null)


def _kill_unregistered() -> None:
    """Every child process of this one that the kernel lists (Linux), killed, but multiprocessing's resource
    tracker and fork server: as a signal to the process group would have, had they been started before
    it; those multiprocessing has not yet registered among its children too (its start still under way in
    another thread).  Elsewhere, nothing."""
    from multiprocessing import forkserver, resource_tracker

    kept = {getattr(resource_tracker._resource_tracker, "_pid", None),
            getattr(forkserver._forkserver, "_forkserver_pid", None)}
    with contextlib.suppress(OSError):
        for thread in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{thread}/children") as listed:
                for child in map(int, listed.read().split()):
                    if child not in kept:
                        with contextlib.suppress(OSError):
                            os.kill(child, signal.SIGKILL)
