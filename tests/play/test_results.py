"""Results are respected (issue 26): a Result a tag says was decided off the board is a warning,
and `convert --fix-results` leaves it; white space around a Result value is a warning and the
value is read, by every command; messages say whose win a Result means in the variant's colours."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from corpus import CORPUS, needs_corpus
from pdn_tools import read_games, read_text
from pdn_tools.cli import cli
from pdn_tools.commands.fix_results import fix_file
from pdn_tools.play.check import check
from pdn_tools.text.results import LABELS, NO_RESULT, OFF_BOARD_WORDS, RESULTS, off_board, read_result

# International: White (the starting side) to move takes Black's last piece with 28x19.
WHITE_WINS = '[GameType "20"]\n[FEN "W:W28:B23"]\n'
# English: White to move takes Black's last piece with 18x9, though Black is the starting side.
ENGLISH_WHITE_WINS = '[GameType "21"]\n[FEN "W:W18:B14"]\n'


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(arg) for arg in args], input=input)


def problems(text: str) -> list[tuple[str, str, int, int]]:
    """(code, message, line, column) of every error and warning of the one game of `text`."""
    record = check(read_text(text, name="g.pdn")[0]).record
    return [(p.code, p.message, p.line, p.column) for p in record.errors + record.warnings]


# ---- decided off the board -------------------------------------------------------------------------

TIME_FORFEIT = ('[White "Anna"]\n[Black "Bram"]\n' + WHITE_WINS + '[Termination "Time forfeit"]\n'
                '[Result "0-2"]\n1. 28x19 0-2\n')


def test_a_termination_off_the_board_makes_a_contradicted_result_a_warning_naming_the_tag(tmp_path):
    source = tmp_path / "g.pdn"
    source.write_text(TIME_FORFEIT)
    result = invoke("validate", "--warnings", "each", source)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == (
        f"{source}:6:1: game 1 (Anna – Bram): warning: Result '0-2' (a win for Black, the other side), but White "
        "has won on the board (Black, to move, has no move); Termination 'Time forfeit' says the game was decided "
        "off the board [result-off-board]")
    assert "wrong-result" not in result.stdout


def test_without_the_tag_the_same_game_has_a_wrong_result(tmp_path):
    source = tmp_path / "g.pdn"
    source.write_text(TIME_FORFEIT.replace('[Termination "Time forfeit"]\n', ""))
    result = invoke("validate", source)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f"{source}:5:1: game 1 (Anna – Bram): Result '0-2' (a win for Black, the other side), but White has won "
        "on the board (Black, to move, has no move) [wrong-result]")


@pytest.mark.parametrize("value", ["Time forfeit", "Abandoned", "adjudication", "Rules infraction", "White resigned",
                                   "Black resigns", "forfeit", "won on time", "default", "Disqualification",
                                   "draw by agreement", "Emergency", "walkover"])
def test_these_termination_values_say_the_game_was_decided_off_the_board(value):
    assert off_board([("Event", "x"), ("Termination", value)]) == ("Termination", value)
    found = problems(WHITE_WINS + f'[Termination "{value}"]\n[Result "0-2"]\n1. 28x19 0-2\n')
    assert [code for code, *_ in found] == ["result-off-board"]


@pytest.mark.parametrize("value", ["Normal", "normal", "unterminated", "", "checkmate", "no moves"])
def test_other_termination_values_say_nothing_off_the_board(value):
    assert off_board([("Termination", value)]) is None
    found = problems(WHITE_WINS + f'[Termination "{value}"]\n[Result "0-2"]\n1. 28x19 0-2\n')
    assert [code for code, *_ in found] == ["wrong-result"]


def test_only_the_termination_tag_says_it():
    # Other tags' values may hold the same words ("Event": a time control, a forfeit prize).
    assert off_board([("Event", "Time forfeit"), ("Annotator", "resigned")]) is None


def test_a_draw_rule_against_a_result_off_the_board():
    # Seed 002 line 20: "Repetición. Las mismas piezas en las mismas casillas, con el mismo bando al
    # turno, por tercera vez." The kings' start stands a third time after ply 8, but White won on time.
    moves = "1. 1-7 50-44 2. 7-1 44-50 3. 1-7 50-44 4. 7-1 44-50"
    text = '[GameType "20"]\n[FEN "W:WK1:BK50"]\n[Termination "Time forfeit"]\n[Result "2-0"]\n' + moves + " 2-0\n"
    assert problems(text) == [
        ("result-off-board", "Result '2-0' (a win for White, the starting side), but the game is drawn on the board "
         "by the 3-fold repetition after ply 8; Termination 'Time forfeit' says the game was decided off the board",
         4, 1)]
    assert [code for code, *_ in problems(text.replace('[Termination "Time forfeit"]\n', ""))] == ["wrong-result"]


@needs_corpus
def test_a_real_time_forfeit_against_a_repetition_is_a_warning():
    # lidraughts wrote Result "0-2" (Black won on time) after a third repetition (an automatic draw).
    game = [g for g in read_games(CORPUS / "russian" / "py-draughts-lidraughts-russian.pdn") if g.index == 5][0]
    record = check(game).record
    assert record.ok and [w.code for w in record.warnings if w.code == "result-off-board"] == ["result-off-board"]


# ---- convert --fix-results leaves it -----------------------------------------------------------------

FIX_FILE = (TIME_FORFEIT + "\n" + '[White "Carla"]\n[Black "Dirk"]\n' + WHITE_WINS + '[Result "0-2"]\n1. 28x19 0-2\n')


def test_fix_results_leaves_a_result_decided_off_the_board_and_says_so(tmp_path):
    source = tmp_path / "games.pdn"
    source.write_bytes(FIX_FILE.encode())
    result = invoke("convert", "--fix-results", source, "-o", tmp_path / "fixed.pdn")
    assert result.exit_code == 0
    first, second = FIX_FILE.split("\n\n")
    assert (tmp_path / "fixed.pdn").read_bytes() == (first + "\n\n" + second.replace("0-2", "2-0")).encode()
    assert result.stderr.splitlines() == [
        f"{source}:6:1: game 1 (Anna – Bram): warning: Result tag '0-2' (a win for Black, the other side) left as "
        "written, as Termination 'Time forfeit' says the game was decided off the board, though White has won on "
        "the board (Black, to move, has no move) [kept-result]",
        f"{source}:6:1: game 1 (Anna – Bram): warning: terminator '0-2' (a win for Black, the other side) left as "
        "written, as Termination 'Time forfeit' says the game was decided off the board, though White has won on "
        "the board (Black, to move, has no move) [kept-result]",
        f"{source}:13:1: game 2 (Carla – Dirk): warning: Result tag '0-2' set to '2-0', as the final position "
        "settles it [fixed-result]",
        f"{source}:13:1: game 2 (Carla – Dirk): warning: terminator '0-2' set to '2-0', as the final position "
        "settles it [fixed-result]"]


def test_fix_results_with_another_change_leaves_it_too():
    result = invoke("convert", "--fix-results", "--captures", "full", "-", input=TIME_FORFEIT)
    assert result.exit_code == 0
    assert '[Result "0-2"]' in result.stdout and "28x19 0-2" in result.stdout
    assert result.stderr.count("[kept-result]") == 2 and "[fixed-result]" not in result.stderr


def test_fix_results_reads_a_spaced_result_and_rewrites_it_when_wrong():
    data = (WHITE_WINS + '[Result " 0-2"]\n1. 28x19 0-2\n\n' + WHITE_WINS + '[Result " 2-0 "]\n1. 28x19 2-0\n').encode()
    fixed = fix_file(data, "s.pdn")
    assert fixed.data == data.replace(b'" 0-2"', b'"2-0"').replace(b"19 0-2", b"19 2-0")
    assert [len(game.edits) for game in fixed.games] == [2, 0]


# ---- white space around a Result value ---------------------------------------------------------------

def test_white_space_around_a_result_is_a_warning_and_the_value_is_read(tmp_path):
    source = tmp_path / "g.pdn"
    source.write_text(WHITE_WINS + '[Result " 0-2"]\n1. 28x19 *\n')
    result = invoke("validate", "--warnings", "each", "--format", "jsonl", source)
    assert result.exit_code == 1                    # read as 0-2, which the board contradicts
    record = json.loads(result.stdout)
    assert record["result"] == "0-2"
    assert [(p["code"], p["line"], p["column"]) for p in record["errors"]] == [("wrong-result", 3, 1)]
    assert [(p["code"], p["message"], p["line"], p["column"]) for p in record["warnings"]] == [
        ("result-space", "Result tag ' 0-2' has white space around its value: read as '0-2'", 3, 1)]


def test_white_space_around_a_right_result_is_only_that_warning():
    found = problems(WHITE_WINS + '[Result "2-0 "]\n1. 28x19 2-0\n')
    assert [code for code, *_ in found] == ["result-space"]


@settings(max_examples=60, deadline=None, database=None)
@given(st.sampled_from(sorted(RESULTS)), st.text(" \t", max_size=3), st.text(" \t", max_size=3))
def test_white_space_around_any_result_reads_as_the_result_itself(written, before, after):
    plain = check(read_text(WHITE_WINS + f'[Result "{written}"]\n1. 28x19 *\n')[0]).record
    padded = check(read_text(WHITE_WINS + f'[Result "{before}{written}{after}"]\n1. 28x19 *\n')[0]).record
    assert padded.result == plain.result == written and padded.errors == plain.errors
    spaced = [w.code for w in padded.warnings if w.code == "result-space"]
    assert spaced == (["result-space"] if before or after else [])
    assert [w for w in padded.warnings if w.code != "result-space"] == list(plain.warnings)


SPACED = "".join(f'[White "P{n}"]\n[GameType "20"]\n[Result "{result}"]\n1. 32-28 *\n\n'
                 for n, result in enumerate(["0-1", " 0-1", "0-1 ", "1-0"]))


def test_stats_counts_a_spaced_result_in_the_row_of_its_value():
    lines = invoke("stats", "-", input=SPACED).stdout.splitlines()
    start = lines.index("result             games  written")
    assert lines[start:start + 3] == ["result             games  written",
                                      "starting side won      1  1-0 1",
                                      "other side won         3  0-1 3"]
    data = json.loads(invoke("stats", "--format", "json", "-", input=SPACED).stdout)
    assert data["results"] == {"0-1": 3, "1-0": 1}


def test_filter_and_list_read_a_spaced_result_as_its_value():
    kept = invoke("filter", "--result", "0-1", "-", input=SPACED).stdout
    assert kept.count("[White") == 3 and "P3" not in kept
    rows = [json.loads(line) for line in invoke("list", "--format", "jsonl", "-", input=SPACED).stdout.splitlines()]
    assert [row["Result"] for row in rows] == ["0-1", "0-1", "0-1", "1-0"]


def test_dedupe_by_moves_and_tags_reads_a_spaced_result_as_its_value():
    games = "".join(f'[White "A"]\n[GameType "20"]\n[Result "{r}"]\n1. 32-28 *\n\n' for r in ("0-1", " 0-1", "1-0"))
    kept = invoke("dedupe", "--by", "moves+tags", "-", input=games).stdout
    assert kept.count("[White") == 2


def test_read_result_is_the_value_without_white_space_around_it():
    assert read_result(" 1/2-1/2\t") == "1/2-1/2" and read_result("") == "" and read_result(None) is None


# ---- whose win a Result means ------------------------------------------------------------------------

def test_messages_say_whose_win_the_result_means_in_black_first_english():
    found = problems(ENGLISH_WHITE_WINS + '[Result "1-0"]\n1. 18x9 1-0\n')
    assert found == [("wrong-result", "Result '1-0' (a win for Black, the starting side), but White has won on the "
                      "board (Black, to move, has no move)", 3, 1)]


def test_a_mismatch_says_what_tag_and_terminator_mean():
    found = problems(ENGLISH_WHITE_WINS + '[Result "0-1"]\n1. 18x9 1/2-1/2\n')
    assert found == [("result-mismatch", "Result tag '0-1' (a win for White, the other side) but the movetext ends "
                      "with '1/2-1/2' (a draw)", 3, 1)]


def test_unknown_and_double_loss_results_say_so():
    found = problems(WHITE_WINS + '[Result "0-0"]\n1. 28x19 0-0\n')
    assert found == [("unfinished", "Result '0-0' (a loss for both sides), but White has won on the board (Black, "
                      "to move, has no move)", 3, 1)]


def test_stats_text_and_html_name_the_outcomes_alike(tmp_path):
    games = "".join(f'[GameType "20"]\n[Result "{r}"]\n1. 32-28 *\n\n' for r in ("2-0", "0-2", "1-1", "*"))
    text = invoke("stats", "-", input=games).stdout
    html = invoke("stats", "--format", "html", "-", input=games).stdout
    for label in [*LABELS.values(), NO_RESULT]:
        assert label in text and label in html
    assert "player" not in text and "player" not in html


def test_the_docs_list_exactly_the_words_that_say_off_the_board():
    readme = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    listed = " ".join(readme.split("one of its words (any case) is one of:", 1)[1].split("(PGN's", 1)[0].split())
    assert listed.rstrip() == ", ".join(sorted(OFF_BOARD_WORDS))
