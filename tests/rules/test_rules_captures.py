"""Hand-made positions for each capture rule, with the rule's source.

Positions are given in algebraic squares of the White-at-bottom view; White men move up.
"""

from dataclasses import replace

import pytest

from boards import on_both_engines, setup, square, texts
from pdn_tools.rules import laws, steps
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import VARIANTS


# -- precedence laws -------------------------------------------------------------------------


def test_spanish_quality_law_seed_example():
    """Seed 003 rules 22-23 and its closing example: with equal numbers, the black man must
    take the white man and king rather than two white men."""
    pos = setup("spanish", "B", white="d5 b3 f5 Kf3", black="e6")
    assert texts(pos) == {"e6xg4xe2"}
    assert texts(pos, pos.captures(law=False)) == {"e6xg4xe2", "e6xc4xa2"}


def test_spanish_quantity_before_quality():
    """Seed 003 rule 22 comes first: two men outweigh one king."""
    pos = setup("spanish", "B", white="Kd5 g6 g4", black="e6 h7")
    assert texts(pos) == {"h7xf5xh3"}


def test_spanish_quality_is_the_kings_taken_and_nothing_more():
    """Seed 003 line 25 (rule 23): "A igual número de piezas a capturar, es obligatorio capturar a
    las de mayor calidad, dama antes que peón."  A king taken outweighs a man; with the same pieces
    taken the choice is free: no text makes the king capture first (as Italian does)."""
    assert texts(setup("spanish", "W", white="g6 Kb1", black="Kf7 c2")) == {"g6xe8"}
    assert texts(setup("spanish", "W", white="g6 Kb1", black="f7 c2")) == {"g6xe8", "b1xd3", "b1xe4", "b1xf5"}


def test_portuguese_shares_the_spanish_laws():
    """Reference §4.1: Portuguese (28) = Spanish rules and layout."""
    pos = setup("portuguese", "B", white="d5 b3 f5 Kf3", black="e6")
    assert texts(pos) == {"e6xg4xe2"}


def test_international_majority_king_counts_one():
    """FMJD 4.13 / seed 002 "Debes hacer la captura mayor": most pieces, a king counts as one."""
    pos = setup("international", "W", white="c3 h2", black="Kd4 g3 g5")
    assert texts(pos) == {"h2xf4xh6"}
    # Man + king equals two men: both are legal, no king priority.
    pos = setup("international", "W", white="c3 h2", black="Kd4 f6 g3 g5")
    assert texts(pos) == {"h2xf4xh6", "c3xe5xg7"}


def test_canadian_and_brazilian_take_the_majority():
    """Seed 000 (Canadian 12x12: "Ley de la Cantidad") and seed 001 (Brazilian: as many as possible)."""
    assert texts(setup("canadian", "W", white="c3 h2", black="Kd4 g3 g5")) == {"h2xf4xh6"}
    assert texts(setup("brazilian", "W", white="a3 e1", black="b4 d6 f2")) == {"a3xc5xe7"}


def test_russian_free_choice():
    """Seed 001 and W-RU: Russian needs not take the most pieces, but must finish the sequence."""
    pos = setup("russian", "W", white="a3 e1", black="b4 d6 f2")
    assert texts(pos) == {"a3xc5xe7", "e1xg3"}


def test_english_free_choice():
    """Seed 001 (damas rectas): one must capture, not necessarily the most pieces."""
    pos = setup("english", "W", white="a3 e1", black="b4 d6 f2")
    assert texts(pos) == {"a3xc5xe7", "e1xg3"}


def test_pool_free_choice():
    """Reference §4.1, APCA: American pool has free choice."""
    pos = setup("pool", "W", white="a3 e1", black="b4 d6 f2")
    assert texts(pos) == {"a3xc5xe7", "e1xg3"}


def test_italian_men_cannot_capture_kings():
    """FID / reference §4.1: Italian men never capture a king."""
    pos = setup("italian", "W", white="e2", black="Kf3")
    assert not pos.has_capture()
    assert texts(pos) == {"e2-d3"}
    assert texts(setup("italian", "W", white="e2", black="f3")) == {"e2xg4"}


def test_italian_priority_with_king():
    """Italian step 2 (reference §4.2): at equal count, capturing with a king is compulsory."""
    pos = setup("italian", "W", white="c4 Kh7", black="d5 g6")
    assert texts(pos) == {"h7xf5"}
    assert texts(pos, pos.captures(law=False)) == {"h7xf5", "c4xe6"}


def test_italian_priority_most_kings():
    """Italian step 3: at equal count and piece, take the most kings."""
    pos = setup("italian", "W", white="Ke4", black="d5 Kb7 f5 f7")
    assert texts(pos) == {"e4xc6xa8"}


def test_italian_priority_earliest_king():
    """Italian step 4: at equal kings, the sequence that meets a king first."""
    pos = setup("italian", "W", white="Ke4", black="Kd5 b7 f5 Kf7")
    assert texts(pos) == {"e4xc6xa8"}
    assert texts(pos, pos.captures(law=False)) == {"e4xc6xa8", "e4xg6xe8"}


def test_italian_count_comes_first():
    """Italian step 1: most pieces beats capturing with a king."""
    pos = setup("italian", "W", white="a2 Kh7", black="b3 d5 g6")
    assert texts(pos) == {"a2xc4xe6"}


def test_czech_king_must_capture():
    """W-CZ, DCTL czech.hpp: if a king can capture, a king must capture (count is free)."""
    pos = setup("czech", "W", white="e3 Ka5", black="f4 f6 c3")
    assert texts(pos) == {"a5xd2", "a5xe1"}


def test_czech_men_free_choice_and_forward_only():
    """W-CZ: without a king capture the choice is free; men capture forward only."""
    pos = setup("czech", "W", white="a3 e1 d4", black="b4 d6 f2 c3")
    assert texts(pos) == {"a3xc5xe7", "e1xg3"}


def test_frisian_value_law():
    """FRIS Art. 11-12: a king is worth more than one man and less than two."""
    pos = setup("frisian", "W", white="c3 i3", black="Kd4 h4")
    assert texts(pos) == {"c3xe5"}
    pos = setup("frisian", "W", white="c3 i3", black="Kd4 h4 h6")
    assert texts(pos) == {"i3xg5xi7"}


def test_frisian_king_must_capture_at_equal_value():
    """FRIS Art. 13: at equal value the king captures."""
    pos = setup("frisian", "W", white="c3 Kj8", black="d4 i9")
    assert texts(pos) == {"j8xh10"}
    assert texts(pos, pos.captures(law=False)) == {"j8xh10", "c3xe5"}


def test_frisian_orthogonal_captures():
    """FRIS Art. 7: men also capture along files and ranks, two squares at a time."""
    pos = setup("frisian", "W", white="e5", black="e7 g5")
    assert texts(pos) == {"e5xe9", "e5xi5"}
    pos = setup("frisian", "W", white="Ke1", black="e5")
    assert texts(pos) == {"e1xe7", "e1xe9"}


def test_turkish_majority_counts_kings_as_one():
    """W-TR, KISH: the most pieces, man = king."""
    pos = setup("turkish", "W", white="a4 h4", black="a5 Kh5 g4")
    assert texts(pos) == {"a4xa6", "h4xh6", "h4xf4"}


# -- king geometry, blocking and removal ---------------------------------------------------


def test_flying_king_lands_anywhere_behind():
    """FMJD 4.6 / seed 002: after the last capture the king may stop on any free square."""
    pos = setup("international", "W", white="Ka1", black="c3")
    assert texts(pos) == {f"a1x{sq}" for sq in ("d4", "e5", "f6", "g7", "h8", "i9", "j10")}


def test_flying_king_must_stop_where_it_can_continue():
    """Seed 002: "Si una de esas casillas permite seguir capturando, debe detenerse en una que lo
    permita"; the final landing square is free."""
    pos = setup("international", "W", white="Ka1", black="c3 f4")
    assert texts(pos) == {"a1xe5xg3", "a1xe5xh2", "a1xe5xi1"}
    pos = setup("russian", "W", white="Ka1", black="c3 f4")  # free choice, same landing rule
    assert texts(pos) == {"a1xe5xg3", "a1xe5xh2"}


def test_two_pieces_in_a_row_cannot_be_jumped():
    """FMJD 4.3 / seed 003 rule 13: a king cannot jump two adjacent pieces."""
    pos = setup("russian", "W", white="Ka1", black="c3 d4")
    assert not pos.has_capture()
    assert texts(pos) == {"a1-b2"}


def test_jumped_piece_blocks_until_the_move_ends():
    """W-RU "Turkish strike" / seed 003 rule 19: jumped pieces stay and block, so a king cannot
    turn back over the piece it just took; Thai removes at once and may turn (reference §4.1)."""
    pos = setup("russian", "W", white="Kc3", black="d4 b2")
    assert texts(pos) == {"c3xe5", "c3xf6", "c3xg7", "c3xh8", "c3xa1"}
    pos = setup("thai", "W", white="Kc3", black="d4 b2")
    assert texts(pos) == {"c3xe5xa1", "c3xa1xe5"}


def test_turkish_strike_loop_is_cut_by_the_first_piece():
    """A loop that would re-cross its first jumped piece stops there while pieces stay on the
    board (Russian); the same loop goes on when pieces leave at once (hypothetical switch)."""
    pos = setup("russian", "W", white="Kc1", black="d2 d4 b4 b2 f4")
    for move in pos.captures(law=False):
        assert len(set(move.captured)) == len(move.captured)
        assert len(move.captured) <= 4
    v = VARIANTS["russian"]
    names = {tuple(v.square_text(sq, True) for sq in m.captured) for m in pos.legal_moves()}
    assert ("d2", "d4", "b4", "b2") in names
    passing = replace(VARIANTS["russian"], immediate_removal=True)
    pos2 = Position(passing, "W", {pos.variant.parse_square(s): p for s, p in
                                   (("c1", "W"), ("d2", "b"), ("d4", "b"), ("b4", "b"),
                                    ("b2", "b"), ("f4", "b"))})
    assert max(len(m.captured) for m in pos2.legal_moves()) == 5


def test_turkish_immediate_removal_and_no_reversal():
    """W-TR: pieces leave one by one, so the king may cross a freed square; no 180-degree turn."""
    pos = setup("turkish", "W", white="Ka4", black="b4 c5 b6 a5 d4")
    moves = pos.legal_moves()
    assert {len(m.captured) for m in moves} == {5}
    v = pos.variant
    assert {tuple(v.square_text(sq, True) for sq in m.captured) for m in moves} == {
        ("b4", "c5", "b6", "a5", "d4")}
    assert texts(pos) == {f"a4xc4xc6xa6xa4x{sq}" for sq in ("e4", "f4", "g4", "h4")}
    pos = setup("turkish", "W", white="Kd4", black="d5 d3")
    assert texts(pos) == {"d4xd6", "d4xd7", "d4xd8", "d4xd2", "d4xd1"}


def test_piece_never_jumped_twice_in_circular_capture():
    """FMJD 4.10 / seed 003 rule 18: each piece once; the king may return to its start square."""
    pos = setup("international", "W", white="Ke3", black="d4 c7 g7 f4")
    for move in pos.legal_moves():
        assert len(set(move.captured)) == len(move.captured) == 4
    assert any(move.end == move.start for move in pos.legal_moves())


# -- promotion during a capture ------------------------------------------------------------


def test_russian_man_crowned_in_passing_continues_as_king():
    """W-RU / reference §4.2: the man is crowned on d8 and goes on capturing as a flying king."""
    pos = setup("russian", "W", white="b6", black="c7 f6")
    assert texts(pos) == {"b6xd8xg5", "b6xd8xh4"}
    assert all(m.promotes for m in pos.legal_moves())
    g5 = pos.variant.parse_square("g5")
    (move,) = [m for m in pos.legal_moves() if m.end == g5]
    after = pos.play(move)
    assert after.piece_at(g5) == "W"
    assert after.counts("W") == (0, 1)
    assert after.counts("B") == (0, 0)


def test_brazilian_man_on_promotion_row_stops():
    """Reference §4.1: Brazilian crowns only where the move ends; here it ends on d8."""
    pos = setup("brazilian", "W", white="b6", black="c7 f6")
    assert texts(pos) == {"b6xd8"}
    assert pos.legal_moves()[0].promotes


def test_brazilian_passing_the_king_row_does_not_crown():
    """Seed 002 line 3: "Sus reglas de captura y coronación coinciden con las de las damas
    brasileñas"; line 14: "El que cae en ella en plena captura y debe continuar sigue siendo peón
    al terminar la jugada." Seed 001 line 12 gives crowning mid-capture to Russian alone."""
    pos = setup("brazilian", "W", white="b6", black="c7 e7")
    (move,) = pos.legal_moves()
    assert texts(pos) == {"b6xd8xf6"} and not move.promotes
    assert pos.play(move).counts("W") == (1, 0)
    # the Russian man goes on from d8 as a flying king
    assert texts(setup("russian", "W", white="b6", black="c7 e7")) == {"b6xd8xf6", "b6xd8xg5", "b6xd8xh4"}


def test_international_passing_the_king_row_does_not_crown():
    """FMJD 4.15 / seed 002 "Pasar por la fila de coronacion": only ending there crowns."""
    pos = setup("international", "W", white="d8", black="e9 g9")
    (move,) = pos.legal_moves()
    assert texts(pos) == {"d8xf10xh8"}
    assert not move.promotes
    assert pos.play(move).counts("W") == (1, 0)


def test_pool_passing_the_king_row_does_not_crown():
    """APCA / DCTL pool.hpp: a man that must jump on backward stays a man."""
    pos = setup("pool", "W", white="d6", black="e7 g7")
    (move,) = pos.legal_moves()
    assert texts(pos) == {"d6xf8xh6"}
    assert not move.promotes


def test_english_promotion_ends_the_move():
    """Reference §4.1 / seed 001: a man crowned by a jump stops, even if a king could go on."""
    pos = setup("english", "W", white="b6", black="c7 e7")
    (move,) = pos.legal_moves()
    assert texts(pos) == {"b6xd8"}
    assert move.promotes


def test_italian_and_spanish_promotion_ends_the_move():
    """Reference §4.1: Italian and Spanish men stop on the king row."""
    pos = setup("italian", "W", white="a6", black="b7 d7")
    assert texts(pos) == {"a6xc8"}
    pos = setup("spanish", "W", white="a6", black="b7 d7")
    assert texts(pos) == {"a6xc8"}


# -- short forms under free choice ----------------------------------------------------------

# Seed 002 line 27: "Las casillas de llegada se añaden solo cuando dos capturas legales comparten
# inicio y final pero toman piezas distintas."  Under free choice (reference §7.4: English, pool,
# Russian, Thai) a short capture may name a single jump and a longer capture coming back.
FREE_CHOICE = sorted(v.name for v in VARIANTS.values() if v.law is laws.free)
# A capture loop round c5 (d4 b4 b6 d6) from e5, and f4 to take last or alone: e5xg3.
LOOP = "d4 b4 b6 d6 f4"


def short_forms(pos: Position) -> dict[tuple[int, int], bool]:
    """(start, end) of every lawful capture -> whether its captures take different pieces."""
    taken: dict[tuple[int, int], set[frozenset[int]]] = {}
    for move in pos.legal_moves():
        taken.setdefault((move.start, move.end), set()).add(frozenset(move.captured))
    return {pair: len(sets) > 1 for pair, sets in taken.items()}


def assert_steps_follow_the_short_forms(pos: Position) -> dict[tuple[int, int], bool]:
    """Both engines' capture_step (the replayer's shortcut) refuse exactly the ambiguous
    short forms and play the others as the generator does."""
    forms = short_forms(pos)
    for twin in on_both_engines(pos):
        for (start, end), ambiguous in forms.items():
            step = steps.capture_step(twin, start, end)
            assert (step is None) == ambiguous, (pos.variant.name, start, end)
            if step is not None:
                assert step[0] in pos.legal_moves()
    return forms


def test_the_free_choice_variants_are_those_of_the_reference():
    assert FREE_CHOICE == ["english", "pool", "russian", "thai"]


@pytest.mark.parametrize("name", FREE_CHOICE)
def test_a_man_coming_back_round_a_loop_makes_a_single_jump_ambiguous(name):
    """A man that jumps backwards may take d4 b4 b6 d6 and come back to e5, then take f4:
    e5xg3 names that capture and the single jump over f4.  Where men jump forwards only the
    single jump cannot be matched, so the man's short forms are all unambiguous."""
    pos = setup(name, "W", white="e5", black=LOOP)
    v = pos.variant
    e5, g3 = square(v, "e5"), square(v, "g3")
    forms = assert_steps_follow_the_short_forms(pos)
    backwards = any(d.startswith("b") for d in v.man_jumps)
    assert forms.get((e5, g3), False) == backwards
    if backwards:
        assert texts(pos, [m for m in pos.legal_moves() if m.end == g3]) == {
            "e5xg3", "e5xc3xa5xc7xe5xg3", "e5xc7xa5xc3xe5xg3"}
    else:
        assert not any(forms.values())


@pytest.mark.parametrize("name", FREE_CHOICE)
def test_a_king_coming_back_round_a_loop_makes_its_short_capture_ambiguous(name):
    """The same loop taken by a king, in every free-choice variant."""
    pos = setup(name, "W", white="Ke5", black=LOOP)
    v = pos.variant
    forms = assert_steps_follow_the_short_forms(pos)
    assert forms[square(v, "e5"), square(v, "g3")]


@pytest.mark.parametrize("name", FREE_CHOICE)
def test_a_single_jump_beside_another_first_jump_is_one_capture(name):
    """One limit of the shortcut: a man with two first jumps, neither going on, names each
    of them unambiguously by its short form."""
    pos = setup(name, "W", white="d4", black="c5 e5")
    v = pos.variant
    forms = assert_steps_follow_the_short_forms(pos)
    assert forms == {(square(v, "d4"), square(v, "b6")): False, (square(v, "d4"), square(v, "f6")): False}
