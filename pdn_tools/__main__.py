"""`pdn` and `python -m pdn_tools`: the command line, quiet when interrupted as it starts.

From the moment this module is imported until the command line is loaded, Ctrl-C is only
noted, and acted on once the modules are in (ended by SIGINT, quietly): raised at a random point of an
import, KeyboardInterrupt can come out as another error with a traceback (Python 3.11
turns one raised inside `__set_name__`, as while an Enum class is made, into
`RuntimeError: Error calling __set_name__`).  Once it runs, the command line handles Ctrl-C
(running.signals.end_on_first_interrupt).

The garbage collector makes its first collection later than usual (see FIRST_COLLECTION), so as not to
look again and again at the objects the start makes and keeps.
"""
import gc
import signal
from types import FrameType

_interrupted: list[int] = []

# The collector's first collection waits for this many objects more than it frees (not 700): the start
# makes some 20,000 and keeps them (the modules, the parser), and the 20 collections it would make on the
# way, each looking at all the objects made so far, cost some 16 M instructions, 4% of a one-game
# validate (docs/start-up.md).  From its first collection on, the collector has its usual thresholds.
FIRST_COLLECTION = 100_000
_THRESHOLDS = gc.get_threshold()


def _first_collection(phase: str, info: dict[str, int]) -> None:
    """Once the first collection is over: the usual thresholds again, and this callback gone."""
    if phase == "stop":
        gc.set_threshold(*_THRESHOLDS)
        gc.callbacks.remove(_first_collection)


gc.set_threshold(FIRST_COLLECTION, *_THRESHOLDS[1:])
gc.callbacks.append(_first_collection)


def _note(signum: int, frame: FrameType | None) -> None:
    _interrupted.append(signum)


if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:     # ignored (a background job): it stays so
    signal.signal(signal.SIGINT, _note)


def main() -> None:
    """Load the command line, then run it: it handles Ctrl-C from there on, and ends quietly, by SIGINT,
    when one was noted while it loaded."""
    from pdn_tools.cli import main as run
    run(_interrupted)


if __name__ == "__main__":
    main()
