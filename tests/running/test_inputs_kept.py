"""Inputs kept whole and cuts never silent: no -o is one of the command's inputs, a cut or damaged
archive (or a file that changes while read) gives its complete games then a located `truncated`
error (exit 2, no -o output unless --partial), left-over temporary files of dead processes go, and
the library and the command line agree on what is binary data."""
import bz2
import gzip
import io
import lzma
import os
import re
import signal
import subprocess
import sys
import time
import zlib

import pytest
import zstandard
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from pdn_tools.cli import cli
from pdn_tools.rules.core import engine_from_environment
from pdn_tools.running import batch, pool
from pdn_tools.text.codes import Code
from pdn_tools.text.model import Game, ReadError
from pdn_tools.text.reader import read_games

PDN = [sys.executable, "-m", "pdn_tools"]
INTERNATIONAL = '[GameType "20"]\n'


def game(number):
    """A small valid game whose Event is its number: three lines with the blank one after it."""
    return f'[Event "g{number}"]\n1. 32-28 19-23 *\n\n'


def games_text(count):
    return "".join(game(number) for number in range(count))


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(arg) for arg in args], input=input)


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".pdn-"))


# ---- -o never names an input ----------------------------------------------------------------------

# What each command needs besides its inputs and -o to write something.
NEEDS = {"annotate": ["--all"], "diagram": ["--ply", "0"]}


def output_commands():
    """Every command with an -o option that reads inputs (all of them but perft)."""
    names = []
    for name, command in sorted(cli.commands.items()):
        params = {param.name for param in command.params}
        if any("-o" in param.opts for param in command.params) and params & {"paths", "path"}:
            names.append(name)
    return names


def test_every_command_with_an_output_and_inputs_is_checked():
    assert output_commands() == ["annotate", "convert", "dedupe", "diagram", "filter", "list", "split", "stats",
                                 "validate"]


def _ways(tmp_path):
    """(inputs, -o) naming the same file by another path: itself, ./, a symbolic link, a hard link,
    a file found in an input folder."""
    source = tmp_path / "a.pdn"
    os.symlink(source, tmp_path / "link.pdn")
    os.link(source, tmp_path / "hard.pdn")
    return {"same": ([source], source), "dot": ([f"./{source.name}"], source.name),
            "symlink": ([source], tmp_path / "link.pdn"), "hard link": ([tmp_path / "hard.pdn"], source),
            "in a folder": ([tmp_path], source)}


@pytest.mark.parametrize("name", output_commands())
@pytest.mark.parametrize("way", ["same", "dot", "symlink", "hard link", "in a folder"])
def test_an_output_that_is_an_input_is_refused_before_anything_is_read(tmp_path, monkeypatch, name, way):
    text = INTERNATIONAL + "1. 32-28 19-23 *\n\n"
    (tmp_path / "a.pdn").write_text(text)
    monkeypatch.chdir(tmp_path)
    inputs, output = _ways(tmp_path)[way]
    if name == "diagram" and way == "in a folder":
        inputs = [tmp_path / "a.pdn"]
    if name == "split":
        os.rename(tmp_path / "a.pdn", tmp_path / "game-00001.pdn")
        os.link(tmp_path / "game-00001.pdn", tmp_path / "a.pdn")
        args = ["split", "--force", "-o", tmp_path, *inputs]
        shown = str(tmp_path / "game-00001.pdn")
    else:
        args = [name, *NEEDS.get(name, []), *inputs, "-o", output]
        shown = str(output)
    before = sorted(p.name for p in tmp_path.iterdir())
    result = invoke(*args)
    assert result.exit_code == 2
    named = str(tmp_path / "a.pdn") if way == "in a folder" else str(inputs[0])
    assert result.stderr == (f"pdn: cannot write {shown}: it is the input {named}; write elsewhere "
                             "(only convert --in-place rewrites its inputs)\n")
    assert result.stdout == ""
    assert (tmp_path / "a.pdn").read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == before          # nothing made, nothing removed


def test_standard_input_given_the_output_file_is_refused(tmp_path):
    source = tmp_path / "a.pdn"
    source.write_text(INTERNATIONAL + "1. 32-28 19-23 *\n\n")
    with open(source, "rb") as stdin:
        done = subprocess.run(PDN + ["validate", "-", "-o", str(source)], stdin=stdin, capture_output=True,
                              text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == (f"pdn: cannot write {source}: it is the input standard input; write elsewhere "
                           "(only convert --in-place rewrites its inputs)\n")
    assert source.read_text() == INTERNATIONAL + "1. 32-28 19-23 *\n\n"


def _stdout_ways(folder):
    """(inputs, how stdout is opened, stdin) where standard output is an input: appended to (`>> a.pdn`),
    a file the shell made in an input folder (`pdn convert k/ > k/all.pdn`: read as it grows, the run
    never ended and filled the disk), the file given as standard input too (`- < a.pdn >> a.pdn`)."""
    source = folder / "a.pdn"
    return {"appended": ([source], source, "ab", None), "in a folder": ([folder], folder / "all.pdn", "wb", None),
            "stdin": (["-"], source, "ab", source)}


@pytest.mark.parametrize("name, way", [(name, way) for name in output_commands()
                                       for way in ["appended", "in a folder", "stdin"]
                                       if (name, way) != ("diagram", "in a folder")])    # it reads one file
def test_a_standard_output_that_is_an_input_is_refused_before_anything_is_read(tmp_path, name, way):
    text = INTERNATIONAL + "1. 32-28 19-23 *\n\n"
    (tmp_path / "a.pdn").write_text(text)
    inputs, output, mode, stdin = _stdout_ways(tmp_path)[way]
    args = [name, *NEEDS.get(name, []), *(["-o", tmp_path / "parts"] if name == "split" else []), *inputs]
    with open(output, mode) as out, open(stdin or os.devnull, "rb") as given:
        done = subprocess.run(PDN + [str(arg) for arg in args], stdin=given, stdout=out, stderr=subprocess.PIPE,
                              text=True, timeout=60)
    named = "standard input" if stdin else str(output)
    assert (done.returncode, done.stderr) == (2, f"pdn: cannot write standard output: it is the input {named}; "
                                                 "write elsewhere (only convert --in-place rewrites its inputs)\n")
    assert (tmp_path / "a.pdn").read_text() == text and output.stat().st_size == (0 if mode == "wb" else len(text))


def test_a_standard_output_beside_the_input_is_written(tmp_path):
    (tmp_path / "a.pdn").write_text(INTERNATIONAL + "1. 32-28 19-23 *\n\n")
    with open(tmp_path / "b.pdn", "wb") as out:
        done = subprocess.run(PDN + ["convert", str(tmp_path / "a.pdn")], stdout=out, timeout=60)
    assert done.returncode == 0 and (tmp_path / "b.pdn").read_text().endswith("1. 32-28 19-23 *\n\n")


def test_another_file_beside_the_input_is_written(tmp_path):
    (tmp_path / "a.pdn").write_text(INTERNATIONAL + "1. 32-28 19-23 *\n\n")
    result = invoke("convert", tmp_path / "a.pdn", "-o", tmp_path / "b.pdn")
    assert result.exit_code == 0 and (tmp_path / "b.pdn").read_text().endswith("1. 32-28 19-23 *\n\n")


def test_split_refuses_an_input_that_is_a_part_it_would_replace(tmp_path):
    parts = tmp_path / "parts"
    parts.mkdir()
    (parts / "round-00002.pdn").write_text(games_text(3))
    result = invoke("split", "--force", "--prefix", "round", "-o", parts, parts / "round-00002.pdn")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"pdn: cannot write {parts / 'round-00002.pdn'}: it is the input ")
    assert sorted(p.name for p in parts.iterdir()) == ["round-00002.pdn"]
    assert (parts / "round-00002.pdn").read_text() == games_text(3)


# ---- cut and damaged archives ----------------------------------------------------------------------

def _zstd(data):
    """zstd data in blocks of 8 KB of text (as a streaming compressor that flushes gives it): a cut
    leaves complete blocks to decompress (zstandard.compress makes blocks of 128 KB)."""
    engine = zstandard.ZstdCompressor().compressobj()
    blocks = (engine.compress(data[at:at + 8192]) + engine.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
              for at in range(0, len(data), 8192))
    return b"".join(blocks) + engine.flush()


COMPRESS = {"gzip": gzip.compress, "bzip2": lambda data: bz2.compress(data, 1), "xz": lzma.compress, "zstd": _zstd}


def _prefix(kind, data):
    """What can still be decompressed of the cut `data`."""
    if kind == "gzip":
        return zlib.decompressobj(wbits=31).decompress(data)
    if kind == "zstd":
        return zstandard.ZstdDecompressor().decompressobj().decompress(data)
    engine = bz2.BZ2Decompressor() if kind == "bzip2" else lzma.LZMADecompressor()
    return engine.decompress(data)


def _cut_archive(tmp_path, kind, count=6000, share=0.6):
    """A cut archive of `count` games: (path, the games it still holds whole, the message)."""
    whole = COMPRESS[kind](games_text(count).encode())
    cut = whole[:int(len(whole) * share)]
    prefix = _prefix(kind, cut).decode()
    path = tmp_path / f"cut.pdn.{kind}"
    path.write_bytes(cut)
    complete = prefix.count(" *")
    assert 0 < complete < count
    message = (f"truncated: the {kind} data ends at byte {len(cut)} before its end; the text stops in line "
               f"{prefix.count(chr(10)) + 1}")
    return path, complete, message


def _events(listing):
    return [line.split("\t")[7] for line in listing.splitlines()[1:]]


@pytest.mark.parametrize("kind", ["gzip", "bzip2", "xz", "zstd"])
def test_a_cut_archive_gives_every_complete_game_then_says_where_it_is_cut(tmp_path, kind):
    path, complete, message = _cut_archive(tmp_path, kind)
    result = invoke("list", path)
    assert result.exit_code == 2
    assert result.stderr == f"pdn: cannot read {path}: {message}\n"
    assert _events(result.stdout) == [f"g{number}" for number in range(complete)]


@pytest.mark.parametrize("kind", ["gzip", "bzip2", "xz", "zstd"])
def test_the_library_gives_the_complete_games_then_a_truncated_read_error(tmp_path, kind):
    path, complete, message = _cut_archive(tmp_path, kind)
    for source in (path, io.BytesIO(path.read_bytes())):
        found = list(read_games(source, name="cut"))
        assert [item.tag("Event") for item in found[:-1]] == [f"g{number}" for number in range(complete)]
        last = found[-1]
        assert isinstance(last, ReadError) and last.code == Code.TRUNCATED
        assert (last.file, last.index, last.message) == ("cut", complete + 1, message)
        assert last.line == _prefix(kind, path.read_bytes()).decode().count("\n") + 1


def test_every_member_of_a_gzip_file_is_read_and_a_cut_in_the_last_is_found(tmp_path):
    first, second = games_text(50).encode(), games_text(2000).encode()
    whole = gzip.compress(first) + gzip.compress(second)
    (tmp_path / "two.pdn.gz").write_bytes(whole)
    result = invoke("list", tmp_path / "two.pdn.gz")
    assert result.exit_code == 0 and len(_events(result.stdout)) == 2050
    cut = whole[:len(gzip.compress(first)) + len(gzip.compress(second)) // 2]
    (tmp_path / "two.pdn.gz").write_bytes(cut)
    result = invoke("list", tmp_path / "two.pdn.gz")
    prefix = zlib.decompressobj(wbits=31).decompress(cut[len(gzip.compress(first)):]).decode()
    assert result.exit_code == 2 and len(_events(result.stdout)) == 50 + prefix.count(" *")
    assert f"truncated: the gzip data ends at byte {len(cut)} before its end" in result.stderr


def test_damaged_compressed_data_gives_the_games_before_the_damage(tmp_path):
    whole = bytearray(gzip.compress(games_text(6000).encode()))
    middle = len(whole) // 2
    whole[middle:middle + 8] = b"\xff" * 8
    (tmp_path / "bad.pdn.gz").write_bytes(bytes(whole))
    result = invoke("list", tmp_path / "bad.pdn.gz")
    assert result.exit_code == 2
    assert re.fullmatch(rf"pdn: cannot read {re.escape(str(tmp_path / 'bad.pdn.gz'))}: truncated: the gzip data "
                        r"is damaged after byte \d+ \(.*\); the text stops in line \d+\n",
                        result.stderr)
    events = _events(result.stdout)         # damaged deflate data may give some wrong text before the damage shows
    assert len(events) <= 6000 and events[:2900] == [f"g{number}" for number in range(2900)]


@pytest.mark.slow          # out of the fast subset (a subprocess per command); CI runs it
@pytest.mark.parametrize("command", [["convert"], ["convert", "--to", "jsonl"], ["validate"], ["list"],
                                     ["dedupe"], ["stats"], ["filter", "--player", "."], ["annotate", "--all"]])
@pytest.mark.parametrize("kind", ["gzip", "zstd"])
def test_no_output_file_from_a_cut_archive_unless_partial(tmp_path, command, kind):
    path, complete, message = _cut_archive(tmp_path, kind, count=1000)
    out = tmp_path / "out.txt"
    result = invoke(*command, path, "-o", out)
    assert result.exit_code == 2
    assert result.stderr.endswith(f"pdn: cannot read {path}: {message}\n"
                                  f"pdn: cannot write {out}: an input ended before its end: left as it was "
                                  "(--partial writes the games read)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]            # no out.txt, no .pdn-*.tmp
    out.write_text("the old output\n")
    assert invoke(*command, path, "-o", out).exit_code == 2
    assert out.read_text() == "the old output\n"
    partial = invoke(*command, "--partial", path, "-o", out)
    assert partial.exit_code == 2 and partial.stderr.endswith(f"pdn: cannot read {path}: {message}\n")
    assert out.read_text() != "the old output\n" and leftovers(tmp_path) == []
    if command == ["convert"]:
        assert out.read_text().count(" *") == complete


@pytest.mark.parametrize("kind", ["xz", "zstd"])
def test_partial_output_holds_the_complete_games(tmp_path, kind):
    path, complete, _ = _cut_archive(tmp_path, kind, count=3000)
    out = tmp_path / "out.pdn"
    assert invoke("convert", "--partial", path, "-o", out).exit_code == 2
    assert [item.tag("Event") for item in read_games(out)] == [f"g{number}" for number in range(complete)]


@pytest.mark.slow
@pytest.mark.parametrize("whole_file", [True, False])
@pytest.mark.parametrize("kind", ["gzip", "zstd"])
def test_a_cut_archive_with_jobs(tmp_path, monkeypatch, whole_file, kind):
    """Workers read a compressed file whole (small), or the main process splits it (large)."""
    if not whole_file:
        monkeypatch.setattr(pool, "_WHOLE_FILE", 0)
        monkeypatch.setattr(pool, "_LEAST_RANGE", 1 << 10)
    path, complete, message = _cut_archive(tmp_path, kind, count=3000)
    result = invoke("list", path)
    for command in (["validate", "--format", "jsonl"], ["convert"]):
        out = tmp_path / "out"
        jobs = invoke(*command, "--jobs", "2", path, "-o", out)
        assert jobs.exit_code == 2 and jobs.stderr.startswith(f"pdn: cannot read {path}: {message}\n")
        assert not out.exists() and leftovers(tmp_path) == []
        jobs = invoke(*command, "--jobs", "2", path)
        assert jobs.exit_code == 2 and jobs.stderr == f"pdn: cannot read {path}: {message}\n"
        if command[0] == "validate":
            assert len(jobs.stdout.splitlines()) == complete
        else:
            assert len(list(read_games(io.BytesIO(jobs.stdout_bytes)))) == complete
    assert len(_events(result.stdout)) == complete


def _shrinking(path, monkeypatch, module, name):
    """Make `module.name` (called once a game) cut `path` in half at its first call."""
    real = getattr(module, name)
    size = path.stat().st_size

    def cutting(*args, **kwargs):
        if path.stat().st_size == size:
            os.truncate(path, size // 2)
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, cutting)


def test_a_file_that_shrinks_while_it_is_read(tmp_path, monkeypatch):
    from pdn_tools.commands import archive

    path = tmp_path / "a.pdn"
    path.write_text(games_text(40000))          # some 1 MB: more than one block is read
    size = path.stat().st_size
    _shrinking(path, monkeypatch, archive, "listing_row")
    result = invoke("list", path, "-o", tmp_path / "out.tsv")
    assert result.exit_code == 2
    assert re.fullmatch(rf"pdn: cannot read {re.escape(str(path))}: truncated: the file changed while it was read "
                        rf"\({size} bytes when opened, {size // 2} now; read to byte {size // 2}\)"
                        r"; the text stops in line \d+\n"
                        rf"pdn: cannot write {re.escape(str(tmp_path / 'out.tsv'))}: .*\n", result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdn"]


@pytest.mark.slow
def test_the_library_reports_a_file_that_grows_while_it_is_read(tmp_path):
    path = tmp_path / "a.pdn"
    path.write_text(games_text(40000))
    size = path.stat().st_size
    found = []
    for item in read_games(path):
        if not found:
            with open(path, "a") as more:
                more.write(game(40000))
        found.append(item)
    assert [item.tag("Event") for item in found[:-1]] == [f"g{number}" for number in range(40001)]
    assert isinstance(found[-1], ReadError) and found[-1].code == Code.TRUNCATED
    assert found[-1].message.startswith(f"truncated: the file changed while it was read ({size} bytes when opened, "
                                        f"{size + len(game(40000))} now")


# ---- left-over temporary files -----------------------------------------------------------------------

def _dead_pid():
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_the_next_write_removes_the_temporary_files_of_dead_processes_only(tmp_path):
    (tmp_path / "a.pdn").write_text(games_text(3))
    dead = f".pdn-{_dead_pid()}-0123456789abcdef.tmp"
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        living = [f".pdn-{sleeper.pid}-0123456789abcdef.tmp", f".pdn-{os.getpid()}-fedcba9876543210.tmp",
                  ".pdn-1-00112233445566aa.tmp"]                              # init: another user's
        other = [".pdn-0123456789abcdef.tmp", "notes.tmp"]                   # no process named: kept
        for name in [dead, *living, *other]:
            (tmp_path / name).write_text("half written\n")
        done = subprocess.run(PDN + ["convert", str(tmp_path / "a.pdn"), "-o", str(tmp_path / "b.pdn")],
                              capture_output=True, text=True, timeout=60)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert done.returncode == 0 and done.stderr == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["a.pdn", "b.pdn", *living, *other])
    assert all((tmp_path / name).read_text() == "half written\n" for name in living + other)


def test_a_killed_writer_leaves_a_temporary_file_the_next_write_removes(tmp_path):
    out = tmp_path / "out.pdn"
    writer = subprocess.Popen(PDN + ["convert", "-", "-o", str(out)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        writer.stdin.write(games_text(50).encode())
        writer.stdin.flush()
        deadline = time.monotonic() + 60
        while not leftovers(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.05)
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=60)
    finally:
        writer.kill()
    left = leftovers(tmp_path)
    assert len(left) == 1 and left[0].startswith(f".pdn-{writer.pid}-")
    (tmp_path / "a.pdn").write_text(games_text(2))
    assert invoke("convert", tmp_path / "a.pdn", "-o", tmp_path / "b.pdn").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdn", "b.pdn"]


def test_a_temporary_file_another_pid_namespace_writes_is_kept(tmp_path):
    """A pdn in a container (another PID namespace) or on another machine (an NFS folder) writing into the
    same folder: its process id is no process here, but it holds its temporary file's lock while it writes.
    The sweep removed that file, and the other pdn failed: 'cannot write out.pdn: No such file or directory'."""
    import fcntl

    (tmp_path / "a.pdn").write_text(games_text(3))
    theirs = tmp_path / f".pdn-{_dead_pid()}-0123456789abcdef.tmp"
    theirs.write_text("being written\n")
    with open(theirs) as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert invoke("convert", tmp_path / "a.pdn", "-o", tmp_path / "b.pdn").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["a.pdn", "b.pdn", theirs.name])


def test_a_temporary_file_removed_before_its_writer_locks_it_is_made_again(tmp_path, monkeypatch):
    """The instant between making the temporary file and locking it: another namespace's sweep may remove
    it then; the writer sees it gone (no link left) and makes another."""
    import fcntl

    from pdn_tools.running import files

    real, swept = fcntl.flock, []

    def sweep_first(descriptor, operation):
        if not swept:
            swept.extend(leftovers(tmp_path))
            for name in swept:
                os.unlink(tmp_path / name)
        return real(descriptor, operation)
    monkeypatch.setattr(fcntl, "flock", sweep_first)
    with files.atomic_output(str(tmp_path / "out.pdn")) as stream:
        stream.write("whole\n")
    assert len(swept) == 1
    assert (tmp_path / "out.pdn").read_text() == "whole\n" and os.listdir(tmp_path) == ["out.pdn"]


# ---- one test of binary data ----------------------------------------------------------------------------

def _damaged_utf16():
    """A game in UTF-16 without a byte order mark, a few characters damaged into NUL bytes (so that
    its NUL bytes are no longer all on one side: it is not UTF-16 any more)."""
    data = bytearray((INTERNATIONAL + '[Event "Club"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n').encode("utf-16-le"))
    for place in (20, 40, 60):
        data[place] = 0
    return bytes(data)


def _verdicts(tmp_path, data):
    """(the command line's verdict: binary data?, the library's)."""
    path = tmp_path / "x.pdn"
    path.write_bytes(data)
    result = invoke("list", path)
    cli_binary = result.stderr == f"pdn: cannot read {path}: not a PDN file (binary data)\n"
    assert cli_binary == (result.exit_code == 2 and "binary" in result.stderr)
    found = list(read_games(io.BytesIO(data)))
    library_binary = len(found) == 1 and isinstance(found[0], ReadError) and found[0].code == Code.BINARY
    return cli_binary, library_binary


def test_binary_data_is_binary_to_the_library_and_the_command_line(tmp_path):
    data = bytes(range(256)) * 4
    assert _verdicts(tmp_path, data) == (True, True)
    found = list(read_games(io.BytesIO(data), name="x.pdn"))
    assert found == [ReadError("x.pdn", 1, 1, 1, "not a PDN file (binary data)", Code.BINARY)]


def test_a_damaged_utf16_file_reads_alike_in_the_library_and_the_command_line(tmp_path):
    """Its bytes are UTF-8 (ASCII and NUL bytes): text to both, one game, which converts and reads back
    as one game; and a short game whose comment holds a control character, as pdn writes it, is text."""
    data = _damaged_utf16()
    assert _verdicts(tmp_path, data) == (False, False)
    assert [type(item) for item in read_games(io.BytesIO(data))] == [Game]
    converted = invoke("convert", tmp_path / "x.pdn")
    assert converted.exit_code == 0 and [type(item) for item in read_games(io.BytesIO(converted.stdout_bytes))] == [Game]
    written = '[GameType "20"]\n\n{00\x19\x80} *\n\n'.encode()
    assert _verdicts(tmp_path, written) == (False, False)


PIECES = [b"\x00", b"\x01", b"\x1b", b"\xff\xfe", b"\xfe\xff", b"\x1f\x8b", b"\n", b" ",
          INTERNATIONAL.encode(), b"1. 32-28 19-23 *\n\n", '[Event "é"]\n'.encode(), "1. 32-28 *\n".encode("utf-16-le")]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.binary(max_size=40), max_size=30))
def test_the_command_line_and_the_library_agree_on_binary_data_and_convert_keeps_the_games(tmp_path_factory,
                                                                                          pieces):
    tmp_path = tmp_path_factory.mktemp("agree")
    data = b"".join(pieces)
    cli_binary, library_binary = _verdicts(tmp_path, data)
    assert cli_binary == library_binary
    if cli_binary:
        return
    games = [item for item in read_games(io.BytesIO(data)) if isinstance(item, Game)]
    converted = invoke("convert", tmp_path / "x.pdn")
    assert len(list(read_games(io.BytesIO(converted.stdout_bytes)))) == len(games)


def test_split_keeps_the_parts_of_complete_games_written_before_the_cut(tmp_path):
    path, complete, message = _cut_archive(tmp_path, "gzip", count=3000)
    result = invoke("split", "--per", "1000", "-o", tmp_path / "parts", path)
    assert result.exit_code == 2 and result.stderr == f"pdn: cannot read {path}: {message}\n"
    parts = sorted((tmp_path / "parts").iterdir())
    assert [p.name for p in parts] == [f"game-{n:05d}.pdn" for n in range(1, -(-complete // 1000) + 1)]
    events = [item.tag("Event") for part in parts for item in read_games(part)]
    assert events == [f"g{number}" for number in range(complete)]


@pytest.mark.slow
def test_a_file_read_by_ranges_that_shrinks_while_workers_read_it(tmp_path, monkeypatch):
    from pdn_tools.text import ranges

    path = tmp_path / "a.pdn"
    path.write_text(games_text(40000))
    size = path.stat().st_size
    real = ranges.read_range

    def cutting(*args, **kwargs):            # in a worker (forked after the patch): the first range cuts the file
        if path.stat().st_size == size:
            os.truncate(path, size // 2)
        return real(*args, **kwargs)
    monkeypatch.setattr(ranges, "read_range", cutting)
    tasks = list(pool._tasks(batch.Inputs((str(path),)), 2, engine_from_environment()))
    assert sum(1 for task in tasks if task.task.part is not None) > 1
    result = invoke("validate", "--format", "jsonl", "--jobs", "2", path, "-o", tmp_path / "out.jsonl")
    assert result.exit_code == 2
    assert re.fullmatch(rf"pdn: cannot read {re.escape(str(path))}: truncated: the file changed while it was read "
                        rf"\({size} bytes when opened, {size // 2} now; read to byte (\d+)\)\n"
                        rf"pdn: cannot write {re.escape(str(tmp_path / 'out.jsonl'))}: an input ended before its end: "
                        r"left as it was \(--partial writes the games read\)\n", result.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdn"]


@pytest.mark.slow
def test_a_cut_archive_on_a_dask_cluster(tmp_path):
    pytest.importorskip("distributed")
    path, complete, message = _cut_archive(tmp_path, "gzip", count=3000)
    out = tmp_path / "out.jsonl"
    result = invoke("validate", "--format", "jsonl", "--dask", "local:2", path, "-o", out)
    assert result.exit_code == 2 and f"pdn: cannot read {path}: {message}\n" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]
    result = invoke("validate", "--format", "jsonl", "--dask", "local:2", path)
    assert result.exit_code == 2 and len(result.stdout.splitlines()) == complete
