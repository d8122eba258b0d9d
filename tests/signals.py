"""Commands started by the tests as from a terminal's foreground."""
import re
import signal


def ctrl_c_heard() -> None:
    """preexec_fn: the command starts with Ctrl-C's default action, as a terminal's foreground job
    does (a suite run in the background of a script inherits SIGINT ignored, which pdn keeps)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def ctrl_c_ignored() -> None:
    """preexec_fn: the command starts with Ctrl-C ignored, as a script's background job does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


_TRACKER_WARNING = re.compile(rb"[^\n]*multiprocessing/resource_tracker\.py:\d+: UserWarning: resource_tracker: [^\n]*\n"
                              rb"  warnings\.warn\([^\n]*(?:\n|\Z)")


def without_tracker_warnings(err: bytes) -> bytes:
    """`err` without the warnings multiprocessing's resource tracker prints when the process it watched
    ended with a semaphore still registered.  pdn ending by a signal releases its pool's semaphores first
    (running/signals.py, _release_shared), but a thread of the pool that is tearing it down may have
    unlinked one and not yet told the tracker when the process ends: under load, now and then, the
    tracker then says 'leaked semaphore objects' (it cleans them up).  That is multiprocessing's
    message, about its own bookkeeping: the tests of an end by a signal look at pdn's output alone."""
    return _TRACKER_WARNING.sub(b"", err)
