"""text/source.py: the bytes of an input.  zstd input (the `zstd` extra): read frame after frame, in
bounded pieces, a cut or damaged file gives its complete games then says where; without the extra, a
one-line error naming the file and the extra."""
import gzip
import io
import json
import os
import re
import subprocess
import sys
import tracemalloc

import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st
from click.testing import CliRunner

from pdn_tools.cli import cli
from pdn_tools.text.codes import Code
from pdn_tools.text.model import ReadError
from pdn_tools.text.reader import read_games
from pdn_tools.text.source import compression, input_bytes

GAME = '[Event "g{}"]\n[GameType "20"]\n[Result "*"]\n\n1. 32-28 19-23 *\n\n'
PDN = [sys.executable, "-m", "pdn_tools"]


def games(count, first=0):
    return "".join(GAME.format(number) for number in range(first, first + count)).encode()


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(arg) for arg in args], input=input)


def events(listing):
    return [line.split("\t")[7] for line in listing.splitlines()[1:]]


def test_zstd_is_found_by_its_magic_bytes_not_its_name(tmp_path):
    path = tmp_path / "games.pdn"                   # no .zst suffix
    path.write_bytes(zstandard.compress(games(40)))
    assert compression(path.read_bytes()[:8]) == "zstd"
    result = invoke("list", path)
    assert result.exit_code == 0 and events(result.stdout) == [f"g{number}" for number in range(40)]


def test_every_zstd_frame_is_read_and_a_cut_in_the_last_is_found(tmp_path):
    first, second = zstandard.compress(games(50)), zstandard.compress(games(3000, 50))
    path = tmp_path / "two.pdn.zst"
    path.write_bytes(first + second)
    result = invoke("list", path)
    assert result.exit_code == 0 and events(result.stdout) == [f"g{number}" for number in range(3050)]
    cut = first + second[:-10]
    path.write_bytes(cut)
    result = invoke("list", path)
    kept = zstandard.ZstdDecompressor().decompressobj().decompress(second[:-10]).decode().count(" *")
    assert result.exit_code == 2 and events(result.stdout) == [f"g{number}" for number in range(50 + kept)]
    assert re.fullmatch(rf"pdn: cannot read {re.escape(str(path))}: truncated: the zstd data ends at byte "
                        rf"{len(cut)} before its end; the text stops in line \d+\n", result.stderr)


def test_damaged_zstd_data_gives_the_games_before_the_damage(tmp_path):
    engine = zstandard.ZstdCompressor(write_checksum=True).compressobj()
    data = games(4000)
    blocks = [engine.compress(data[at:at + 8192]) + engine.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
              for at in range(0, len(data), 8192)]
    whole = bytearray(b"".join(blocks) + engine.flush())
    middle = len(whole) // 2
    whole[middle:middle + 8] = b"\xff" * 8
    path = tmp_path / "bad.pdn.zst"
    path.write_bytes(bytes(whole))
    result = invoke("list", path)
    assert result.exit_code == 2
    assert re.fullmatch(rf"pdn: cannot read {re.escape(str(path))}: truncated: the zstd data is damaged after "
                        r"byte \d+ \(.+\); the text stops in line \d+\n", result.stderr)
    found = events(result.stdout)
    assert 0 < len(found) < 4000 and found == [f"g{number}" for number in range(len(found))]


def test_zstd_on_stdin_is_read_as_a_stream():
    piped = subprocess.run(PDN + ["list", "-"], input=zstandard.compress(games(30)), capture_output=True)
    assert piped.returncode == 0 and events(piped.stdout.decode()) == [f"g{number}" for number in range(30)]


@pytest.mark.parametrize("compress", [zstandard.compress, gzip.compress])
def test_compressed_data_of_any_ratio_comes_out_in_bounded_pieces(compress):
    """64 MB of line ends compress to a few KB; reading them holds a few MB at most (one zstd call gives
    all it can of the bytes it is fed: it is fed few at a time)."""
    size = 64 << 20
    packed = compress(b"\n" * size)
    tracemalloc.start()
    try:
        stream = input_bytes(io.BytesIO(packed))
        total = sum(len(block) for block in iter(lambda: stream.read(1 << 18), b""))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert total == size
    assert peak < 12 << 20


@pytest.fixture
def without_zstandard(monkeypatch):
    """As if the zstd extra were not installed: importing zstandard fails."""
    monkeypatch.setitem(sys.modules, "zstandard", None)


MISSING = "zstd data needs the zstd extra: pip install 'pdn-tools[zstd]'"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_without_the_extra_a_zstd_input_is_one_clear_error_and_the_batch_goes_on(tmp_path, without_zstandard, jobs):
    packed = tmp_path / "a.pdn.zst"
    packed.write_bytes(zstandard.ZstdCompressor().compress(games(5)))
    plain = tmp_path / "b.pdn"
    plain.write_bytes(games(3))
    result = invoke("validate", "--format", "jsonl", "--jobs", jobs, packed, plain)
    assert result.exit_code == 2
    assert result.stderr == f"pdn: cannot read {packed}: {MISSING}\n"
    assert [(record["file"], record["ok"]) for record in map(json.loads, result.stdout.splitlines())] == [
        (str(plain), True)] * 3


def test_without_the_extra_the_library_gives_one_read_error(tmp_path, without_zstandard):
    path = tmp_path / "a.pdn.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(games(5)))
    found = list(read_games(path))
    assert len(found) == 1 and isinstance(found[0], ReadError)
    assert (found[0].file, found[0].message, found[0].code) == (str(path), MISSING, Code.BINARY)


@pytest.mark.parametrize("games", [1, 3000])        # read whole at once (a few KB), or block by block (~400 KB)
def test_a_file_that_changes_while_it_is_read_is_reported_small_or_large(tmp_path, monkeypatch, games):
    """A regular file of at most 64 KB is read whole when opened (source.watched), a larger one block by
    block; either way a size that differs at its end from the one it was opened with is reported, and the
    games before the change's place are read."""
    from pdn_tools.text import source

    path = tmp_path / "a.pdn"
    path.write_text("".join(f'[Event "g{n}"]\n1. 32-28 *\n\n' for n in range(games)))
    size = path.stat().st_size
    assert (size <= source._WHOLE) == (games == 1)
    assert [g.tag("Event") for g in read_games(path)] == [f"g{n}" for n in range(games)]
    real, calls = source.os.fstat, []

    def grown(fd: int) -> object:          # the file seen one byte longer at its end than when opened
        info = real(fd)
        calls.append(fd)
        return info if len(calls) == 1 else type("Info", (), {"st_size": size + 1, "st_mtime_ns": info.st_mtime_ns})
    monkeypatch.setattr(source.os, "fstat", grown)
    found = list(read_games(path))
    assert isinstance(found[-1], ReadError) and found[-1].code == Code.TRUNCATED
    assert found[-1].message.startswith(f"truncated: the file changed while it was read ({size} bytes when opened, "
                                        f"{size + 1} now; read to byte {size})")


@pytest.mark.parametrize("compress", [lambda data: data, gzip.compress])
def test_a_small_file_is_read_from_memory_as_a_buffered_file_reads(tmp_path, compress):
    """A small regular file is read whole when opened (source.watched) and its bytes given from memory,
    with no buffer of their own: peeking does not move, reads of any size give the same bytes, plain
    or compressed, and the file is closed with the stream."""
    from pdn_tools.text.source import cut_of, stored_as, watched

    data = b'[Event "small"]\n1. 32-28 19-23 *\n' * 50
    path = tmp_path / "small.pdn"
    path.write_bytes(compress(data))
    with watched(str(path)) as raw:
        assert raw.peek(8)[:8] == compress(data)[:8]
        assert raw.tell() == 0
        stream = input_bytes(raw)
        assert (stream is raw) == (compress(data) == data)
        assert stream.read(7) + stream.read(1 << 18) + stream.read(1 << 18) == data
        assert cut_of(stream) is None
        descriptor = raw.fileno()
    with pytest.raises(OSError):
        os.fstat(descriptor)
    with watched(str(path)) as raw:
        assert stored_as(raw) == (None if compress(data) == data else "gzip")


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=200).map(lambda data: data * 25) | st.binary(max_size=5000)
       | st.lists(st.integers(0, 127), max_size=300).map(lambda codes: bytes(codes) * 20))
def test_binary_looks_past_an_ascii_head_at_once(head):
    """binary() answers at once for a head of ASCII bytes (UTF-8: text, whatever controls it holds), as its
    whole test (not UTF-16 or UTF-32, controls, not UTF-8) answers."""
    from pdn_tools.text.decoding import sniff
    from pdn_tools.text.source import _CONTROL, _SNIFF_BINARY, _utf8, binary

    cut = head[:_SNIFF_BINARY]
    controls = len(cut) - len(cut.translate(None, _CONTROL))
    assert binary(head) == (bool(cut) and sniff(cut)[0] is None and controls > len(cut) // 30 and not _utf8(cut))


@settings(max_examples=60, deadline=None)
@given(name=st.binary(max_size=300).filter(lambda name: b"\0" not in name), extra=st.none() | st.binary(max_size=40),
       mtime=st.integers(0, 2 ** 32 - 1), data=st.binary(max_size=2000))
def test_a_gzip_file_is_written_again_with_the_name_its_header_gives(tmp_path_factory, name, extra, mtime, data):
    """Whatever the header holds (FEXTRA, as bgzip writes, before the name), the data written again by
    compressor_of reads back, and its header gives the same name (none for none), a time of 0 kept."""
    from pdn_tools.text.source import compressor_of

    flags = (0x04 if extra is not None else 0) | (0x08 if name else 0)
    header = b"\x1f\x8b\x08" + bytes([flags]) + mtime.to_bytes(4, "little") + b"\x00\x03" \
        + (len(extra).to_bytes(2, "little") + extra if extra is not None else b"") + (name + b"\0" if name else b"")
    path = tmp_path_factory.mktemp("gz") / "a.pdn.gz"
    path.write_bytes(header + gzip.compress(b"old")[10:])
    assert gzip.decompress(path.read_bytes()) == b"old"
    packer = compressor_of(str(path))
    written = packer.compress(data) + packer.flush()
    assert gzip.decompress(written) == data
    assert written[3] == (0x08 if name else 0) and (not name or written[10:written.index(b"\0", 10)] == name)
    assert (int.from_bytes(written[4:8], "little") == 0) == (mtime == 0)


@settings(max_examples=100, deadline=None)
@given(rest=st.binary(max_size=24))
def test_any_bytes_after_the_gzip_magic_give_a_compressor(tmp_path_factory, rest):
    """A header cut or damaged anywhere (compressor_of reads it before the file is read): a compressor all
    the same, whose data reads back; reading the file then says what is wrong with it."""
    from pdn_tools.text.source import compressor_of

    path = tmp_path_factory.mktemp("gz") / "a.pdn.gz"
    path.write_bytes(b"\x1f\x8b" + rest)
    packer = compressor_of(str(path))
    assert gzip.decompress(packer.compress(b"games") + packer.flush()) == b"games"
