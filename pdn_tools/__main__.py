"""`pdn` and `python -m pdn_tools`: the command line, quiet when interrupted as it starts."""
import signal
import sys
from types import FrameType


def main() -> None:
    """Load the command line, then run it; a Ctrl-C while loading ends quietly (exit 130).

    While modules load, Ctrl-C is only noted, and acted on once they are in: raised
    at a random point of an import, KeyboardInterrupt can come out as another error
    (Python 3.11 turns one raised inside `__set_name__`, as while an Enum class is made,
    into `RuntimeError: Error calling __set_name__`), with a traceback.
    """
    interrupted: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        interrupted.append(signum)

    previous = signal.signal(signal.SIGINT, note)
    try:
        from pdn_tools.cli import main as run
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        sys.exit(130)
    run()


if __name__ == "__main__":
    main()
