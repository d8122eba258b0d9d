"""Hand-made positions for piece movement and short/long-range rules, with their sources."""

from boards import setup, texts
from pdn_tools.rules.movegen import Position
from pdn_tools.rules.variants import VARIANTS


def test_english_men_capture_forward_only():
    """Seed 001 (damas rectas): men always move and jump forward."""
    pos = setup("english", "W", white="d4", black="c3")
    assert not pos.has_capture()
    assert texts(pos) == {"d4-c5", "d4-e5"}
    assert texts(setup("russian", "W", white="d4", black="c3")) == {"d4xb2"}


def test_english_kings_are_short():
    """Seed 001: kings move one square at a time, but capture backwards too."""
    pos = setup("english", "W", white="Ka1", black="d4")
    assert texts(pos) == {"a1-b2"}
    pos = setup("english", "W", white="Ke5", black="d4")
    assert texts(pos) == {"e5xc3"}
    pos = setup("russian", "W", white="Ka1", black="d4")
    assert texts(pos) == {"a1xe5", "a1xf6", "a1xg7", "a1xh8"}


def test_flying_king_moves_along_free_diagonals():
    """FMJD 3.9 / seed 003 rule 12: a king moves any distance on a free diagonal."""
    pos = setup("international", "W", white="Ka1 f6")
    assert texts(pos) - {"f6-e7", "f6-g7"} == {"a1-b2", "a1-c3", "a1-d4", "a1-e5"}


def test_men_move_forward_per_orientation():
    """Reference §3.1: Spanish White sits on 1-12 (moves to higher numbers), English Black
    moves first from 1-12, Italian a8 is square 1."""
    spanish = Position.initial(VARIANTS["spanish"])
    assert all(m.end > m.start for m in spanish.legal_moves())
    english = Position.initial(VARIANTS["english"])
    assert english.turn == "B" and all(m.end > m.start for m in english.legal_moves())
    italian = Position.initial(VARIANTS["italian"])
    assert italian.turn == "W" and all(m.end < m.start for m in italian.legal_moves())


def test_turkish_men_move_forward_and_sideways():
    """W-TR / KISH: men step forward or sideways, never back or diagonally."""
    pos = setup("turkish", "W", white="d4")
    assert texts(pos) == {"d4-d5", "d4-c4", "d4-e4"}
    pos = setup("turkish", "B", black="d5")
    assert texts(pos) == {"d5-d4", "d5-c5", "d5-e5"}


def test_turkish_men_capture_forward_and_sideways_only():
    """W-TR: no backward capture by a man."""
    pos = setup("turkish", "W", white="d4", black="d3 e4")
    assert texts(pos) == {"d4xf4"}


def test_turkish_kings_fly_orthogonally():
    """W-TR: kings move any distance along ranks and files."""
    pos = setup("turkish", "W", white="Ka1 b2")
    king = {t for t in texts(pos) if t.startswith("a1")}
    assert king == {f"a1-a{r}" for r in range(2, 9)} | {f"a1-{f}1" for f in "bcdefgh"}


def test_turkish_promotion_at_the_end_of_a_capture():
    """KISH: a man reaching the last rank mid-capture goes on as a man; crowned at the end."""
    pos = setup("turkish", "W", white="d6", black="d7 e8")
    (move,) = pos.legal_moves()
    assert texts(pos) == {"d6xd8xf8"}
    assert move.promotes


def test_thai_king_lands_directly_behind():
    """MSN / DCTL thai.hpp: a Thai king must land on the square just behind the piece."""
    pos = setup("thai", "W", white="Kc3", black="e5")
    assert texts(pos) == {"c3xf6"}
    pos = setup("thai", "W", white="Kc3")
    assert "c3-h8" in texts(pos)  # but it moves like a flying king


def test_frisian_kings_move_diagonally_only():
    """FRIS Art. 6: kings move on diagonals; orthogonal lines are for capturing only."""
    pos = setup("frisian", "W", white="Ka1")
    assert texts(pos) == {f"a1-{sq}" for sq in ("b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9",
                                                 "j10")}


def test_canadian_men_step_forward_and_capture_both_ways():
    """Seed 000 line 12: "Los peones se mueven avanzando una casilla."  Line 13: "Para realizar
    capturas, los peones también pueden retroceder."  Line 14: the landing square "inmediatamente
    detrás de ésta, que debe estar vacía"."""
    assert texts(setup("canadian", "W", white="f6")) == {"f6-e7", "f6-g7"}
    assert texts(setup("canadian", "W", white="f6", black="e5")) == {"f6xd4"}       # backwards
    assert texts(setup("canadian", "W", white="f6", black="e5 d4")) == {"f6-e7", "f6-g7"}  # behind taken


def test_canadian_kings_fly_and_capture_from_afar():
    """Seed 000 line 24: "Son voladoras: pueden moverse saltando varias casillas vacías sobre una
    diagonal."  Line 25: they capture over "una o varias casillas, siempre que una de las casillas
    ellas esté ocupada por una pieza enemiga y el resto de las casillas estén vacías"."""
    assert texts(setup("canadian", "W", white="Ka1 l2")) - {"l2-k3"} == {f"a1-{c}{i}" for i, c in
                                                                          enumerate("bcdefghijkl", 2)}
    assert texts(setup("canadian", "W", white="Ka1", black="e5")) == {f"a1x{c}{i}" for i, c in
                                                                       enumerate("fghijkl", 6)}
    assert texts(setup("canadian", "W", white="Ka1", black="e5 f6")) == {"a1-b2", "a1-c3", "a1-d4"}
    assert texts(setup("canadian", "W", white="Ka1 e5")) == {"a1-b2", "a1-c3", "a1-d4", "e5-d6", "e5-f6"}


def test_spanish_men_step_and_capture_forward_only():
    """Seed 003 line 10 (rule 8): "Los movimientos de los peones son en diagonal, una sola casilla y
    en sentido de avance, o sea, hacia el campo oponente."  Line 16 (rule 14): a man next to an
    opposing piece "estando la posterior vacia" jumps it; rule 8 keeps that jump forward."""
    assert texts(setup("spanish", "W", white="d5")) == {"d5-c6", "d5-e6"}
    assert texts(setup("spanish", "W", white="d5", black="c6")) == {"d5xb7"}
    assert texts(setup("spanish", "W", white="d5", black="c6 b7")) == {"d5-e6"}     # behind taken
    assert texts(setup("spanish", "W", white="d5", black="c4")) == {"d5-c6", "d5-e6"}   # never back


def test_spanish_kings_fly_land_anywhere_behind_and_never_jump_two_together():
    """Seed 003 line 14 (rule 12): the king moves "hacia adelante y hacia atras, pudiendo recorrer
    cualquier número de casillas si están libres".  Line 18 (rule 16): it jumps an opposing piece
    "hasta quedar en cualquiera de las casillas vacias".  Line 15 (rule 13): "La dama no puede
    saltar dos peones juntos o un peón de su color"."""
    assert texts(setup("spanish", "W", white="Kh1", black="e4")) == {"h1xd5", "h1xc6", "h1xb7", "h1xa8"}
    assert not setup("spanish", "W", white="Kh1", black="e4 d5").has_capture()
    assert texts(setup("spanish", "W", white="Kh1 e4")) - {"e4-d5", "e4-f5"} == {"h1-g2", "h1-f3"}
