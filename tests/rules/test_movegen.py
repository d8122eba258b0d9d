"""Move and Position API, invariants on random positions, and the §6 notation checks."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules.fen import parse_fen, to_fen
from pdn_tools.rules import steps
from pdn_tools.rules.movegen import Move, Position, perft
from pdn_tools.rules.variants import VARIANTS

INTL = VARIANTS["international"]


def test_move_value():
    step = Move(32, (28,))
    jump = Move(28, (19, 10), (23, 14), False)
    assert step.end == 28 and not step.is_capture
    assert jump.end == 10 and jump.is_capture
    assert str(step) == "32-28" and str(jump) == "28x10"
    assert jump == Move(28, (19, 10), (23, 14))
    assert len({jump, Move(28, (19, 10), (23, 14))}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.start = 1  # type: ignore[misc]


def test_initial_position_and_first_moves():
    pos = Position.initial(INTL)
    assert pos.turn == "W"
    assert pos.counts("W") == (20, 0) and pos.counts("B") == (20, 0)
    assert {str(m) for m in pos.legal_moves()} == {
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}
    english = Position.initial(VARIANTS["english"])
    assert english.turn == "B"
    assert {str(m) for m in english.legal_moves()} == {
        "9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}


def test_play_is_pure_and_positions_compare_by_value():
    start = Position.initial(INTL)
    a = start.play(Move(32, (28,))).play(Move(19, (23,))).play(Move(33, (29,)))
    b = start.play(Move(33, (29,))).play(Move(19, (23,))).play(Move(32, (28,)))
    assert start == Position.initial(INTL)
    assert a == b and hash(a) == hash(b) and a is not b
    assert a.turn == "B"
    assert a.with_turn("W") != a
    assert a.piece_at(28) == "w" and a.piece_at(32) is None and a.piece_at(23) == "b"
    assert a.piece_at(0) is None and a.piece_at(51) is None
    assert len({a, b, start}) == 2


def test_pieces_and_counts():
    pos = parse_fen(INTL, "W:W31,K40:BK1,2,3")
    assert pos.pieces("W") == (frozenset({31}), frozenset({40}))
    assert pos.pieces("B") == (frozenset({2, 3}), frozenset({1}))
    assert pos.counts("B") == (2, 1)


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "pure"])
@pytest.mark.parametrize("colour", ["w", "b", "white", "X", "", None])
def test_a_colour_other_than_w_or_b_is_a_value_error(compiled, colour):
    """pieces() and counts() of 'w' (what piece_at says of a white man), 'white' or any other
    value used to answer Black's pieces; they refuse it, on either engine."""
    from pdn_tools.rules.core import Engine
    pos = parse_fen(INTL, "W:W31,K40:BK1,2,3", Engine(compiled))
    pos.pieces("W")                          # the compiled core's method in place, as after any use
    with pytest.raises(ValueError, match="colour must be 'W' or 'B'"):
        pos.pieces(colour)
    with pytest.raises(ValueError, match="colour must be 'W' or 'B'"):
        pos.counts(colour)


@pytest.mark.parametrize("make", [
    lambda: Position.initial("international"), lambda: Position.from_fen("international", "W:W31:B19"),
    lambda: parse_fen("english", "W:W31:B19"), lambda: Position("international", "W", {}),
    lambda: Position.initial(INTL, "pure"), lambda: Position.initial(INTL).on("pure")])
def test_a_variant_or_engine_of_the_wrong_kind_is_a_type_error_saying_what_to_pass(make):
    """Position.initial('international') failed with "'str' object has no attribute 'initial_squares'",
    and an engine named 'pure' with "no attribute 'core'": a TypeError names what to pass."""
    with pytest.raises(TypeError, match=r"(variant must be a Variant|engine must be an Engine)"):
        make()


def test_play_rejects_a_foreign_start_square():
    pos = Position.initial(INTL)
    with pytest.raises(ValueError):
        pos.play(Move(19, (23,)))


def test_capture_play_removes_pieces_and_crowns():
    pos = parse_fen(INTL, "W:W16:B11,12")
    (move,) = pos.legal_moves()
    assert move == Move(16, (7, 18), (11, 12), False)
    after = pos.play(move)
    assert after.piece_at(18) == "w" and after.counts("B") == (0, 0)
    pos = parse_fen(INTL, "W:W12:B8")
    (move,) = pos.legal_moves()
    assert move.promotes and move.path == (3,)
    after = pos.play(move)
    assert after.piece_at(3) == "W" and after.counts("B") == (0, 0)


def test_no_moves_means_empty_list():
    pos = parse_fen(INTL, "W:W:B1")
    assert pos.legal_moves() == []
    blocked = parse_fen(INTL, "W:W46:B41,37")
    assert blocked.legal_moves() == []


def test_constructor_validates():
    with pytest.raises(ValueError):
        Position(INTL, "X")
    with pytest.raises(ValueError):
        Position(INTL, "W", {51: "w"})
    with pytest.raises(ValueError):
        Position(INTL, "W", {31: "x"})


# -- notation checks of reference §6 ----------------------------------------------------------


def test_straight_stretch_lands_directly_behind():
    """PDN 3.0 restriction 9: `47x38x24x13x36`, never `47x33x...` (pydraughts notation test)."""
    pos = parse_fen(INTL, "W:WK47:B14,19,29,31,42")
    paths = {(m.start, *m.path) for m in pos.legal_moves()}
    assert (47, 38, 24, 13, 36) in paths
    assert (47, 38, 20, 9, 36) in paths  # the crossing route of the PDN 3.0 diagram
    assert not any(33 in p for p in paths)


def test_circular_capture_orders_are_separate_moves():
    """Reference §5: `W:WK38:B18,19,32,33` gives both orders of the loop and their end squares."""
    pos = parse_fen(INTL, "W:WK38:B18,19,32,33")
    paths = {(m.start, *m.path) for m in pos.legal_moves()}
    assert paths == {
        (38, 27, 13, 24, 38), (38, 27, 13, 24, 42), (38, 27, 13, 24, 47),
        (38, 24, 13, 27, 38), (38, 24, 13, 27, 43), (38, 24, 13, 27, 49),
    }


def test_russian_king_captures_with_same_start_and_end():
    """Reference §6: `W:WKd2:Bf6,c5,e5,e3`; pydraughts' a1-based 6x15x22x13 etc. translated."""
    v = VARIANTS["russian"]
    pos = parse_fen(v, "W:WKd2:Bf6,c5,e5,e3")
    got = {"x".join(v.square_text(s, True) for s in (m.start, *m.path))
           for m in pos.legal_moves()}
    assert got == {"d2xf4xd6xb4", "d2xf4xd6xa3", "d2xg5xe7xb4", "d2xg5xe7xa3"}


# -- Frisian king-move restriction -------------------------------------------------------------


def test_frisian_three_moves_with_one_king():
    """FRIS Art. 17: with kings and men, at most 3 quiet moves in a row with the same king."""
    v = VARIANTS["frisian"]
    pos = parse_fen(v, "W:WK46,35:BK1")
    for w_move, b_move in ((Move(46, (41,)), Move(1, (6,))), (Move(41, (46,)), Move(6, (1,))),
                           (Move(46, (41,)), Move(1, (6,)))):
        pos = pos.play(w_move).play(b_move)
    assert {m.start for m in pos.legal_moves()} == {35}
    assert perft(pos, 1) == 1 and perft(pos, 3) == _api_perft(pos, 3)
    pos = pos.play(Move(35, (30,))).play(Move(6, (1,)))
    assert 41 in {m.start for m in pos.legal_moves()}


def test_frisian_limit_does_not_apply_to_kings_only():
    v = VARIANTS["frisian"]
    pos = parse_fen(v, "W:WK46:BK1")
    for w_move, b_move in ((Move(46, (41,)), Move(1, (6,))), (Move(41, (46,)), Move(6, (1,))),
                           (Move(46, (41,)), Move(1, (6,)))):
        pos = pos.play(w_move).play(b_move)
    assert pos.legal_moves()


# -- invariants on random positions -------------------------------------------------------------


@st.composite
def positions(draw):
    v = VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))]
    squares = draw(st.sets(st.integers(1, v.num_squares), min_size=1, max_size=24))
    pieces = {}
    for sq in squares:
        piece = draw(st.sampled_from("wwwbbbWB"))
        row = v.coords(sq)[0]
        if (piece == "w" and row == v.promotion_row("W")) or (
                piece == "b" and row == v.promotion_row("B")):
            piece = piece.upper()
        pieces[sq] = piece
    return Position(v, draw(st.sampled_from("WB")), pieces)


@settings(max_examples=300, deadline=None)
@given(positions())
def test_generated_moves_are_consistent(pos):
    own = pos.turn
    opp = "B" if own == "W" else "W"
    free_caps = pos.captures(law=False)
    legal = pos.legal_moves()
    assert pos.has_capture() == bool(free_caps)
    assert set(pos.captures()) <= set(free_caps)
    if free_caps:
        assert legal and all(m.is_capture for m in legal)
    for m in legal:
        assert pos.piece_at(m.start).upper() == own
        # the landing square is free, or freed by the move itself (a circular capture, or
        # a piece taken earlier in the move where removal is immediate, as in Turkish)
        assert pos.piece_at(m.end) is None or m.end == m.start or (
            pos.variant.immediate_removal and m.end in m.captured)
        assert len(set(m.captured)) == len(m.captured)
        assert all(pos.piece_at(sq).upper() == opp for sq in m.captured)
        after = pos.play(m)
        assert after.turn == opp
        before_total = sum(pos.counts(opp))
        assert sum(after.counts(opp)) == before_total - len(m.captured)
        assert sum(after.counts(own)) == sum(pos.counts(own))
        assert parse_fen(pos.variant, to_fen(after)) == after


@settings(max_examples=200, deadline=None)
@given(positions())
def test_replayer_shortcuts_agree_with_legal_moves(pos):
    """moves_between, steps.quiet_step, steps.capture_step and has_move give what legal_moves and
    play give."""
    legal = pos.legal_moves()
    assert pos.has_move() == bool(legal)
    own = [sq for sq in range(1, pos.variant.num_squares + 1) if (pos.piece_at(sq) or "").upper() == pos.turn]
    for start in own + [0]:
        for end in range(0, pos.variant.num_squares + 2):
            between = [m for m in legal if (m.start, m.end) == (start, end)]
            assert pos.moves_between(start, end) == between
            quiet = [m for m in between if not m.captured]
            step = steps.quiet_step(pos, start, end)
            assert [step[0]] == quiet if step else not quiet
            if step:
                assert step[1] == pos.play(step[0]) and step[2] == pos.piece_at(start).isupper()
            captures = [m for m in between if m.captured]
            taken = {frozenset(m.captured) for m in captures}
            step = steps.capture_step(pos, start, end)
            if step:
                assert step[0] in captures and len(taken) == 1 and step[1] == pos.play(step[0])
            else:
                assert len(taken) != 1 or pos.variant.king_move_limit


def _api_perft(pos: Position, depth: int) -> int:
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(_api_perft(pos.play(m), depth - 1) for m in moves)


@settings(max_examples=150, deadline=None)
@given(positions())
def test_bulk_perft_matches_enumeration(pos):
    """perft's set-wise counting agrees with legal_moves() + play() on random positions."""
    moves = pos.legal_moves()
    assert perft(pos, 1, keep_duplicates=True) == len(moves)
    assert perft(pos, 1) == len({(m.start, m.end, frozenset(m.captured), m.promotes)
                                 for m in moves})
    assert perft(pos, 2, keep_duplicates=True) == _api_perft(pos, 2)


def test_a_king_ending_on_a_square_it_took_stays_a_king():
    """Turkish removes a taken piece at once, so a king may come back to land on its square
    (found by test_generated_moves_are_consistent): the king keeps its crown."""
    pos = parse_fen(VARIANTS["turkish"], "W:WK1,K2,16,17,18,19,24,25,26,27,28,29,32:B6,14,15,34,49,K58")
    moves = [m for m in pos.legal_moves() if (m.start, m.end) == (2, 6)]
    assert moves and all(6 in move.captured and pos.play(move).piece_at(6) == "W" for move in moves)


@settings(max_examples=80, deadline=None, database=None, derandomize=True)
@given(name=st.sampled_from(sorted(VARIANTS)), data=st.data())
def test_the_core_reads_and_makes_bitboards_of_any_size_as_python_does(name, data):
    """The compiled core reads a bitboard's int at once when it fits 128 bits (rules/_rules.c
    to_set): any set of squares, crowned or not, gives the pure engine's pieces, FEN and moves; a
    negative int, one too big for the board or one with a padding bit is refused as before.  The
    ints it makes (from_set) are the positions test_fast_plies compares with the pure replay's."""
    from pdn_tools.rules.core import PURE, Engine
    variant = VARIANTS[name]
    pieces = data.draw(st.dictionaries(st.integers(1, variant.num_squares), st.sampled_from("wWbB"), max_size=20))
    compiled, pure = Position(variant, "W", pieces, Engine(True)), Position(variant, "W", pieces, PURE)
    for colour in "WB":
        assert compiled.pieces(colour) == pure.pieces(colour)
    assert compiled.fen() == pure.fen()
    assert [str(m) for m in compiled.legal_moves()] == [str(m) for m in pure.legal_moves()]
    core = compiled._rl.core
    assert core is not None
    padding = next(bit for bit in range(compiled._rl.valid.bit_length()) if not compiled._rl.valid >> bit & 1)
    for wrong, error in ((-1, OverflowError), (1 << 200, OverflowError), (1 << padding, ValueError),
                         (compiled._rl.valid | 1 << padding, ValueError)):
        with pytest.raises(error):
            core.pieces(wrong, 0)
