"""The compiled move core against the pure engine: same captures (in the same order), same
capture-law choices, same quiet moves, same perft, on random positions of every variant.

These tests load the compiled module directly, so they also run under PDN_TOOLS_PURE=1; a
machine that could not build it fails here (CI has a compiler, so the core is always checked).
"""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules import core
from pdn_tools.rules.laws import lawful
from pdn_tools.rules.movegen import (Position, _perft, _pure_capture_records, _pure_has_capture,
                                     _quiet_entries, _rules)
from pdn_tools.rules.variants import VARIANTS, Variant

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


@settings(max_examples=600, deadline=None)
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


@settings(max_examples=600, deadline=None)
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
