"""Nothing spoofed: the same hostile tags (and file name) through every output format.

Text for people (reports, tables, notes, captions, the progress line) shows control characters,
escape sequences, bidi controls and other invisible format characters as visible escapes; CSV and
TSV cells never start a formula; SVG and HTML are well-formed XML; JSON and PDN keep the data exact.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ElementTree

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from pdn_tools.cli import cli
from pdn_tools.commands import archive, html_games, html_report, html_stats, report
from pdn_tools.play import board as diagram
from pdn_tools.play.error_boards import error_boards
from pdn_tools.play.pictures import PICTURES
from pdn_tools.play.check import check
from pdn_tools.running import terminal
from pdn_tools.text import names
from pdn_tools.text.reader import read_text
from pdn_tools.text.writer import escape

HOSTILE = {
    "Event": "\tCup\x1b[2J\x1b[H all games valid",    # a TAB first; CSI: clear the screen, cursor home
    "Site": "\x1b]0;pwned\x07",                       # OSC: set the window title
    "White": "=1+2\u202eevil",                        # a formula; RIGHT-TO-LEFT OVERRIDE
    "Black": "+cmd\x00\x7f\x85\x9b31m",               # a formula; NUL, DEL, C1 (NEL, CSI)
    "Round": "-2\r\nforged\rline",                    # line breaks inside a value (read as \n)
    "Date": "@SUM(1)\ufffe\u2066\u200f",              # a formula; a noncharacter, LRI, RLM
    "Result": "1-0",
    "GameType": "20",
}
READ = {**HOSTILE, "Round": "-2\nforged\nline"}     # the values as the reader gives them
# The first game: its tags, a comment and prose with escapes; an error at ply 5 (99 is no square).
# The second: a hostile Result.  The third: plain values that must not change.
GAMES = ("".join(f'[{name} "{escape(value)}"]\n' for name, value in HOSTILE.items())
         + "\n1. 32-28 {\x1b[2Jcomment\u202e} 19-23 2. 28x19 14x23 \x1b]0;x\x07junk\u202e 3. 99-98 *\n\n"
         + '[GameType "20"]\n[Result "\x1b[2J=0-1\u202e"]\n1. 32-28 *\n\n'
         + '[White "Anna"]\n[Black "-"]\n[Round "-3"]\n[Date "+1"]\n[Result "0-1"]\n[GameType "20"]\n'
         '1. 32-28 19-23 0-1\n\n')
FILE = "h\x1b[2J\u202e.pdn"
SHOWN_FILE = "h\\x1b[2J\\u202e.pdn"
SHOWN_NAME = ("=1+2\\u202eevil \u2013 +cmd\\x00\\x7f\\x85\\x9b31m, Cup\\x1b[2J\\x1b[H all games valid "
              "round -2\\nforged\\nline")
ERROR_LINE = (f"{SHOWN_FILE}:12:61: game 1 ({SHOWN_NAME}), ply 5 (move 3. 99-98): "
              "'99' is not a square of the international board [bad-square]")


def raw_controls(text):
    """The characters of `text` that a terminal or a line reader acts on, or that hide or reorder
    text (told apart here without `printable`): C0 but the line feed, DEL, C1, format characters
    but ZWJ/ZWNJ, surrogates, line and paragraph separators, noncharacters."""
    return {char for char in text if char != "\n" and (
        unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp")
        or (unicodedata.category(char) == "Cf" and char not in "\u200c\u200d")
        or 0xFDD0 <= ord(char) <= 0xFDEF or ord(char) & 0xFFFE == 0xFFFE)}


def xml_forbidden(text):
    """The characters XML 1.0 does not allow in a document."""
    return {char for char in text if not (char in "\t\n\r" or 0x20 <= ord(char) <= 0xD7FF
                                          or 0xE000 <= ord(char) <= 0xFFFD or ord(char) >= 0x10000)}


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / FILE).write_text(GAMES, encoding="utf-8")
    return FILE


def run(*args):
    return CliRunner().invoke(cli, [str(arg) for arg in args])


# ---- text for people -----------------------------------------------------------------------------

def test_printable_shows_bidi_format_characters_and_noncharacters_keeps_joiners():
    assert names.printable("a\u202eb\u2066c\u2069d\u200fe\u061cf") == "a\\u202eb\\u2066c\\u2069d\\u200fe\\u061cf"
    assert names.printable("soft\u00adhy\ufeffbom\u2060\ufffe\uffff\U000e0041") == \
        "soft\\xadhy\\ufeffbom\\u2060\\ufffe\\uffff\\U000e0041"
    assert names.printable("esc\x1b[2J\x7f\x9b\x00\t\r\n") == "esc\\x1b[2J\\x7f\\x9b\\x00\\t\\r\\n"
    assert names.printable("\ud800 \udfff \ufdd0 \U0010fffe") == "\\ud800 \\udfff \\ufdd0 \\U0010fffe"
    assert names.printable("Coração \u00a0 \u0928\u094d\u200d\u092f \U0001f469\u200d\U0001f4bb") == \
        "Coração \u00a0 \u0928\u094d\u200d\u092f \U0001f469\u200d\U0001f4bb"       # NBSP, ZWJ kept


@pytest.mark.parametrize("options", [["--warnings", "each"], ["--show-board"], ["--jobs", "2"]])
def test_validate_text_report_shows_every_hostile_character_escaped(hostile, options):
    result = run("validate", *options, "--summary", hostile)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == ERROR_LINE if options[0] != "--warnings" else ERROR_LINE in lines
    assert (f"{SHOWN_FILE}:12:46: game 1 ({SHOWN_NAME}): warning: text '\\x1b' read as a comment [prose]"
            + (" (first of 3 in this file)" if options[0] != "--warnings" else "")) in lines
    if options[0] == "--show-board":
        assert lines[1:3] == ["    board before 3. 99-98:", "    +------------------------------+"]
    assert raw_controls(result.stdout) == set() and raw_controls(result.stderr) == set()


def test_validate_jsonl_keeps_the_exact_values_with_json_escapes(hostile):
    result = run("validate", "--format", "jsonl", hostile)
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records[0]["file"] == FILE
    assert records[0]["name"] == (f"{READ['White']} \u2013 {READ['Black']}, {READ['Event'].strip()} "
                                  f"round {READ['Round']}")
    assert records[1]["result"] == "\x1b[2J=0-1\u202e"
    assert '"file": "h\\u001b[2J\\u202e.pdn"' in result.stdout       # what printable escapes, as JSON escapes
    assert raw_controls(result.stdout) == set() and "\x7f" not in result.stdout
    assert ' +cmd\\u0000\\u007f\\u0085\\u009b31m' in result.stdout


def test_validate_html_and_stats_html_are_well_formed_xml_with_visible_escapes(hostile):
    pages = [run(*command, hostile).stdout for command in (["validate", "--format", "html"],
                                                            ["stats", "--format", "html"])]
    for page in pages:
        assert page.startswith("<!DOCTYPE html>\n")
        assert xml_forbidden(page) == set() and raw_controls(page) == set()
    audit, stats = (ElementTree.fromstring(page.removeprefix("<!DOCTYPE html>\n")) for page in pages)
    players = [span.text for span in audit.iter("span") if span.get("class") == "players"]
    assert players == ["=1+2\\u202eevil \u2013 +cmd\\x00\\x7f\\x85\\x9b31m"]
    about = next(p for p in audit.iter("p") if p.get("class") == "about")
    assert about.text == (f"game 1 of {SHOWN_FILE} \u00b7 international \u00b7 \\tCup\\x1b[2J\\x1b[H all games valid"
                          " \u00b7 @SUM(1)\\ufffe\\u2066\\u200f")
    results = next(table for table in stats.iter("table") if table.get("class") == "results")
    assert [[cell.text for cell in row] for row in results.iter("tr")][1:] == [
        ["1-0", "1"], ["\\x1b[2J=0-1\\u202e", "1"], ["0-1", "1"]]


def test_list_tsv_is_one_line_a_game_escaped_and_no_cell_a_formula(hostile):
    result = run("list", hostile)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == [
        f"{SHOWN_FILE}\t1\t1\t'=1+2\\u202eevil\t'+cmd\\x00\\x7f\\x85\\x9b31m\t1-0\t'@SUM(1)\\ufffe\\u2066\\u200f\t"
        "\\tCup\\x1b[2J\\x1b[H all games valid\t'-2\\nforged\\nline\t20",
        f"{SHOWN_FILE}\t14\t2\t\t\t\\x1b[2J=0-1\\u202e\t\t\t\t20",
        f"{SHOWN_FILE}\t18\t3\tAnna\t-\t0-1\t+1\t\t-3\t20"]                # numbers, signs, results kept


def test_list_csv_quotes_and_neutralises_cells(hostile, tmp_path):
    (tmp_path / "q.pdn").write_text('[White "Sy, \\"Baba\\""]\n[Event "=A1,\\"x\\""]\n[GameType "20"]\n1. 32-28 *\n')
    result = run("list", "--format", "csv", hostile, "q.pdn")
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[1] == [SHOWN_FILE, "1", "1", "'=1+2\\u202eevil", "'+cmd\\x00\\x7f\\x85\\x9b31m", "1-0",
                       "'@SUM(1)\\ufffe\\u2066\\u200f", "\\tCup\\x1b[2J\\x1b[H all games valid",
                       "'-2\\nforged\\nline", "20"]
    assert rows[3] == [SHOWN_FILE, "18", "3", "Anna", "-", "0-1", "+1", "", "-3", "20"]
    assert rows[4][3:9] == ['Sy, "Baba"', "", "*", "", "'=A1,\"x\"", ""]
    assert 'q.pdn,1,1,"Sy, ""Baba""",,*,,"\'=A1,""x""",,20\n' in result.stdout
    assert len(result.stdout.splitlines()) == 5 and raw_controls(result.stdout) == set()


def test_cells_keep_numbers_signs_and_results():
    kept = ["-3", "+1.5", "-.5", "1e5", "-2E-3", "-", "+", "1-0", "0-1", "2-0", "1/2-1/2", "*", "", "Anna"]
    assert [archive.cell(value) for value in kept] == kept
    assert [archive.cell(value) for value in ["-1-0", "=1", "@a", "+x", "--3", "-3x", 7, -7]] == [
        "'-1-0", "'=1", "'@a", "'+x", "'--3", "'-3x", "7", "-7"]


def test_list_and_stats_json_keep_the_exact_values(hostile):
    first = json.loads(run("list", "--format", "jsonl", hostile).stdout.splitlines()[0])
    assert {name: first[name] for name in archive.LISTED_TAGS} == {name: READ[name] for name in archive.LISTED_TAGS}
    stats = json.loads(run("stats", "--format", "json", hostile).stdout)
    assert stats["results"] == {"1-0": 1, "\x1b[2J=0-1\u202e": 1, "0-1": 1}


def test_stats_text_tables_show_escapes_and_stay_aligned(hostile):
    result = run("stats", hostile)
    lines = result.stdout.splitlines()
    assert lines[5:9] == ["result             games  written", "starting side won      1  1-0 1",
                          "other side won         1  0-1 1", "no result              1  \\x1b[2J=0-1\\u202e 1"]
    assert raw_controls(result.stdout) == set()
    assert result.stderr.splitlines()[0] == ERROR_LINE


def test_diagram_text_and_svg_captions(hostile):
    text = run("diagram", hostile, "--ply", "4")
    assert text.stdout.splitlines()[0] == ("=1+2\\u202eevil - +cmd\\x00\\x7f\\x85\\x9b31m, international, "
                                           "after 2... 14x23")
    assert raw_controls(text.stdout) == set() and text.stderr.splitlines() == [ERROR_LINE]
    picture = run("diagram", hostile, "--ply", "4", "--format", "svg").stdout
    assert xml_forbidden(picture) == set() and raw_controls(picture) == set()
    root = ElementTree.fromstring(picture)
    space = "{http://www.w3.org/2000/svg}"
    assert root.find(f"{space}title").text == text.stdout.splitlines()[0]
    caption = [node.text for node in root.iter(f"{space}text") if node.get("class") == "caption"]
    assert " ".join(caption) == (      # the lines wrapped at the picture's width (issue 29)
        "=1+2\\u202eevil \u2013 +cmd\\x00\\x7f\\x85\\x9b31m \u00b7 \\tCup\\x1b[2J\\x1b[H all games valid "
        "international \u00b7 after 2... 14x23 \u00b7 White to move")


@pytest.mark.parametrize("command", [["convert", "--keep-invalid", "-o", "out.pdn"], ["dedupe", "-o", "out.pdn"],
                                     ["filter", "--invalid", "-o", "out.pdn"], ["split", "-o", "parts"]])
def test_pdn_outputs_keep_the_games_exact_and_escape_their_notes(hostile, tmp_path, command):
    result = run(*command, hostile)
    assert ERROR_LINE in result.stderr.splitlines() and raw_controls(result.stderr) == set()
    written = tmp_path / ("parts/game-00001.pdn" if command[0] == "split" else "out.pdn")
    back = read_text(written.read_text(encoding="utf-8"))
    assert dict(back[0].tags) == READ                               # the same games: PDN is data
    assert "\x1b[2J" in written.read_text(encoding="utf-8")


def test_convert_writes_the_games_exact_and_fen_lines_escape_the_file_name(hostile, tmp_path):
    result = run("convert", "--keep-invalid", hostile, "-o", "out.pdn")
    back = read_text((tmp_path / "out.pdn").read_text(encoding="utf-8"))
    assert [dict(game.tags) for game in back][:2] == [READ, {"GameType": "20", "Result": "\x1b[2J=0-1\u202e"}]
    assert result.stderr.splitlines() == [ERROR_LINE]
    fens = run("convert", "--to", "fen", hostile).stdout.splitlines()
    assert fens[0].startswith(f"{SHOWN_FILE}:2\t0\tW:W31,")


def test_dedupe_report_and_notes_escape_file_names(hostile):
    result = run("dedupe", "--report", hostile, hostile)
    assert f"{SHOWN_FILE}:1: game 1: duplicate of {SHOWN_FILE}:1: game 1" in result.stdout.splitlines()
    assert raw_controls(result.stdout) == set() and raw_controls(result.stderr) == set()


def test_split_prints_the_paths_it_writes_escaped(hostile):
    result = run("split", "-o", "p\x1b[2J", hostile)
    assert result.stdout.splitlines() == [f"p\\x1b[2J/game-0000{n}.pdn" for n in (1, 2, 3)]


def test_usage_errors_escape_the_paths_they_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d\x1b[2J").mkdir()
    result = run("diagram", "d\x1b[2J")
    assert result.exit_code == 2
    assert "Invalid value for PATH: d\\x1b[2J is a folder: name one file" in result.stderr
    assert raw_controls(result.stderr) == set()


def test_notes_and_the_progress_line_are_printable():
    err = io.StringIO()
    terminal.Terminal(err=err).note("pdn: a.pdn:1: Result '\x1b[2J' set\n\u202eforged")
    assert err.getvalue() == "pdn: a.pdn:1: Result '\\x1b[2J' set\\n\\u202eforged\n"

    class Source:
        current = "\x1b]0;pwned\x07\u202e.pdn"

        def bytes_read(self):
            return 10

        def total_bytes(self):
            return 100
    assert terminal.progress_line(5, 1.0, Source()) == "5 games, 5 games/s, 10% of 100 bytes, 0:09 left, " \
                                                       "\\x1b]0;pwned\\x07\\u202e.pdn"


# ---- split --prefix --------------------------------------------------------------------------------

@pytest.mark.parametrize("prefix, shown", [("a\nb", "a\\nb"), ("a\x1b[2Jb", "a\\x1b[2Jb"), ("a\u202eb", "a\\u202eb"),
                                           ("a\tb", "a\\tb"), ("a\x00b", "a\\x00b")])
def test_split_refuses_a_prefix_with_control_or_invisible_characters(tmp_path, prefix, shown):
    (tmp_path / "a.pdn").write_text('[GameType "20"]\n1. 32-28 *\n\n')
    result = run("split", tmp_path / "a.pdn", "-o", tmp_path / "out", "--prefix", prefix)
    assert result.exit_code == 2
    assert (f"Invalid value for '--prefix': '{shown}' holds control or invisible characters (shown escaped); "
            "give a file name prefix of visible characters") in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdn"]


def test_split_refuses_a_backslash_in_the_prefix(tmp_path):
    (tmp_path / "a.pdn").write_text('[GameType "20"]\n1. 32-28 *\n\n')
    result = run("split", tmp_path / "a.pdn", "-o", tmp_path / "out", "--prefix", "..\\x")
    assert result.exit_code == 2
    assert "'..\\\\x' would write outside the -o folder; give a file name prefix without '/' or '\\'" \
        in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdn"]


# ---- properties, one per family -----------------------------------------------------------------

# Any text, with the characters that matter here drawn often.
values = st.text(st.one_of(st.characters(), st.sampled_from("\x1b[]\x07\x00\x7f\x85\x9b\u202e\u2066\u200f\ufeff"
                                                         "\ufffe\uffff\t\r\n=+-@\"'<>&,\\")), max_size=30)
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]")      # kept as written: no formula
PROPERTY = settings(max_examples=60, deadline=None)


def game_with(white, black, event, result, file):
    """A replayed game (invalid at ply 3) with these tags, read from `file`."""
    game = read_text('[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n', name=file)[0]
    for name, value in (("White", white), ("Black", black), ("Event", event), ("Result", result)):
        game.set_tag(name, value)
    return check(game)


@PROPERTY
@given(st.text())
def test_printable_leaves_nothing_raw_and_is_idempotent(text):
    shown = names.printable(text)
    assert raw_controls(shown) == set() and "\n" not in shown
    assert names.printable(shown) == shown
    assert xml_forbidden(names.markup(text)) == set()


@PROPERTY
@given(st.text())
def test_data_shown_on_a_terminal_keeps_lines_and_tabs_and_nothing_else_raw(text):
    """What stdout writes to a terminal (`names.shown_on_terminal`): printable line by line."""
    shown = names.shown_on_terminal(text)
    assert shown == "\n".join("\t".join(map(names.printable, line.split("\t"))) for line in text.split("\n"))
    assert raw_controls(shown.replace("\n", "").replace("\t", "")) == set()


@PROPERTY
@given(values, values, values, values, values)
def test_terminal_text_holds_no_raw_control_for_any_tags(white, black, event, result, file):
    checked = game_with(white, black, event, result, file)
    stats = archive.Stats()
    stats.add(checked.record, "unknown")
    board = diagram.board_after(checked.replay, 2)
    text = "\n".join([*report.text_lines(checked.record), *stats.lines(), *stats.summary.lines(),
                      PICTURES["text"]().draw(checked.replay, board, 2),
                      *report.lines_with_boards(checked.record, error_boards(checked.replay))])
    assert raw_controls(text) == set()
    assert all(line.startswith(names.printable(file)) for line in report.text_lines(checked.record))


@PROPERTY
@given(values, values, values, values, values)
def test_svg_and_html_pages_are_well_formed_xml_for_any_tags(white, black, event, result, file):
    checked = game_with(white, black, event, result, file)
    board = diagram.board_after(checked.replay, 2)
    picture = PICTURES["svg"]().draw(checked.replay, board, 2)
    assert ElementTree.fromstring(picture).find("{http://www.w3.org/2000/svg}title").text == \
        names.printable(diagram.caption(checked.replay, 2))
    audit, summary, stats, page = io.StringIO(), io.StringIO(), archive.Stats(), html_report.AuditPage()
    page.add(checked.record, html_games.audit_game(checked))
    page.write(audit)
    stats.add(checked.record, "unknown")
    html_stats.stats_page(stats, summary)
    for text in (audit.getvalue(), summary.getvalue()):
        ElementTree.fromstring(text.removeprefix("<!DOCTYPE html>\n"))


@PROPERTY
@given(st.lists(st.one_of(values, st.integers()), min_size=1, max_size=6), st.sampled_from(["csv", "tsv"]))
def test_no_csv_or_tsv_cell_starts_a_formula(cells, fmt):
    line = archive.ROWS[fmt]().row({str(index): value for index, value in enumerate(cells)})
    assert line.endswith("\n") and "\n" not in line[:-1] and "\r" not in line
    read = next(csv.reader(io.StringIO(line))) if fmt == "csv" else line[:-1].split("\t")
    assert len(read) == len(cells)
    for cell, value in zip(read, cells):
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")) or NUMBER.fullmatch(cell)
        assert cell in (names.printable(str(value)), "'" + names.printable(str(value)))
        assert raw_controls(cell) == set()


# Every way pdn writes JSON lines, each run on a folder holding a file whose name is not UTF-8.
JSON_COMMANDS = [["validate", "--format", "jsonl"], ["validate", "--format", "jsonl", "--summary"],
                 ["validate", "--format", "jsonl", "--shots", "--depth", "1"], ["list", "--format", "jsonl"],
                 ["convert", "--to", "jsonl"], ["stats", "--format", "json"]]


@pytest.mark.parametrize("command", JSON_COMMANDS, ids=" ".join)
def test_json_lines_hold_no_raw_control_and_read_back_exact(hostile, command):
    """JSON printed to a terminal (`pdn list --format jsonl x.pdn`) cannot act on it: C1 (U+009B is
    CSI to a terminal), DEL, bidi and other format characters are JSON escapes too, as C0 ones were;
    a JSON reader gives back the same values."""
    result = run(*command, hostile)
    assert raw_controls(result.stdout) == set() and "\x7f" not in result.stdout
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines and all(line.get("file", FILE) == FILE for line in lines)
    text = json.dumps(lines, ensure_ascii=False)
    assert "\x9b31m" in text or command[0] in ("stats", "convert")     # game 1, invalid: not converted
    assert "\u202e" in text


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="a file name that is not UTF-8")
@pytest.mark.parametrize("command", JSON_COMMANDS, ids=" ".join)
def test_json_lines_are_utf8_whatever_the_file_names(tmp_path, command):
    """A file called a<0xFF>b.pdn: its name went into JSON as the raw byte, and the line was not UTF-8
    (json.loads of the bytes failed; jq read U+FFFD).  It is now the escape \\udcff, which reads back as the
    name Python gives the file, os.fsencode turning it into its bytes."""
    name = os.fsdecode(b"a\xffb.pdn")
    (tmp_path / name).write_text('[GameType "21"]\n\n1. 11-15 24-20 *\n')
    done = subprocess.run([sys.executable, "-m", "pdn_tools", *command, str(tmp_path)], capture_output=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    files = [line["file"] for line in lines if "file" in line]
    assert lines and all(os.fsencode(file) == os.fsencode(str(tmp_path / name)) for file in files)
    assert files or command[0] == "stats" or "--summary" in command
