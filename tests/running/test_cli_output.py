"""What the `pdn` commands print: warnings grouped per file, file order, game names, the
progress line; and what they read: compressed files, binary files, folders and --glob."""
import bz2
import gzip
import io
import json
import lzma
import os
import re
import pty
import subprocess
import sys

import pytest
import zstandard
from click.testing import CliRunner

from corpus import DATA
from pdn_tools.cli import cli
from pdn_tools.running.terminal import Terminal, progress_line

PDN = [sys.executable, "-m", "pdn_tools"]
NO_GAMETYPE = "[White \"Anna\"]\n[Black \"Bram\"]\n[Event \"Club\"]\n[Round \"2\"]\n1. 11-15 23-19 *\n\n"
BAD = '[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n\n'
# A loose tag (a warning on line 1) before a bad square (an error on line 3).
WARNING_FIRST = '[Round 3]\n[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n'


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(arg) for arg in args], input=input)


# ---- warnings grouped, file order, names -------------------------------------------------------

def test_warnings_are_grouped_per_file_and_code_by_default():
    result = invoke("validate", "-", input=NO_GAMETYPE * 3 + BAD)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "<stdin>:20:19: game 4, ply 3 (move 2. 28x51): '51' is not a square of the international board "
        "[bad-square]",
        "<stdin>:1:1: game 1 (Anna – Bram, Club round 2): warning: no GameType tag; replayed as english "
        "[inferred-variant] (first of 3 in this file)"]


def test_warnings_each_lists_every_warning_and_ignore_drops_a_code():
    each = invoke("validate", "--warnings", "each", "-", input=NO_GAMETYPE * 3).stdout.splitlines()
    assert [line.split(": ")[1] for line in each] == ["game 1 (Anna – Bram, Club round 2)",
                                                      "game 2 (Anna – Bram, Club round 2)",
                                                      "game 3 (Anna – Bram, Club round 2)"]
    ignored = invoke("validate", "--ignore", "inferred-variant", "-", input=NO_GAMETYPE * 3 + BAD)
    assert ignored.exit_code == 1 and "warning" not in ignored.stdout and "[bad-square]" in ignored.stdout
    assert invoke("validate", "-q", "-", input=NO_GAMETYPE).stdout == ""


def test_an_error_code_cannot_be_ignored():
    result = invoke("validate", "--ignore", "bad-square", "-", input=BAD)
    assert result.exit_code == 2 and "'bad-square' is not one of" in result.stderr


def test_jsonl_keeps_every_warning_and_names_the_game():
    lines = invoke("validate", "--format", "jsonl", "--ignore", "inferred-variant", "-",
                   input=NO_GAMETYPE * 2).stdout.splitlines()
    records = [json.loads(line) for line in lines]
    assert [(r["name"], [w["code"] for w in r["warnings"]]) for r in records] == [
        ("Anna – Bram, Club round 2", ["inferred-variant"])] * 2


def test_a_games_problems_come_in_file_order():
    lines = invoke("validate", "--warnings", "each", "-", input=WARNING_FIRST).stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == ["<stdin>:1:1", "<stdin>:3:19"]
    assert lines[0].endswith("[loose-tag]") and lines[1].endswith("[bad-square]")


def test_each_files_group_comes_before_the_next_files_lines(tmp_path):
    (tmp_path / "a.pdn").write_text(NO_GAMETYPE * 2)
    (tmp_path / "b.pdn").write_text(BAD + NO_GAMETYPE)
    lines = invoke("validate", tmp_path).stdout.splitlines()
    assert [(line.split(":")[0].rsplit("/", 1)[1], line.rsplit("[", 1)[1]) for line in lines] == [
        ("a.pdn", "inferred-variant] (first of 2 in this file)"), ("b.pdn", "bad-square]"),
        ("b.pdn", "inferred-variant]")]


def test_names_leave_out_what_is_unknown():
    text = '[White "?"]\n[Black "Bram"]\n[Event "?"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x51 *\n'
    assert "game 1 (? – Bram), ply 3" in invoke("validate", "-", input=text).stdout


def test_the_archive_tools_name_games_in_their_reports():
    result = invoke("filter", "-", input=BAD.replace("[GameType", '[Event "Cup"]\n[GameType'))
    assert result.stderr.startswith("<stdin>:3:19: game 1 (Cup), ply 3")


# ---- the progress line ---------------------------------------------------------------------------

class Source:
    current = "a.pdn"

    def bytes_read(self):
        return 1_000_000

    def total_bytes(self):
        return 2_000_000


def test_progress_line_gives_games_rate_share_time_left_and_file():
    assert progress_line(1000, 2.0, Source()) == "1,000 games, 500 games/s, 50% of 2.0 MB, 0:02 left, a.pdn"
    assert progress_line(5, 1.0, None) == "5 games, 5 games/s"


def test_progress_line_is_erased_before_report_lines_notes_and_at_the_end():
    out, err = io.StringIO(), io.StringIO()
    terminal = Terminal(Source(), progress=True, out=out, err=err)
    terminal.game_done()                                # the first game draws the line
    assert err.getvalue().startswith("\r\x1b[K1 games") and err.getvalue().endswith("a.pdn")
    terminal.out("report line")
    assert err.getvalue().endswith("a.pdn\r\x1b[K")     # erased before the line is written
    terminal.note("a note")
    assert err.getvalue().endswith("a.pdn\r\x1b[Ka note\n")   # and not erased twice
    terminal.drawn_at = 0
    terminal.game_done()
    terminal.close()
    *_, drawn, after = err.getvalue().split("\r\x1b[K")
    assert drawn.startswith("2 games, ") and after == ""     # drawn again, then erased at the end
    assert out.getvalue() == "report line\n"


def test_no_progress_line_when_stderr_is_not_a_terminal():
    err = io.StringIO()
    terminal = Terminal(Source(), out=io.StringIO(), err=err)
    terminal.game_done()
    terminal.close()
    assert err.getvalue() == ""


def test_progress_on_a_real_terminal_is_cleared_at_the_end():
    """stderr on a pseudo-terminal: whatever was drawn is erased by the last bytes written."""
    controller, device = pty.openpty()
    done = subprocess.run(PDN + ["validate", str(DATA)], stdout=subprocess.PIPE, stderr=device,
                          stdin=subprocess.DEVNULL, timeout=120)
    os.close(device)
    err = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    os.close(controller)
    assert done.returncode == 1
    drawn, tally = err[:-2].rsplit(b"\r\x1b[K", 1) if b"\r\x1b[K" in err else (b"", err[:-2])
    assert re.fullmatch(rb"[0-9,]+ games, [0-9,]+ invalid in [0-9,]+ files?, [0-9.]+ s", tally)    # the tally line
    assert err.endswith(b"\r\n") and (drawn == b"" or drawn.startswith(b"\r\x1b[K"))


# ---- what is read --------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix, compress", [(".gz", gzip.compress), (".bz2", bz2.compress),
                                               (".xz", lzma.compress), (".zst", zstandard.compress)])
def test_compressed_files_are_read_as_they_are(tmp_path, suffix, compress):
    source = (DATA / "variants" / "20-international.pdn").read_bytes()
    (tmp_path / f"games.pdn{suffix}").write_bytes(compress(source + BAD.encode()))
    for path in (tmp_path / f"games.pdn{suffix}", tmp_path):          # the file, and found in a folder
        result = invoke("validate", "--format", "jsonl", path)
        assert [json.loads(line)["ok"] for line in result.stdout.splitlines()] == [True, False]
    piped = subprocess.run(PDN + ["validate", "-"], input=compress(BAD.encode()), capture_output=True)
    assert piped.returncode == 1 and b"<stdin>:2:19: game 1, ply 3" in piped.stdout


def test_binary_input_is_not_pdn_and_the_batch_goes_on(tmp_path):
    (tmp_path / "picture.pdn").write_bytes(bytes(range(256)) * 20)
    good = DATA / "variants" / "21-english.pdn"
    result = subprocess.run(PDN + ["validate", str(tmp_path / "picture.pdn"), str(good)], capture_output=True)
    assert result.returncode == 2
    assert result.stderr == f"pdn: cannot read {tmp_path / 'picture.pdn'}: not a PDN file (binary data)\n".encode()


def test_a_truncated_compressed_file_cannot_be_read(tmp_path):
    whole = gzip.compress((DATA / "quirks.pdn").read_bytes())
    (tmp_path / "cut.pdn.gz").write_bytes(whole[:len(whole) // 2])
    result = invoke("validate", tmp_path / "cut.pdn.gz")
    assert result.exit_code == 2 and f"pdn: cannot read {tmp_path / 'cut.pdn.gz'}: " in result.stderr


def test_a_folder_without_pdn_files_says_what_it_skipped_and_glob_chooses(tmp_path):
    (tmp_path / "pool.phn").write_text(NO_GAMETYPE)
    (tmp_path / "notes.txt").write_text("not a game")
    result = invoke("validate", tmp_path)
    assert result.exit_code == 2
    assert result.stderr == (f"pdn: nothing to read in {tmp_path}: no file matches *.pdn *.pdn.gz *.pdn.bz2 "
                             "*.pdn.xz *.pdn.zst; skipped notes.txt, pool.phn (choose with --glob PATTERN)\n")
    chosen = invoke("validate", "--glob", "*.phn", "--format", "jsonl", tmp_path)
    assert chosen.exit_code == 0 and [json.loads(line)["file"] for line in chosen.stdout.splitlines()] == [
        str(tmp_path / "pool.phn")]


def test_no_path_with_stdin_on_a_terminal_is_a_usage_error():
    controller, device = pty.openpty()
    done = subprocess.run(PDN + ["validate"], stdin=device, capture_output=True, timeout=60)
    os.close(device)
    os.close(controller)
    assert done.returncode == 2 and b"name the files or folders to read (or - for stdin)" in done.stderr
