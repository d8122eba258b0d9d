"""The fast paths of the commands that write or look at replayed games give what the
element-by-element paths give: a run kept as text written from its text, canonical PDN
written from the runs (issue 28)."""
from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.play.notation import Style, canonical_game, canonical_text
from pdn_tools.play import replay as replay_module
from pdn_tools.play.replay import replay
from pdn_tools.rules.core import Engine
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.text.model import Game, MoveRun, movetext_runs
from pdn_tools.text.reader import read_text
from pdn_tools.text.writer import write_game
from boards import king_games, random_move
from fuzz import at_length
from test_grammar import plain_runs
from test_round_trip import random_games

COMPILED = Engine(True)


@settings(max_examples=300, deadline=None)
@given(st.one_of(plain_runs(), plain_runs(padded=True)))
def test_a_runs_texts_are_its_items_as_expanded(text):
    """MoveRun.texts() (the words of the text) gives the text of each element expand() makes."""
    run = MoveRun(text, 1, 1)
    assert run.texts() == [element.text for element in run.expand()]


GAMES = [
    '[Event "a"]\n[Result "1-0"]\n1. 11-15 23-19 2. 8-11 {a comment} 22-17 $3 3. 4-8 17x10 7x14 1-0',
    '[FEN "W:W21,22:B10,11"]\n1... 22-18 2. 11-15 18x11 *',
    '[Event "v"]\n1. 11-15 (1. 9-13 22-18) 23-19 2. 8-11 % line comment\n22-17 *',
    '1. 11-15 23-19 /FEN "B:W21,22:B10,11"/ 11-15 *',
    '{before} [Event "x"]\n1. 11-15 - 2. 8-11 * {after}',
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.sets(st.sampled_from(["comments", "variations", "nags"])), st.booleans())
def test_canonical_text_is_the_canonical_game_written(text, drop, fix):
    """canonical_text (from the runs kept as text where it can) writes what write_game writes of
    canonical_game, for games read with runs kept and without, in every style of dropping."""
    style = Style(drop=frozenset(drop), fix_results=fix)
    for engine in (COMPILED, None):
        game = read_text(text, engine=engine)[0]
        assert isinstance(game, Game)
        result = replay(game, engine=COMPILED)
        kept = any(type(element) is MoveRun for element in movetext_runs(game))
        written = canonical_text(game, result, style)
        if text in GAMES[:2]:           # moves, numbers, comments and NAGs alone: written from the runs
            assert kept == any(type(element) is MoveRun for element in movetext_runs(game))
        assert written == write_game(canonical_game(game, result, style))


PURE = Engine(False)


@st.composite
def played_games(draw: st.DrawFn, name: str) -> str:
    """A game of variant `name` played by random legal moves and written in square numbers,
    captures short or with every landing square, a comment now and then (runs cut apart)."""
    from pdn_tools.play.notation import move_text
    from pdn_tools.rules.movegen import Position

    variant = VARIANTS[name]
    position = Position.initial(variant, PURE)
    pieces = []
    for ply in range(draw(st.integers(0, 90))):
        move = random_move(draw, position)
        if move is None:
            break
        style = Style(captures=draw(st.sampled_from([None, "full"])), squares="numeric")
        number = f"{ply // 2 + 1}. " if ply % 2 == 0 else ""
        comment = " {c}" if draw(st.integers(0, 9)) == 0 else ""
        pieces.append(number + move_text(position, move, style) + comment)
        position = position.play(move)
    return f'[GameType "{variant.gametype_text(False)}"]\n' + " ".join(pieces) + " *"


def plies(result) -> list[tuple]:
    return [(p.number, p.text, p.notated.text, p.notated.line, p.notated.column, p.move, p.before, p.after)
            for p in result.plies]


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_the_plies_the_core_records_are_the_pure_engines(name, data):
    """The plies of a game read with its runs kept as text, which the compiled core replays and
    records (Replay.plies), are those the pure engine makes element by element: numbers, notated
    moves and their places, moves (paths, captured squares in order, promotion), positions."""
    text = data.draw(played_games(name))
    compiled = replay(read_text(text, engine=COMPILED)[0], engine=COMPILED)
    pure = replay(read_text(text, engine=PURE)[0], engine=PURE)
    assert compiled.ok and pure.ok
    assert plies(compiled) == plies(pure) and len(compiled.plies) == compiled.ply_count
    assert [p.after.fen() for p in compiled.plies] == [p.after.fen() for p in pure.plies]


test_the_plies_the_core_records_are_the_pure_engines_at_length = at_length(
    test_the_plies_the_core_records_are_the_pure_engines, 25, data=st.data())


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_cores_fen_and_pieces_are_the_pure_engines(name, data):
    """Position.fen() in square numbers, written by the compiled core, is write_fen's text (the
    pure engine's) for any pieces and side to move, kings included, an empty side too; and
    pieces() (the core's squares_of) gives the pure engine's sets."""
    from pdn_tools.rules.fen import write_fen
    from pdn_tools.rules.movegen import Position

    variant = VARIANTS[name]
    squares = data.draw(st.lists(st.integers(1, variant.num_squares), unique=True, max_size=variant.num_squares))
    pieces = {square: data.draw(st.sampled_from("wWbB")) for square in squares}
    turn = data.draw(st.sampled_from("WB"))
    compiled, pure = Position(variant, turn, pieces, COMPILED), Position(variant, turn, pieces, PURE)
    assert compiled.fen(False) == write_fen(variant, turn, pure.pieces("W"), pure.pieces("B"), False)
    assert compiled.fen(False) == pure.fen(False) and compiled.fen(True) == pure.fen(True)
    assert [compiled.pieces(colour) for colour in "WB"] == [pure.pieces(colour) for colour in "WB"]
    assert {square for colour in "WB" for part in compiled.pieces(colour) for square in part} == set(pieces)


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_the_moves_the_core_records_alone_are_the_plies_moves(name, data):
    """played_moves (the main line played again, the core recording the moves alone: dedupe's key)
    gives the moves of the plies, on the compiled engine reading runs as text and on the pure one,
    before the plies are made and after."""
    from pdn_tools.play.main_line import played_moves

    text = data.draw(played_games(name))
    for engine in (COMPILED, PURE):
        result = replay(read_text(text, engine=engine)[0], engine=engine)
        moves = played_moves(result)
        assert moves == [ply.move for ply in result.plies] == played_moves(result)
        assert len(moves) == result.ply_count


test_the_moves_the_core_records_alone_are_the_plies_moves_at_length = at_length(
    test_the_moves_the_core_records_alone_are_the_plies_moves, 20, data=st.data())


def looked_at(position, moves: bool = True) -> tuple:
    """What a script may ask of a position: its value (equality, hash), FEN both ways, the pieces of
    each side (asked twice, in both orders), counts, every square; its moves and what they lead to
    (`moves`: they depend on Frisian king-move counters too, which a FEN does not hold)."""
    squares = range(1, position.variant.num_squares + 1)
    seen = (position, hash(position), position.turn, position.fen(False), position.fen(True),
            position.pieces("W"), position.pieces("B"), position.pieces("B"), position.pieces("W"),
            position.counts("W"), position.counts("B"), [position.piece_at(square) for square in squares])
    if not moves:
        return seen
    legal = position.legal_moves()
    return (*seen, position.has_move(), position.has_capture(), legal, [position.play(move) for move in legal])


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_positions_the_core_makes_after_another_are_positions_made_afresh(name, data):
    """The positions of the plies the compiled core records (each made after the one before it,
    keeping the ints of the pieces that did not change, their pieces() answers kept) are, in all a
    script asks of them, the pure engine's plies' positions, and the positions made afresh from
    their FEN on either engine."""
    from pdn_tools.rules.movegen import Position

    text = data.draw(played_games(name))
    variant = VARIANTS[name]
    compiled = replay(read_text(text, engine=COMPILED)[0], engine=COMPILED).plies
    pure = replay(read_text(text, engine=PURE)[0], engine=PURE).plies
    assert len(compiled) == len(pure)
    for made, reference in zip(compiled, pure):
        assert looked_at(made.after) == looked_at(reference.after)
        assert made.before == reference.before and hash(made.before) == hash(reference.before)
        fen = reference.after.fen()
        afresh = [looked_at(Position.from_fen(variant, fen, engine), moves=False) for engine in (COMPILED, PURE)]
        assert looked_at(made.after, moves=False) == afresh[0] == afresh[1]


test_positions_the_core_makes_after_another_are_positions_made_afresh_at_length = at_length(
    test_positions_the_core_makes_after_another_are_positions_made_afresh, 15, data=st.data())


def verdict(result) -> tuple:
    """What a replay says of a game, whichever path played it: the variant, how far it got, its
    diagnostics, the draws and the final position."""
    final = result.final
    return (result.variant and result.variant.name, result.complete, result.ply_count, result.errors, result.warnings,
            result.draw, result.claims, None if final is None else (final.fen(), final.turn))


def by_line(game: Game, engine: Engine, plies: bool = True):
    """The replay play.main_line's _Line makes move by move (replay._on_core_alone left out)."""
    with mock.patch.object(replay_module, "_on_core_alone", lambda *args: False):
        return replay(game, engine=engine, plies=plies)


RESULTS = ["*", "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0"]


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=6, deadline=None)
@given(data=st.data(), result=st.sampled_from(RESULTS), tag=st.booleans())
def test_a_main_line_the_core_plays_alone_is_judged_as_move_by_move(name, data, result, tag):
    """A replay lets the compiled core play a main line of runs and comments alone (replay._on_core_alone),
    recording its plies or not; its verdict and its plies are those of the replay that makes each ply
    (play.main_line's _Line) and the pure engine's, and so is its record, whatever the result said."""
    from pdn_tools.play.check import check

    text = data.draw(played_games(name))[:-1] + result
    text = f'[Result "{result}"]\n' + text if tag else text
    alone = replay(read_text(text, engine=COMPILED)[0], engine=COMPILED, plies=False)
    recorded = replay(read_text(text, engine=COMPILED)[0], engine=COMPILED, plies=True)
    stepped = by_line(read_text(text, engine=COMPILED)[0], COMPILED)
    pure = replay(read_text(text, engine=PURE)[0], engine=PURE, plies=True)
    assert verdict(alone) == verdict(recorded) == verdict(stepped) == verdict(pure)
    assert plies(recorded) == plies(stepped) == plies(pure) == plies(alone)
    assert recorded.plies == pure.plies and len(recorded.plies) == recorded.ply_count
    assert check(read_text(text, engine=COMPILED)[0], engine=COMPILED).record == \
        check(read_text(text, engine=PURE)[0], engine=PURE).record


test_a_main_line_the_core_plays_alone_is_judged_as_move_by_move_at_length = at_length(
    test_a_main_line_the_core_plays_alone_is_judged_as_move_by_move, 20, data=st.data(),
    result=st.sampled_from(RESULTS), tag=st.booleans())


@settings(max_examples=150, deadline=None)
@given(st.lists(random_games(), min_size=1, max_size=3).map("\n".join))
def test_random_games_are_judged_alike_with_the_core_alone_and_move_by_move(text):
    """The same for random games of every variant and writing style, illegal moves and draws included,
    and their plies: recorded by the core alone, made by _Line move by move, made by the pure engine."""
    for game, pure in zip(read_text(text, engine=COMPILED), read_text(text, engine=PURE)):
        if isinstance(game, Game):
            assert isinstance(pure, Game)
            recorded, stepped = replay(game, engine=COMPILED, plies=True), by_line(game, COMPILED)
            assert verdict(replay(game, engine=COMPILED, plies=False)) == verdict(recorded) == verdict(stepped) \
                == verdict(by_line(game, COMPILED, plies=False))
            assert plies(recorded) == plies(stepped) == plies(replay(pure, engine=PURE))


@pytest.mark.parametrize("text", [
    '[GameType "21"]\n[FEN "W:WK1:BK32"]\n1. 1-5 32-27 {a} 2. 5-1 27-32 3. 1-5 32-27 4. 5-1 27-32 5. 1-5 32-27 '
    '6. 5-1 27-32 7. 1-5 1/2-1/2',
    '[GameType "21"]\n[FEN "W:WK1:BK32"]\n1. 1-5 {a} 32-27 {b} 5-1 27-32 1-5 32-27 5-1 27-32 1-5 32-27 1-0'])
def test_a_main_line_the_core_leaves_to_the_line_is_counted_once(text):
    """A draw by repetition in the second run stops the core there: the line is then played move by move
    from its start, its draws counted afresh (not on top of what the core counted of the first run) and
    its plies made afresh (not after those the core recorded of the first run)."""
    alone = replay(read_text(text, engine=COMPILED)[0], engine=COMPILED, plies=False)
    recorded = replay(read_text(text, engine=COMPILED)[0], engine=COMPILED, plies=True)
    stepped = by_line(read_text(text, engine=COMPILED)[0], COMPILED)
    pure = replay(read_text(text, engine=PURE)[0], engine=PURE, plies=True)
    assert alone.draw is not None or alone.claims
    assert verdict(alone) == verdict(recorded) == verdict(stepped) == verdict(pure)
    assert plies(recorded) == plies(stepped) == plies(pure) and len(recorded.plies) == recorded.ply_count


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_the_plies_the_core_plays_while_python_counts_are_judged_as_the_pure_engine_judges_them(name, data):
    """While an ending's count runs the core counts nothing: it plays each move, and the tracker counts it
    in Python (steps.play_one); the verdict and the record are those of the pure engine's replay."""
    from pdn_tools.play.check import check

    text = data.draw(king_games(name))
    game = read_text(text, engine=COMPILED)[0]
    assert verdict(replay(game, engine=COMPILED, plies=False)) == verdict(replay(game, engine=COMPILED)) == \
        verdict(replay(read_text(text, engine=PURE)[0], engine=PURE))
    assert check(game, engine=COMPILED).record == check(read_text(text, engine=PURE)[0], engine=PURE).record


def test_an_endings_plies_are_played_by_the_core_and_counted_in_python():
    """A problem's solution in which the 16-move and 5-move rules' counts run (international): the
    core plays the plies of the counts (it left each to Python's resolving before), and the replay's
    draws and record are the pure engine's."""
    from pdn_tools.play.check import check
    from pdn_tools.rules import steps

    text = ('[GameType "20"]\n[FEN "W:W33,34,35,38,41,43:B16,19,22,25,28,31"]\n1. 41-36 28x48 2. 36x18 48x30 '
            '3. 35x13 25-30 4. 13-8 30-34 5. 8-2 34-40 6. 2-35 40-45 7. 35-44 45-50 8. 44-6 16-21 9. 18-12 '
            '21-27 10. 12-7 27-31 11. 7-1 31-36 12. 1-12 50-44 13. 6x50 36-41 14. 12-23 41-47 15. 50-33 '
            '47-36 16. 23-41 36x47 17. 33-15 1-0\n')
    played = []
    real = steps.play_one

    def counting(*args):
        answer = real(*args)
        played.append(answer is not None)
        return answer

    with mock.patch.object(steps, "play_one", counting):
        compiled = replay(read_text(text, engine=COMPILED)[0], engine=COMPILED, plies=False)
    pure = replay(read_text(text, engine=PURE)[0], engine=PURE)
    assert sum(played) >= 5 and compiled.ok
    assert verdict(compiled) == verdict(pure)
    assert check(read_text(text, engine=COMPILED)[0], engine=COMPILED).record == \
        check(read_text(text, engine=PURE)[0], engine=PURE).record
