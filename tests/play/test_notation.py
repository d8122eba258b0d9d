"""Notation: move text in each style, canonical tag order, move numbers, drops and fixed results."""
import pytest

from pdn_tools import read_text
from pdn_tools.rules.fen import parse_fen
from pdn_tools.play.notation import Style, ambiguous, canonical_game, canonical_tags, move_text, result_fixes
from pdn_tools.play.replay import replay
from pdn_tools.rules.variants import variant_by_name
from pdn_tools.text.writer import write_game


def position(variant: str, fen: str):
    return parse_fen(variant_by_name(variant), fen)


def texts(variant: str, fen: str, style: Style = Style()) -> list[str]:
    before = position(variant, fen)
    return [move_text(before, move, style) for move in before.legal_moves()]


def canonical(text: str, style: Style = Style()) -> str:
    [game] = read_text(text)
    return write_game(canonical_game(game, replay(game), style)).strip()


def test_ambiguous_king_capture_is_written_with_turning_squares_and_squares_behind():
    # Reference §6: 47x36 fits two captures; 47x38x24x13x36, not 47x33x24x13x36.
    fen = "W:WK47:B14,19,29,31,42"
    assert sorted(texts("international", fen)) == ["47x38x20x9x36", "47x38x24x13x36"]
    assert sorted(texts("international", fen, Style(captures="full"))) == ["47x38x20x9x36", "47x38x24x13x36"]


def test_unambiguous_capture_is_short_unless_full_is_asked():
    fen = "W:W32,39:B27,33,22"             # the majority capture 39x28x17 is the only legal move
    assert texts("international", fen) == ["39x17"]
    assert texts("international", fen, Style(captures="full")) == ["39x28x17"]


def test_captures_of_the_same_pieces_in_another_order_are_not_ambiguous():
    before = position("international", "W:WK38:B18,19,32,33")
    circular = [m for m in before.legal_moves() if m.end == 38]
    assert len(circular) == 2 and not ambiguous(before, circular[0])
    assert move_text(before, circular[0]) == "38x38"
    assert move_text(before, circular[0], Style(captures="full")) == "38x27x13x24x38"


def test_squares_and_separator_styles():
    fen = "W:Wc3,g3:Bd4"
    assert sorted(texts("russian", fen)) == ["c3xe5"]
    assert sorted(texts("russian", fen, Style(separator=":"))) == ["c3:e5"]
    assert sorted(texts("russian", fen, Style(squares="numeric", separator=":"))) == ["22:15"]
    assert sorted(texts("international", "W:W32:B1", Style(squares="alpha"))) == ["d4-c5", "d4-e5"]


def test_canonical_tags_put_the_standard_ones_first_and_keep_the_rest_in_order():
    tags = [("Opening", "x"), ("FEN", "f"), ("Black", "b"), ("Zeta", "z"), ("Event", "e"), ("GameType", "20"),
            ("Alpha", "a"), ("Event", "e2")]
    assert [name for name, _ in canonical_tags(tags)] == [
        "Event", "Event", "Black", "GameType", "FEN", "Opening", "Zeta", "Alpha"]


def test_move_numbers_are_made_again_from_the_ply():
    text = '[GameType "20"]\n3. 32-28 19-23 28x19 {c} 14x23 (13x24 34-30) 33-28 *'
    assert canonical(text).splitlines()[-1] == \
        "1. 32-28 19-23 2. 28x19 {c} 2... 14x23 (2... 13x24 3. 34-30) 3. 33-28 *"


def test_a_game_started_by_the_second_player_begins_with_an_ellipsis():
    assert canonical('[GameType "20"]\n[FEN "B:W28,38:B19"]\n19-23 28x19 *').splitlines()[-1] == \
        "1... 19-23 2. 28x19 *"
    # English: Black moves first, so a Black move from the start position is move 1.
    assert canonical('[GameType "21"]\n1... 11-15 23-19 *').splitlines()[-1] == "1. 11-15 23-19 *"


def test_numbering_follows_a_setup_that_changes_the_side_to_move():
    text = '[GameType "20"]\n1. 32-28 /FEN "W:W28:B19"/ 28-22 *'
    assert canonical(text).splitlines()[-1] == '1. 32-28 /FEN "W:W28:B19"/ 2. 28-22 *'


def test_a_variation_for_the_next_move_is_numbered_as_that_move():
    # Some exports put the alternative to the next move after the move (replay warns).
    text = '[GameType "20"]\n1. 34-30 (17-21) 20-25 *'
    assert canonical(text).splitlines()[-1] == "1. 34-30 (1... 17-21) 1... 20-25 *"


def test_long_movetext_is_wrapped_at_80_columns():
    moves = " ".join(["32-28 19-23 28x19 14x23 37-32 23-28 32x23 18x29 34x23", "20-25 23-18 13x22 33-28 22x33",
                      "39x28"])
    lines = canonical(f'[GameType "20"]\n{moves} *').splitlines()
    assert max(len(line) for line in lines) <= 80 and len(lines) > 3


@pytest.mark.parametrize("drop, last", [
    ({"comments"}, "1. 32-28 $1 (1. 31-27) 1... 19-23 *"),
    ({"variations"}, "1. 32-28 $1 {c} 1... 19-23 *"),
    ({"nags"}, "1. 32-28 (1. 31-27) {c} 1... 19-23 *"),
])
def test_drop_leaves_out_what_is_named_and_keeps_strengths(drop, last):
    text = '{before}\n[GameType "20"]\n1. 32-28 $1 (1. 31-27) {c} 19-23 *'
    out = canonical(text, Style(drop=frozenset(drop)))
    assert out.splitlines()[-1] == last
    assert ("{before}" in out) == ("comments" not in drop)
    assert canonical('[GameType "20"]\n1. 32-28! 19-23?! *', Style(drop=frozenset({"nags"}))).splitlines()[-1] == \
        "1. 32-28! 19-23?! *"


def test_rewritten_moves_keep_strength_marks_and_variations():
    text = '[GameType "25"]\n1. c3-d4! (1. c3-b4) f6-e5 2. d4xf6 g7xe5 *'
    out = canonical(text, Style(squares="numeric", separator=":"))
    assert out.splitlines()[-1] == "1. 22-18! (1. 22-17) 1... 11-15 2. 18:11 8:15 *"


def test_fixed_results_only_where_the_final_position_settles_it():
    won = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "{}"]\n1. 28x19 {}'
    for stated, fixes in (("*", ("2-0", "2-0")), ("0-2", ("2-0", "2-0")), ("1-0", (None, None)),
                          ("2-0", (None, None))):
        [game] = read_text(won.format(stated, stated))
        assert result_fixes(game, replay(game)) == fixes, stated
    [open_game] = read_text('[GameType "20"]\n[Result "0-2"]\n1. 32-28 0-2')
    assert result_fixes(open_game, replay(open_game)) == (None, None)
    [untagged] = read_text('[GameType "20"]\n[FEN "W:W28:B23"]\n1. 28x19 *')
    fixed = canonical_game(untagged, replay(untagged), Style(fix_results=True))
    assert fixed.tag("Result") == "2-0" and fixed.result == "2-0"


@pytest.mark.parametrize("field, value", [("captures", "long"), ("squares", "algebraic"), ("separator", "-"),
                                          ("separator", ""), ("drop", frozenset({"clocks"})), ("drop", "nags")])
def test_a_style_pdn_cannot_write_is_a_value_error(field, value):
    """Style(squares='algebraic') or Style(captures='long') wrote numeric squares and short captures
    without a word, and Style(separator='-') wrote captures as quiet moves: a value the command
    line's choices would refuse is refused by Style itself, naming the field and the choices."""
    with pytest.raises(ValueError, match=f"Style {field}"):
        Style(**{field: value})


def test_every_style_the_command_line_offers_is_made():
    for captures in (None, "short", "full"):
        for squares in (None, "numeric", "alpha"):
            for separator in (None, "x", ":"):
                Style(captures, squares, separator, frozenset({"comments", "variations", "nags"}), True)
