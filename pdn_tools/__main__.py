"""`pdn` and `python -m pdn_tools`: the command line, quiet when interrupted as it starts."""
import sys


def main() -> None:
    """Load the command line, then run it (a Ctrl-C while loading ends quietly too)."""
    try:
        from pdn_tools.cli import main as run
    except KeyboardInterrupt:
        sys.exit(130)
    run()


if __name__ == "__main__":
    main()
