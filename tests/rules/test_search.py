"""rules.search and Position.hash(): Zobrist hashes, the search's answers, compiled = pure."""
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.rules import core, laws
from pdn_tools.rules.fen import parse_fen
from pdn_tools.rules.bitboards import _pure_capture_records, _quiet_entries
from pdn_tools.rules.movegen import Move, Position
from pdn_tools.rules.tables import _Rules
from pdn_tools.rules import search as search_module
from pdn_tools.rules.search import (SHOT, WIN, Evaluations, SearchResult, _Search, first_move, judge, king_value,
                                   search)
from pdn_tools.rules.variants import VARIANTS

ENGLISH = VARIANTS["english"]
COMPILED = core.compiled_module() is not None
needs_core = pytest.mark.skipif(not COMPILED, reason="the compiled core is not built")


@st.composite
def positions(draw, max_pieces=14):
    """A random position of any of the 13 variants: men off their crowning row, kings anywhere."""
    v = VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))]
    squares = draw(st.sets(st.integers(1, v.num_squares), min_size=1, max_size=max_pieces))
    pieces = {}
    for sq in squares:
        piece = draw(st.sampled_from("wwwbbbWB"))
        if piece in "wb" and v.coords(sq)[0] == v.promotion_row(piece.upper()):
            piece = piece.upper()
        pieces[sq] = piece
    return Position(v, draw(st.sampled_from("WB")), pieces)


def on_both_engines(pos):
    """`pos` on the pure engine and, when it is built, on the compiled core (tables made once
    per variant and engine)."""
    return [pos.on(core.PURE)] + ([pos.on(core.Engine(True))] if COMPILED else [])


# -- Position.hash() ----------------------------------------------------------------------


def test_hash_is_fixed_across_runs():
    """The keys come from a fixed seed: the start positions hash to these values everywhere."""
    assert Position.initial(VARIANTS["international"]).hash() == 0xA8EADDDA21BDE184
    assert Position.initial(ENGLISH).hash() == 0x966BB5F60809309F


def test_hash_tells_the_side_to_move_and_the_pieces_apart():
    pos = parse_fen(ENGLISH, "W:W32,K27:B20")
    assert pos.hash() != pos.with_turn("B").hash()
    assert pos.hash() != parse_fen(ENGLISH, "W:W32,27:B20").hash()     # a king is not a man
    assert pos.hash() != parse_fen(ENGLISH, "W:W31,K27:B20").hash()
    assert 0 <= pos.hash() < 1 << 64


@settings(max_examples=100, deadline=None)
@given(positions(max_pieces=30))
def test_hash_is_the_same_on_both_engines(pos):
    hashes = [twin.hash() for twin in on_both_engines(pos)]
    assert len(hashes) == 1 + COMPILED and len(set(hashes)) == 1


@settings(max_examples=100, deadline=None)
@given(positions())
def test_incremental_hash_is_the_hash_of_the_position_played(pos):
    """The search updates the hash move by move; it must be the hash made from scratch."""
    (twin,) = on_both_engines(pos)[:1]                     # the pure engine's tables
    searcher = _Search(twin, None)
    rl = twin._rl
    ci, own, opp = twin._sides()
    kings, h = twin._kings, twin.hash()
    records = laws.lawful(rl.law, _pure_capture_records(rl, ci, own, opp, kings), kings)
    for record in records:
        move = searcher.record_move(record)
        assert searcher.capture_hash(h, ci, record, kings) == twin.play(move).hash(), move
    if not records:
        for entry in _quiet_entries(rl, ci, own, opp, kings, 0):
            frm = (entry[1] ^ 1 << entry[3]).bit_length() - 1
            after = searcher.quiet_hash(h, ci, frm, entry[3], bool(kings >> frm & 1), bool(entry[2]))
            assert after == twin.play(entry[0]).hash(), entry[0]


# -- the search ------------------------------------------------------------------------------


def test_a_shot_is_found():
    """TTS Example 1 (english/wiegerw-succeed-Tricks_traps_and_shots.pdn): 27-23 gives a man,
    20x27 is compulsory (seed 001: "Si tiene la oportunidad de saltar una selección de fichas
    del oponente, puede elegir cuál, pero debe capturar una de ellas"), and the double exposure
    23-18 wins it back with another."""
    pos = parse_fen(ENGLISH, "W:W32,27,24,22:B20,15,10,7")
    result = search(pos, 4)
    assert result.score == 100
    assert result.best == Move(27, (23,))
    assert [str(m) for m in result.line[:3]] == ["27-23", "20x27", "23-18"]
    assert search(pos, 2).score == 0                    # too shallow to see it


@pytest.mark.parametrize("compiled", [False, True] if COMPILED else [False])
def test_a_sacrifice_that_forces_the_capture_uses_no_depth(monkeypatch, compiled):
    """TTS Example 17: 22-18 gives a man, 13x22 is the only capture (seed 001: "Si tiene la
    oportunidad de saltar una selección de fichas del oponente, puede elegir cuál, pero debe
    capturar una de ellas"), 32-27 gives another (31x24 forced), 23-19 a third, and 18x2
    crowns.  The two forcing moves cost no depth, so the default depth 3 sees the shot; without
    the extension it does not."""
    pos = parse_fen(ENGLISH, "W:W17,22,23,30,32:B6,7,10,13,K31")
    move = Move(22, (18,))
    shot = judge([(pos, move, pos.play(move))], Evaluations(3, compiled=compiled))[0]
    assert shot.kind == SHOT and shot.score == 50            # 5 men v 4 men and a king: now a king v a man
    assert [str(m) for m in shot.line[:7]] == ["22-18", "13x22", "32-27", "31x24", "23-19", "24x15", "18x2"]
    monkeypatch.setattr(search_module, "EXTENSIONS", 0)
    assert judge([(pos, move, pos.play(move))], Evaluations(3, compiled=compiled))[0].kind is None


def test_captures_are_searched_to_the_end_at_depth_0():
    """Quiescence: the side to move must take (20x27 here, then 32x23 back), never stands pat."""
    pos = parse_fen(ENGLISH, "B:W32,24,28:B20,1")
    result = search(pos, 0)
    assert [str(m) for m in result.line] == ["20x27", "32x23"]
    assert result.score == -100 and result.nodes == 3


def test_no_legal_move_is_a_loss_and_a_win_counts_plies():
    lost = parse_fen(ENGLISH, "W:W:B1")
    assert search(lost, 3) == SearchResult(-WIN, None, (), 1, 3)      # no iterations: one node
    assert search(lost, 3, nodes=100).nodes == 3                        # one node an iteration
    won = parse_fen(ENGLISH, "W:W18:B14")               # 18x9 takes the last piece
    result = search(won, 1)
    assert result.score == WIN - 1 and result.best == Move(18, (9,), (14,))


def test_king_values_per_variant():
    assert king_value(ENGLISH) == king_value(VARIANTS["italian"]) == 150
    assert all(king_value(v) == 300 for v in VARIANTS.values() if v.flying_kings)
    pos = parse_fen(ENGLISH, "W:WK1,5:B9")
    assert search(pos, 0).score == 150 + 100 - 100


def test_node_limit_keeps_the_last_complete_iteration():
    pos = Position.initial(VARIANTS["international"])
    full = search(pos, 4, nodes=10 ** 9)               # iterates from depth 1, never cut
    one = search(pos, 1)
    cut = search(pos, 4, nodes=one.nodes + 1)
    assert (cut.score, cut.line, cut.depth) == (one.score, one.line, 1)
    assert one.nodes < cut.nodes < full.nodes and full.depth == 4
    direct = search(pos, 4)                            # nothing can cut it: no iterations
    assert direct.score == full.score and direct.depth == 4 and direct.nodes < full.nodes


# An international position, black to move, whose depth-1 search visits some 62 million nodes (kings'
# capture chains cross; captures are free): only a node limit or a stop ends it soon (docs/analysis.md).
KINGS = ("B:WK1,K2,6,K8,K13,15,K17,K19,24,26,29,30,33,K36,38,41,K42,K45,50"
         ":BK5,7,K10,K14,16,K20,22,K27,K28,K32,34,37")
ENGINES = [False, True] if COMPILED else [False]


@pytest.mark.parametrize("compiled", ENGINES)
@pytest.mark.parametrize("deepen", [True, False])
def test_a_limit_cuts_the_first_iteration_and_then_there_is_no_answer(compiled, deepen):
    pos = parse_fen(VARIANTS["international"], KINGS)
    cut = search(pos, 3, 5_000, compiled=compiled, deepen=deepen)
    assert cut == SearchResult(None, None, (), 5_001, None)
    stop = threading.Event()
    stop.set()                                          # looked at every STOP_EVERY nodes, the first included
    stopped = search(pos, 3, compiled=compiled, stop=stop, deepen=deepen)
    assert stopped == SearchResult(None, None, (), search_module.STOP_EVERY, None)
    assert search(pos, 0, 2_000, compiled=compiled).depth is None       # quiescence too


def test_without_deepening_a_search_within_its_limit_is_the_search_without_one():
    pos = Position.initial(VARIANTS["international"])
    direct = search(pos, 4)
    assert search(pos, 4, direct.nodes, deepen=False) == direct
    assert search(pos, 4, direct.nodes - 1, deepen=False) == SearchResult(None, None, (), direct.nodes, None)


@needs_core
@settings(max_examples=200, deadline=None)
@given(positions(), st.integers(0, 3), st.booleans())
def test_cut_searches_are_the_same_on_both_engines_at_the_limit_and_one_node_before(pos, depth, deepen):
    """A limit of exactly the nodes a search needs lets it end; one fewer cuts its last iteration
    (its first, without deepening, or at depth 0 or 1): the node after the limit is counted."""
    whole = search(pos, depth, 10 ** 9, compiled=False, deepen=deepen)
    at, before = (search(pos, depth, limit, compiled=False, deepen=deepen) for limit in (whole.nodes, whole.nodes - 1))
    assert [search(pos, depth, limit, compiled=True, deepen=deepen) for limit in (whole.nodes, whole.nodes - 1)] \
        == [at, before]
    assert at == whole and whole.depth == depth and before.nodes == whole.nodes
    if deepen and depth > 1:
        previous = search(pos, depth - 1, 10 ** 9, compiled=False)
        assert (before.score, before.line, before.depth) == (previous.score, previous.line, depth - 1)
    else:
        assert before == SearchResult(None, None, (), whole.nodes, None)
    if not deepen:
        assert at == search(pos, depth)


@settings(max_examples=100, deadline=None)
@given(positions())
def test_first_move_is_the_first_the_search_tries(pos):
    moves = pos.on(core.PURE).legal_moves()
    if not moves:
        return
    twin = pos.on(core.PURE)
    rl = twin._rl
    ci, own, opp = twin._sides()
    records = laws.lawful(rl.law, _pure_capture_records(rl, ci, own, opp, twin._kings), twin._kings)
    if records:
        expected = _Search(twin, None).record_move(records[search_module._capture_order(rl, records)[0][-1]])
    else:
        entries = _quiet_entries(rl, ci, own, opp, twin._kings, twin._ctr[ci])
        expected = entries[min((e[0].start, e[0].end, i) for i, e in enumerate(entries))[2]][0]
    assert first_move(pos) == expected and expected in moves


def test_search_rejects_a_negative_depth_or_node_limit():
    with pytest.raises(ValueError, match="depth"):
        search(Position.initial(ENGLISH), -1)
    for compiled in ENGINES:
        with pytest.raises(ValueError, match="node limit"):
            search(Position.initial(ENGLISH), 2, -5, compiled=compiled)


# Node counts of the start positions at depth 4, on every engine: perft-style exactness.
NODES = {"international": 552, "english": 477, "italian": 335, "pool": 436, "spanish": 429, "russian": 350,
         "brazilian": 349, "canadian": 785, "portuguese": 429, "czech": 335, "turkish": 695, "thai": 181,
         "frisian": 2454}


@pytest.mark.parametrize("name", sorted(NODES))
def test_node_counts_are_deterministic(name):
    pos = Position.initial(VARIANTS[name])
    engines = [False, True] if COMPILED else [False]
    assert [search(pos, 4, compiled=engine).nodes for engine in engines] == [NODES[name]] * len(engines)


@pytest.mark.slow
@needs_core
@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(0, 3), st.sampled_from([None, 40, 300]))
def test_compiled_search_is_the_pure_search(pos, depth, nodes):
    """Same scores, best moves (ties broken by the same order), lines and node counts."""
    assert search(pos, depth, nodes, compiled=True) == search(pos, depth, nodes, compiled=False)


@needs_core
@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.lists(st.integers(0, 99), min_size=4, max_size=30))
def test_compiled_search_is_the_pure_search_in_games(name, choices):
    """The same on positions reached by play from the start (full boards, kings later)."""
    pos = Position.initial(VARIANTS[name])
    for choice in choices:
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(moves[choice % len(moves)])
    assert search(pos, 2, compiled=True) == search(pos, 2, compiled=False)


def test_the_evaluation_cache_is_bounded_and_gives_the_same_answers():
    """Memory flat over a run of any length: at most two generations of `keep` results; a result
    dropped is searched again to the same answer (each search starts from a fresh table)."""
    position, walk = Position.initial(ENGLISH), []
    for _ in range(40):
        moves = position.legal_moves()
        if not moves:
            break
        walk.append(position)
        position = position.play(moves[len(walk) * 7 % len(moves)])
    bounded, unbounded = Evaluations(2, keep=5), Evaluations(2, keep=10**9)
    for position in walk + walk[::-1] + walk:
        assert bounded(position) == unbounded(position)
        assert len(bounded.results) <= 5 and len(bounded.older) <= 5
    assert bounded.misses > unbounded.misses and unbounded.hits == 2 * len(walk)
