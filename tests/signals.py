"""Commands started by the tests as from a terminal's foreground."""
import signal


def ctrl_c_heard() -> None:
    """preexec_fn: the command starts with Ctrl-C's default action, as a terminal's foreground job
    does (a suite run in the background of a script inherits SIGINT ignored, which pdn keeps)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def ctrl_c_ignored() -> None:
    """preexec_fn: the command starts with Ctrl-C ignored, as a script's background job does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
