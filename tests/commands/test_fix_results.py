"""`convert --fix-results` alone changes only the Result tag and terminator of the games it
fixes, in the game's own result style; every other byte stays, tag and terminator agree."""
import subprocess
import sys

import pytest

from click.testing import CliRunner

from pdn_tools.cli import cli
from pdn_tools.commands.fix_results import Edit, apply, fix_file

# White to move wins at once (28x19 leaves Black no piece): the first player's win.
WON = '[FEN "W:W28:B23"]\n[GameType "20"]\n'
FILE = (
    '{ an archive }\r\n'
    '[Event "Tag wrong, 2-0 style"]\r\n' + WON.replace("\n", "\r\n") + '[Result "0-2"]\r\n1. 28x19  {mine}  0-2\r\n\r\n'
    '[Event "Terminator wrong, 1-0 style"]\r\n' + WON.replace("\n", "\r\n") + '[Result "1-0"]\r\n1.\t28x19 0-1\r\n\r\n'
    '[Event "Right already"]\r\n' + WON.replace("\n", "\r\n") + '[Result "2-0"]\r\n1. 28x19 2-0\r\n\r\n'
    '[Event "Another error"]\r\n[GameType "20"]\r\n[Result "0-2"]\r\n1. 32-26 0-2\r\n'
    '[Event "Ren\xe9e"]\r\n' + WON.replace("\n", "\r\n") + '[Result "0:1"]\r\n1. 28x19 0:1\r\n'
).encode("cp1252")


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(arg) for arg in args], input=input)


def test_only_the_wrong_results_change_in_the_games_own_style(tmp_path):
    source = tmp_path / "games.pdn"
    source.write_bytes(FILE)
    result = invoke("convert", "--fix-results", source, "-o", tmp_path / "fixed.pdn")
    fixed = (tmp_path / "fixed.pdn").read_bytes()
    assert result.exit_code == 1                          # the game with an illegal move stays invalid
    expected = (FILE.replace(b'[Result "0-2"]\r\n1. 28x19  {mine}  0-2', b'[Result "2-0"]\r\n1. 28x19  {mine}  2-0')
                .replace(b"1.\t28x19 0-1", b"1.\t28x19 1-0")
                .replace(b'[Result "0:1"]\r\n1. 28x19 0:1', b'[Result "1:0"]\r\n1. 28x19 1:0'))
    assert fixed == expected
    assert b'[Result "2-0"]\r\n1. 28x19  {mine}  2-0\r\n' in fixed
    assert b'[Result "1:0"]\r\n1. 28x19 1:0' in fixed and "Renée".encode("cp1252") in fixed
    assert "[illegal-move]" in result.stderr and result.stderr.count("[fixed-result]") == 5


def test_in_place_rewrites_only_a_file_with_something_to_fix(tmp_path):
    wrong, right = tmp_path / "wrong.pdn", tmp_path / "right.pdn"
    wrong.write_bytes(FILE)
    right.write_bytes(b'[Event "x"]\n' + WON.encode() + b'[Result "2-0"]\n1. 28x19 2-0\n')
    before = right.stat().st_mtime_ns
    invoke("convert", "--fix-results", "--in-place", wrong, right)
    assert b'[Result "2-0"]\r\n1. 28x19  {mine}  2-0' in wrong.read_bytes()
    assert len(wrong.read_bytes()) == len(FILE) and right.stat().st_mtime_ns == before


def test_tag_and_terminator_agree_afterwards_whichever_was_wrong():
    text = "[GameType \"20\"]\n[FEN \"W:W28:B23\"]\n[Result \"0-2\"]\n1. 28x19 1-0\n"
    result = subprocess.run([sys.executable, "-m", "pdn_tools", "convert", "--fix-results", "-"], input=text.encode(),
                            capture_output=True)
    assert result.returncode == 0
    assert result.stdout.decode() == text.replace('"0-2"', '"1-0"')


def test_with_another_change_the_game_is_written_canonically():
    text = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "0-2"]\n1.   28x19 0-2\n'
    result = invoke("convert", "--fix-results", "--captures", "full", "-", input=text)
    assert "1. 28x19 2-0" in result.stdout and "1.   28x19" not in result.stdout


def test_an_edit_whose_text_moved_is_not_made():
    text, missed = apply("[Result \"1-0\"]\n1. 28x19 1-0\n", [Edit(2, 10, "0-1", "1-0"), Edit(1, 1, "1-0", "0-1")])
    assert text == "[Result \"0-1\"]\n1. 28x19 1-0\n" and missed == [Edit(2, 10, "0-1", "1-0")]


def test_a_bom_is_not_a_column_and_line_ends_are_kept():
    data = "\ufeff[GameType \"20\"]\r[FEN \"W:W28:B23\"]\r[Result \"0-2\"]\r1. 28x19 0-2\r".encode("utf-8")
    fixed = fix_file(data, "bom.pdn")
    assert fixed.data == data.replace(b"0-2", b"2-0") and fixed.missed == ()


@pytest.mark.parametrize("newline", [b"\r\r\n", b"\r\n", b"\r"])
def test_the_result_is_fixed_at_the_line_the_reader_gives_whatever_the_line_ends(newline):
    """CR CR LF is one line end for the reader: the edit lands on its line, the line ends stay."""
    data = newline.join([b'[GameType "20"]', b'[FEN "W:W28:B23"]', b'[Result "0-2"]', b"", b"1. 28x19 0-2", b""])
    fixed = fix_file(data, "crcrlf.pdn")
    assert fixed.data == data.replace(b"0-2", b"2-0") and fixed.missed == ()
