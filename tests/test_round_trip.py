"""Every game that reads writes to text that reads back as the same game: a property over
fuzzed text (token soup from PDN's own pieces and hostile characters), not only the corpus."""
import dataclasses
import io
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from pdn_tools import Game, read_games
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


@FUZZ
@given(pdn_soup())
def test_every_game_read_from_fuzzed_text_writes_back_as_itself(text):
    assert_round_trip(text)


@FUZZ
@given(st.lists(st.tuples(st.text(min_size=1, max_size=12), st.text(max_size=12)), max_size=4), pdn_soup())
def test_every_tag_name_and_value_read_writes_back(tags, movetext):
    text = "".join(f'[{name} "{value}"]\n' for name, value in tags) + movetext
    assert_round_trip(text)


def test_found_by_the_long_fuzz():
    """A move number 0 is not the ellipsis; a comment after a line comment after the result."""
    for text in ["0.", "1. 32-28 0. 19-23 *", "*%\n[", "1. 32-28 * % one\n{two} ;three\n{four}"]:
        assert_round_trip(text)


def test_tag_names_holding_braces_and_parentheses_are_written_readably():
    for text in ['[Na}me 17]\n1. 32-28 *', '[A(b) 1]\n1. 32-28 *', '[x) y]\n1. 32-28 *', '[Na}me "v"]\n*',
                 '[Type de jeu "20"]\n1. 32-28 *', '[Round 17]\n*']:
        assert_round_trip(text)
