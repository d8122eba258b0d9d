"""The compiled move core out of memory: every method that makes tuples, lists or other objects for
Python, called with the allocations failing from the N-th on (and with the N-th alone failing), raises
MemoryError or answers as with memory; never a crash or a half-made answer (tests/nomemory.py; each case
runs in a child process under PYTHONMALLOC=debug)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from nomemory import Case, check_in_child
from pdn_tools.play.main_line import _PLY_MAKER
from pdn_tools.rules import core, movegen, tables
from pdn_tools.rules.draws import INTERNATIONAL, ending_materials
from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.text.model import MoveRun

ENGINE = core.Engine(True)      # fails at once when the core was not built
VARIANT = VARIANTS["international"]
START = Position.initial(VARIANT).on(ENGINE)
KINGS = parse_fen(VARIANT, "W:WK46,31,32,33,K50:BK5,19,20,22,24,29,39").on(ENGINE)   # captures of kings and men
CAPTURES = parse_fen(VARIANT, "W:WK48,K8,K11:B2,7,13,17,20,31,34,38,41").on(ENGINE)     # 51, up to 8 landings
RUN = "32-28 19-23 28x19 14x23 33-28 23x32 37x28"
MAKERS: core.Makers = (movegen._POSITION_MAKER, movegen._position_pieces, movegen._MOVE_MAKER)


def rules_arguments() -> tuple[Any, ...]:
    """What tables._compiled makes the international Rules of."""
    asked: list[tuple[Any, ...]] = []
    original = tables.compile_rules
    tables.compile_rules = lambda *args: asked.append(args)         # type: ignore[assignment]
    try:
        START._rl._compiled(ENGINE, MAKERS)
    finally:
        tables.compile_rules = original
    return asked[0]


def rules_made(arguments: tuple[Any, ...]) -> Callable[[], Any]:
    """compile_rules of `arguments` (made before the allocations fail: CPython 3.12 crashes making a
    function object out of memory, as rules_arguments does), then a call of the Rules made."""
    return lambda: core.compile_rules(*arguments).fen(KINGS._white, KINGS._black, KINGS._kings, 0)


def rules() -> Any:
    found = START._rl.core
    assert found is not None
    return found


def on_sides(method: str, position: Position, *more: object) -> Case:
    """A case calling the core's `method` with the side to move's (ci, own, opp, kings) and `more`."""
    def case() -> Callable[[], Any]:
        ci, own, opp = position._sides()
        kings = int(str(position._kings))           # a new int each time: no answer kept for it
        return lambda: getattr(rules(), method)(ci, own, opp, kings, *more)
    return case


def run_text_recorded() -> Callable[[], Any]:
    """run_text counting draws (a tracker's seen dict, refilled) and recording Ply objects in a list."""
    seen: dict[Position, int] = {START: 1}
    limits = (3, True, 50, True, False, ending_materials(INTERNATIONAL))
    plies: list[object] = []
    run = MoveRun(RUN, 0, 1)

    def call() -> Any:
        answer = rules().run_text(RUN, 0, START, seen, START, 0, limits, plies, START._rl.quiet_move_of,
                                  _PLY_MAKER, run, 0)
        return answer, dict(seen), [(ply.number, ply.move, ply.after) for ply in plies]   # type: ignore[attr-defined]
    return call


def pieces_fresh() -> Callable[[], Any]:
    """Position.pieces on the core, of positions more than the core keeps answers of (new ints)."""
    positions = [parse_fen(VARIANT, f"W:W{square},{square + 5}:B{square - 5}").on(ENGINE) for square in range(11, 18)]
    return lambda: [position.pieces("W") for position in positions]


CASES: dict[str, Case] = {
    "capture_records": on_sides("capture_records", CAPTURES, None, False),
    "legal_records": on_sides("legal_records", CAPTURES),
    "quiet_moves": on_sides("quiet_moves", START, 0),
    "perft": on_sides("perft", START, 0, 0, 3, False),
    "choices": on_sides("choices", CAPTURES, 0),
    "search": on_sides("search", KINGS, 0, 0, 1, 3, -1, 300, 4, None),
    "fen and zobrist": lambda: lambda: (rules().fen(KINGS._white, KINGS._black, KINGS._kings, True),
                                        rules().zobrist(KINGS._white, KINGS._black, KINGS._kings, True)),
    "pieces": pieces_fresh,
    "run_text": run_text_recorded,
    "write_run": lambda: lambda: [rules().write_run(RUN, 0, START, 0, 10, None, form, extra)
                                  for form, extra in (("json", None), ("fen", "x"), ("short", "x"), ("full", ":"))],
    "find_run": lambda: lambda: rules().find_run(RUN, 0, START, 0, 10, KINGS),
    "annotate_line": lambda: lambda: rules().annotate_line(
        [("1. 32-28 19-23 2. 28x19 14x23", 0), ("{a comment}", 3), (1, 2), ("3.", 1), ("33-28 23x32 37x28", 0)],
        START, 10, None, 7, None, None, None, 0, (), "*", 79, [("Event", "a"), ("Result", "*")],
        [None, "[%draw start x]", None, "[%draw end x]"]),
    "Rules": lambda: rules_made(rules_arguments()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_core_out_of_memory_raises_memory_error_or_answers_right(name: str) -> None:
    check_in_child(__file__, name)
