"""`pdn` and `python -m pdn_tools`: the command line, quiet when interrupted as it starts.

From the moment this module is imported until the command line is loaded, Ctrl-C is only
noted, and acted on once the modules are in (ended by SIGINT, quietly): raised at a random point of an
import, KeyboardInterrupt can come out as another error with a traceback (Python 3.11
turns one raised inside `__set_name__`, as while an Enum class is made, into
`RuntimeError: Error calling __set_name__`).  Once it runs, the command line handles Ctrl-C
(running.output.end_on_first_interrupt).
"""
import signal
from types import FrameType

_interrupted: list[int] = []


def _note(signum: int, frame: FrameType | None) -> None:
    _interrupted.append(signum)


if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:     # ignored (a background job): it stays so
    signal.signal(signal.SIGINT, _note)


def main() -> None:
    """Load the command line, then run it (it handles Ctrl-C from there on); a Ctrl-C while loading
    ends quietly, by SIGINT."""
    from pdn_tools.cli import main as run
    if _interrupted:
        from pdn_tools.running.output import end_interrupted
        end_interrupted()
    run()


if __name__ == "__main__":
    main()
