"""`pdn` and `python -m pdn_tools`: the command line, quiet when interrupted as it starts.

From the moment this module is imported until the command line is loaded, Ctrl-C is only
noted, and acted on once the modules are in (exit 130): raised at a random point of an
import, KeyboardInterrupt can come out as another error with a traceback (Python 3.11
turns one raised inside `__set_name__`, as while an Enum class is made, into
`RuntimeError: Error calling __set_name__`).  Once it runs, a Ctrl-C that lands in a callback
Python cannot raise from (an import lock's weakref callback while Dask loads) is lost there, as
Python loses it, but not printed as "Exception ignored ... KeyboardInterrupt": press it again.
"""
import signal
import sys
from types import FrameType
from typing import Any

_interrupted: list[int] = []


def _note(signum: int, frame: FrameType | None) -> None:
    _interrupted.append(signum)


signal.signal(signal.SIGINT, _note)


def _quiet_interrupts(unraisable: Any) -> None:
    """sys.unraisablehook: a KeyboardInterrupt that could not be raised where it came goes unsaid
    (raising it again elsewhere could end the command outside its own handling of Ctrl-C);
    anything else is reported as Python reports it."""
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)


def main() -> None:
    """Load the command line, then run it; a Ctrl-C while loading ends quietly (exit 130)."""
    try:
        from pdn_tools.cli import main as run
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if _interrupted:
        sys.exit(130)
    sys.unraisablehook = _quiet_interrupts
    run()


if __name__ == "__main__":
    main()
