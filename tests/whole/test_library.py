"""The library as python-chess users expect it (issue 29): Position.fen() / Position.from_fen(),
Game.headers, replay(game).mainline(), and docs/library.md's examples, run as doctests."""
import copy
import doctest
import io
import gc
import pickle
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from pdn_tools import (FenError, Game, check, Position, VARIANTS, parse_fen, read_games, read_text, replay, to_fen,
                       variant_by_name)
from pdn_tools.play import replay as replay_module
from pdn_tools.rules import movegen
from pdn_tools.text import model
from pdn_tools.text.model import NotatedMove, MoveRun
from boards import random_move
from fuzz import at_length
from test_fast_plies import COMPILED, PURE, played_games

ROOT = Path(__file__).resolve().parents[2]


def test_the_library_page_runs_as_written(monkeypatch):
    monkeypatch.chdir(ROOT)                 # its examples read samples/ from the top folder
    failed, attempted = doctest.testfile(str(ROOT / "docs" / "library.md"), module_relative=False)
    assert attempted > 20 and failed == 0


@pytest.mark.parametrize("module", [movegen, model, replay_module], ids=lambda m: m.__name__)
def test_the_docstring_examples_run(module):
    failed, attempted = doctest.testmod(module)
    assert attempted > 0 and failed == 0


@st.composite
def positions(draw) -> Position:
    """A position reached by legal moves from a variant's start."""
    position = Position.initial(VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))])
    for _ in range(draw(st.integers(0, 60))):
        move = random_move(draw, position)
        if move is None:
            break
        position = position.play(move)
    return position


@settings(max_examples=200, deadline=None, database=None, derandomize=True)
@given(positions(), st.sampled_from([None, True, False]))
def test_fen_methods_are_the_fen_functions_and_read_back(position, alpha):
    text = position.fen(alpha)
    assert text == to_fen(position, alpha)
    again = Position.from_fen(position.variant, text)
    assert again == parse_fen(position.variant, text) == position and again.turn == position.turn


def answers(position: Position) -> list:
    """What the board API's public functions say of `position`: moves, their texts in every style,
    FEN, perft and divide, pieces, the text and SVG boards, the positions its moves lead to."""
    from pdn_tools import Board, Style, move_text, perft, svg
    from pdn_tools.play.board_text import text
    from pdn_tools.rules.movegen import divide
    moves = position.legal_moves()
    styles = [Style(captures, squares, separator) for captures in (None, "full") for squares in ("numeric", "alpha")
              for separator in (None, ":")]
    return [moves, [[move_text(position, move, style) for style in styles] for move in moves],
            [position.fen(alpha) for alpha in (None, True, False)], position.turn, hash(position),
            [position.pieces(colour) + position.counts(colour) for colour in ("W", "B")],
            [position.piece_at(square) for square in range(0, position.variant.num_squares + 2)],
            position.has_capture(), position.has_kings(), position.has_move(), position.choices(), position.hash(),
            position.captures(law=False), [position.moves_between(move.start, move.end) for move in moves],
            perft(position, 2), perft(position, 2, keep_duplicates=True), divide(position, 1),
            text(Board(position)), svg(Board(position)), [position.play(move) for move in moves]]


@settings(max_examples=150, deadline=None)
@given(positions())
def test_every_public_function_of_a_position_answers_alike_on_both_engines(position):
    """PDN_TOOLS_PURE=1 changes no answer: the board API's functions (move_text in every style, svg,
    the text board, divide, perft, FEN, pieces) say the same of a position on the compiled engine and
    of the same position on the pure one."""
    compiled, pure = position.on(COMPILED), position.on(PURE)
    assert answers(compiled) == answers(pure)


@settings(max_examples=200, deadline=None, database=None, derandomize=True)
@given(positions())
def test_pieces_are_what_each_square_holds(position):
    for colour in ("W", "B"):
        men, kings = position.pieces(colour)
        squares = range(1, position.variant.num_squares + 1)
        assert men == {sq for sq in squares if position.piece_at(sq) == colour.lower()}
        assert kings == {sq for sq in squares if position.piece_at(sq) == colour}


def test_pieces_stay_right_when_the_remembered_sets_are_dropped(monkeypatch):
    monkeypatch.setattr(movegen, "_SQUARE_SETS", 2)          # dropped at every third set
    position = Position.initial(VARIANTS["international"])
    for _ in range(30):
        position = position.play(position.legal_moves()[-1])
        men, kings = position.pieces("W")
        assert len(men) + len(kings) == sum(position.counts("W"))
        assert all(position.piece_at(square) in ("w", "W") for square in men | kings)


def test_from_fen_raises_fen_error_with_the_column():
    with pytest.raises(FenError) as raised:
        Position.from_fen(VARIANTS["english"], "W:W21,33:B1")       # 0-based: the 3 of 33
    assert raised.value.column == 6 and "33" in raised.value.message
    assert isinstance(raised.value, ValueError)


def test_headers_map_each_tag_name_to_its_first_value_in_written_order():
    [game] = read_text('[Event "A"]\n[White "W1"]\n[Black "B"]\n[White "W2"]\n[GameType "20"]\n*\n')
    assert isinstance(game, Game)
    assert list(game.headers.items()) == [("Event", "A"), ("White", "W1"), ("Black", "B"), ("GameType", "20")]
    assert game.tags[3] == ("White", "W2")                  # the pairs keep every value
    with pytest.raises(TypeError):
        game.headers["White"] = "someone"                   # type: ignore[index]
    game.set_tag("Event", "B")
    assert game.headers["Event"] == "B"                      # a view of the tags as they are now


def test_mainline_yields_every_ply_and_stops_before_an_illegal_move():
    [game] = read_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 99-98 *\n')
    result = replay(game)
    plies = list(result.mainline())
    assert [str(ply.move) for ply in plies] == ["32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28"]
    assert [ply.number for ply in plies] == list(range(1, 8))
    assert all(ply.after == ply.before.play(ply.move) for ply in plies)
    assert all(a.after is b.before for a, b in zip(plies, plies[1:]))
    assert not result.ok and plies == result.plies


_RUN_PIECES = ["1.", "12.", "12...", "...", "01.", "11-15", "22x15x8", "1- 7", "07-12", "9x 18", " ", "  ",
               "\n", "\t", "1.33-29"]


@given(st.lists(st.sampled_from(_RUN_PIECES), max_size=40), st.integers(1, 9), st.integers(1, 9))
def test_a_runs_moves_are_the_moves_it_expands_to(pieces, line, column):
    run = MoveRun(" ".join(pieces), line, column)
    expanded = [item for item in run.expand() if isinstance(item, NotatedMove)]
    assert [(m, m.line, m.column) for m in run.moves()] == [(m, m.line, m.column) for m in expanded]


def walked(result) -> list[tuple]:
    """What a script sees of each ply of `mainline()`: number, move as written and where, legal
    move, both positions (FEN, pieces of both sides), and that each ply starts where the last ended."""
    plies = list(result.mainline())
    assert all(a.after is b.before for a, b in zip(plies, plies[1:]))
    return [(p.number, p.text, p.notated.text, p.notated.line, p.notated.column, p.move, p.before, p.after,
             p.after.fen(), p.after.pieces("W"), p.after.pieces("B")) for p in plies]


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_mainline_is_the_same_on_both_engines_whether_plies_are_kept_or_made_again(name, data):
    """A game's main line, walked as a script does, is the same on the compiled engine (whose
    core records the plies of runs kept as text through the slot makers) and the pure one, with
    the plies made as the replay plays (replay's default) or by a second replay when first asked
    for (plies=False, as check() replays); an illegal move at the end stops both alike."""
    text = data.draw(played_games(name))
    if data.draw(st.booleans()):
        text = text[:-1] + " 1-1 *"                                 # not a legal move in any variant
    walks = [walked(replay(read_text(text, engine=engine)[0], engine=engine, plies=plies))
             for engine in (COMPILED, PURE) for plies in (True, False)]
    assert walks[1:] == walks[:1] * 3
    result = replay(read_text(text, engine=COMPILED)[0], engine=COMPILED)
    assert len(walks[0]) == result.ply_count and result.plies is result.made


test_mainline_is_the_same_on_both_engines_whether_plies_are_kept_or_made_again_at_length = at_length(
    test_mainline_is_the_same_on_both_engines_whether_plies_are_kept_or_made_again, 20, data=st.data())


@settings(max_examples=150, deadline=None, database=None, derandomize=True)
@given(data=st.data(), most=st.sampled_from([1, 2, 3, 4096]))
def test_pieces_found_again_are_the_pure_engines_with_kings_and_sets_dropped(data, most):
    """pieces() keeps what it made: the compiled core its last few answers (by a side's men and
    kings, their sets reused in new answers), the pure engine a side's squares by bitboard in a
    bounded memory.  Asked in any order, again, after more positions than the core keeps, with the
    pure memory dropped every few sets, both give the same sets."""
    variant = VARIANTS[data.draw(st.sampled_from(["english", "international", "russian"]))]
    boards = data.draw(st.lists(st.dictionaries(st.integers(1, variant.num_squares), st.sampled_from("wWbB"),
                                                max_size=12), min_size=1, max_size=8))
    compiled = [Position(variant, "W", pieces, COMPILED) for pieces in boards]
    pure = [Position(variant, "W", pieces, PURE) for pieces in boards]
    asked = data.draw(st.lists(st.tuples(st.integers(0, len(boards) - 1), st.sampled_from("WB")),
                               min_size=1, max_size=30))
    kept, movegen._SQUARE_SETS = movegen._SQUARE_SETS, most      # set for this example only
    pure[0]._rl.square_sets.clear()                             # what the last example left, under its bound
    try:
        assert [compiled[at].pieces(colour) for at, colour in asked] == [pure[at].pieces(colour) for at, colour in asked]
        assert len(pure[0]._rl.square_sets) <= most
    finally:
        movegen._SQUARE_SETS = kept


class _Marked(Position):
    """A subclass of Position, whose pieces() the compiled core leaves to the Python method."""

    __slots__ = ()


@settings(max_examples=60, deadline=None, database=None, derandomize=True)
@given(data=st.data())
def test_pieces_answered_by_the_core_are_the_python_methods(data):
    """Once a position is made on the compiled core, Position.pieces is the core's method
    (movegen._rules, core pieces_method), which reads the position's slots itself: its answers
    are the Python method's (movegen._PIECES) for each colour given, positionally or by name,
    on both engines and for a subclass; a call it cannot answer goes to the Python method."""
    variant = VARIANTS[data.draw(st.sampled_from(["english", "international", "russian", "frisian"]))]
    pieces = data.draw(st.dictionaries(st.integers(1, variant.num_squares), st.sampled_from("wWbB"), max_size=14))
    compiled, pure = Position(variant, "W", pieces, COMPILED), Position(variant, "B", pieces, PURE)
    marked = _Marked(variant, "W", pieces, COMPILED)
    assert Position.__dict__["pieces"] is not movegen._PIECES          # the core's, on the compiled engine
    for colour in ("W", "B"):
        expected = movegen._PIECES(pure, colour)
        assert compiled.pieces(colour) == compiled.pieces(colour=colour) == expected
        assert pure.pieces(colour) == marked.pieces(colour) == expected
        assert movegen._PIECES(compiled, colour) == expected
    for colour in ("w", None):               # no side: refused on every path, as the Python method does
        for position in (compiled, pure, marked):
            with pytest.raises(ValueError):
                position.pieces(colour)
            with pytest.raises(ValueError):
                position.pieces(colour=colour)
    with pytest.raises(TypeError):
        compiled.pieces()
    with pytest.raises(TypeError):
        compiled.pieces("W", "B")


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_replays_plies_and_positions_pickle_and_copy_on_both_engines(name, data):
    """A replay, its plies and its positions come back equal from pickle by every protocol (as Dask
    and process pools send them; 0 and 1 too, which refused the slotted Game and Ply) and from
    copy.copy and deepcopy, on each engine, and still play: a position keeps its
    engine and takes its variant's tables where it is read back (the compiled core's tables are
    not pickled: pickling a compiled engine's position once raised 'cannot pickle Rules').  So do
    a game read (its runs of moves still text), its record and a game that could not be read."""
    text = data.draw(played_games(name))
    for engine in (COMPILED, PURE):
        game, broken = read_text(text, engine=engine)[0], read_text(text + " ) {", engine=engine)[-1]
        checked = check(game, engine=engine)
        for value in (game, broken, checked.record):
            for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
                assert pickle.loads(pickle.dumps(value, protocol)) == value
            assert copy.copy(value) == value and copy.deepcopy(value) == value
        assert pickle.loads(pickle.dumps(checked, 0)).record == checked.record
        result = replay(read_text(text, engine=engine)[0], engine=engine)
        for copied in (*(pickle.loads(pickle.dumps(result, protocol)) for protocol in range(pickle.HIGHEST_PROTOCOL + 1)),
                       copy.copy(result), copy.deepcopy(result)):
            assert walked(copied) == walked(result)
            assert copied.computed_result() == result.computed_result()
            final, again = result.final, copied.final
            assert again == final and again.engine == engine and again._rl is final._rl
            assert again.legal_moves() == final.legal_moves() and repr(again) == repr(final)


test_replays_plies_and_positions_pickle_and_copy_on_both_engines_at_length = at_length(
    test_replays_plies_and_positions_pickle_and_copy_on_both_engines, 10, data=st.data())


def test_pieces_keeps_its_tables_core_while_a_colour_s_eq_drops_it():
    """Position.pieces answered by the compiled core compares the colour (which may run a user's
    __eq__) after reading the tables' core: it holds the core meanwhile (an __eq__ that dropped the
    tables' references freed it, and pieces read freed memory: a use-after-free under ASan)."""
    if COMPILED is None:
        pytest.skip("the compiled core is not built")
    variant = VARIANTS["international"]
    tables = movegen._Rules(variant, COMPILED, (movegen._POSITION_MAKER, movegen._position_pieces,
                                                  movegen._MOVE_MAKER))     # its own tables, not the shared ones
    expected = Position(variant, "W", {1: "w", 46: "W"}, COMPILED)
    position = Position.__new__(Position)
    position._set(variant, "W", tables, expected._white, expected._black, expected._kings, (0, 0))

    class Colour:
        __hash__ = object.__hash__

        def __eq__(self, other: object) -> bool:
            for name in ("core", "has_capture", "has_move"):
                setattr(tables, name, None)
            gc.collect()
            return True

    assert position.pieces(Colour()) == expected.pieces("W") == (frozenset({1}), frozenset({46}))


@pytest.mark.parametrize("engine", [COMPILED, PURE], ids=["compiled", "pure"])
def test_a_variant_of_the_library_user_is_replayed_as_itself_whatever_its_name(engine):
    """What the replay keeps of a variant (its start position, its square numbers) is kept for that
    variant, not for its name: a user's variant named as a built-in one (here the international
    rules named 'english'), replayed after and before the built-in one, is replayed by its own board."""
    import dataclasses

    own = dataclasses.replace(VARIANTS["international"], name="english")
    english = read_text('[GameType "21"] 1. 11-15 23-19 2. 8-11 22-17 *')[0]
    international = read_text("1. 32-28 19-23 2. 28x19 14x23 *")[0]
    assert replay(english, engine=engine).ok
    mine = replay(international, override=own, engine=engine)
    assert mine.ok, mine.errors
    assert mine.start is not None and mine.start.variant is own and mine.start.counts("W") == (20, 0)
    assert replay(english, engine=engine).final.counts("W") == (12, 0)
    elements = read_text("1. 32-28 (1. 31-27) 19-23 2. 28x19 14x23 *")[0]     # the moves resolved in Python
    assert replay(elements, override=own, engine=engine).ok
    # Square names: 'c3' is 47 on the international board, 21 on the Russian one.
    algebraic = read_text("1. c3-d4 (1. a3-b4) f6-g5 *")[0]
    assert not replay(algebraic, override=VARIANTS["international"], engine=engine).ok
    russian_named_international = dataclasses.replace(VARIANTS["russian"], name="international")
    assert replay(algebraic, override=russian_named_international, engine=engine).ok


USER_SCRIPT = '''
from pathlib import Path
from pdn_tools import (VARIANTS, Board, Code, Comment, FenError, Game, LegalMove, Move, MoveNumber, Nag,
                       NotatedMove, Placeholder, Ply, Position, ReadError, Replay, Setup, Style, Variant, Variation,
                       check, full_path, move_text, parse_fen, perft, read_games, read_text, replay, svg, to_fen,
                       variant_by_name, __version__)

for game in read_games(Path("samples/international.pdn")):
    if isinstance(game, ReadError):
        print(game.file, game.line, game.column, game.message, game.code)
        continue
    white: str = game.headers["White"]
    print(check(game).record.ok, white)
    replayed: Replay = replay(game)
    for ply in replayed.mainline():
        played: LegalMove = ply.move
        men, kings = ply.after.pieces("B")
        print(ply.number, ply.notated.text, played.captured, len(men | kings))
position = Position.from_fen(VARIANTS["international"], "W:W32,33,K46:B9,18-19,28")
first = position.legal_moves()[0]
print(move_text(position, first, Style(captures="full")), perft(position, 2), to_fen(position.play(first)))
print(svg(Board(Position.initial(VARIANTS["english"]))), variant_by_name("russian"))
'''


def test_a_user_script_of_the_public_names_passes_mypy_strict(tmp_path, monkeypatch):
    """`from pdn_tools import read_games` is an explicit re-export: under `mypy --strict` (no implicit
    re-export) a script importing the documented names type-checks, as py.typed promises."""
    from mypy import api
    monkeypatch.chdir(ROOT)                 # where mypy finds pdn_tools (an editable install hides it)
    script = tmp_path / "user.py"
    script.write_text(USER_SCRIPT)
    out, err, status = api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(script)])
    assert status == 0, out + err


_ODD = [
    ("check(None)", lambda: check(None), TypeError, "check takes a Game or a ReadError, not NoneType"),
    ("check(str)", lambda: check("1. 11-15 *"), TypeError, "check takes a Game or a ReadError, not str"),
    ("variant_by_name(None)", lambda: variant_by_name(None), TypeError, "variant_by_name takes a str"),
    ("variant_by_name(20)", lambda: variant_by_name(20), TypeError, "variant_by_name takes a str .*, not int"),
    ("piece_at(1.5)", lambda: Position.initial(VARIANTS["english"]).piece_at(1.5), TypeError,
     r"piece_at takes a square number \(an int\), not float"),
    ("piece_at('1')", lambda: Position.initial(VARIANTS["english"]).piece_at("1"), TypeError,
     r"piece_at takes a square number \(an int\), not str"),
    ("Position({2.0: 'w'})", lambda: Position(VARIANTS["english"], "W", {2.0: "w"}), TypeError,
     r"a square is a number \(an int\), not float: 2.0"),
    ("Position({'3': 'w'})", lambda: Position(VARIANTS["english"], "W", {"3": "w"}), TypeError,
     r"a square is a number \(an int\), not str: '3'"),
    ("max_game_bytes=-1", lambda: next(read_games(io.BytesIO(b"*"), max_game_bytes=-1)), ValueError,
     "max_game_bytes must be 1 or more, not -1"),
    ("max_game_bytes=0", lambda: next(read_games(io.BytesIO(b"*"), max_game_bytes=0)), ValueError,
     "max_game_bytes must be 1 or more, not 0"),
    ("max_game_bytes=1.5", lambda: next(read_games(io.BytesIO(b"*"), max_game_bytes=1.5)), TypeError,
     "max_game_bytes must be an int, not float"),
]


@pytest.mark.parametrize("call, error, message", [odd[1:] for odd in _ODD], ids=[odd[0] for odd in _ODD])
def test_an_argument_of_the_wrong_type_or_out_of_range_is_said_so(call, error, message):
    """The library's entry points name what they take, as replay and read_text do: check(None)
    raised AttributeError from deep inside ('NoneType' object has no attribute 'tag'), so did
    variant_by_name(None) or (20), piece_at(1.5) or ('1') and Position(variant, 'W', {2.0: 'w'})
    a TypeError of list indices or of '<=', and read_games took a ceiling of -1 or 1.5 characters (every game
    then 'longer than -1 characters')."""
    with pytest.raises(error, match=message):
        call()
