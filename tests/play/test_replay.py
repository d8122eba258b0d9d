"""The replayer: every notated move resolved to one legal move, results and draw rules checked."""
from collections import Counter

import pytest
from hypothesis import given, settings

from corpus import CORPUS, needs_corpus
from pdn_tools import read_games, read_text
from pdn_tools.rules.draws import DrawTracker
from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.movegen import Position
from pdn_tools.play.check import move_label, move_labels
from pdn_tools.play.replay import replay
from pdn_tools.rules.variants import variant_by_name
from test_round_trip import random_games

INTERNATIONAL = variant_by_name("international")


def run(text: str, **options):
    [game] = read_text(text)
    return replay(game, **options)


def codes(result) -> list[str]:
    return [e.code for e in result.errors]


def test_a_clean_game_replays_and_keeps_every_ply():
    result = run('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *')
    assert result.ok and result.variant.name == "international"
    assert [p.move.end for p in result.plies] == [28, 23, 19, 23]
    assert result.plies[2].move.captured == (23,)


def test_bad_square_names_the_square_and_its_place():
    result = run('[GameType "20"]\n1. 32-28 19-23 2. 28x51 *')
    assert codes(result) == ["bad-square"]
    error = result.errors[0]
    assert (error.line, error.column, error.ply) == (2, 19, 3)
    assert "'51'" in error.message and "international" in error.message


def test_illegal_move_is_located_by_ply():
    result = run('[GameType "20"]\n1. 32-28 19-24 2. 33-27 *')
    assert codes(result) == ["illegal-move"] and result.errors[0].ply == 3
    assert "33-27" in result.errors[0].message


def test_moving_the_opponents_piece_is_explained():
    result = run('[GameType "20"]\n1. 19-23 *')
    assert "not White's" in result.errors[0].message


def test_quiet_move_when_a_capture_is_compulsory():
    result = run('[GameType "20"]\n[FEN "W:W32,38:B27"]\n1. 38-33 *')
    assert codes(result) == ["capture-required"]
    assert "32x21" in result.errors[0].message


def test_capture_breaking_the_majority_law():
    # Seed 002: among several captures the one taking most pieces is compulsory.
    result = run('[GameType "20"]\n[FEN "W:W32,39:B27,33,22"]\n1. 32x21 *')
    assert codes(result) == ["capture-law"]
    assert "39x28x17" in result.errors[0].message


def test_majority_capture_is_accepted_short_or_full():
    for notation in ("39x17", "39x28x17"):
        assert run(f'[GameType "20"]\n[FEN "W:W32,39:B27,33,22"]\n1. {notation} *').ok


@needs_corpus
def test_ambiguous_short_capture_lists_the_full_paths():
    # A real game (PDN standard's schildpad.pdn, game 3): 36x16 fits two king captures.
    games = list(read_games(CORPUS / "international" / "wiegerw-succeed-schildpad.pdn"))
    result = replay(games[2])
    assert codes(result) == ["ambiguous-capture"]
    assert "36x13x2x16" in result.errors[0].message and "36x18x7x16" in result.errors[0].message


def test_circular_capture_in_either_order_is_one_move():
    # Reference §5: 38x27x13x24x38 and 38x24x13x27x38 take the same pieces: not ambiguous.
    fen = '[GameType "20"]\n[FEN "W:WK38:B18,19,32,33"]\n'
    assert run(fen + "1. 38x38 *").ok
    result = run(fen + "1. 38x24x13x27x38 *")
    assert result.ok and result.plies[0].move.path == (24, 13, 27, 38)


@needs_corpus
def test_intermediate_square_resolves_an_ambiguous_capture():
    games = list(read_games(CORPUS / "international" / "wiegerw-succeed-schildpad.pdn"))
    game = games[2]
    [move] = [m for m in game.main_line() if m.text == "36x16"]
    move.squares = ("36", "13", "2", "16")
    result = replay(game)
    assert "ambiguous-capture" not in codes(result)
    assert [p.move.path for p in result.plies if p.notated is move] == [(13, 2, 16)]


def test_partial_and_passed_over_squares_are_accepted():
    # kurnik writes some landing squares only; a flying king may be given a square it crossed.
    result = run('[GameType "29"]\n[FEN "B:WK20,23:BKa1"]\n1... a1xf6xh8 *')
    assert result.ok, result.errors


def test_capture_written_as_quiet_move_is_a_warning_even_strictly():
    text = '[GameType "20"]\n[FEN "W:W32:B27"]\n1. 32-21 *'
    assert run(text).ok and "capture-notation" in [w.code for w in run(text).warnings]
    strict = run(text, strict=True)
    assert strict.ok and [w.code for w in strict.warnings] == ["capture-notation", "unfinished"]


@needs_corpus
@pytest.mark.parametrize("name", ["wiegerw-succeed-PROF2.pdn", "horizon-bd-oud-PROF2.PDN"])
def test_strict_mode_reads_the_standards_prof2_games(name):
    # PDN 3.0 succeed file PROF2.pdn: game 11 writes the capture 30x39 as `30-39`, game 14 the
    # quiet move 38-33 as `38x33`; the reading grammar accepts both (docs/reading.md: strict mode reads
    # every succeed file), so they stay warnings.
    games = {g.index: g for g in read_games(CORPUS / "international" / name, strict=True)}
    for index, text in ((11, "30-39: capture written as a quiet move"),
                        (14, "38x33: quiet move written as a capture")):
        result = replay(games[index], strict=True)
        assert result.ok, result.errors
        assert [w.message for w in result.warnings if w.code == "capture-notation"] == [text]


def test_bad_fen_is_located_at_the_tag():
    result = run('[Event "x"]\n[GameType "20"]\n[FEN "W:W31,31:B1"]\n*')
    assert codes(result) == ["bad-fen"]
    assert (result.errors[0].line, result.errors[0].column) == (3, 1)
    assert "twice" in result.errors[0].message


def test_setup_in_movetext_replaces_the_position():
    result = run('[GameType "20"]\n1. 32-28 /FEN "W:W40:B1"/ 40-34 *')
    assert result.ok and result.plies[-1].move.start == 40


def test_errors_in_variations_are_reported():
    result = run('[GameType "20"]\n1. 32-28 (1. 32-26) 19-23 *')
    assert codes(result) == ["illegal-move"] and "variation" in result.errors[0].message


def test_variation_numbered_for_the_next_move_is_understood():
    # lidraughts broadcasts write `1. 34-30 (1... 5-10) 1... 20-25`.
    result = run('[GameType "20"]\n1. 34-30 (1... 20-24) 1... 20-25 *')
    assert result.ok and [w.code for w in result.warnings] == ["variation-place"]


def test_unknown_gametype_is_an_error_and_malformed_one_is_read():
    assert codes(run('[GameType "77"]\n1. 32-28 *')) == ["bad-gametype"]
    result = run('[GameType "20,W,0,0,N,0"]\n1. 32-28 *')
    assert result.ok and result.variant.name == "international"


def test_missing_gametype_is_inferred_with_a_warning():
    result = run("1. 11-15 23-19 2. 8-11 22-17 *")
    assert result.ok and result.variant.name == "english"
    assert result.warnings[0].code == "inferred-variant"
    assert run("1. c3-d4 f6-g5 *").variant.name == "russian"
    assert run("1. 32-28 19-23 *").variant.name == "international"


# ---- results --------------------------------------------------------------------------------

def test_english_result_counts_the_first_player_black():
    # Reference §1.7: in English PDN `1-0` is a win for Black, who moves first.
    text = '[GameType "21"]\n[FEN "B:W18:B14"]\n[Result "{}"]\n1... 14x23 {}'
    assert run(text.format("1-0", "1-0")).ok
    assert codes(run(text.format("0-1", "0-1"))) == ["wrong-result"]


def test_international_result_when_the_side_to_move_is_blocked():
    text = '[GameType "20"]\n[FEN "W:W32:B27"]\n[Result "{}"]\n1. 32x21 {}'
    assert run(text.format("2-0", "2-0")).ok
    result = run(text.format("1-1", "1-1"))
    assert codes(result) == ["wrong-result"] and "White has won" in result.errors[0].message
    assert [w.code for w in run(text.format("*", "*")).warnings] == ["unfinished"]


def test_result_tag_and_terminator_disagreeing_is_warned():
    result = run('[GameType "20"]\n[Result "2-0"]\n1. 32-28 *')
    assert result.ok and [w.code for w in result.warnings] == []
    result = run('[GameType "20"]\n[Result "2-0"]\n1. 32-28 0-2')
    assert [w.code for w in result.warnings] == ["result-mismatch"]


@needs_corpus
def test_the_standards_own_english_archive_has_consistent_results():
    for game in read_games(CORPUS / "english" / "wiegerw-succeed-OCA_2.0.pdn"):
        assert "wrong-result" not in codes(replay(game))


# ---- draw rules -----------------------------------------------------------------------------

def _wander(fen: str, plies: int, variant=INTERNATIONAL) -> list[str]:
    """Moves of a walk of `plies` plies that never repeats a position and never allows a
    capture (kings only), found by depth-first search."""
    def walk(position: Position, seen: set, left: int) -> list[str] | None:
        if left == 0:
            return []
        for move in position.legal_moves():
            after = position.play(move)
            if move.captured or after in seen or after.has_capture():
                continue
            rest = walk(after, seen | {after}, left - 1)
            if rest is not None:
                return [f"{move.start}-{move.end}"] + rest
        return None
    start = parse_fen(variant, fen)
    return walk(start, {start}, plies)


def _game(fen: str, moves: list[str], result: str) -> str:
    return f'[GameType "20"]\n[FEN "{fen}"]\n[Result "{result}"]\n{" ".join(moves)} {result}'


def test_25_move_rule_draws_after_50_king_plies():
    # Seed 002 line 21: "Veinticinco jugadas. Durante 25 jugadas seguidas de cada jugador solo se
    # han movido damas, sin mover ningún peón y sin captura."
    fen = "W:WK46,K47:BK4,K5"
    assert run(_game(fen, _wander(fen, 50), "1-1")).ok
    result = run(_game(fen, _wander(fen, 50), "2-0"))
    assert codes(result) == ["wrong-result"] and "25-move rule" in result.errors[0].message
    assert run(_game(fen, _wander(fen, 49), "2-0")).ok


def test_16_move_rule_three_pieces_with_a_king_against_a_king():
    # Seed 002 line 22: "Dieciséis jugadas. Tres damas, dos damas y un peón, o una dama y dos
    # peones contra una dama: cada jugador puede hacer como máximo otras 16 jugadas."
    # Set up in the ending, the count runs from the first move: 32 plies.
    fen = "W:WK46,K47,K48:BK4"
    result = run(_game(fen, _wander(fen, 32), "2-0"))
    assert codes(result) == ["wrong-result"] and "16-move rule" in result.errors[0].message
    assert run(_game(fen, _wander(fen, 31), "2-0")).ok


def test_5_move_rule_two_kings_against_one():
    # Seed 002 line 24: "Dos damas, dama y peón, o una dama contra una dama: como máximo cinco
    # jugadas más por bando."
    fen = "W:WK46,K47:BK4"
    result = run(_game(fen, _wander(fen, 10), "2-0"))
    assert codes(result) == ["wrong-result"] and "5-move rule" in result.errors[0].message
    assert run(_game(fen, _wander(fen, 9), "2-0")).ok


def test_repetition_draws_an_international_game():
    # Seed 002 line 20: the same pieces on the same squares, the same side to move, a third
    # time: drawn (claimed-only variants: tests/rules/test_draws.py).
    fen = "W:WK46,K47:BK4,K5"
    there = _wander(fen, 2)
    back = ["-".join(reversed(m.split("-"))) for m in there]
    result = run(_game(fen, (there + back) * 2, "2-0"))
    assert codes(result) == ["wrong-result"] and "3-fold repetition after ply 8" in result.errors[0].message
    assert run(_game(fen, (there + back) * 2, "1-1")).ok


def test_repetition_counts_from_the_last_man_move():
    """Kings shuffling after a man's step repeat the position that step left."""
    fen = "W:WK46,K47,32:BK4,K5,19"
    shuffle = _wander("B:WK46,K47,28:BK4,K5,19", 2)
    back = ["-".join(reversed(m.split("-"))) for m in shuffle]
    result = run(_game(fen, ["32-28"] + (shuffle + back) * 2, "*"))
    assert result.ok, result.errors
    assert result.draw.rule == "3-fold repetition" and result.draw.ply == 1 + 8


def _tracked(position: Position, moves: list[tuple[int, int]]) -> DrawTracker:
    tracker = DrawTracker(position)
    for ply, (start, end) in enumerate(moves, 1):
        move = next(m for m in position.legal_moves() if (m.start, m.end) == (start, end))
        king = position.piece_at(start).isupper()
        position = position.play(move)
        tracker.update(ply, position, king, bool(move.captured))
    return tracker


def test_sideways_men_can_repeat_a_position():
    """Turkish men step sideways, so a man's move is not always irreversible."""
    turkish = variant_by_name("turkish")
    start = Position(turkish, "W", {20: "w", 44: "b"})
    there, back = (20, 21), (44, 43)
    tracker = _tracked(start, [there, back, there[::-1], back[::-1]] * 2)
    # Turkish repetition has no rule text here: a claim (reference §4.3).
    assert [(claim.rule, claim.ply) for claim in tracker.claims] == [("3-fold repetition", 8)]


def test_a_forward_step_ends_the_repetition_count():
    international = variant_by_name("international")
    start = Position(international, "W", {6: "W", 36: "w", 47: "w", 45: "B", 3: "b", 4: "b"})
    loop = [(6, 1), (45, 50), (1, 6), (50, 45)]
    black_first = [(45, 50), (6, 1), (50, 45), (1, 6)]
    tracker = _tracked(start, loop + [(36, 31)] + black_first * 2)
    assert tracker.event.rule == "3-fold repetition" and tracker.event.ply == 4 + 1 + 8


def test_draw_tracker_counts_from_the_move_creating_the_ending():
    start = parse_fen(INTERNATIONAL, "W:WK46,K47,K48:BK4")
    tracker = DrawTracker(start)
    position = start
    for ply, move in enumerate(_wander("W:WK46,K47,K48:BK4", 40), 1):
        legal = {f"{m.start}-{m.end}": m for m in position.legal_moves()}
        position = position.play(legal[move])
        tracker.update(ply, position, True, False)
    assert tracker.event.rule == "16-move rule" and tracker.event.ply == 32


def test_unknown_move_stops_checking_without_error():
    result = run('[GameType "20"]\n1. 32-28 - - 2. 28-22 *')
    assert result.ok and not result.complete
    assert "unknown-move" in [w.code for w in result.warnings]


@needs_corpus
@pytest.mark.parametrize("name", ["wiegerw-succeed-ussr1947.pdn", "draughts-games-ChB-64_2016.pdn"])
def test_real_russian_archives_replay(name):
    results = [replay(g) for g in read_games(CORPUS / "russian" / name)]
    assert all(r.ok for r in results), [r.errors[0] for r in results if not r.ok][:3]


def test_a_capture_stopped_half_way_is_explained():
    # Seed 001: a capture goes on while the piece can jump again.
    result = run('[GameType "20"]\n[FEN "W:W38:B32,22"]\n1. 38x27 *')
    assert codes(result) == ["illegal-move"]
    assert "must be completed (38x27x18)" in result.errors[0].message


def test_english_games_in_algebraic_from_black_seat():
    # playstrategy exports: Black (first) opens c3-d4, which is 11-15.
    result = run('[Variant "American/English"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *')
    assert result.ok and result.variant.name == "english"
    assert [(p.move.start, p.move.end) for p in result.plies[:2]] == [(11, 15), (22, 18)]


@needs_corpus
def test_lidraughts_own_gametypes_replay_with_the_rules_of_their_moves():
    # lidraughts: 97 Frysk! (Frisian rules, 5 men each, FEN given), 96 Breakthrough and
    # 98 Antidraughts (international moves, other winning rules).
    frysk = list(read_games(CORPUS / "frisian" / "py-draughts-lidraughts-frysk.pdn"))
    assert all(replay(g).ok for g in frysk)
    for name in ("antidraughts", "breakthrough"):
        games = list(read_games(CORPUS / "lidraughts-variants" / f"py-draughts-lidraughts-{name}.pdn"))
        results = [replay(g) for g in games]
        assert all(r.variant.name == "international" for r in results)
        assert all("results not checked" in r.warnings[0].message for r in results)
        assert sum(r.ok for r in results) == len(results)


@pytest.mark.parametrize("folder, name, index, code, words", [
    ("russian", "hcheckers-draw10.pdn", 1, "illegal-move", "A1-A5"),
    ("international", "wiegerw-fail-delfts.pdn", 1, "capture-required", "4-6"),
    ("frisian", "frisian-draught-export-20241114_144300.pdn", 1, "capture-law", "7x27x38"),
    ("english", "wiegerw-succeed-Tricks_traps_and_shots.pdn", 57, "ambiguous-capture", "10x17x26, 10x19x26"),
    ("english", "checkers-engine-kingsrow-1.pdn", 1, "wrong-result", "drawn on the board by the 25-move rule after ply 117"),
    ("international", "horizon-bd-gorredijk-rotzooi.pdn", 1, "bad-fen", "square 7 is given twice"),
])
@needs_corpus
def test_every_error_code_on_a_real_game(folder, name, index, code, words):
    game = [g for g in read_games(CORPUS / folder / name) if g.index == index][0]
    result = replay(game)
    assert result.errors and result.errors[0].code == code
    assert words in result.errors[0].message


@needs_corpus
def test_bad_square_in_a_real_game():
    # No corpus game names a square off its board; corrupt one move of a real game.
    game = next(read_games(CORPUS / "international" / "wiegerw-succeed-kurnik.pdn"))
    move = game.main_line()[6]
    move.squares = (move.squares[0], "51")
    result = replay(game)
    assert [e.code for e in result.errors] == ["bad-square"] and result.errors[0].ply == 7
    assert (result.errors[0].line, result.errors[0].column) == (move.line, move.column)


def test_5_move_rule_when_the_lone_king_holds_the_long_diagonal():
    # Seed 002 line 23: "Cuando la dama solitaria es la única pieza en la gran diagonal, de la
    # casilla 46 a la casilla 5, quedan como máximo cinco jugadas más por bando."
    fen = "W:WK1,K2,K3:BK46"
    result = run(_game(fen, _wander(fen, 10), "2-0"))
    assert codes(result) == ["wrong-result"] and "long diagonal" in result.errors[0].message
    assert run(_game(fen, _wander(fen, 9), "2-0")).ok
    # off the diagonal the sixteen moves apply
    assert run(_game("W:WK1,K2,K3:BK45", _wander("W:WK1,K2,K3:BK45", 10), "2-0")).ok



@pytest.mark.parametrize("name, gametype, fen, plies, rule", [
    # English, seed 001 line 52: "Se han realizado 25 movimientos sin avanzar una ficha o realizar
    # una captura" (25 single moves in all; the 40 moves each of tournament play: --rules wcdf).
    ("english", 21, "W:WK29,K30:BK3,K4", 25, "25-move rule"),
    # Russian 7.2.5: 15 moves each with kings only, no man moved, no capture.
    ("russian", 25, "W:WK29,K30:BK3,K4", 30, "15-move rule"),
    # Spanish (seed 003 line 35, 26a): three kings holding the main diagonal (1 = h1) against
    # one, at most 12 moves (24 plies) including the final capture.
    ("spanish", 24, "W:WK1,K2,K3:BK29", 24, "forzosa"),
    # American pool: the player with three kings against one must win within 13 moves: White,
    # to move, makes its 13th move on ply 25.
    ("pool", 23, "W:WK29,K30,K31:BK3", 25, "3 kings against 1"),
    # Frisian: the stronger side must win within 7 moves: White, to move, makes its 7th on ply 13.
    ("frisian", 40, "W:WK46,K47:BK4", 13, "2 kings against 1"),
])
def test_move_limits_of_each_variant(name, gametype, fen, plies, rule):
    variant = variant_by_name(name)
    win = "1-0"

    def game(count: int) -> str:
        moves = _wander(fen, count, variant)
        return f'[GameType "{gametype}"]\n[FEN "{fen}"]\n[Result "{win}"]\n{" ".join(moves)} {win}'

    result = run(game(plies))
    assert codes(result) == ["wrong-result"] and rule in result.errors[0].message
    assert run(game(plies - 1)).ok, run(game(plies - 1)).errors


def test_errors_answer_in_the_notation_the_game_uses():
    # An algebraic English game (playstrategy) is told its lawful captures algebraically.
    result = run('[Variant "American/English"]\n[FEN "B:W18:B11,14"]\n1... c3-d4 *')
    english = variant_by_name("english")
    assert (english.parse_square("f4"), english.parse_square("d6")) == (14, 23)
    assert codes(result) == ["capture-required"] and "(f4xd6)" in result.errors[0].message


@needs_corpus
@pytest.mark.parametrize("name", ["wiegerw-succeed-Campionato_Assoluto_2005.pdn",
                                  "bruno-legacyenc-succeed-Campionato_Assoluto_2005.pdn"])
def test_failed_inference_reports_the_rule_set_that_got_furthest(name):
    # Game 46 has no GameType; English stops at ply 1 ("the piece on 21 is not Black's"),
    # Italian replays 25 plies and meets 3x26, which two Italian captures fit.
    game = [g for g in read_games(CORPUS / "italian" / name) if g.index == 46][0]
    result = replay(game)
    assert result.variant.name == "italian"
    assert codes(result) == ["ambiguous-capture"] and "3x10x17x26, 3x10x19x26" in result.errors[0].message
    assert result.errors[0].ply == 26
    assert result.warnings[0].message == (
        "no GameType tag; no rule set replays the game (tried english, international, italian, spanish, "
        "pool); reported as italian, which got furthest (25 plies replayed)")


def test_an_empty_board_replays_and_decides_nothing():
    # bridges.pdn game 14 (a PDN 3.0 succeed file): [FEN "W::."], Result 1/2-1/2, no moves.
    result = run('[Result "1/2-1/2"]\n[FEN "W::."]\n1/2-1/2')
    assert result.ok and result.complete and not result.final.has_move()
    assert result.outcome() is None


@needs_corpus
def test_the_empty_board_of_bridges_game_14_is_read():
    game = [g for g in read_games(CORPUS / "english" / "wiegerw-succeed-bridges.pdn") if g.index == 14][0]
    assert game.tag("FEN") == "W::." and replay(game).ok


# Seed 002 line 27: "Las casillas de llegada se añaden solo cuando dos capturas legales comparten
# inicio y final pero toman piezas distintas."
POOL_LOOP = '[GameType "{}"]\n[FEN "W:W19,21,25,29,30,32:B1,2,4,5,6,7,8,14,15,16,20,K24"]\n1. 19x28 *\n'


@pytest.mark.parametrize("gametype", ["23", "25"])
def test_a_single_jump_a_loop_can_also_name_is_ambiguous(gametype):
    """19x28 takes the king on 24 alone, or 15 7 8 16 and back through 19, then 24: the
    same answer whether the replayer has met these squares before (its shortcut) or not."""
    for _ in range(2):
        result = run(POOL_LOOP.format(gametype))
        assert codes(result) == ["ambiguous-capture"]
        error = result.errors[0]
        assert (error.line, error.column, error.ply) == (3, 4, 1)
        assert "19x28 matches 2 captures" in error.message and "19x10x3x12x19x28" in error.message
    assert run(POOL_LOOP.format(gametype).replace("19x28", "19x10x3x12x19x28")).ok


def test_a_gametype_read_once_is_said_at_each_games_own_tag() -> None:
    # What a GameType value says is read once a value (variant_choice): games repeating a
    # malformed, unknown or lidraughts value each get the diagnostic at their own tag's place.
    for value, code in (("20,W,10,11,N2,0", "gametype"), ("99", "bad-gametype"), ("20 x", "gametype"),
                        ("97", "gametype")):
        text = f'[Event "a"]\n[GameType "{value}"]\n1. 32-28 *\n\n[Event "b"]\n[Round "2"]\n[GameType "{value}"]\n1. 32-28 *'
        first, second = (replay(game) for game in read_text(text))
        said = [(d.code, d.message, d.line, d.column) for d in first.warnings + first.errors if d.code == code]
        again = [(d.code, d.message, d.line, d.column) for d in second.warnings + second.errors if d.code == code]
        assert said and [(c, m, line + 5, col) for c, m, line, col in said] == again, value


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_the_labels_of_many_moves_are_those_of_each(text):
    """move_labels (the main line's texts read once, for many labels) labels every ply as move_label does."""
    for game in read_text(text):
        result = replay(game)
        if result.variant is not None:
            label = move_labels(result)
            plies = range(1, len(game.move_texts()) + 3)
            assert [label(ply) for ply in plies] == [move_label(result, ply) for ply in plies]


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_a_variation_resolves_its_moves_as_the_main_line_does(text):
    """Variation moves take the main line's shortcut (a step or a capture between two squares played
    at once, else resolve()): the main line written again as a variation of its first move resolves
    to the same moves from the same positions, with the same separator warnings."""
    head, _, moves = text.rpartition("\n1")
    first = "1" + moves.split(" ", 1)[0]                # '1.' or '1...'
    body = moves.split(" ", 1)[1].rsplit(" ", 1)[0]     # the moves, without the result
    if not body.strip():
        return
    [original] = read_text(text)
    played = replay(original)
    if not played.ok:
        return
    variant = played.variant
    opening, rest = (body.split(" ", 1) + [""])[:2]
    [game] = read_text(f"{head}\n{first} {opening} ({first} {body}) {rest} *")
    result = replay(game, variant)
    assert result.ok, result.errors
    main = [(ply.before, ply.move) for ply in result.plies]
    variation = [result.resolved[path] for path in sorted(result.resolved, key=lambda path: path.indexes())]
    assert variation == main
    separators = Counter(w.message for w in result.warnings if w.code == "capture-notation")   # each move's twice
    assert all(count % 2 == 0 for count in separators.values())


def test_a_read_error_replayed_is_a_type_error_that_says_what_it_is():
    """for game in read_games(...): replay(game) met a game that could not be read with
    "AttributeError: 'ReadError' object has no attribute 'tag'"; it is a TypeError that names the
    read error (check() takes both)."""
    [error] = read_text("1. 32-28 )", name="bad.pdn")
    with pytest.raises(TypeError, match=r"bad\.pdn:1:10: game 1"):
        replay(error)
