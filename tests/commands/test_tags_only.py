"""The tags-only paths: `pdn list` and `pdn filter --tag/--player/--result` read tags, never replay."""
import csv
import io
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from corpus import DATA
from pdn_tools import read_text
from pdn_tools.cli import cli
from pdn_tools.commands.archive import result_matches

GAMES = (
    '[Event "Open, final"]\n[Round "7"]\n[White "Sijbrands, T."]\n[Black "Andreiko"]\n[Result "1-0"]\n'
    '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 1-0\n\n'
    '[Event "Open"]\n[White "Baba\tSy"]\n[Black "Sijbrands, T."]\n[Result "1/2-1/2"]\n[GameType "20"]\n'
    '1. 32-27 1/2-1/2\n\n'
    # An illegal move: a game only a replay finds invalid.
    '[Event "Cup"]\n[White "Sijbrands, T."]\n[Black "Roozenburg"]\n[Result "2-0"]\n[GameType "20"]\n'
    '1. 32-26 2-0\n'
)


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(arg) for arg in args], input=input)


def test_list_gives_one_tsv_row_per_game_with_a_header():
    result = invoke("list", "-", input=GAMES)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "file\tline\tgame\tWhite\tBlack\tResult\tDate\tEvent\tRound\tGameType",
        "<stdin>\t1\t1\tSijbrands, T.\tAndreiko\t1-0\t\tOpen, final\t7\t20",
        "<stdin>\t9\t2\tBaba\\tSy\tSijbrands, T.\t1/2-1/2\t\tOpen\t\t20",     # the tab shown as \t
        "<stdin>\t16\t3\tSijbrands, T.\tRoozenburg\t2-0\t\tCup\t\t20"]


def test_list_as_csv_and_json_lines():
    rows = list(csv.DictReader(io.StringIO(invoke("list", "--format", "csv", "-", input=GAMES).stdout)))
    assert [(row["game"], row["Event"], row["Result"]) for row in rows] == [
        ("1", "Open, final", "1-0"), ("2", "Open", "1/2-1/2"), ("3", "Cup", "2-0")]
    records = [json.loads(line) for line in invoke("list", "--format", "jsonl", "-", input=GAMES).stdout.splitlines()]
    assert records[1] == {"file": "<stdin>", "line": 9, "game": 2, "White": "Baba\tSy", "Black": "Sijbrands, T.",
                          "Result": "1/2-1/2", "Date": "", "Event": "Open", "Round": "", "GameType": "20"}


def test_list_reads_only_tags_so_unreadable_games_are_listed_too():
    result = invoke("list", DATA / "faults.pdn")
    rows = result.stdout.splitlines()[1:]
    assert result.exit_code == 0 and len(rows) == 9
    assert rows[0].split("\t")[7] == "syntax"           # a game that cannot be parsed


def test_list_terminator_stands_for_a_missing_result_tag():
    result = invoke("list", "-", input='[Event "x"]\n1. 32-28 2-0\n')
    assert result.stdout.splitlines()[1].split("\t")[5] == "2-0"


def test_list_writes_a_file_with_o(tmp_path):
    target = tmp_path / "games.tsv"
    result = invoke("list", "-o", target, DATA / "variants")
    assert result.exit_code == 0 and result.stdout == ""
    assert len(target.read_text().splitlines()) == 14


@pytest.mark.slow          # a pdn process
def test_list_in_a_real_process():
    done = subprocess.run([sys.executable, "-m", "pdn_tools", "list", "--format", "jsonl", str(DATA / "variants")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""
    assert sorted(json.loads(line)["GameType"] for line in done.stdout.splitlines()) == sorted(
        ["20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "40"])


@pytest.mark.parametrize("wanted, result, expected", [
    ("2-0", "1-0", True), ("2-0", "1:0", True), ("1-0", "2-0", True), ("0-2", "0-1", True),
    ("1-1", "1/2-1/2", True), ("draw", "½-½", True), ("first", "2-0", True), ("second", "2-0", False),
    ("2-0", "0-2", False), ("2-0", "*", False), ("*", "*", True), ("?", "?", True), ("2-0", "", False)])
def test_result_matches_the_outcome_whatever_its_spelling(wanted, result, expected):
    assert result_matches(wanted, result) is expected


def test_filter_by_player_and_result_finds_wins_written_either_way_and_does_not_replay():
    result = invoke("filter", "--player", "sijbrands", "--result", "2-0", "-", input=GAMES)
    assert result.exit_code == 0 and result.stderr == ""       # the illegal move was never looked at
    assert [g.tag("Event") for g in read_text(result.stdout)] == ["Open, final", "Cup"]
    replayed = invoke("filter", "--player", "sijbrands", "--result", "2-0", "--valid", "-", input=GAMES)
    assert [g.tag("Event") for g in read_text(replayed.stdout)] == ["Open, final"]
    assert replayed.exit_code == 1 and "[illegal-move]" in replayed.stderr


def test_filter_by_tag_and_draws():
    assert [g.tag("White") for g in read_text(invoke("filter", "--result", "draw", "-", input=GAMES).stdout)] \
        == ["Baba\tSy"]
    result = invoke("filter", "--tag", "Event=^open", "-o", "-", "-", input=GAMES)
    assert [g.tag("Round") for g in read_text(result.stdout)] == ["7", None]


def test_filter_reports_a_matching_game_it_cannot_read():
    text = '[Event "Cup"]\n[GameType "20"]\n1. 32-28 ) *\n\n[Event "Other"]\n1. 32-28 ) *\n'
    result = invoke("filter", "--tag", "Event=cup", "-", input=text)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("<stdin>:3:10: game 1 (Cup): unexpected ')'")


def test_filter_writes_a_file_with_o_and_an_unknown_result_is_a_usage_error(tmp_path):
    target = tmp_path / "wins.pdn"
    assert invoke("filter", "--result", "first", "-o", target, "-", input=GAMES).exit_code == 0
    assert len(read_text(target.read_text())) == 2
    bad = invoke("filter", "--result", "3-0", "-", input=GAMES)
    assert bad.exit_code == 2 and "'3-0' is not a result" in bad.stderr


# ---- tables ------------------------------------------------------------------------------------

RESULTS = "".join(f'[GameType "20"]\n[Result "{r}"]\n1. 32-28 *\n\n'
                  for r in ["1/2-1/2", "1/2:1/2", "1-1", "1-0", "2-0", "2-0", "0-2", "*"])


def test_stats_counts_results_by_outcome_with_the_spellings_seen():
    lines = invoke("stats", "-", input=RESULTS).stdout.splitlines()
    start = lines.index("result             games  written")
    assert lines[start:start + 5] == [
        "result             games  written",
        "starting side won      3  2-0 2, 1-0 1",
        "other side won         1  0-2 1",
        "drawn                  3  1/2-1/2 1, 1/2:1/2 1, 1-1 1",
        "no result              1  * 1"]
    data = json.loads(invoke("stats", "--format", "json", "-", input=RESULTS).stdout)
    assert data["outcomes"] == {"first": 3, "second": 1, "draw": 3, "unknown": 1}


def test_validate_summary_is_an_aligned_table():
    text = '[GameType "20"]\n1. 32-28 *\n\n[GameType "21"]\n1. 11-15 *\n\n[GameType "20"]\n1. 32-26 *\n'
    lines = invoke("validate", "--summary", "-", input=text).stdout.splitlines()
    start = lines.index("3 games, 2 valid, 1 invalid")
    assert lines[start:] == [
        "3 games, 2 valid, 1 invalid", "",
        "variant        games  valid  invalid",
        "english            1      1        0",
        "international      2      1        1", "",
        "code          kind   count",
        "illegal-move  error      1"]


@pytest.mark.parametrize("tags, name", [
    ([("White", "Sijbrands"), ("Black", "Baba Sy"), ("Event", "Open"), ("Round", "7")], "Sijbrands – Baba Sy, Open round 7"),
    ([("Black", " Baba Sy "), ("Round", "?"), ("Event", "-")], "? – Baba Sy"),
    ([("Event", "Open"), ("Event", "Later"), ("White", "?")], "Open"),
    ([("Round", "3"), ("Site", "Paris")], "round 3"),
    ([("White", "A"), ("White", "B"), ("Round", "2")], "A – ?, round 2"),
    ([("Date", "2001"), ("White", " "), ("Black", "?")], ""),
])
def test_a_game_is_named_by_its_players_event_and_round(tags, name):
    """Reports name a game `White – Black, Event round R` from the first tag of each name; parts
    that are empty, '?' or '-' are left out, an unknown player of a known pair is '?'."""
    from pdn_tools.text.tags import game_name

    assert game_name(tags) == name
