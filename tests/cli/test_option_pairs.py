"""Options that mean something only with another option (or another's value) are refused without it
(exit 2, one message naming both, nothing read or written), never silently ignored.  The table is
checked against the commands themselves: every such option of every command has its line."""
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from pdn_tools.cli import cli
from pdn_tools.cli.options import Needs

GAME = '[GameType "20"]\n[Result "2-0"]\n1. 32-28 19-23 2-0\n'
WITH_FILE = ["{file}"]
PARTIAL = "--partial goes with -o FILE: it writes FILE even when an input is cut"
GLOB = "--glob picks files in folders: none of PATHS is a folder"
ENGINE = "goes with --engine"

# (command, its option, arguments that give the option without what it needs, the message's tail)
ALONE = [
    *[(name, "partial", [*first, "--partial", "{file}"], PARTIAL) for name, first in [
        ("list", []), ("filter", []), ("dedupe", []), ("stats", []), ("validate", []), ("convert", []),
        ("annotate", ["--fen"])]],
    ("convert", "partial", ["--partial", "-o", "-", "{file}"], PARTIAL),
    ("convert", "partial", ["--in-place", "--partial", "{file}"], PARTIAL),
    *[(name, "globs", [*first, "--glob", "*.txt", "{file}"], GLOB) for name, first in [
        ("list", []), ("filter", []), ("dedupe", []), ("stats", []), ("validate", []), ("convert", []),
        ("annotate", ["--fen"]), ("split", ["-o", "{tmp}/parts"])]],
    ("validate", "globs", ["--glob", "*.txt", "-"], GLOB),
    ("annotate", "engine_timeout", ["--fen", "--engine-timeout", "5", "{file}"], f"--engine-timeout {ENGINE}"),
    ("annotate", "engine_depth", ["--fen", "--engine-depth", "3", "{file}"], f"--engine-depth {ENGINE}"),
    ("annotate", "engine_time", ["--fen", "--engine-time", "1", "{file}"], f"--engine-time {ENGINE}"),
    ("annotate", "depth", ["--fen", "--depth", "2", "{file}"], "--depth goes with --shots"),
    ("validate", "depth", ["--depth", "2", "{file}"], "--depth goes with --shots"),
    ("annotate", "nodes", ["--fen", "--nodes", "100", "{file}"], "--nodes goes with --shots"),
    ("validate", "nodes", ["--nodes", "100", "{file}"], "--nodes goes with --shots"),
    ("validate", "show_board", ["--format", "jsonl", "--show-board", "{file}"], "--show-board goes with --format text"),
    ("validate", "shots", ["--shots", "{file}"], "--shots goes with --format jsonl or html"),
    ("diagram", "size", ["--size", "300", "{file}"], "--size goes with --format svg or png"),
    ("diagram", "size", ["--size", "300", "-o", "{tmp}/board.txt", "{file}"], "--size goes with --format svg or png"),
]


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [*map(str, args)], input=input)


def dependent_options():
    """(command, option) for every option of every command that needs another."""
    return sorted((name, param.name) for name, command in cli.commands.items() for param in command.params
                  if isinstance(param, Needs))


def test_every_dependent_option_of_every_command_is_in_the_table():
    assert dependent_options() == sorted({(name, option) for name, option, _, _ in ALONE})


@pytest.mark.parametrize("name, option, args, message", ALONE, ids=[" ".join([line[0], *line[2]]) for line in ALONE])
def test_an_option_without_what_it_needs_is_a_usage_error_and_nothing_is_touched(tmp_path, name, option, args,
                                                                                 message):
    path = tmp_path / "games.pdn"
    path.write_text(GAME)
    os.chmod(path, 0o640)
    before = (path.read_bytes(), stat.S_IMODE(os.stat(path).st_mode))
    result = invoke(name, *(arg.format(file=path, tmp=tmp_path) for arg in args), input=GAME)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert f"Error: {message}\n" in result.stderr and result.stderr.startswith(f"Usage: cli {name} "), result.stderr
    assert (path.read_bytes(), stat.S_IMODE(os.stat(path).st_mode)) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pdn"]      # no -o file, no parts folder


@pytest.mark.parametrize("args", [["--glob", "*.txt", "{tmp}/sub", "{file}"], ["--glob", "*.txt", "{tmp}/missing"],
                                  ["--partial", "-o", "{tmp}/out.pdn", "{file}"]])
def test_with_what_it_needs_the_option_is_taken(tmp_path, args):
    """A folder among PATHS (or a path that is not there: its own error says so) takes --glob;
    -o FILE takes --partial."""
    path = tmp_path / "games.pdn"
    path.write_text(GAME)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text(GAME)
    result = invoke("convert", *(arg.format(file=path, tmp=tmp_path) for arg in args))
    assert "goes with" not in result.stderr and "picks files" not in result.stderr
    assert result.exit_code == (2 if "missing" in args[-1] else 0), result.output


def test_glob_picks_in_the_folder_named_beside_a_file(tmp_path):
    (tmp_path / "a.txt").write_text(GAME)
    (tmp_path / "b.pdn").write_text(GAME.replace("32-28 19-23", "31-27 18-22"))
    alone = tmp_path / "alone.pdn"
    alone.write_text(GAME)
    result = invoke("list", "--glob", "*.txt", tmp_path, alone)
    assert result.exit_code == 0
    assert [line.split("\t")[0] for line in result.stdout.splitlines()[1:]] == [str(tmp_path / "a.txt"), str(alone)]


# ---- convert: a style option its output does not show ------------------------------------------------------

def test_fix_results_with_fen_lines_is_refused_as_the_other_unshown_options_are():
    """FEN lines hold positions, no result: --fix-results would change nothing they show (it was
    silently ignored); refused like --captures, --separator and --drop with --to fen."""
    result = invoke("convert", "--to", "fen", "--fix-results", "-", input=GAME)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "pdn: --to fen does not write what --fix-results changes\n"


@pytest.mark.parametrize("to", ["pdn", "jsonl"])
def test_fix_results_changes_what_pdn_and_json_lines_write(to):
    wrong = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "0-2"]\n\n1. 28x19 0-2\n'     # Black has nothing left
    plain = invoke("convert", "--to", to, "-", input=wrong)
    fixed = invoke("convert", "--to", to, "--fix-results", "-", input=wrong)
    assert (plain.exit_code, fixed.exit_code) == (1, 0) and fixed.stdout != plain.stdout
