"""A compiled Rules is made once, whole, by Rules(...): perft and search read its tables with the GIL let go,
and its methods run Python code (makers, __index__, signal handlers), so tables set again under them would be
read half old, half new.  Rules.__init__ called again is refused, from another thread or from Python code
the core runs; and no Python code sees a Rules whose tables are being read."""
from __future__ import annotations

import gc
import threading
from typing import Any

import pytest

from pdn_tools.rules import core, movegen
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import VARIANTS

ENGINE = core.Engine(True)      # fails at once when the core was not built
COMPILED = core.compiled_module()
MAKERS: core.Makers = (movegen._POSITION_MAKER, movegen._position_pieces, movegen._MOVE_MAKER)


def arguments(variant: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """The arguments tables._compiled makes the Rules of `variant` with."""
    asked: list[tuple[Any, ...]] = []
    with monkeypatch.context() as patch:
        patch.setattr(COMPILED, "Rules", lambda *args: asked.append(args))
        Position.initial(VARIANTS[variant]).on(ENGINE)._rl._compiled(ENGINE, MAKERS)
    return asked[0]


def test_rules_made_again_from_another_thread_during_perft_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """perft lets the GIL go: another thread calling __init__ with the English tables meanwhile gets a
    TypeError, and every count is the international one."""
    start = Position.initial(VARIANTS["international"]).on(ENGINE)
    rules = COMPILED.Rules(*arguments("international", monkeypatch))
    english = arguments("english", monkeypatch)
    ci, own, opp = start._sides()
    expected = rules.perft(ci, own, opp, start._kings, 0, 0, 6, False)
    counts: list[int] = []

    def counting() -> None:
        for _ in range(4):
            counts.append(rules.perft(ci, own, opp, start._kings, 0, 0, 6, False))
    thread = threading.Thread(target=counting)
    thread.start()
    refused = 0
    while thread.is_alive():
        with pytest.raises(TypeError, match="cannot be made again"):
            rules.__init__(*english)
        refused += 1
    thread.join()
    assert counts == [expected] * 4 and refused > 0


def test_rules_are_made_whole_or_not_at_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules.__new__ makes the tables (no Rules without them), its first __init__ (Rules(...)'s) changes
    nothing, any other is refused; Python code run while the tables are read finds no Rules being made."""
    given = arguments("international", monkeypatch)
    with pytest.raises(TypeError):
        COMPILED.Rules.__new__(COMPILED.Rules)          # no tables: no Rules
    made = COMPILED.Rules(*given)
    before = {id(found) for found in gc.get_objects() if type(found) is COMPILED.Rules}
    seen: list[object] = []

    class Looking:
        """The first square's bit, read with __index__: it looks for the Rules being made."""

        def __index__(self) -> int:
            seen.extend(found for found in gc.get_objects()
                        if type(found) is COMPILED.Rules and id(found) not in before)
            return int(given[0][0])

    fresh = COMPILED.Rules.__new__(COMPILED.Rules, [Looking(), *given[0][1:]], *given[1:])
    square_1 = 1 << given[0][0]
    assert seen == [] and fresh.fen(square_1, 0, 0, False) == made.fen(square_1, 0, 0, False) == "W:W1:B"
    fresh.__init__(*arguments("english", monkeypatch))          # Rules(...)'s own: nothing changes
    with pytest.raises(TypeError, match="cannot be made again"):
        fresh.__init__(*given)
    assert fresh.fen(square_1, 0, 0, False) == "W:W1:B" and fresh.fen(1 << given[0][1], 0, 0, False) == "W:W2:B"
