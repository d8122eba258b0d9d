"""The compiled core keeps no borrowed reference across Python code: each test hands it an object
whose Python hook (a property, __index__, a finalizer) changes the container the core reads, and
must pass without a crash (the crashes show under PYTHONMALLOC=debug; tests/rules/test_core.py's
test_run_text_holds_the_counters_it_reads_while_python_code_runs is the first of them)."""
from __future__ import annotations

from pdn_tools.rules import core
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import VARIANTS

ENGINE = core.Engine(True)      # fails at once when the core was not built


def test_run_holds_the_element_it_reads_while_python_code_runs() -> None:
    """core.run reads an element's squares through Python: squares that empty the list of elements
    (dropping the element and the rest) must leave the core reading neither the freed element nor
    past the list's new end."""
    position = Position.initial(VARIANTS["international"]).on(ENGINE)
    rl = position._rl
    assert rl.core is not None
    known = {str(n): n for n in range(1, 51)}
    elements: list[object] = []

    class Emptying:
        """A notated move 32-28 whose squares, once read, empty `elements`."""

        capture = False

        @property
        def squares(self) -> tuple[str, str]:
            elements.clear()
            return ("32", "28")

    for _ in range(50):
        elements[:] = [Emptying(), Emptying(), Emptying()]
        index, played = rl.core.run(elements, 0, position, known, (Emptying,), rl.quiet_move_of)
        assert index == 1 and len(played) == 1 and type(played[0][0]) is Emptying
