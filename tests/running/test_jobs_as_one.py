"""--jobs N and --dask give what --jobs 1 gives: stdout, stderr (the notes on inputs in their place among
the games' errors, each input named as often as it is given), exit code; on inputs that stress how the
work is handed out (files cut into byte ranges, small files several to a task, inputs that cannot be read)."""
import gzip
import os

import pytest
from click.testing import CliRunner

from pdn_tools.cli import cli
from pdn_tools.running import distributed, pool

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


@pytest.mark.slow           # starts worker processes, and a local Dask cluster
def test_inputs_that_cannot_be_read_are_said_in_their_place(tmp_path):
    """A missing file, and a folder's entry that cannot be read, are said between the errors of the games
    of the inputs before them and those after, as one job says them, not before every game's."""
    for name in ("a.pdn", "c.pdn", "d/e.pdn", "d/g.pdn"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text((BAD + GOOD) * 3)
    (tmp_path / "d" / "f.pdn").symlink_to(tmp_path / "nowhere")
    args = [tmp_path / "a.pdn", tmp_path / "missing.pdn", tmp_path / "c.pdn", tmp_path / "d"]
    for command in (["convert"], ["stats"], ["annotate", "--fen"]):
        code, _, errors = assert_as_one_job(*command, *args,
                                            modes=(("--jobs", "2"), ("--jobs", "3"), ("--dask", "local:1")))
        lines = errors.splitlines()
        assert code == 2 and lines[3] == f"pdn: cannot read {tmp_path / 'missing.pdn'}: no such file", lines
        assert lines[7].startswith(f"pdn: cannot read {tmp_path / 'd' / 'f.pdn'}: no such file"), lines
    code, _, errors = assert_as_one_job("filter", "--valid", *args)
    assert errors.splitlines()[3] == f"pdn: cannot read {tmp_path / 'missing.pdn'}: no such file"


@pytest.mark.slow           # starts worker processes
def test_a_cut_archive_split_here_is_said_after_its_games(tmp_path, monkeypatch):
    """A large compressed file is split by the main process and sent in batches: its cut is said once the
    errors of its last batch are, as one job says it."""
    monkeypatch.setattr(pool, "_WHOLE_FILE", 0)
    monkeypatch.setattr(pool, "_LEAST_RANGE", 1 << 8)
    monkeypatch.setattr(pool, "_BATCH", 5)
    whole = gzip.compress("".join(f'[Event "{i}"]\n[GameType "20"]\n1. 32-2{6 + i % 2} *\n\n'
                                  for i in range(3000)).encode())
    path = tmp_path / "cut.pdn.gz"
    path.write_bytes(whole[:len(whole) * 2 // 3])
    code, _, errors = assert_as_one_job("convert", path, tmp_path / "missing.pdn")
    assert code == 2 and errors.count("[illegal-move]") > 100
    assert errors.splitlines()[-2].startswith(f"pdn: cannot read {path}: truncated")


@pytest.mark.slow           # starts a local Dask cluster
def test_a_file_cut_while_dask_reads_it_is_said_cut(tmp_path, monkeypatch):
    """A file cut after the client planned its ranges is said cut (exit 2, -o left as it was), as --jobs
    and one job say it, not read as a shorter file."""
    path = tmp_path / "a.pdn"
    path.write_text(GOOD * 2000)
    size = path.stat().st_size
    monkeypatch.setattr(distributed.run_folded, "__defaults__", (3000, None, None))     # ranges of 3,000 bytes
    pins = distributed._Places.pins

    def cut_once_planned(places, count):        # the client has planned the ranges; no worker has read them
        os.truncate(path, size // 2)
        return pins(places, count)
    monkeypatch.setattr(distributed._Places, "pins", cut_once_planned)
    out = tmp_path / "out.jsonl"
    code, _, errors = invoke("validate", "--format", "jsonl", "--dask", "local:1", path, "-o", out)
    assert code == 2 and not out.exists()
    assert errors.startswith(f"pdn: cannot read {path}: truncated: the file changed while it was read "
                             f"({size} bytes when opened, {size // 2} now")
