"""The fast paths of the commands that write or look at replayed games give what the
element-by-element paths give: a run kept as text written from its text, canonical PDN
written from the runs (issue 28)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pdn_tools.play.notation import Style, canonical_game, canonical_text
from pdn_tools.play.replay import replay
from pdn_tools.rules.core import Engine
from pdn_tools.text.model import Game, MoveRun, movetext_runs
from pdn_tools.text.reader import read_text
from pdn_tools.text.writer import write_game
from test_grammar import plain_runs

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
