"""Terminal manners: a closing tally line on a terminal (or with --summary), -q on every reading command,
no binary or page output to a terminal, whole-sentence summaries in `pdn --help`, and `pdn variants`."""
import json
import os
import pty
import re
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner

from corpus import DATA
from pdn_tools.cli import SUMMARIES, cli
from pdn_tools.rules.variants import VARIANTS

FAULTS, QUIRKS = str(DATA / "faults.pdn"), str(DATA / "quirks.pdn")
ELAPSED = r", \d+\.\d s"
# The last line on stderr of each reading command, on a terminal, for QUIRKS (13 valid games, 7 repeated)
TALLIES = {
    ("validate",): r"13 games, all valid",
    ("list",): r"13 games listed",
    ("filter", "--player", "nobody at all"): r"0 of 13 games matched",
    ("dedupe",): r"13 games, 7 duplicates",
    ("stats",): r"13 games, all valid",
    ("convert",): r"13 games read, 13 written",
    ("convert", "--fix-results"): r"13 games read, 13 written",
    ("annotate", "--fen"): r"13 games, all valid",
}


def _read_all(descriptor):
    data = b""
    while True:
        try:
            chunk = os.read(descriptor, 65536)
        except OSError:             # the other end closed (Linux gives EIO)
            return data
        if not chunk:
            return data
        data += chunk


def run_on_pty(args, stream="stderr"):
    """`pdn ARGS` with `stream` (stderr or stdout) a terminal and the other a pipe: (exit code, what the
    terminal got, what the pipe got)."""
    master, slave = pty.openpty()
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, stream: slave}
    process = subprocess.Popen([sys.executable, "-m", "pdn_tools", *map(str, args)], stdin=subprocess.DEVNULL,
                               **pipes)
    os.close(slave)
    on_terminal = _read_all(master)
    os.close(master)
    other = (process.stdout if stream == "stderr" else process.stderr).read()
    process.wait(timeout=60)
    return process.returncode, on_terminal.decode(), other.decode()


def last_line(terminal_text):
    """The last line a terminal shows (after the progress line's carriage returns and erasures)."""
    return terminal_text.rstrip("\r\n").split("\r\n")[-1].split("\r\x1b[K")[-1]


@pytest.mark.slow          # a pdn process on a pseudo-terminal per reading command
@pytest.mark.parametrize("args", list(TALLIES), ids=" ".join)
def test_each_reading_command_ends_with_a_tally_on_a_terminal(args, tmp_path):
    code, err, _ = run_on_pty([*args, QUIRKS])
    assert code == 0
    assert re.fullmatch(TALLIES[args] + ELAPSED, last_line(err)), err


def test_validate_tallies_invalid_games_and_their_files(tmp_path):
    second = tmp_path / "second.pdn"
    second.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28-22 *\n\n')
    code, err, _ = run_on_pty(["validate", FAULTS, QUIRKS, second, tmp_path / "missing.pdn"])
    assert code == 2
    assert re.fullmatch(r"\d+ games, \d+ invalid in 2 files, 1 input unreadable" + ELAPSED, last_line(err)), err


def test_split_tallies_games_and_files(tmp_path):
    code, err, _ = run_on_pty(["split", "--per", "5", "-o", tmp_path / "parts", QUIRKS])
    assert code == 0 and re.fullmatch("13 games in 3 files" + ELAPSED, last_line(err))


@pytest.mark.slow          # out of the fast subset (a subprocess per command); CI runs it
@pytest.mark.parametrize("args", list(TALLIES), ids=" ".join)
def test_no_tally_when_stderr_is_not_a_terminal(args):
    result = subprocess.run([sys.executable, "-m", "pdn_tools", *args, QUIRKS], capture_output=True, text=True)
    assert result.returncode == 0
    assert not re.search(TALLIES[args], result.stderr)


def test_summary_gives_the_tally_when_piped_without_the_time():
    once = CliRunner().invoke(cli, ["validate", "--summary", FAULTS, QUIRKS])
    again = CliRunner().invoke(cli, ["validate", "--summary", FAULTS, QUIRKS])
    tally = once.stderr.splitlines()[-1]
    assert re.fullmatch(r"\d+ games, \d+ invalid in 1 file", tally)
    assert once.stderr == again.stderr and once.exit_code == 1


@pytest.mark.slow          # out of the fast subset (a subprocess per command); CI runs it
@pytest.mark.parametrize("args", [*TALLIES, ("validate", "--summary")], ids=" ".join)
def test_quiet_leaves_out_the_tally_and_the_progress_line(args):
    code, err, _ = run_on_pty([*args, "-q", QUIRKS])
    assert (code, err) == (0, "")


@pytest.mark.parametrize("args", [("filter", "--valid"), ("stats",), ("annotate", "--fen"), ("convert", "--to", "jsonl"),
                                  ("dedupe",), ("validate",)], ids=" ".join)
def test_quiet_keeps_the_errors_and_the_exit_code(args):
    loud = CliRunner().invoke(cli, [*args, FAULTS, "missing.pdn"])
    quiet = CliRunner().invoke(cli, [*args, "-q", FAULTS, "missing.pdn"])
    assert quiet.exit_code == loud.exit_code == 2
    assert "missing.pdn" in quiet.stderr
    if args[0] != "validate":              # validate's errors are its report, on stdout
        assert quiet.stderr == loud.stderr and "[syntax]" in quiet.stderr


def test_quiet_keeps_the_notes_of_changes_made():
    """A result set (or a tag added, a result fixed) changes the games written: never silently."""
    game = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "*"]\n1. 28x19 *\n'
    loud = CliRunner().invoke(cli, ["annotate", "--result", "-"], input=game)
    quiet = CliRunner().invoke(cli, ["annotate", "--result", "-q", "-"], input=game)
    assert loud.exit_code == quiet.exit_code == 0
    assert loud.stderr == "<stdin>:1: game 1: Result '*' set to '2-0': the rules decide the game\n"
    assert quiet.stderr == loud.stderr and quiet.stdout == loud.stdout


@pytest.mark.slow          # a pdn process on a pseudo-terminal per command
@pytest.mark.parametrize("args", [("diagram", "--format", "png"), ("validate", "--format", "html"),
                                  ("stats", "--format", "html")], ids=" ".join)
def test_binary_and_page_formats_refuse_a_terminal_before_reading(args, tmp_path):
    code, out, err = run_on_pty([*args, tmp_path / "missing.pdn"], stream="stdout")
    assert (code, out, err) == (2, "", "pdn: not written to a terminal; use -o FILE\n")


@pytest.mark.parametrize("args, name", [(("diagram", "--format", "png"), None), (("validate", "--format", "html"), None),
                                        (("stats", "--format", "html"), None), (("convert",), "games.pdn.gz"),
                                        (("diagram",), "board.png")], ids=str)
def test_binary_and_page_formats_refuse_a_terminal_that_o_names(args, name, tmp_path):
    """`-o /dev/tty`, `-o /dev/stdout` on a terminal, a link to one named .gz: a terminal however
    named gets no binary data or page; nothing is written to it, one line says why (exit 2)."""
    master, slave = pty.openpty()
    terminal = os.ttyname(slave)
    if name:
        os.symlink(terminal, tmp_path / name)
    target = str(tmp_path / name) if name else terminal
    shown = []
    reader = threading.Thread(target=lambda: shown.append(_read_all(master)), daemon=True)
    reader.start()                      # drained: a terminal written to does not block the command
    try:
        done = CliRunner().invoke(cli, [*args, "-o", target, QUIRKS])
    finally:
        os.close(slave)
        reader.join(10)
        os.close(master)
    shown = b"".join(shown)
    assert (done.exit_code, done.stdout, shown) == (2, "", b"")
    assert done.stderr == f"pdn: cannot write {target}: a terminal; not written to one\n"


def test_binary_and_page_formats_go_to_a_pipe_or_a_file(tmp_path):
    piped = CliRunner().invoke(cli, ["validate", "--format", "html", QUIRKS])
    assert piped.exit_code == 0 and piped.stdout.startswith("<!DOCTYPE html>")
    code, out, _ = run_on_pty(["stats", "--format", "html", "-o", tmp_path / "s.html", QUIRKS], stream="stdout")
    assert code == 0 and (tmp_path / "s.html").read_text().startswith("<!DOCTYPE html>")


CONTROLS = '[Event "a\x1b[2Jb"]\n[White "x\x1b]0;title\x07"]\n[Black "\u202eevil \x9b31m"]\n[GameType "20"]\n\n' \
           '1. 32-28 {c\x1b[31m} 19-23 *\n'
RAW_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202e]")     # a terminal shows \\n as \\r\\n


@pytest.mark.slow          # a pdn process on a pseudo-terminal per command
@pytest.mark.parametrize("args", [("convert",), ("convert", "--to", "fen"), ("filter",), ("annotate", "--all"),
                                  ("dedupe",), ("list",), ("validate",), ("stats",), ("diagram", "--format", "text")],
                         ids=" ".join)
def test_a_terminal_gets_no_control_characters_from_the_games(args, tmp_path):
    """Tag values and comments that would move the cursor, set the title or turn the text: a
    terminal shows them as escapes (\\x1b); a pipe gets the games' own characters."""
    source = tmp_path / "controls.pdn"
    source.write_text(CONTROLS, encoding="utf-8")
    code, shown, _ = run_on_pty([*args, source], stream="stdout")
    assert code == 0 and not RAW_CONTROLS.search(shown), repr(shown)
    if args in (("convert",), ("filter",), ("dedupe",)):     # the games written whole
        assert "\\x1b[2J" in shown
        piped = subprocess.run([sys.executable, "-m", "pdn_tools", *args, str(source)], capture_output=True)
        assert "\x1b[2J" in piped.stdout.decode()


@pytest.mark.slow          # a pdn process on a pseudo-terminal per case
@pytest.mark.parametrize("args", [("diagram", "a.pdn", "b\x1b[2Jc.pdn"), ("validate", "--x\x1b]0;t\x07"),
                                  ("convert", "--to", "\x9b31m")], ids=repr)
def test_usage_errors_show_what_they_quote_as_escapes(args):
    """click's own messages quote the arguments given (an extra argument, an unknown option, a
    choice): a terminal gets them escaped, as every note."""
    code, shown, _ = run_on_pty(args)
    assert code == 2 and "Error:" in shown
    assert not RAW_CONTROLS.search(shown) and "\\x" in shown, repr(shown)


def _command_lines(help_text):
    lines = help_text.split("Commands:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    entries = []
    for line in lines:
        if line.startswith("  ") and not line.startswith("    "):
            entries.append(line.split(None, 1))
        else:
            entries[-1][1] += " " + line.strip()
    return dict(entries)


def test_help_gives_each_command_a_whole_sentence():
    result = CliRunner().invoke(cli, ["--help"])
    lines = _command_lines(result.output)
    assert set(lines) == set(cli.commands) == set(SUMMARIES)
    for name, summary in lines.items():
        assert summary == SUMMARIES[name] and summary[0].isupper() and summary.endswith(".")
        assert not summary.endswith("..."), name


def test_help_ends_with_examples_that_name_real_commands():
    output = CliRunner().invoke(cli, ["--help"]).output
    head, examples = output.rsplit("Examples:\n", 1)
    assert "Commands:" in head
    commands = [line.split()[1] for line in examples.splitlines() if line.strip()]
    assert commands and all(name in cli.commands or name == "COMMAND" for name in commands)


def test_variants_lists_every_variant_with_its_gametype_board_and_notation():
    text = CliRunner().invoke(cli, ["variants"])
    records = [json.loads(line) for line in CliRunner().invoke(cli, ["variants", "--format", "json"]).stdout.splitlines()]
    assert text.exit_code == 0
    assert [r["name"] for r in records] == list(VARIANTS)
    for record, variant in zip(records, VARIANTS.values()):
        assert record["gametype"] == variant.gametype
        assert record["board"] == f"{variant.rows}x{variant.cols}"
        assert record["notation"] == ("algebraic" if variant.alpha else "numeric")
        assert record["aliases"] == list(variant.aliases)
    rows = text.stdout.splitlines()[1:]
    assert [row.split()[:4] for row in rows] == [[r["name"], str(r["gametype"]), r["board"], r["notation"]]
                                                 for r in records]
    assert "russian              25  8x8    algebraic  shashki" in text.stdout
