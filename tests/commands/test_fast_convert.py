"""`pdn convert` writes the same bytes whichever engine replays: on the compiled one the core
writes the plies of the runs kept as text itself (Rules.write_run: JSON move objects, FEN lines,
moves rewritten in a style), on the pure one they are made and written ply by ply (issue 28)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.commands import convert, report
from pdn_tools.commands.convert import Options, convert_game
from pdn_tools.play.checking import Checking
from pdn_tools.play.notation import Style, canonical_head, canonical_tags
from pdn_tools.play.replay import replay
from pdn_tools.rules.core import Engine
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.text.model import Game
from pdn_tools.text.reader import read_text
from fuzz import at_length
from test_fast_plies import played_games

COMPILED, PURE = Engine(True), Engine(False)

STYLES = st.builds(Style, captures=st.sampled_from([None, "short", "full"]),
                   squares=st.sampled_from([None, "numeric", "alpha"]), separator=st.sampled_from([None, "x", ":"]),
                   drop=st.frozensets(st.sampled_from(["comments", "variations", "nags"])))


def converted(text: str, to: str, style: Style, engine: Engine) -> tuple[str, tuple[str, ...]]:
    """The text and the notes `convert` gives every game of `text`, read and replayed on `engine`."""
    out = [convert_game(game, Options(to=to, style=style, checking=Checking(engine=engine))) for game in read_text(text, engine=engine)]
    return "".join(c.text for c in out), tuple(note for c in out for note in c.notes)


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_convert_writes_the_same_on_both_engines(name, data):
    """Every --to and every style: the compiled engine (the core writing the runs' plies) gives
    the pure engine's bytes and notes, for random games of every variant (comments cut runs)."""
    text = data.draw(played_games(name))
    to, style = data.draw(st.sampled_from(sorted(convert.WRITERS))), data.draw(STYLES)
    assert converted(text, to, style, COMPILED) == converted(text, to, style, PURE)


test_convert_writes_the_same_on_both_engines_at_length = at_length(
    test_convert_writes_the_same_on_both_engines, 20, data=st.data())


GAMES = [
    '[Event "a"]\n[Result "1-0"]\n1. 11-15 24-20 2. 8-11 28-24 {a comment} 3. 9-13 22-18 15x22 25x18 4. 4-8 1-0',
    '[Event "a"]\n[Result "1-0"]\n1. 11-15 23-19 2. 8-11 {a comment} 22-17 $3 3. 4-8 17x10 7x14 1-0',
    '[FEN "W:W21,22,K30:B10,11,K5"]\n1... 22-18 2. 11-15 18x11 3. 30-26 *',
    '[Event "v"]\n1. 11-15 (1. 9-13 22-18) 23-19 2. 8-11 % line comment\n22-17 *',
    '1. 11-15 23-19 /FEN "B:W21,22:B10,11"/ 11-15 *',
    '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 *',
    '{before} [Event "x"]\n1. 11-15 - 2. 8-11 * {after}',
    '[Event "wrong"]\n[Result "0-1"]\n1. 11-15 23-19 2. 8-11 19-16 12x19 1-0',
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.sampled_from(sorted(convert.WRITERS)), STYLES)
def test_convert_writes_the_same_on_both_engines_around_the_runs(text, to, style):
    """Games whose main line the core does not write whole (a variation, a setup, a placeholder,
    a wrong result, a start from a FEN with kings) give the pure engine's bytes too."""
    assert converted(text, to, style, COMPILED) == converted(text, to, style, PURE)


@pytest.mark.parametrize("form, extra", [("json", None), ("fen", "f:1"), ("short", "x"), ("full", ":"),
                                         ("json-short", "x"), ("json-full", ":")])
def test_the_core_writes_a_plain_games_plies(form, extra):
    """A main line of runs, numbers, comments and NAGs is written by the core in every form,
    split where comments cut the runs, squares in numbers or names."""
    game = read_text(GAMES[0], engine=COMPILED)[0]
    result = replay(game, engine=COMPILED)
    for named in (False, True):
        pieces = convert._core_plies(result, named, form, extra)
        assert pieces is not None and len(pieces) == 2
    assert convert._core_plies(result, False, "full", ":") == ["11-15 24-20 8-11 28-24", "9-13 22-18 15:22 25:18 4-8"]
    assert convert._core_plies(result, True, "short", "x") == ["c3-d4 b6-a5 b2-c3 a7-b6",
                                                               "g3-h4 f6-e5 d4xf6 g7xe5 a1-b2"]
    assert convert._core_plies(result, False, "fen", "f:1")[1].startswith(
        "f:1\t5\tW:W20,21,22,23,24,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,10,11,12,13,15\nf:1\t6\t")
    assert convert._core_plies(result, True, "json", None)[1].startswith(
        '{"ply": 5, "text": "9-13", "path": ["g3", "h4"], "captured": [], "fen": "W:Wa5,h6,')
    assert '{"ply": 7, "text": "d4:f6", "path": ["d4", "f6"], "captured": ["e5"]' in \
        convert._core_plies(result, True, "json-full", ":")[1]


def test_the_core_leaves_what_it_does_not_play_whole():
    """A setup in the main line, or a move left to Python, leaves the game to the ply path."""
    for text in (GAMES[4], GAMES[1]):
        game = read_text(text, engine=COMPILED)[0]
        assert convert._core_plies(replay(game, engine=COMPILED), False, "json", None) is None


# Text a JSON encoder must escape: quotes, backslashes, controls, the line breaks json_text escapes.
ODD_TEXT = st.lists(st.sampled_from(list('ab"\\/\n\t\x00\x1f\x7f\x85\u2028\u2029é日\U0001f600 {}[]:,') + ['"moves": null'])).map(
    "".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Event", "White", "GameType", "x\"y", "\u2028"]), ODD_TEXT), max_size=6),
       ODD_TEXT, st.integers(0, 10**9), ODD_TEXT, st.one_of(ODD_TEXT.filter(bool), st.sampled_from(["1-0", "*"])),
       st.sampled_from([None, [], [{"code": "wrong-result", "message": "a\u2028b", "ply": None}]]))
def test_the_json_line_written_by_hand_is_the_encoder_s(tags, file, index, fen, result, errors):
    """json_game writes the fields around the core's moves itself (_json_head, _json_tail): the
    text is report.json_text's of the same fields, whatever the tags and their names hold."""
    game = Game(tags=tags, file=file, index=index)
    canonical = canonical_tags(tags)
    first = dict(reversed(canonical))            # each name's first value ...
    first = {name: first[name] for name in dict(canonical)}     # ... in the order of the names
    pairs, tag = convert._json_tags(tags)
    assert tag == first.get("Result")
    line = f'{convert._json_head(game, pairs, "english", fen)}, "moves": [], {convert._json_tail(result, errors)}'
    assert line == report.json_text({"file": file, "game": index, "tags": first, "variant": "english", "fen": fen,
                                     "moves": [], "result": result, "errors": errors or []})


TAG_NAMES = st.sampled_from(["Event", "White", "Result", "GameType", "Round", "Black", "Annotator"])
TAG_VALUES = st.sampled_from(["", "x", "1-0", " 0-1 ", "*", "21", "20", "21,B,8,8,N1,0", "21,W,8,8,A0,0", "25", "96",
                              'a "quoted" \\ value'])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TAG_NAMES, TAG_VALUES), max_size=8), st.sampled_from(["1-0", "*", ""]),
       st.sampled_from(["jsonl", "pdn"]), STYLES)
def test_the_head_written_from_the_tags_alone_is_the_canonical_game_s(tags, end, to, style):
    """The compiled engine writes a game's head from its tags alone (_json_tags with the GameType
    written_gametype gives, notation.head_tags with written_game): the pure engine's bytes from the
    canonical Game, whatever the tags (repeated, GameType numbers and full values, Results)."""
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    text = f"{head}1. 11-15 24-20 2. 8-11 28-24 {{a comment}} 3. 9-13 22-18 {end}"
    assert converted(text, to, style, COMPILED) == converted(text, to, style, PURE)
