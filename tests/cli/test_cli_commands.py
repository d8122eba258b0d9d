"""One command line: examples in every --help, -o FILE wherever a command writes, one --format
vocabulary, split into a folder of earlier parts, diagram of one file."""
import os
import shlex
import subprocess
import sys

import pytest
from click.testing import CliRunner

from corpus import DATA
from pdn_tools import read_text
from pdn_tools.cli import cli, examples

EXAMPLES = examples()           # every command's, by name
GAME = DATA / "variants" / "20-international.pdn"
THREE = '[GameType "20"]\n1. 32-28 *\n\n[GameType "20"]\n1. 33-29 *\n\n[GameType "20"]\n1. 34-30 *\n'


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(arg) for arg in args], input=input)


def test_every_command_has_examples_at_the_end_of_its_help():
    assert set(EXAMPLES) == set(cli.commands)
    for name, command in cli.commands.items():
        text = invoke(name, "--help").stdout
        examples = text.split("Examples:\n")[1].splitlines()
        assert 2 <= len(examples) <= 3 and all(line.strip().startswith(f"pdn {name} ") for line in examples)


@pytest.mark.parametrize("name, example", [(name, e) for name, examples in EXAMPLES.items() for e in examples])
def test_every_example_is_a_valid_command_line(name, example):
    words = shlex.split(example, comments=True)
    for end in ("|", ">", "<"):
        words = words[:words.index(end)] if end in words else words
    command = cli.commands[name]
    command.make_context(name, words[2:])          # raises on an unknown option or a bad value


@pytest.mark.parametrize("args", [["validate"], ["validate", "--format", "jsonl"], ["validate", "--summary"],
                                  ["stats"], ["stats", "--format", "json"], ["dedupe"], ["dedupe", "--report"],
                                  ["annotate", "--fen"], ["filter", "--valid"], ["filter", "--player", "anna"],
                                  ["list"], ["convert"]])
def test_o_writes_what_stdout_would_get(tmp_path, args):
    source = tmp_path / "games.pdn"              # a game twice, then one game per fault
    source.write_text(GAME.read_text() * 2 + (DATA / "faults.pdn").read_text())
    target = tmp_path / "out"
    to_stdout = invoke(*args, source)
    to_file = invoke(*args, source, "-o", target)
    assert to_file.exit_code == to_stdout.exit_code and to_file.stdout == ""
    assert target.read_text() == to_stdout.stdout and to_stdout.stdout


def test_perft_writes_its_counts_with_o(tmp_path):
    assert invoke("perft", "--variant", "english", "--depth", "2", "-o", tmp_path / "p.txt").exit_code == 0
    assert (tmp_path / "p.txt").read_text() == "depth 1 7\ndepth 2 49\n"


def test_diagram_format_is_text_not_txt_and_a_folder_is_refused():
    text = invoke("diagram", "--format", "text", GAME)
    assert text.exit_code == 0 and "Anna Visser - Bram de Wit" in text.stdout
    assert invoke("diagram", "--format", "txt", GAME).exit_code == 2
    folder = invoke("diagram", DATA / "variants")
    assert folder.exit_code == 2 and "is a folder: name one file" in folder.stderr


def test_split_refuses_a_folder_of_earlier_parts_unless_forced(tmp_path):
    assert invoke("split", "-o", tmp_path, "-", input=THREE).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-00001.pdn", "game-00002.pdn", "game-00003.pdn"]
    again = invoke("split", "--per", "2", "-o", tmp_path, "-", input=THREE)
    assert again.exit_code == 2 and "holds 3 parts of an earlier split" in again.stderr
    assert (tmp_path / "game-00001.pdn").read_text().count("GameType") == 1       # untouched
    forced = invoke("split", "--force", "--per", "2", "-o", tmp_path, "-", input=THREE)
    assert forced.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-00001.pdn", "game-00002.pdn"]   # no stale part
    assert [len(read_text(p.read_text())) for p in sorted(tmp_path.iterdir())] == [2, 1]
    other = invoke("split", "--prefix", "round", "-o", tmp_path, "-", input=THREE)
    assert other.exit_code == 0                     # another prefix is not an earlier part


def test_convert_takes_format_like_the_other_commands_and_to_as_before():
    assert invoke("convert", "--format", "jsonl", GAME).stdout == invoke("convert", "--to", "jsonl", GAME).stdout


def test_shell_completion_completes_commands_and_options():
    env = {**os.environ, "_PDN_COMPLETE": "bash_complete", "COMP_WORDS": "pdn validate --warn", "COMP_CWORD": "2"}
    program = "import sys; sys.argv[0] = 'pdn'; from pdn_tools.__main__ import main; main()"
    done = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True)
    assert done.stdout.splitlines() == ["plain,--warnings"]
