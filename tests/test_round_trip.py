"""Every game that reads writes to text that reads back as the same game: a property over
fuzzed text (token soup from PDN's own pieces and hostile characters), not only the corpus."""
import dataclasses
import io
import itertools
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from pdn_tools import Game, ReadError, read_games
from pdn_tools.text.model import Comment
from pdn_tools.text.writer import terminator, write_game

# `PDN_FUZZ_EXAMPLES=20000 pytest tests/test_round_trip.py tests/test_robustness.py` runs the long fuzz.
EXAMPLES = int(os.environ.get("PDN_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=EXAMPLES <= 300,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_PIECES = ['[', ']', '"', '\\', '{', '}', '(', ')', '/', '%', ';', '$', '*', '!', '?', '-', 'x', ':', '.', '...',
           ' ', '\t', '\n', '\n\n', '\r', '\\n', '\\r', '½', '²', '\ufeff', '\x00',
           '1.', '12...', '32-28', '19-23', '28x19', 'c3-d4', 'ed4', '07-12', 'C3', '1-0', '0-1', '2-0', '1-1',
           '1/2-1/2', '0-0', '$7', '(?)', '!?', '- -', 'FEN', 'W:W31-50:B1-20', '[Event "E"]', '[Round 17]',
           '[GameType "20"]', '[Type de jeu "20"]', '[Name} "v"]', '[a "x\\"y"]', '[Na}me 17]', '[A(b) 1]',
           '[x) y]', '[Round "11.1]', '[Game # 612]', '[a b\\]', 'Event', 'GameType', 'word']


@st.composite
def pdn_soup(draw) -> str:
    """Text made of PDN's pieces, quirks and hostile characters, in any order."""
    pieces = draw(st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=4)), max_size=60))
    return "".join(pieces)


def read(text: str) -> list:
    return list(read_games(io.BytesIO(text.encode("utf-8", "surrogatepass")), name="fuzz.pdn"))


def assert_round_trip(text: str) -> None:
    """Each game of `text` reads back from its written text as itself (with the terminator
    PDN requires: a game without one is written with its Result or '*')."""
    for game in read(text):
        if isinstance(game, Game):
            written = write_game(game)
            again = read(written)
            expected = dataclasses.replace(game, result=terminator(game))
            assert again == [expected], f"read {text!r}\nwrote {written!r}\nread back {again!r}"


def assert_file_round_trip(text: str) -> None:
    """The games of `text`, written one after the other (twice, so that each game has one
    after it), read back as themselves: every comment stays with its game."""
    games = [dataclasses.replace(g, result=terminator(g)) for g in read(text) if isinstance(g, Game)] * 2
    written = "".join(write_game(game) for game in games)
    again = read(written)
    assert again == games, f"read {text!r}\nwrote {written!r}\nread back {again!r}"


@FUZZ
@given(pdn_soup())
def test_every_game_read_from_fuzzed_text_writes_back_as_itself(text):
    assert_round_trip(text)


@FUZZ
@given(pdn_soup())
def test_the_games_of_fuzzed_text_written_together_read_back_as_themselves(text):
    assert_file_round_trip(text)


@FUZZ
@given(st.lists(st.tuples(st.text(min_size=1, max_size=12), st.text(max_size=12)), max_size=4), pdn_soup())
def test_every_tag_name_and_value_read_writes_back(tags, movetext):
    text = "".join(f'[{name} "{value}"]\n' for name, value in tags) + movetext
    assert_round_trip(text)


def test_found_by_the_long_fuzz():
    """A move number 0 is not the ellipsis; a comment after a line comment after the result;
    text before the moves of a game without tags, after another game; placeholders '-' and
    '- -' that must not be written as '- - -'."""
    for text in ["0.", "1. 32-28 0. 19-23 *", "*%\n[", "1. 32-28 * % one\n{two} ;three\n{four}",
                 "*\n[*", "*\n01/2-1/2", "-\n- -", "-\n-\n-", "1. - \n- - 2. 32-28 *"]:
        assert_round_trip(text)
        assert_file_round_trip(text)


def test_text_before_the_moves_of_a_game_without_tags_is_its_movetext_wherever_it_stands():
    """Read after another game or first in its file, a game without tags has its leading
    comments (and unreadable text, warned where it stands) in its movetext, as written."""
    for text in ["*\n[ 1. 32-28 *", "[ 1. 32-28 *"]:
        games = read(text)
        game = games[-1]
        assert len(games) == text.count("*") and isinstance(game, Game)
        assert game.before == [] and game.elements[0].text == "["
        warning = game.warnings[0]
        assert (warning.code, warning.line, warning.column) == ("prose", text.count("\n") + 1, 1)
        assert warning.message == "text '[' read as a comment"
        assert_round_trip(text)
        assert_file_round_trip(text)


def test_strict_reading_locates_text_before_the_moves_of_a_game_without_tags():
    games = list(read_games(io.BytesIO(b"*\n\n01 1. 32-28 *"), strict=True, name="fuzz.pdn"))
    assert isinstance(games[0], Game) and isinstance(games[1], ReadError)
    assert str(games[1]) == "fuzz.pdn:3:1: game 2: unexpected '01'"


_TAIL_PIECES = {"%line\n": "line", ";semi\n": "semi", "{brace}": "brace", "{two\nlines}": "two\nlines",
                "\n": None, "\n\n": None, " ": None}
_NEXT_GAMES = {"": [], '[Event "2"]\n1. 19-23 *\n': [], "1. 19-23 *\n": [], "{lead} 1. 19-23 *\n": ["lead"]}


def test_every_comment_after_a_result_stays_with_its_game_through_a_whole_file_round_trip():
    """A result, then line comments, brace comments (on one line or two), line ends and
    blank lines in every order of up to three, then a next game: no comment is lost, and
    each is read with the same game again from the written file (where another game follows)."""
    orders = itertools.chain.from_iterable(itertools.product(_TAIL_PIECES, repeat=n) for n in range(4))
    for pieces, (following, leading) in itertools.product(orders, _NEXT_GAMES.items()):
        text = '[Event "1"]\n1. 32-28 *' + "".join(pieces) + "\n" + following
        games = read(text)
        assert [type(g) for g in games] == [Game] * (2 if following else 1), text
        comments = [c.text for g in games for c in g.before + g.elements + g.after if isinstance(c, Comment)]
        assert comments == [_TAIL_PIECES[p] for p in pieces if _TAIL_PIECES[p]] + leading, text
        assert_file_round_trip(text)
