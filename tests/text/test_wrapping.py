"""Written movetext keeps a move number on the line of its move (issue 29: `convert` wrote
`6.` at the end of a line and `e3-d4` on the next), in every writing style, at every width."""
import itertools
import re

from hypothesis import given, settings, strategies as st

from boards import random_move
from pdn_tools import Game, Position, read_text, replay
from pdn_tools.play.notation import Style, canonical_game, move_text
from pdn_tools.rules.variants import VARIANTS
from pdn_tools.text.writer import write_game

NUMBER = re.compile(r"[0-9]*\.(\.\.)?\Z")
MOVE = re.compile(r"[a-l]?[0-9]+([-x:][a-l]?[0-9]+)+\Z")
STYLES = [Style(captures, squares, separator) for captures, squares, separator in itertools.product(
    (None, "short", "full"), (None, "numeric", "alpha"), (None, "x", ":"))]


@st.composite
def played_games(draw) -> Game:
    """A game of legal moves in some variant, numbered as PDN numbers them, with a comment and a
    variation now and then."""
    variant = VARIANTS[draw(st.sampled_from(["international", "english", "russian", "brazilian"]))]
    position = Position.initial(variant)
    words = [f'[GameType "{variant.gametype}"]', ""]
    for ply in range(draw(st.integers(0, 30))):
        move = random_move(draw, position)
        if move is None:
            break
        if ply % 2 == 0 or draw(st.booleans()):
            words.append(f"{ply // 2 + 1}{'...' if ply % 2 else '.'}")
        if draw(st.integers(0, 9)) == 0:
            words.append("{a note}")
        words.append(move_text(position, move))
        position = position.play(move)
    [game] = read_text(" ".join(words) + " *")
    assert isinstance(game, Game) and replay(game).ok
    return game


def broken_pairs(text: str) -> list[tuple[str, str]]:
    """(last word of a line, first word of the next) where a move number ends a line and its
    move starts the next one."""
    lines = [line.split() for line in text.splitlines()]
    return [(this[-1], after[0]) for this, after in zip(lines, lines[1:])
            if this and after and NUMBER.match(this[-1]) and MOVE.match(after[0])]


@settings(max_examples=150, deadline=None, database=None, derandomize=True)
@given(played_games(), st.sampled_from(STYLES), st.integers(1, 100))
def test_a_move_number_and_its_move_are_never_split_by_a_line_end(game, style, width):
    text = write_game(canonical_game(game, replay(game), style), width)
    assert broken_pairs(text) == [], text
    [again] = read_text(text)
    assert [ply.move for ply in replay(again).mainline()] == [ply.move for ply in replay(game).mainline()]


def test_the_move_from_issue_29_stays_with_its_number():
    moves = "1. c3-d4 f6-g5 2. b2-c3 g7-f6 3. a1-b2 h8-g7 4. c3-b4 b6-a5 5. d2-c3 a7-b6 6. e3-f4"
    [game] = read_text(f'[GameType "25"]\n{moves} *')
    texts = [write_game(game, width) for width in range(1, 100)]     # each number ends some line
    assert all("6. e3-f4" in text and broken_pairs(text) == [] for text in texts)


# ---- the head: tags written at once, escaped when a value needs it ------------------------------------

from pdn_tools.text.model import Comment  # noqa: E402
from pdn_tools.text.writer import escape, written_game  # noqa: E402

HEAD_TEXT = st.text(st.sampled_from('aZ "\\é–]\n'), max_size=8)


def _written_tag_by_tag(before: list[Comment], tags: list[tuple[str, str]], movetext: str) -> str:
    """written_game as it wrote a head before: each tag's value looked at and escaped alone."""
    parts = [("{" + c.text + "}" if c.kind == "{" else c.kind + c.text + "\n").rstrip("\n") for c in before]
    parts += [f'[{name} "{value}"]' if '"' not in value and "\\" not in value else f'[{name} "{escape(value)}"]'
              for name, value in tags]
    if tags:
        parts.append("")
    return "\n".join([*parts, movetext, "\n"])


@settings(max_examples=300, deadline=None)
@given(before=st.lists(st.builds(Comment, HEAD_TEXT, st.sampled_from("{%;")), max_size=2),
       tags=st.lists(st.tuples(HEAD_TEXT, HEAD_TEXT), max_size=5), movetext=HEAD_TEXT)
def test_the_head_written_at_once_is_the_head_written_tag_by_tag(before, tags, movetext):
    """written_game writes the tags in one go and escapes them all when a value (or a name) holds a
    quote or a backslash: the text is what escaping each value alone, as needed, wrote."""
    assert written_game(before, tags, movetext) == _written_tag_by_tag(before, tags, movetext)
