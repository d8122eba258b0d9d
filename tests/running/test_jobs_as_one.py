"""--jobs N and --dask give what --jobs 1 gives: stdout, stderr (the notes on inputs in their place among
the games' errors, each input named as often as it is given), exit code; on inputs that stress how the
work is handed out (files cut into byte ranges, small files several to a task, inputs that cannot be read)."""
import gzip

import pytest
from click.testing import CliRunner

from pdn_tools.cli import cli

BAD = '[Event "bad"]\n[GameType "20"]\n1. 32-26 *\n\n'          # an illegal move: an error on stderr
GOOD = '[Event "good"]\n[GameType "20"]\n1. 32-28 19-23 *\n\n'


def invoke(*args):
    result = CliRunner().invoke(cli, [str(arg) for arg in args])
    return result.exit_code, result.stdout, result.stderr


def assert_as_one_job(*args, modes=(("--jobs", "2"), ("--jobs", "3"))):
    command, rest = args[0], args[1:]
    one = invoke(command, *rest)
    for mode in modes:
        assert invoke(command, *mode, *rest) == one, mode
    return one


@pytest.mark.slow           # starts worker processes
@pytest.mark.parametrize("command", [["convert"], ["convert", "--to", "jsonl"], ["stats"], ["annotate", "--fen"]])
def test_a_cut_archive_is_said_after_the_errors_of_its_games(tmp_path, command):
    """A worker reads a small compressed file whole; what it could not read is said once its games'
    errors are, as one job says it (it came first)."""
    whole = gzip.compress(((BAD + GOOD) * 200).encode())
    path = tmp_path / "cut.pdn.gz"
    path.write_bytes(whole[:len(whole) * 2 // 3])
    code, _, errors = assert_as_one_job(*command, path)
    assert code == 2 and errors.count("[illegal-move]") > 1
    assert errors.splitlines()[-1].startswith(f"pdn: cannot read {path}: truncated")


@pytest.mark.slow           # starts worker processes, and a local Dask cluster
def test_a_file_given_twice_that_cannot_be_read_is_said_twice(tmp_path):
    """Each time an input is given it is read, and said unreadable, as one job does; the ranges of one
    file still say it once."""
    binary = tmp_path / "b.pdn"
    binary.write_bytes(bytes(range(256)) * 8)
    good = tmp_path / "g.pdn"
    good.write_text(BAD + GOOD)
    code, _, errors = assert_as_one_job("validate", binary, good, binary,
                                        modes=(("--jobs", "2"), ("--jobs", "3"), ("--dask", "local:1")))
    assert code == 2 and errors == f"pdn: cannot read {binary}: not a PDN file (binary data)\n" * 2
