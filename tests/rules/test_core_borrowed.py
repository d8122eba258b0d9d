"""The compiled core keeps no borrowed reference across Python code: each test hands it an object
whose Python hook (a property, __index__, a finalizer) changes the container the core reads, and
must pass without a crash (the crashes show under PYTHONMALLOC=debug)."""
from __future__ import annotations

import gc
from typing import Any, cast

import pytest

from pdn_tools.rules import core, movegen, tables
from pdn_tools.rules.draws import INTERNATIONAL, ending_materials
from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.move import Move
from pdn_tools.rules.movegen import Position, _rules
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.text.model import NotatedMove

COMPILED = core.compiled_module()
ENGINE = core.Engine(True)      # fails at once when the core was not built
MAKERS: core.Makers = (movegen._POSITION_MAKER, movegen._position_pieces, movegen._MOVE_MAKER)


def test_run_text_holds_the_counters_it_reads_while_python_code_runs() -> None:
    """The core reads each position the draw tracker has seen by calling Python: a key whose reading
    empties the dict (dropping the only references to the other keys and counts) must not leave the core
    reading freed objects (it did: a crash, seen under PYTHONMALLOC=debug)."""
    variant = VARIANTS["international"]
    rules = _rules(variant, ENGINE).core
    assert rules is not None
    seen: dict[Position, int] = {}
    turn: Any = vars(Position)["turn"]                      # the slot's member descriptor

    class Emptying(Position):
        """A position that empties `seen` as the core reads its side to move."""

        @property
        def turn(self) -> str:          # type: ignore[override]
            seen.clear()
            return cast(str, turn.__get__(self))

    def emptying(fen: str) -> Position:
        made, base = object.__new__(Emptying), parse_fen(variant, fen)
        for slot in Position.__slots__:
            getattr(Position, slot).__set__(made, getattr(Position, slot).__get__(base))
        return made

    position = parse_fen(variant, "W:WK46,31,32:BK5,19,20")
    limits = (3, True, 50, True, False, ending_materials(INTERNATIONAL))
    for _ in range(50):
        seen.clear()
        seen[emptying("W:WK46,31,32:BK5,19,20")] = int("300")     # counts no small int cache keeps alive
        seen[emptying("B:WK41,31,32:BK5,19,20")] = int("301")
        answer = rules.run_text("46-41 5-10 41-46", 0, position, seen, position, 0, limits)
        assert answer[:2] == (0, 0)     # the counts read whole: the position came 300 times, a draw at once


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


def test_name_squares_reads_no_number_past_the_list_python_code_shortened() -> None:
    """name_squares reads each number with __index__: one that empties the list must stop the core
    where the list now ends."""
    variant = VARIANTS["international"]
    rules = _rules(variant, ENGINE).core
    assert rules is not None
    numbers: list[Any] = []

    class Emptying:
        def __index__(self) -> int:
            numbers.clear()
            return 7

    try:
        for _ in range(50):
            numbers[:] = [None, Emptying(), *range(2, 100)]
            rules.name_squares(numbers)
    finally:                    # the variant's own names again, as tables._compiled sets them
        rules.name_squares([variant.parse_square(str(number)) for number in range(100)])
    assert rules.run_text("32-28", 0, Position.initial(variant).on(ENGINE), None, None, 0, ())[1] == 1


def test_rules_reads_no_table_past_a_list_python_code_shortened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules() reads its tables' numbers with __index__: one that empties the list of the squares'
    bits must stop the core where the list now ends (and refuse the tables, which no longer give
    every square its bit)."""
    asked: list[tuple[Any, ...]] = []

    def noting(*args: Any) -> Any:
        asked.append(args)
        return core.compile_rules(*args)

    monkeypatch.setattr(tables, "compile_rules", noting)
    assert Position.initial(VARIANTS["international"])._rl._compiled(ENGINE, MAKERS) is not None
    given, *rest = asked[0]
    bits: list[Any] = []

    class Emptying:
        def __index__(self) -> int:
            bits.clear()
            return int(given[0])

    for _ in range(50):
        bits[:] = [Emptying(), *given[1:]]
        with pytest.raises(ValueError):
            core.compile_rules(bits, *rest)


def test_pieces_holds_the_bitboards_it_reads_while_a_finalizer_runs() -> None:
    """Position.pieces on the core reads the position's bitboards from its slots, then makes the sets
    of its answer: an allocation, which may run the garbage collector and a finalizer that sets the
    slot, dropping the bitboard the core keeps in its memory of answers (it did: a crash, seen under
    PYTHONMALLOC=debug)."""
    variant = VARIANTS["international"]
    white: Any = vars(Position)["_white"]                    # the slot's member descriptor
    position = parse_fen(variant, "W:W31:B10").on(ENGINE)
    finalized: list[bool] = []
    for start in range(31, 41):
        for end in range(start + 1, 46):
            bits = white.__get__(parse_fen(variant, f"W:W{start},{end}:B10"))
            for square in range(11, 15):                    # other answers in the core's memory
                parse_fen(variant, f"W:W{square}:B40").on(ENGINE).pieces("W")
            replacement = int(str(bits))

            class Resetting:
                def __del__(self) -> None:
                    white.__set__(position, replacement)
                    finalized.append(True)

            white.__set__(position, int(str(bits)))        # the slot holds the only reference
            gc.collect()
            cycle = Resetting()
            cycle.me = cycle                                 # type: ignore[attr-defined]
            del cycle
            threshold = gc.get_threshold()
            gc.set_threshold(1)                              # collected at the core's first allocation
            try:
                answer = position.pieces("W")                # no allocation before the core's
            finally:
                gc.set_threshold(*threshold)
            assert answer == (frozenset({start, end}), frozenset())
            for square in range(6, 11):                      # new ints, one maybe where the old one was
                white.__set__(position, int(str(white.__get__(parse_fen(variant, f"W:W{square}:B40")))))
                assert position.pieces("W") == (frozenset({square}), frozenset())
    assert finalized


def test_python_code_the_core_runs_cannot_make_the_rules_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A maker's descriptor may run Python code, which may call Rules.__init__ again (new makers) in the
    middle of a call: it is refused (TypeError, passed on by the call), the makers and tables the core
    reads stay, and the Rules answers as before after it (it read the freed maker's descriptors: a crash,
    seen under PYTHONMALLOC=debug, when a Rules could be made again)."""
    assert COMPILED is not None
    made: list[tuple[Any, ...]] = []
    variant = VARIANTS["international"]
    position = Position.initial(variant).on(ENGINE)
    monkeypatch.setattr(COMPILED, "Rules", lambda *args: made.append(args))
    position._rl._compiled(ENGINE, MAKERS)
    monkeypatch.undo()
    *tables_given, makers = made[0]
    variant_slot: Any = vars(Position)["variant"]            # the slots' member descriptors
    start_slot: Any = vars(Move)["start"]
    names = [variant.parse_square(str(number)) for number in range(100)]
    again: list[bool] = []

    def make_again() -> None:
        if again:
            again.clear()
            rules.__init__(*tables_given, fresh_makers())    # refused: the maker being read stays

    def variant_of(position: Position) -> object:
        make_again()
        return variant_slot.__get__(position)

    def set_start(move: Move, start: int) -> None:
        make_again()
        start_slot.__set__(move, start)

    def fresh_makers() -> core.Makers:
        position_like = (makers[0][0], (property(variant_of, variant_slot.__set__), *makers[0][1][1:]))
        move = (makers[2][0], (property(start_slot.__get__, set_start), *makers[2][1][1:]))
        return (position_like, makers[1], move)

    rules = COMPILED.Rules(*tables_given, fresh_makers())
    rules.name_squares(names)
    usual, moves, quiet = position._rl.core, list[Move](), position._rl.quiet_move_of
    assert usual is not None
    usual.run_text("32-28 19-23 28x19", 0, position, None, None, 0, (), moves, quiet, None, None, 0)
    for _ in range(50):
        again.append(True)                   # made again as the core makes its last position
        with pytest.raises(TypeError, match="cannot be made again"):
            rules.run_text("32-28 19-23", 0, position, None, None, 0, ())
        assert rules.run_text("32-28 19-23", 0, position, None, None, 0, ()) == \
            usual.run_text("32-28 19-23", 0, position, None, None, 0, ())
        again.append(True)                   # as it makes the capture's move
        with pytest.raises(TypeError, match="cannot be made again"):
            rules.run_text("32-28 19-23 28x19", 0, position, None, None, 0, (), [], quiet, None, None, 0)
        played: list[Move] = []
        rules.run_text("32-28 19-23 28x19", 0, position, None, None, 0, (), played, quiet, None, None, 0)
        assert played == moves


def test_run_refuses_a_negative_index() -> None:
    """core.run reads the elements from `index` on: a negative one would read before the list."""
    position = Position.initial(VARIANTS["english"]).on(ENGINE)
    rl = position._rl
    assert rl.core is not None
    with pytest.raises(ValueError, match="negative index"):
        rl.core.run([], -1, position, {}, (NotatedMove,), rl.quiet_move_of)


def test_annotate_line_writes_the_draw_notes_it_was_given_whatever_python_code_does_to_them() -> None:
    """annotate_line reads its numbers with __index__ after it takes the draw commands: one that puts
    other things in the list (an int, a long non-ASCII text) must not reach what the core writes (it
    read the changed list: a crash)."""
    variant = VARIANTS["international"]
    rules = _rules(variant, ENGINE).core
    assert rules is not None
    notes: list[Any] = [None, "[%draw start x]", None, "[%draw end x]"]

    class Changing:
        def __index__(self) -> int:
            notes[1], notes[3] = 10 ** 30, "é" * 3000
            return 10

    start = Position.initial(variant).on(ENGINE)
    for _ in range(20):
        notes[:] = [None, "[%draw start x]", None, "[%draw end x]"]
        written = rules.annotate_line([("32-28 19-23 28x19 14x23", 0)], start, Changing(), None, 0, None, None,
                                      None, 0, (), "*", 79, None, notes)
        assert written is not None and "{[%draw start x]}" in written[0] and "{[%draw end x]}" in written[0]
    with pytest.raises(TypeError):
        rules.annotate_line([("32-28", 0)], start, 10, None, 0, None, None, None, 0, (), "*", 79, None, ["é"])
