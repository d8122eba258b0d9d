"""A command's per-game work over many inputs: every game checked, the work run on it, in input order
(on this machine: running/pool.py; on a Dask cluster: running/distributed.py), and the exit code.

Commands take from here what they need: `Inputs` (running/inputs.py), `run`, `Work`, `checked_work`, `exit_code`."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from pdn_tools.running.inputs import DEFAULT_GLOBS as DEFAULT_GLOBS, Inputs as Inputs
from pdn_tools.running.output import EXIT_INVALID as EXIT_INVALID, EXIT_OK as EXIT_OK, EXIT_USAGE as EXIT_USAGE
from pdn_tools.running.pool import run as run
from pdn_tools.text.model import Game, ReadError

if TYPE_CHECKING:        # reading inputs does not load the rules: check is imported by the work
    from pdn_tools.play.check import Checked, Record
    from pdn_tools.play.checking import Checking
    from pdn_tools.running.tasks import Work as Work        # (the tasks: for more than one job only)

T = TypeVar("T")
Check = Callable[[Game | ReadError, "Checking"], "Checked"]


def exit_code(unreadable: int, failed: int) -> int:
    """The exit code of every command: 2 when an input could not be read, else 1 when some
    game failed (was invalid, or did not convert), else 0."""
    return EXIT_USAGE if unreadable else EXIT_INVALID if failed else EXIT_OK


def checked_work(game: Game | ReadError, check: Check, work: Callable[[Checked], T],
                 checking: Checking) -> tuple[Record, T]:
    """Check one game (`check`, play.check.check_by, by `checking`) and run `work` on it; only the record
    and the work's result travel back.  `check` is given, not imported here: a function's import
    statement runs on every call (2.2% of validate's instructions on OCA by callgrind, one call a game)."""
    checked = check(game, checking)
    return checked.record, work(checked)


def no_work(checked: Checked) -> None:
    """The work of a command that needs only the record (validate)."""


