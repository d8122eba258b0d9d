"""Games never vanish or merge: a '{' or '/' that is never closed is reported where it is
and the games after it are read; a result glued to letters is reported, not dropped, and
reading, writing and reading again gives the same games."""
import io
import json

import pytest
from click.testing import CliRunner

from pdn_tools import Game, ReadError, read_games
from pdn_tools.cli import cli
from pdn_tools.text.codes import Code
from pdn_tools.text.writer import write_game

FOUR = "".join(f'[Event "E{i}"]\n[GameType "20"]\n1. 32-28 19-23 *\n\n' for i in range(1, 5))
# The third game holds a closed comment: an unclosed '{' in the first game used to run up to it.
CLOSED_LATER = FOUR.replace('[Event "E3"]\n[GameType "20"]\n1. 32-28', '[Event "E3"]\n[GameType "20"]\n1. 32-28 {ok}')


def read(text: str, strict: bool = False) -> list:
    return list(read_games(io.BytesIO(text.encode()), strict=strict, name="t.pdn"))


def validate(text: str, *options: str) -> list[dict]:
    done = CliRunner().invoke(cli, ["validate", "--format", "jsonl", *options, "-"], input=text.encode())
    assert done.exit_code in (0, 1) and "Traceback" not in done.output
    return [json.loads(line) for line in done.output.splitlines()]


@pytest.mark.parametrize("opener, what", [("{", "comment"), ("/", "setup")])
def test_unclosed_opener_before_the_next_game_is_reported_and_the_games_after_it_read(opener, what):
    text = CLOSED_LATER.replace("1. 32-28 19-23 *\n\n[Event \"E2\"]", f"1. 32-28 {opener} 19-23 *\n\n[Event \"E2\"]")
    games = read(text)
    assert [g.tag("Event") for g in games] == ["E1", "E2", "E3", "E4"]
    warning = games[0].warnings[0]
    assert (warning.code, warning.line, warning.column) == (Code.UNCLOSED, 3, 10)
    assert warning.message == f"{opener!r} opens a {what} that is never closed: read as text"
    assert games[0].main_line()[1].text == "19-23" and games[0].result == "*"
    records = validate(text)
    assert [r["game"] for r in records] == [1, 2, 3, 4] and all(r["ok"] for r in records)


@pytest.mark.parametrize("opener", ["{", "/"])
def test_unclosed_opener_is_an_error_in_strict_mode_and_the_rest_is_read(opener):
    text = CLOSED_LATER.replace("1. 32-28 19-23 *\n\n[Event \"E2\"]", f"1. 32-28 {opener} 19-23 *\n\n[Event \"E2\"]")
    games = read(text, strict=True)
    assert len(games) == 4 and isinstance(games[0], ReadError)
    assert str(games[0]).startswith(f"t.pdn:3:10: game 1: {opener!r} opens a ") and games[0].code == Code.UNCLOSED
    assert [g.tag("Event") for g in games[1:]] == ["E2", "E3", "E4"]
    records = validate(text, "--strict")
    assert [(r["game"], r["ok"]) for r in records] == [(1, False), (2, True), (3, True), (4, True)]
    assert (records[0]["errors"][0]["line"], records[0]["errors"][0]["column"]) == (3, 10)


def test_comment_over_a_blank_line_not_followed_by_a_tag_is_still_one_comment():
    games = read('[Event "A"]\n1. 32-28 {first\n\nsecond\n\n[not a tag pair} 19-23 *\n')
    assert len(games) == 1 and games[0].elements[2].text == "first\n\nsecond\n\n[not a tag pair"
    assert games[0].warnings == []


def test_unclosed_comment_at_the_end_of_the_file_is_reported():
    [game] = read('[Event "A"]\n1. 32-28 { never closed 19-23 *\n')
    assert (game.warnings[0].code, game.warnings[0].line, game.warnings[0].column) == (Code.UNCLOSED, 2, 10)


@pytest.mark.parametrize("glued, column", [("2-0Z", 10), ("1-0ba5", 10), ("0-1x", 10)])
def test_result_glued_to_letters_is_reported_not_dropped(glued, column):
    text = f'[Event "A"]\n1. 32-28 {glued} 2. 33-29 *\n\n[Event "B"]\n1. 32-28 *\n'
    games = read(text)
    assert [g.tag("Event") for g in games] == ["A", "B"]
    warning = games[0].warnings[0]
    assert (warning.code, warning.line, warning.column) == (Code.PROSE, 2, column)
    assert warning.message.startswith(f"result {glued[:3]!r} glued to {glued[3:]!r}")
    assert [m.text for m in games[0].main_line()] == ["32-28", "33-29"]
    strict = read(text, strict=True)
    assert isinstance(strict[0], ReadError) and strict[0].message == f"result {glued[:3]!r} glued to {glued[3:]!r}"


def test_result_glued_to_letters_converts_to_the_same_games():
    text = '[GameType "25"]\n1. cd4 1-0ba5 2. dc5 *\n'
    games = read(text)
    written = "".join(write_game(g) for g in games)
    assert read(written) == games and len(games) == 1
    converted = read(CliRunner().invoke(cli, ["convert", "-"], input=text.encode()).output)
    assert len(converted) == 1 and [m.text for m in converted[0].main_line()] == ["cd4", "dc5"]
    assert "1-0ba5" in [e.text for e in converted[0].elements if hasattr(e, "kind")]


def test_a_result_then_a_move_number_is_still_two_games():
    games = read("1. 32-28 1-01. 33-29 *")
    assert [g.result for g in games] == ["1-0", "*"]


# Games of every kind a real file holds, none with a GameType tag: a legal game, a game with an
# illegal move, a game of placeholders (`- -`, as a file that lost its moves), a game cut short by
# an unclosed comment, an empty game, then a legal game again (a command that stopped early loses it).
MIXED = ('[Event "legal"]\n1. c3-d4 f6-g5 2. b2-c3 g5-h4 1-0\n\n'
         '[Event "illegal"]\n1. c3-d4 f6-g5 2. d4-h8 1-0\n\n'
         '[Event "placeholders"]\n[Result "1/2-1/2"]\n1. - - 2. - - 1/2-1/2\n\n'
         '[Event "unclosed"]\n1. c3-d4 {never closed 1-0\n\n'
         '[Event "empty"]\n*\n\n'
         '[Event "last"]\n1. c3-d4 f6-g5 *\n')
ANNOTATIONS = ["--fen", "--moves", "--forced", "--captures", "--draws", "--ply-count", "--result", "--gametype",
               "--all", "--shots"]


def events(text: str) -> list[str]:
    return [line[len('[Event "'):-2] for line in text.splitlines() if line.startswith('[Event "')]


@pytest.mark.parametrize("option", ANNOTATIONS)
def test_annotate_writes_back_every_game_of_every_kind(option):
    """Each annotation over games that do not replay, or hold no moves, and have no GameType: every
    game written in its place, no traceback (--gametype once raised on an invalid game and the
    run lost every game after it)."""
    done = CliRunner().invoke(cli, ["annotate", option, "-"], input=MIXED.encode())
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    assert done.exit_code in (0, 1) and "Traceback" not in done.output
    assert events(done.stdout) == ["legal", "illegal", "placeholders", "unclosed", "empty", "last"]


ALL = ["legal", "illegal", "placeholders", "unclosed", "empty", "last"]


@pytest.mark.parametrize("args, written", [
    (["convert"], ALL), (["convert", "--keep-invalid"], ALL), (["convert", "--fix-results"], ALL),
    (["convert", "--to", "jsonl"], [name for name in ALL if name != "illegal"])])
def test_every_command_accounts_for_every_game_of_every_kind(args, written):
    """Games in = games reported: each game of MIXED is written, or named by an error line."""
    done = CliRunner().invoke(cli, [*args, "-"], input=MIXED.encode())
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    assert done.exit_code in (0, 1) and "Traceback" not in done.output
    names = ([json.loads(line)["tags"]["Event"] for line in done.stdout.splitlines()] if "jsonl" in args
             else events(done.stdout))
    assert names == written
    assert "game 2 (illegal), ply 3 (move 2. d4-h8)" in done.stderr


def test_validate_reports_every_game_of_every_kind():
    done = CliRunner().invoke(cli, ["validate", "--format", "jsonl", "-"], input=MIXED.encode())
    assert done.exit_code == 1 and "Traceback" not in done.output
    assert [json.loads(line)["game"] for line in done.stdout.splitlines()] == [1, 2, 3, 4, 5, 6]


# A blank line inside a tag section: PDN reads white space as white space, so the tag pairs after it go on
# with the game (they were a tags-only game, then a game without its first tags).  A tag named again starts
# a new game: real files (the lidraughts extracts of the corpus) hold tags-only games so, each a game.
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r\r\n", "\r"])
@pytest.mark.parametrize("blank", ["", "  ", "\t"])
def test_a_blank_line_inside_a_tag_section_keeps_one_game(newline, blank):
    text = (f'[Event "A"]\n{blank}\n[White "W"]\n[GameType "20"]\n1. 32-28 19-23 *\n\n'
            '[Event "B"]\n[GameType "20"]\n1. 32-28 *\n').replace("\n", newline)
    for strict in (False, True):
        games = read(text, strict)
        assert [(g.tag("Event"), g.tag("White"), len(g.main_line())) for g in games] == [("A", "W", 2), ("B", None, 1)]
        assert [(w.code, w.line, w.column) for w in games[0].warnings] == [(Code.BLANK_IN_TAGS, 3, 1)]
    records = validate(text, "--strict")
    assert [(r["game"], r["ok"], r["line"]) for r in records] == [(1, True, 1), (2, True, 7)]
    assert read("".join(write_game(g) for g in games)) == games


@pytest.mark.parametrize("second", ['[Event "B"]', '[GameType "20"]', '[White "W"]\n[Event "B"]'])
def test_a_tag_named_again_after_a_blank_line_starts_a_new_game(second):
    text = f'[Event "A"]\n[GameType "20"]\n[Result "0-2"]\n\n{second}\n1. 32-28 *\n'
    games = read(text)
    assert len(games) == 2 and games[0].tag("Event") == "A" and games[0].main_line() == []
    assert [w.code for w in games[0].warnings] == [Code.UNTERMINATED]


def test_a_blank_line_after_a_comment_in_the_tag_section_still_ends_the_game():
    games = read('[Event "A"]\n{the tags of a lost game}\n\n[GameType "20"]\n1. 32-28 *\n')
    assert [g.tag("Event") for g in games] == ["A", None]
