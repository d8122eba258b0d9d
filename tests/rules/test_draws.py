"""Draw rules as the texts write them (seeds 000, 002, 003; FMJD-64; reference §4.3): each rule
at its limit and one ply before it, positions built with tests/boards.py."""

import pytest

from boards import pdn, played, setup, wander
from pdn_tools import read_text
from pdn_tools.play.replay import replay
from pdn_tools.rules.draws import (ENGLISH_TOURNAMENT, MATERIAL_SIDE, DrawRules, DrawTracker, Endgame, Repetition,
                                     ending_materials, long_diagonal)
from pdn_tools.rules.variants import RULE_SETS, VARIANTS


def run(text: str):
    [game] = read_text(text)
    return replay(game)


def codes(result) -> list[str]:
    return [e.code for e in result.errors]


def draw_warnings(result) -> list[str]:
    return [w.message for w in result.warnings if w.code == "draw-rule"]


def win(variant) -> str:
    return "2-0" if variant.name in ("international", "canadian") else "1-0"


def step(position, start: int, end: int):
    """The legal move from `start` to `end`."""
    [move] = [m for m in position.legal_moves() if (m.start, m.end) == (start, end)]
    return move


def corner_kings(name: str):
    """Two White kings on the left of the bottom row, two Black kings on the right of the top
    row, White to move."""
    v = VARIANTS[name]
    bottom = [c for c in range(v.cols) if v.square_at(v.rows - 1, c)][:2]
    top = [c for c in range(v.cols) if v.square_at(0, c)][-2:]
    white = " ".join(f"K{chr(97 + c)}1" for c in bottom)
    black = " ".join(f"K{chr(97 + c)}{v.rows}" for c in top)
    return setup(name, "W", white, black)


def shuffle(position, plies: int) -> list:
    """Kings going there and back: the start position comes back after plies 4 and 8."""
    men = position.pieces("W")[0], position.pieces("B")[0]
    there = wander(position, 2, lambda p: (p.pieces("W")[0], p.pieces("B")[0]) == men)
    middle = played(position, there)
    back = [step(middle, there[0].end, there[0].start)]
    back.append(step(middle.play(back[0]), there[1].end, there[1].start))
    return ((there + back) * 3)[:plies]


# ---- repetition: automatic where the text says the game is drawn, else a claim -------------------

AUTOMATIC = ["international", "canadian", "russian", "brazilian", "english"]
CLAIMED = ["spanish", "portuguese", "czech", "italian", "pool"]


@pytest.mark.parametrize("name", AUTOMATIC)
def test_a_third_repetition_draws_the_game(name):
    # Seed 002 line 20: "Repetición. Las mismas piezas en las mismas casillas, con el mismo bando
    # al turno, por tercera vez."  Seed 000 line 42: "Se repite la misma posición por tercera vez."
    # FMJD-64 7.2.3 (Russian, Brazilian): the same position a third time.  Seed 001 line 48
    # (English): "Se repite la misma situación por tercera vez (no necesariamente consecutiva)."
    start = corner_kings(name)
    result = run(pdn(start, shuffle(start, 8), win(start.variant)))
    assert codes(result) == ["wrong-result"]
    assert "3-fold repetition after ply 8" in result.errors[0].message
    assert run(pdn(start, shuffle(start, 7), win(start.variant))).ok


@pytest.mark.parametrize("name", CLAIMED)
def test_a_third_repetition_is_only_claimable(name):
    # Seed 003 line 33 (25c): "Cuando una misma posición se dé tres veces, siendo el mismo jugador
    # el que esté en turno de juego y asi se reclame."  Czech, Italian, pool: a claim.
    start = corner_kings(name)
    result = run(pdn(start, shuffle(start, 8), "1-0"))
    starting = "White" if VARIANTS[name].first == "W" else "Black"      # 1-0: the starting side's win
    assert result.ok and draw_warnings(result) == [
        "a draw by the 3-fold repetition may be claimed after the last move, but Result is '1-0' "
        f"(a win for {starting}, the starting side)"]
    assert draw_warnings(run(pdn(start, shuffle(start, 7), "1-0"))) == []


def _won_by_capture(position):
    """Three plies from `position` (White to move): a White step, a Black step, and White's
    capture of Black's last piece."""
    for first in position.legal_moves():
        middle = position.play(first)
        if first.captured or middle.has_capture():
            continue
        for second in middle.legal_moves():
            last = middle.play(second)
            for third in last.captures():
                if last.play(third).counts("B") == (0, 0):
                    return [first, second, third]
    raise AssertionError("no win in three plies")


def test_play_going_on_to_a_win_after_a_third_repetition_has_a_wrong_result():
    # Seed 002 line 20: the third repetition ends the game; a win after it is too late.
    start = setup("international", "W", "Kc1 a3 e3 i3", "Kh10")
    for times, verdict in ((8, ["wrong-result"]), (4, [])):
        moves = shuffle(start, times)
        moves += _won_by_capture(played(start, moves))
        result = run(pdn(start, moves, "2-0"))
        assert codes(result) == verdict and not played(start, moves).has_move()


# ---- seed 002 line 24: the first limit to expire, only from a 16-move ending ------------------

def _offer(position):
    """A White step after which Black must take one piece, and the capture, leaving White
    no capture."""
    for move in position.legal_moves():
        after = position.play(move)
        for capture in after.captures():
            if len(capture.captured) == 1 and not after.play(capture).has_capture():
                return [move, capture]
    raise AssertionError("no piece to offer")


def _sixteen_then_five(name: str, plies: int) -> str:
    """Three kings against one (White to move), 24 plies of walking, a king given away on
    plies 25-26 (two kings against one from ply 26), then walking again."""
    v = VARIANTS[name]
    start = setup(name, "W", "Ka1 Kc1 Ke1", f"K{'h10' if v.rows == 10 else 'j12'}")
    lone_king_off_diagonal = lambda p: not p.pieces("B")[1] & long_diagonal(v)
    moves = wander(start, 24, lone_king_off_diagonal)
    moves += _offer(played(start, moves))
    moves += wander(played(start, moves), plies - 26, lone_king_off_diagonal)
    return pdn(start, moves, "2-0")


def test_a_capture_from_the_16_move_ending_keeps_its_deadline():
    # Seed 002 line 24: "Si una captura convierte un final de dieciséis jugadas en uno de estos,
    # se aplica el plazo que venza primero."  16 moves each from ply 0 end at ply 32, before
    # ply 26 + 10.
    result = run(_sixteen_then_five("international", 32))
    assert codes(result) == ["wrong-result"] and "5-move rule after ply 32" in result.errors[0].message
    assert run(_sixteen_then_five("international", 31)).ok


def test_canadian_counts_the_new_ending_from_the_capture():
    # Seed 000 line 45: "una dama o dos piezas ... contra una dama, tras jugar cada jugador 5
    # movimientos": seed 000 has no carried-over deadline, so ply 26 + 10.
    assert run(_sixteen_then_five("canadian", 35)).ok
    result = run(_sixteen_then_five("canadian", 36))
    assert codes(result) == ["wrong-result"] and "5-move rule after ply 36" in result.errors[0].message


def test_canadian_has_no_long_diagonal_rule():
    # Seed 000 lines 39-45 list no five-move rule for a lone king on the long diagonal.
    start = setup("canadian", "W", "Kc1 Ke1 Kg1", "Ka1")
    assert run(pdn(start, wander(start, 20), "2-0")).ok


# ---- seeds 002 and 000: every material each ending names ------------------------------------------

@pytest.mark.parametrize("name, white, plies, rule", [
    # Seed 002 line 22: "Tres damas, dos damas y un peón, o una dama y dos peones contra una dama:
    # cada jugador puede hacer como máximo otras 16 jugadas."
    *[("international", white, 32, "16-move rule") for white in ("Ka1 Kc1 Ke1", "Ka1 Kc1 e3", "Ka1 c3 e3")],
    # Seed 002 line 24: "Dos damas, dama y peón, o una dama contra una dama: como máximo cinco
    # jugadas más por bando."
    *[("international", white, 10, "5-move rule") for white in ("Ka1 Kc1", "Ka1 c3", "Ka1")],
    # Seed 000 line 44: "tres piezas de un lado (una de ellas por lo menos que sea dama) contra una
    # dama, tras jugar cada jugador 16 movimientos."
    *[("canadian", white, 32, "16-move rule") for white in ("Ka1 Kc1 Ke1", "Ka1 Kc1 e3", "Ka1 c3 e3")],
    # Seed 000 line 45: "Si no quedaran más que una dama o dos piezas de un lado (una de ellas por lo
    # menos que sea dama) contra una dama, tras jugar cada jugador 5 movimientos."
    *[("canadian", white, 10, "5-move rule") for white in ("Ka1 Kc1", "Ka1 c3", "Ka1")],
])
def test_every_material_of_an_ending_draws_at_its_limit(name, white, plies, rule):
    start = setup(name, "W", white, "Kh10" if name == "international" else "Kj12")
    material = start.counts("W"), start.counts("B")
    # the lone king kept off the long diagonal (seed 002 line 23 has its own limit), nothing taken
    keep = lambda p: (p.counts("W"), p.counts("B")) == material and not p.pieces("B")[1] & long_diagonal(p.variant)
    result = run(pdn(start, wander(start, plies, keep), "2-0"))
    assert codes(result) == ["wrong-result"] and f"{rule} after ply {plies}" in result.errors[0].message
    assert run(pdn(start, wander(start, plies - 1, keep), "2-0")).ok


def _won_on(start, plies: int) -> list:
    """A walk of `plies` - 2 plies, a move of the lone king that lets the strong side take it, and that
    capture on ply `plies`."""
    moves = wander(start, plies - 2, lambda p: not p.pieces("B")[1] & long_diagonal(p.variant))
    position = played(start, moves)
    for move in position.legal_moves():
        after = position.play(move)
        for capture in after.captures():
            if not after.play(capture).has_move():
                return moves + [move, capture]
    raise AssertionError(f"no win on ply {plies}")


@pytest.mark.parametrize("name, white, black, limit, rule", [
    ("international", "Ka1 Kc1 Ke1", "Kh10", 32, "16-move rule"),     # seed 002 line 22
    ("international", "Ka1 Kc1", "Kh10", 10, "5-move rule"),          # seed 002 line 24
    ("canadian", "Ka1 Kc1 Ke1", "Kj12", 32, "16-move rule"),          # seed 000 line 44
    ("canadian", "Ka1 Kc1", "Kj12", 10, "5-move rule"),               # seed 000 line 45
    ("spanish", "Kh1 Kf1 Kd1", "Kg8", 24, "forzosa"),                 # seed 003 line 35
])
def test_a_win_on_the_last_counted_move_beats_the_draw(name, white, black, limit, rule):
    # Seed 002 line 25: "Una victoria lograda en la última jugada contada tiene prioridad sobre las
    # tablas."  Seed 003 line 35 counts "incluyendo el movimiento de captura final".  Black to move
    # first: the strong side's last counted move is ply `limit`; its next one is too late.
    start = setup(name, "B", white, black)
    result_text = win(start.variant)
    assert run(pdn(start, _won_on(start, limit), result_text)).ok
    late = run(pdn(start, _won_on(start, limit + 2), result_text))
    assert codes(late) == ["wrong-result"] and f"{rule}" in late.errors[0].message
    assert f"after ply {limit}" in late.errors[0].message


# ---- counting from the current ending ---------------------------------------------------------

def _interrupted_ending(plies: int) -> str:
    """Russian: king and man against a king from ply 0; Black takes the king on ply 2 (a man
    against a king: no ending); the man is crowned on ply 5 (king against king)."""
    start = setup("russian", "W", "Kc5 h6", "Kb8")
    v = start.variant
    sq = lambda text: v.parse_square(text)
    moves = []
    for a, b in (("c5", "d6"), ("b8", "h2"), ("h6", "g7"), ("h2", "g1"), ("g7", "h8")):
        moves.append(step(played(start, moves), sq(a), sq(b)))
    moves += wander(played(start, moves), plies - 5)
    return pdn(start, moves, "1-0")


def test_an_interrupted_ending_counts_again_from_the_new_one():
    # FMJD-64 7.2.8: a king against a king, 5 moves - from ply 5, when it arose, not from ply 0
    # when the earlier king-and-man ending began.
    assert run(_interrupted_ending(14)).ok
    result = run(_interrupted_ending(15))
    assert codes(result) == ["wrong-result"] and "5-move rule after ply 15" in result.errors[0].message


# ---- FMJD-64 7.2.4: counted in the strong side's moves ------------------------------------------

@pytest.mark.parametrize("turn, limit", [("W", 29), ("B", 30)])
def test_three_kings_against_one_counts_the_strong_sides_moves(turn, limit):
    # FMJD-64 7.2.4: three kings against a lone king are drawn if the strong side has not taken
    # it by its 15th move: White to move makes it on ply 29, Black to move first on ply 30.
    start = setup("russian", turn, "Ka1 Kc1 Ke1", "Kf8")
    off = lambda p: not p.pieces("B")[1] & long_diagonal(start.variant)
    result = run(pdn(start, wander(start, limit, off), "1-0"))
    # Black to move first, the 15-move rule of 7.2.5 (kings only) ends on the same ply.
    rule = "3 kings against 1" if turn == "W" else "rule"
    assert codes(result) == ["wrong-result"] and f"{rule} after ply {limit}" in result.errors[0].message
    assert run(pdn(start, wander(start, limit - 1, off), "1-0")).ok


# ---- seed 003 (Spanish, and Portuguese with it) --------------------------------------------------

@pytest.mark.parametrize("name", ["spanish", "portuguese"])
def test_forzosa_needs_the_main_diagonal(name):
    # Seed 003 line 35 (26a): "Forzosa (3 damas con diagonal principal contra una dama) : Máximo de
    # 12 jugadas (24 movimientos) incluyendo el movimiento de captura final."
    start = setup(name, "W", "Kh1 Kf1 Kd1", "Kg8")       # h1: the main diagonal h1-a8
    result = run(pdn(start, wander(start, 24), "1-0"))
    assert codes(result) == ["wrong-result"] and "forzosa" in result.errors[0].message
    assert run(pdn(start, wander(start, 23), "1-0")).ok
    # Without a king on the main diagonal there is no limit.
    diagonal = long_diagonal(start.variant)
    off = setup(name, "W", "Kf1 Kd1 Kb1", "Kg8")
    assert run(pdn(off, wander(off, 40, lambda p: not p.pieces("W")[1] & diagonal), "1-0")).ok


def test_forzosa_counts_from_the_ply_the_diagonal_is_taken():
    start = setup("spanish", "W", "Kf1 Kd1 Kb1", "Kg8")
    diagonal = long_diagonal(start.variant)
    moves = wander(start, 6, lambda p: not p.pieces("W")[1] & diagonal)
    moves += wander(played(start, moves), 1, lambda p: p.pieces("W")[1] & diagonal)     # ply 7
    for plies, verdict in ((30, []), (31, ["wrong-result"])):
        game = moves + wander(played(start, moves), plies - 7)
        assert codes(run(pdn(start, game, "1-0"))) == verdict


SAQUE = [
    # Seed 003 line 36 (26b): White's man on 2 (f1), Black's on 9 (h3) ...
    ("W", "Kd5 Kb3 f1", "Ke8 h3"),
    # ... "al contrario para las negras": Black's man on 31 (c8), White's on 24 (a6).
    ("W", "Kd1 a6", "Ke4 Kg6 c8"),
]


@pytest.mark.parametrize("turn, white, black", SAQUE)
def test_saque_de_peon_64_plies(turn, white, black):
    # Seed 003 line 36 (26b): "Saque de peón (2 Damas con d.p. y un peón en la casilla 2, contra
    # una dama y peón en casilla 9; al contrario para las negras) : Máximo de 32 jugadas (64
    # movimientos) hasta lograr ganar el juego, convertir en dama el peón o capturar el peón
    # contrario."
    start = setup("spanish", turn, white, black)
    same = lambda p: (p.counts("W"), p.counts("B")) == (start.counts("W"), start.counts("B"))
    result = run(pdn(start, wander(start, 64, same), "1-0"))
    assert codes(result) == ["wrong-result"] and "saque de peón after ply 64" in result.errors[0].message
    assert run(pdn(start, wander(start, 63, same), "1-0")).ok


def test_saque_de_peon_needs_the_men_on_their_squares():
    start = setup("spanish", "W", "Kd5 Kb3 d1", "Ke8 h3")     # the man on 3, not 2
    same = lambda p: (p.counts("W"), p.counts("B")) == ((1, 2), (1, 1))
    assert run(pdn(start, wander(start, 70, same), "1-0")).ok


@pytest.mark.parametrize("plies", [40, 41, 60])
def test_spanish_has_no_40_king_moves_rule(plies):
    # Seed 003 lines 30-36: agreement, the limits of 26a and 26b, a claimed repetition - nothing else.
    start = corner_kings("spanish")
    result = run(pdn(start, wander(start, plies), "1-0"))
    assert result.ok and draw_warnings(result) == []


# ---- rules with no text only warn --------------------------------------------------------------

def test_italian_40_king_moves_each_only_warns():
    # No Italian rule text gives it (reference §4.3: pydraughts' rule): a warning, never a wrong Result.
    start = corner_kings("italian")
    result = run(pdn(start, wander(start, 80), "1-0"))
    assert result.ok and draw_warnings(result) == [
        "a draw by the 40 king moves each would apply by a rule no text gives after the last move, "
        "but Result is '1-0' (a win for White, the starting side)"]
    assert draw_warnings(run(pdn(start, wander(start, 79), "1-0"))) == []


def test_frisian_king_against_king_only_warns():
    # lidraughts' 2 moves each stands in for FRIS "drawn at once unless a capture is possible or
    # forced"; not the text, so a warning.
    start = setup("frisian", "W", "Ka1", "Kh10")
    result = run(pdn(start, wander(start, 4), "1-0"))
    assert result.ok and "1 king against 1" in draw_warnings(result)[0]
    assert draw_warnings(run(pdn(start, wander(start, 3), "1-0"))) == []


def test_every_rule_names_its_source():
    for rules in {v.draws for v in VARIANTS.values()}:
        parts = [rules.repetition, rules.quiet, *rules.endgames]
        assert all(part.source for part in parts if part is not None)
    sources = [e.source for e in VARIANTS["international"].draws.endgames]
    assert all(source.startswith("seed 002 line") for source in sources)
    assert all(e.source.startswith("seed 003 line") for e in VARIANTS["spanish"].draws.endgames)


def test_every_endgame_rule_needs_a_king():
    """The tracker skips the endgame rules while no king is on the board."""
    for rules in {v.draws for v in VARIANTS.values()}:
        for endgame in rules.endgames:
            assert all(strong[1] + weak[1] > 0 for strong, weak in endgame.material)


def test_claims_do_not_stop_the_count_of_an_automatic_rule():
    """A claimable repetition early, then an automatic 40-move rule still draws the game (rules
    given to the tracker: English had this mix before it followed seed 001)."""
    start = corner_kings("english")
    moves = shuffle(start, 8)
    moves += wander(played(start, moves), 80 - 8, lambda p: p != start)
    rules = DrawRules(ENGLISH_TOURNAMENT.repetition, ENGLISH_TOURNAMENT.quiet._replace(how="automatic"))
    tracker = DrawTracker(start, rules)
    position = start
    for ply, move in enumerate(moves, 1):
        king = position.piece_at(move.start).isupper()
        position = position.play(move)
        tracker.update(ply, position, king, bool(move.captured))
    assert [(c.rule, c.ply) for c in tracker.claims] == [("3-fold repetition", 8)]
    assert (tracker.event.rule, tracker.event.ply) == ("40-move rule", 80)


# ---- seed 000 (Canadian) and FMJD-64 limits not covered in tests/play/test_replay.py ----------------

@pytest.mark.parametrize("white, black, plies, rule", [
    # Seed 000 line 43: "Se realizan 25 movimientos consecutivos de cada jugador sin
    # desplazamiento de peón ni captura."
    ("Ka1 Kc1", "Kj12 Kl12", 50, "25-move rule"),
    # Seed 000 line 44: "tres piezas de un lado (una de ellas por lo menos que sea dama) contra
    # una dama, tras jugar cada jugador 16 movimientos."
    ("Ka1 Kc1 Ke1", "Kj12", 32, "16-move rule"),
])
def test_canadian_limits(white, black, plies, rule):
    start = setup("canadian", "W", white, black)
    result = run(pdn(start, wander(start, plies), "2-0"))
    assert codes(result) == ["wrong-result"] and f"{rule} after ply {plies}" in result.errors[0].message
    assert run(pdn(start, wander(start, plies - 1), "2-0")).ok


def test_fmjd64_lone_king_alone_on_the_long_diagonal():
    # FMJD-64 7.2.7: three kings (or 2 kings and a man, a king and 2 men) against a lone king on
    # the long diagonal: 5 moves.
    start = setup("russian", "W", "Kc1 Ke1 Kg1", "Ke5")
    result = run(pdn(start, wander(start, 10), "1-0"))
    assert codes(result) == ["wrong-result"] and "long diagonal after ply 10" in result.errors[0].message
    assert run(pdn(start, wander(start, 9), "1-0")).ok


def _balance_walk(start, plies: int) -> list:
    """Kings walk and a man steps every 20th ply, so the kings-only rule (7.2.5) never ends the
    game; nothing is taken or crowned."""
    material = lambda p: (p.counts("W"), p.counts("B"))
    men = lambda p: (p.pieces("W")[0], p.pieces("B")[0])
    moves: list = []
    while len(moves) < plies:
        here = played(start, moves)
        if len(moves) % 20 == 19:
            moves += wander(here, 1, lambda p: material(p) == material(start) and men(p) != men(here))
        else:
            moves += wander(here, min(19 - len(moves) % 20, plies - len(moves)), lambda p: men(p) == men(here))
    return moves


def test_fmjd64_balance_rule_30_moves_with_4_or_5_pieces():
    # FMJD-64 7.2.6: both sides have kings and the balance has not changed (no capture, no
    # crowning) for 30 moves with 4 or 5 pieces in all.
    start = setup("russian", "W", "Kc1 a3", "Kf8 g7")
    result = run(pdn(start, _balance_walk(start, 60), "1-0"))
    assert codes(result) == ["wrong-result"] and "30-move balance rule after ply 60" in result.errors[0].message
    assert run(pdn(start, _balance_walk(start, 59), "1-0")).ok


def test_ending_materials_refuse_counts_past_the_table():
    # The compiled core reads the endings' materials from a table of counts below MATERIAL_SIDE.
    too_many = DrawRules(Repetition("test"), None, (Endgame("big", 10, frozenset({((0, MATERIAL_SIDE), (0, 1))}),
                                                             "test"),))
    with pytest.raises(ValueError, match=f"big: a material count of {MATERIAL_SIDE} or more"):
        ending_materials(too_many)
    table = ending_materials(VARIANTS["international"].draws)
    side = MATERIAL_SIDE
    at = lambda white, black: table[((white[0] * side + white[1]) * side + black[0]) * side + black[1]]
    # seed 002 line 22: two kings and a man against a king, either side strong; two men and a king each: none.
    assert at((1, 2), (0, 1)) == at((0, 1), (1, 2)) == 1 and at((2, 1), (2, 1)) == 0


# ---- English: seed 001 by default, tournament play by name ------------------------------------

def test_english_25_moves_are_single_moves_in_all():
    """Seed 001 line 52: "Se han realizado 25 movimientos sin avanzar una ficha o realizar una
    captura."  A movimiento is one player's move (seed 003 line 35: "12 jugadas (24
    movimientos)"), and seed 001, unlike seed 000 line 43, does not say "de cada jugador": the
    25th king move in all draws, the 24th does not."""
    start = corner_kings("english")
    for plies, verdict in ((25, ["wrong-result"]), (24, [])):
        result = run(pdn(start, wander(start, plies), "1-0"))
        assert codes(result) == verdict
    assert "drawn on the board by the 25-move rule after ply 25" in run(pdn(start, wander(start, 25), "1-0")).errors[0].message
    assert run(pdn(start, wander(start, 25), "1/2-1/2")).ok


def test_a_man_move_starts_the_english_count_again():
    """Seed 001 line 52 counts moves "sin avanzar una ficha o realizar una captura": 24 king
    moves, a man's step, then 25 more king moves draw (ply 50); 24 more do not."""
    start = setup("english", "W", "Ka1 Kc1 h2", "Kf8 Kh8")
    men = start.pieces("W")[0], start.pieces("B")[0]

    def kings_only(position, plies):
        return wander(position, plies, lambda p: (p.pieces("W")[0], p.pieces("B")[0]) == men)

    before = kings_only(start, 24)
    middle = played(start, before)
    [advance] = [m for m in middle.legal_moves() if middle.piece_at(m.start) == "w"]
    after = middle.play(advance)
    men = after.pieces("W")[0], after.pieces("B")[0]
    for plies, verdict in ((25, ["wrong-result"]), (24, [])):
        result = run(pdn(start, before + [advance] + kings_only(after, plies), "1-0"))
        assert codes(result) == verdict
        if verdict:
            assert "drawn on the board by the 25-move rule after ply 50" in result.errors[0].message


def replay_with(text: str, rules):
    [game] = read_text(text)
    return replay(game, rules=rules)


def test_wcdf_rules_make_both_english_draws_claims():
    """`--rules wcdf` (reference §4.3, EDA/WCDF): 40 moves each and the third repetition are
    claims: a win after them is a warning, not a wrong result; the seeds' 25 moves are gone."""
    wcdf = RULE_SETS["wcdf"]
    start = corner_kings("english")
    long_walk = pdn(start, wander(start, 80), "1-0")
    assert codes(run(long_walk)) == ["wrong-result"]
    result = replay_with(long_walk, wcdf)
    assert result.ok and draw_warnings(result) == [
        "a draw by the 40-move rule may be claimed after the last move, but Result is '1-0' (a win for Black, the starting side)"]
    assert draw_warnings(replay_with(pdn(start, wander(start, 79), "1-0"), wcdf)) == []
    repeated = replay_with(pdn(start, shuffle(start, 8), "1-0"), wcdf)
    assert repeated.ok and draw_warnings(repeated) == [
        "a draw by the 3-fold repetition may be claimed after the last move, but Result is '1-0' (a win for Black, the starting side)"]


def test_a_rule_set_changes_only_the_variants_it_names():
    wcdf, seeds = RULE_SETS["wcdf"], RULE_SETS["seeds"]
    for variant in VARIANTS.values():
        assert seeds.draws_of(variant) is variant.draws
        assert (wcdf.draws_of(variant) is variant.draws) == (variant.name != "english")
    assert wcdf.draws_of(VARIANTS["english"]) is ENGLISH_TOURNAMENT
    start = corner_kings("international")
    text = pdn(start, shuffle(start, 8), "2-0")
    assert codes(replay_with(text, wcdf)) == codes(run(text)) == ["wrong-result"]


def test_english_rules_cite_seed_001():
    rules = VARIANTS["english"].draws
    assert rules.repetition.how == rules.quiet.how == "automatic"
    assert rules.repetition.source.startswith("seed 001 line 48: 'Se repite la misma situación por tercera vez")
    assert rules.quiet.source.startswith("seed 001 line 52: 'Se han realizado 25 movimientos")
    assert (rules.quiet.plies, rules.repetition.times) == (25, 3)


def test_the_docs_rules_table_cites_every_seed_rule_and_rule_set():
    """docs/rules.md, "Rules and their sources": each seed line a draw rule cites, each named rule set."""
    import re
    from pathlib import Path
    rules_page = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    section = rules_page.split("# Rules and their sources")[1].split("\n## ")[0]
    for rule_set in RULE_SETS.values():
        draws = [rules for _, rules in rule_set.draws]
        for rules in [v.draws for v in VARIANTS.values()] + draws:
            for part in (rules.repetition, rules.quiet, *rules.endgames):
                cited = re.match(r"seed (\d{3}) line (\d+)", part.source) if part else None
                if cited:
                    assert re.search(rf"seed {cited[1]} lines? (\d+[–, ]+)*{cited[2]}\b", section), part.source
        assert rule_set.name == "seeds" or f"`{rule_set.name}`" in section


def _blocked_on(start, plies: int) -> list:
    """King moves only, nothing taken, no position twice, after which the side to move has no move on
    ply `plies` and not before (depth-first; a position that failed with as many plies left is not
    tried again)."""
    failed = set()

    def walk(position, seen: set, left: int) -> list | None:
        if left == 0:
            return None if position.has_move() else []
        if (position, left) in failed:
            return None
        for move in position.legal_moves():
            after = position.play(move)
            if (move.captured or position.piece_at(move.start).islower() or after in seen or after.has_capture()
                    or (left > 1 and not after.has_move())):
                continue
            rest = walk(after, seen | {after}, left - 1)
            if rest is not None:
                return [move, *rest]
        failed.add((position, left))
        return None

    found = walk(start, {start}, plies)
    assert found is not None, f"no block on ply {plies}"
    return found


def test_a_block_on_the_last_counted_move_beats_the_draw():
    # Seed 002 line 25: "Una victoria lograda en la última jugada contada tiene prioridad sobre las
    # tablas."  Seed 001 line 52: "Se han realizado 25 movimientos sin avanzar una ficha o realizar una
    # captura."  White's king shuts Black's in a1 on ply 25: the count is reached on the very ply that
    # wins, and no capture ends it.  One ply later (Black moving first) the 25 plies were done before.
    start = setup("english", "W", "Ka3 Kg1 c3 d4", "Kc1")
    moves = _blocked_on(start, 25)
    assert run(pdn(start, moves, "0-1")).ok         # 0-1: a win for White, the second player
    earlier = setup("english", "B", "Ka3 Kg1 c3 d4", "Kb2")
    [first] = [m for m in earlier.legal_moves() if earlier.play(m) == start]
    late = run(pdn(earlier, [first, *moves], "0-1"))
    assert codes(late) == ["wrong-result"] and "25-move rule after ply 25" in late.errors[0].message


def test_saque_de_peon_ends_when_the_other_man_is_taken():
    # Seed 003 line 36 (26b): "Máximo de 32 jugadas (64 movimientos) hasta lograr ganar el juego,
    # convertir en dama el peón o capturar el peón contrario": once White has taken Black's man the
    # 64 plies no longer run (two kings and a man against a king is no limit of seed 003).
    start = setup("spanish", "W", "Kd5 Kb3 f1", "Ke8 h3")
    same = lambda p: (p.counts("W"), p.counts("B")) == ((1, 2), (1, 1))
    for plies in range(21, 61, 2):          # Black to move after an odd walk: a step that hands White its man
        moves = wander(start, plies, same)
        position = played(start, moves)
        taken = [[step, capture] for step in position.legal_moves() if same(after := position.play(step))
                 for capture in after.captures() if after.play(capture).counts("B") == (0, 1)
                 and not after.play(capture).has_capture()]
        if taken:
            break
    moves += taken[0]
    assert len(moves) < 64
    moves += wander(played(start, moves), 70 - len(moves), lambda p: p.counts("W") == (1, 2))     # no forzosa
    assert run(pdn(start, moves, "1-0")).ok


def test_the_long_diagonal_counts_from_the_ply_the_lone_king_takes_it():
    # Seed 002 line 23: "Cuando la dama solitaria es la única pieza en la gran diagonal, de la casilla
    # 46 a la casilla 5, quedan como máximo cinco jugadas más por bando."  Off it for 7 plies (the
    # 16 moves running), the lone king takes it alone on ply 8: drawn after ply 18, not 17.
    start = setup("international", "W", "Kc1 Ke1 Kg1", "Kh10")
    diagonal = long_diagonal(start.variant)
    alone = lambda p: {sq for sq in diagonal if p.piece_at(sq)} == p.pieces("B")[1]
    moves = wander(start, 7, lambda p: not p.pieces("B")[1] & diagonal)
    moves += wander(played(start, moves), 1, alone)
    for plies, verdict in ((17, []), (18, ["wrong-result"])):
        result = run(pdn(start, moves + wander(played(start, moves), plies - 8), "2-0"))
        assert codes(result) == verdict
        assert not verdict or "long diagonal after ply 18" in result.errors[0].message
