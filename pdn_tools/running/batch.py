"""A command's per-game work over many inputs: every game checked, the work run on it, in input order
(on this machine: running/pool.py; on a Dask cluster: running/distributed.py), and the exit code.

Commands take from here what they need: `Inputs` (running/inputs.py), `run`, `Work`, `Runner`."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from pdn_tools.rules.core import Engine, engine_from_environment
from pdn_tools.running.inputs import DEFAULT_GLOBS as DEFAULT_GLOBS, Inputs as Inputs
from pdn_tools.running.pool import run as run
from pdn_tools.running.tasks import Work as Work
from pdn_tools.text.model import Game, ReadError

if TYPE_CHECKING:        # reading inputs does not load the rules: check is imported by the work
    from pdn_tools.play.check import Checked, Record
    from pdn_tools.rules.variants import RuleSet, Variant

T = TypeVar("T")
# What runs the work over the inputs: `run` here, or the same on a cluster (running/distributed.py).
Backend = Callable[[Inputs, Work[Any], int, bool], Iterator[Any]]
EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def exit_code(unreadable: int, failed: int) -> int:
    """The exit code of every command: 2 when an input could not be read, else 1 when some
    game failed (was invalid, or did not convert), else 0."""
    return EXIT_USAGE if unreadable else EXIT_INVALID if failed else EXIT_OK


def checked_work(game: Game | ReadError, work: Callable[[Checked], T], variant: Variant | None,
                 strict: bool, rules: RuleSet | None = None, engine: Engine | None = None) -> tuple[Record, T]:
    """Check one game (on `engine`) and run `work` on it; only the record and the work's result travel back."""
    from pdn_tools.play.check import check

    checked = check(game, variant, strict, rules, engine)
    return checked.record, work(checked)


def no_work(checked: Checked) -> None:
    """The work of a command that needs only the record (validate)."""


class Runner:
    """A command's per-game work over many inputs: every game checked (with `variant`'s rules
    when given, its draws by `rules`, on `engine`, by default the environment's), the work run on
    it, and the exit code of the whole run."""

    def __init__(self, inputs: Inputs, jobs: int = 1, strict: bool = False, variant: Variant | None = None,
                 backend: Backend | None = None, rules: RuleSet | None = None, engine: Engine | None = None) -> None:
        self.inputs = inputs
        self.jobs, self.strict, self.variant, self.rules = jobs, strict, variant, rules
        self.engine = engine or engine_from_environment()
        self.backend: Backend = backend or run
        self.games = self.failed = 0

    def run(self, work: Callable[[Checked], T]) -> Iterator[tuple[Record, T]]:
        """(record, work(checked)) for each game, in input order; an invalid game counts as failed."""
        task: Work[tuple[Record, T]] = functools.partial(checked_work, work=work, variant=self.variant,
                                                         strict=self.strict, rules=self.rules, engine=self.engine)
        for record, value in self.backend(self.inputs, task, self.jobs, self.strict):
            self.games += 1
            self.failed += not record.ok
            yield record, value

    def exit_code(self) -> int:
        return exit_code(self.inputs.unreadable, self.failed)
