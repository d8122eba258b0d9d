"""The compiled move core against the pure engine: same captures (in the same order), same
capture-law choices, same quiet moves, same perft, on random positions of every variant.

These tests load the compiled module directly, so they also run under PDN_TOOLS_PURE=1; a
machine that could not build it fails here (CI has a compiler, so the core is always checked).
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules import core
from pdn_tools.rules.laws import lawful
from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.movegen import (Position, _perft, _pure_capture_records, _pure_has_capture,
                                     _quiet_entries, _rules, _Rules)
from pdn_tools.rules.movegen import Move
from pdn_tools.rules.variants import VARIANTS, Variant
from pdn_tools.text.model import Comment, MoveNumber, Nag, Variation
from pdn_tools.text.model import Move as Notated

COMPILED = core.compiled_module()
# A piece per square: mostly empty, so pieces can move and jump; kings often, for the laws.
CELLS = st.sampled_from(["", "", "", "", "w", "b", "w", "b", "W", "B"])


def compiled_rules(variant: Variant) -> core.CompiledRules:
    assert COMPILED is not None, "the compiled core (pdn_tools/rules/_core.c) was not built"
    compiled = _rules(variant).compiled(COMPILED)
    assert compiled is not None
    return compiled


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, int]:
    """A random position of a random variant (no man on its own crowning row) and a Frisian
    king-move counter for the side to move."""
    variant = draw(st.sampled_from(sorted(VARIANTS.values(), key=lambda v: v.name)))
    cells = draw(st.lists(CELLS, min_size=variant.num_squares, max_size=variant.num_squares))
    pieces = {}
    for square, piece in enumerate(cells, start=1):
        row = variant.coords(square)[0]
        if piece == "w" and row == variant.promotion_row("W") or piece == "b" and row == variant.promotion_row("B"):
            continue
        if piece:
            pieces[square] = piece
    position = Position(variant, draw(st.sampled_from(["W", "B"])), pieces)
    counter = 0
    kings = [sq for sq, piece in pieces.items() if piece == position.turn]
    if variant.king_move_limit and kings:
        bit = _rules(variant).bit_of[draw(st.sampled_from(kings))]
        counter = bit << 3 | draw(st.integers(1, 7))
    return position, counter


def sides(position: Position) -> tuple[int, int, int, int]:
    ci, own, opp = position._sides()
    return ci, own, opp, position._kings


@settings(max_examples=400, deadline=None)
@given(positions())
def test_captures_match_the_pure_engine(case: tuple[Position, int]) -> None:
    position, _ = case
    rl, compiled = _rules(position.variant), compiled_rules(position.variant)
    ci, own, opp, kings = sides(position)
    assert compiled.has_capture(ci, own, opp, kings) == _pure_has_capture(rl, ci, own, opp, kings)
    pure = _pure_capture_records(rl, ci, own, opp, kings)
    assert compiled.capture_records(ci, own, opp, kings, None, False) == pure
    assert compiled.capture_records(ci, own, opp, kings, None, True) == lawful(rl.law, pure, kings)
    allowed = lawful(rl.law, pure, kings) if _pure_has_capture(rl, ci, own, opp, kings) else []
    assert compiled.legal_records(ci, own, opp, kings) == allowed
    for start in {record[0] for record in pure}:
        mine = _pure_capture_records(rl, ci, own, opp, kings, 1 << start)
        assert compiled.capture_records(ci, own, opp, kings, 1 << start, False) == mine


@settings(max_examples=400, deadline=None)
@given(positions())
def test_quiet_moves_match_the_pure_engine(case: tuple[Position, int]) -> None:
    position, counter = case
    rl, compiled = _rules(position.variant), compiled_rules(position.variant)
    ci, own, opp, kings = sides(position)
    entries = _quiet_entries(rl, ci, own, opp, kings, counter)
    pure = [((entry[1] ^ (1 << entry[3])).bit_length() - 1, entry[3]) for entry in entries]
    assert compiled.quiet_moves(ci, own, opp, kings, counter) == pure


@settings(max_examples=150, deadline=None)
@given(positions(), st.booleans())
def test_perft_matches_the_pure_engine(case: tuple[Position, int], keep: bool) -> None:
    position, counter = case
    rl, compiled = _rules(position.variant), compiled_rules(position.variant)
    ci, own, opp, kings = sides(position)
    for depth in (1, 2, 3):
        assert compiled.perft(ci, own, opp, kings, counter, 0, depth, keep) == \
            _perft(rl, ci, own, opp, kings, counter, 0, depth, keep)


@cache
def tables(variant: Variant, compiled: bool) -> _Rules:
    """Fresh tables of `variant` with the compiled core or without it."""
    rl = _Rules(variant)
    rl.use_core(COMPILED if compiled else None)
    return rl


def on_engine(position: Position, compiled: bool) -> Position:
    """The same position on the tables with the compiled core or without it."""
    rl = tables(position.variant, compiled)
    twin = Position.__new__(Position)
    twin._set(position.variant, position.turn, rl, position._white, position._black, position._kings,
              position._ctr)
    return twin


SKIPPED = (MoveNumber, Comment, Nag)


def notated(start: int, end: int, capture: bool) -> Notated:
    return Notated(f"{start}{'x' if capture else '-'}{end}", (str(start), str(end)), capture)


def run_one(position: Position, start: int, end: int, capture: bool
            ) -> tuple[Move, Position, bool] | None:
    """Position.run on the compiled core over one notated move, in quiet_step's answer form."""
    known = {str(n): n for n in range(1, position.variant.num_squares + 1)}
    element = notated(start, end, capture)
    index, played = position.run([element], 0, known, (Notated, *SKIPPED))
    if not played:
        assert index == 0
        return None
    assert index == 1 and len(played) == 1 and played[0][0] is element
    return played[0][1], played[0][2], played[0][3]


@settings(max_examples=400, deadline=None)
@given(positions(), st.lists(st.tuples(st.integers(0, 80), st.integers(0, 80)), max_size=4))
def test_replay_runs_match_the_pure_steps(case: tuple[Position, int],
                                          extra: list[tuple[int, int]]) -> None:
    """Position.run (the replayer's per-move work on the core) plays a move exactly when the
    pure quiet_step / capture_step do, with the same move, position after it and king flag:
    every legal move, every capture the law forbids and a few arbitrary square pairs."""
    position, _ = case
    pure, fast = on_engine(position, False), on_engine(position, True)
    pairs = {(m.start, m.end) for m in pure.legal_moves() + pure.captures(law=False)} | set(extra)
    for start, end in sorted(pairs):
        for capture in (False, True):
            if position.variant.king_move_limit:          # Frisian stays on the pure path
                assert fast.run([notated(start, end, capture)], 0, {}, (Notated,)) == (0, [])
                continue
            expected = pure.capture_step(start, end) if capture else pure.quiet_step(start, end)
            got = run_one(fast, start, end, capture)
            assert got == expected, (start, end, capture)
            if got is not None and expected is not None:
                assert (got[1]._white, got[1]._black, got[1]._kings, got[1].turn) == \
                    (expected[1]._white, expected[1]._black, expected[1]._kings, expected[1].turn)


def test_a_run_goes_on_over_numbers_comments_and_nags_and_stops_at_the_rest() -> None:
    position = on_engine(Position.initial(VARIANTS["international"]), True)
    known = {str(n): n for n in range(1, 51)}
    line = [MoveNumber(1, False), notated(32, 28, False), Comment("c"), notated(19, 23, False),
            Nag(1), notated(28, 19, True), Variation([]), notated(14, 23, True)]
    index, played = position.run(line, 0, known, (Notated, *SKIPPED))
    assert index == 6 and [str(move) for _, move, _, _ in played] == ["32-28", "19-23", "28x19"]
    assert played[-1][2].piece_at(19) == "w" and played[-1][2].piece_at(23) is None
    unknown = [notated(32, 28, False)]
    assert position.run(unknown, 0, {}, (Notated, *SKIPPED)) == (0, [])      # squares not cached
    assert position.run([notated(32, 27, True)], 0, known, (Notated,)) == (0, [])  # not a capture


def test_a_king_ending_on_a_square_it_took_stays_a_king() -> None:
    """Turkish removes a taken piece at once, so a king may come back to land on its square:
    the core keeps its crown, as the pure engine does."""
    pos = parse_fen(VARIANTS["turkish"], "W:WK1,K2,16,17,18,19,24,25,26,27,28,29,32:B6,14,15,34,49,K58")
    step = run_one(on_engine(pos, True), 2, 6, True)
    assert step is not None and step[1].piece_at(6) == "W"
    assert step == on_engine(pos, False).capture_step(2, 6)


def test_every_variant_has_compiled_rules() -> None:
    for variant in VARIANTS.values():
        assert compiled_rules(variant).perft(*sides(Position.initial(variant)), 0, 0, 2, True) == \
            _perft(_rules(variant), *sides(Position.initial(variant)), 0, 0, 2, True)


def test_pure_engine_is_forced_by_the_environment() -> None:
    code = "from pdn_tools.rules import core; print(core.ENGINE)"
    engines = [subprocess.run([sys.executable, "-c", code], env={"PDN_TOOLS_PURE": pure},
                              capture_output=True, text=True, check=True).stdout.strip()
               for pure in ("1", "0")]
    assert engines == ["pure", "compiled"]


def test_bad_bitboards_are_refused() -> None:
    compiled = compiled_rules(VARIANTS["english"])
    for bad in (1 << 8, 1 << 200, -1):          # a spare-column bit, too wide, negative
        try:
            compiled.has_capture(0, bad, 0, 0)
        except (ValueError, OverflowError):
            continue
        raise AssertionError(f"bitboard {bad} accepted")
