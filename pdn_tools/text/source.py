"""The bytes of an input, where the data path starts: a file opened and watched for changes, compressed
data (gzip, bzip2, xz, zstd: found by its magic bytes) decompressed as a stream, binary data refused,
and an input that ends before its end (cut or damaged compressed data, a file changed while read) noted
with the reason, which starts with 'truncated' (`cut_of`); and the compressors that write each format
again (`compressor`, `compressor_of`: files rewritten in place).  zstd needs the `zstd` extra (zstandard)."""
from __future__ import annotations

import bz2
import errno
import io
import lzma
import os
import stat
import sys
import time
import zlib
from typing import Any, BinaryIO, TextIO, Union, cast

from pdn_tools.text import decoding
from pdn_tools.text.decoding import sniff

_COMPRESSED = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"\x28\xb5\x2f\xfd", "zstd"))
_SUFFIXES = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd"}    # the names the default globs read
_SNIFF_BINARY = 4096               # first bytes (decompressed) looked at to tell text from binary data
# Control bytes text does not hold: about one byte in ten of binary data, a few in damaged text.
_CONTROL = bytes(code for code in range(32) if code not in b"\t\n\r\f\v\x1a\x1b")
_CHUNK = 1 << 16                   # compressed bytes read at a time
_FED = 512                         # compressed bytes given to the decompressor at a time: damaged data
                                   # loses at most what these bytes would have given
_ZSTD_FED = 128                    # the same for zstd, whose decompressor takes no output limit: 4 bytes
                                   # can give a block of 128 KB, so 128 bytes give at most some 4 MB
Source = Union[str, os.PathLike[str], BinaryIO, io.TextIOBase]   # a path ('-': standard input) or a stream
CUT = "truncated"                  # the word that starts every reason an input ended early
_NEEDS_ZSTD = "zstd data needs the zstd extra: pip install 'pdn-tools[zstd]'"


class NotPdn(Exception):
    """The input cannot be read as PDN text: binary data, or compressed data this installation cannot open."""


class _Damaged(Exception):
    """zstd data that cannot be decompressed (zstandard's own error, which is not importable without it)."""


def binary(head: bytes) -> bool:
    """Whether an input whose first bytes (decompressed) are `head` is binary data, not PDN text:
    not UTF-16 or UTF-32, more than one byte in thirty a control byte text seldom holds, and not
    UTF-8 (what pdn writes is UTF-8: it always reads back, whatever characters its comments hold).
    The one test of the library and the command line."""
    head = head[:_SNIFF_BINARY]
    if head.isascii():                  # UTF-8 (most files): nothing else to look at
        return False
    controls = len(head) - len(head.translate(None, _CONTROL))      # one pass, not one a control byte
    return bool(head) and sniff(head)[0] is None and controls > len(head) // 30 and not _utf8(head)


def _utf8(head: bytes) -> bool:
    """Whether `head` is UTF-8 (its last character may be cut)."""
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.reason == "unexpected end of data"
    return True


def compression(head: bytes) -> str | None:
    """'gzip', 'bzip2', 'xz' or 'zstd' when `head` starts such data, else None."""
    return next((kind for magic, kind in _COMPRESSED if head.startswith(magic)), None)


def compression_named(path: str) -> str | None:
    """The compression a file's name asks for by its last suffix (`games.pdn.gz`: 'gzip'), as
    `compression` names it; None for none."""
    return _SUFFIXES.get(os.path.splitext(path)[1].lower())


def compressor_of(path: str) -> Any:
    """The compressor that writes the data the file `path` holds again in its compression (None: none, as
    `compressor`).  A gzip file keeps the name its header gives (`gzip games.pdn` stores games.pdn, which
    `gunzip -N` restores), with the time of this writing (a time of 0, none, stays 0)."""
    with open(path, "rb") as raw:
        head = raw.read(_CHUNK)
    kind = compression(head[:8])
    if kind != "gzip":
        return None if kind is None else compressor(kind)
    stored = int.from_bytes(head[4:8], "little")
    return _Gzip(_gzip_name(head), int(time.time()) if stored else 0)


def _gzip_name(head: bytes) -> bytes:
    """The file name the gzip header at the start of `head` gives (b'': none, or cut or past `head`)."""
    flags, start = head[3] if len(head) > 3 else 0, 10
    if flags & 0x04:                    # FEXTRA: its length, then its bytes
        start += 2 + int.from_bytes(head[10:12], "little")
    end = head.find(b"\0", start) if flags & 0x08 else -1
    return head[start:end] if end >= 0 else b""


def stored_as(raw: BinaryIO) -> str | None:
    """How the bytes of `raw` are read: None when as they are, else the compression they are opened from;
    NotPdn when they cannot be read as text (as `input_bytes`)."""
    inner = getattr(input_bytes(raw), "raw", None)
    return inner.kind if isinstance(inner, _Decompressing) else None


def cut_of(stream: object) -> str | None:
    """Why `stream` (from `input_bytes` or `watched`) ended before its end, if it did: a reason that
    starts with 'truncated'."""
    while stream is not None:
        cut = getattr(stream, "cut", None)
        if cut is not None:
            return str(cut)
        stream = getattr(stream, "raw", None) or getattr(stream, "source", None)
    return None


def reason(error: OSError) -> str:
    """Why a file could not be read (or not to its end), as `pdn: cannot read` says it."""
    return str(error.strerror or error or "truncated compressed data")


def input_bytes(raw: BinaryIO) -> BinaryIO:
    """The bytes to read of `raw`: itself, or its decompressed bytes when it is gzip, bzip2, xz or zstd
    data (every member or frame of it); NotPdn when they are binary data, or zstd data without the zstd
    extra.  A stream that ends early (compressed data cut or damaged, a file changed while read) ends
    there: `cut_of` says why."""
    stream = raw if isinstance(raw, (io.BufferedReader, _Whole)) else io.BufferedReader(cast(io.RawIOBase, raw))
    kind = compression(stream.peek(8)[:8])
    if kind is not None:
        stream = io.BufferedReader(_Decompressing(stream, kind))
    if binary(stream.peek(_SNIFF_BINARY)[:_SNIFF_BINARY]):
        raise NotPdn("not a PDN file (binary data)")
    return cast(BinaryIO, stream)


def opened_source(source: Source) -> tuple[BinaryIO, str, bool]:
    """A binary stream for `source`, its display name, and whether it was opened here (to close)."""
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            return sys.stdin.buffer, "<stdin>", False
        return watched(str(source)), str(source), True
    if not callable(getattr(source, "read", None)):     # bytes, None: refused here, not deep in the reader
        hint = ": io.BytesIO(data) reads PDN bytes" if isinstance(source, (bytes, bytearray, memoryview)) else ""
        raise TypeError(f"read_games takes a path, '-' or a file object, not {type(source).__name__}{hint}")
    shown = str(getattr(source, "name", "<stream>"))
    if isinstance(source, io.TextIOBase) or isinstance(getattr(source, "encoding", None), str):
        buffer = getattr(source, "buffer", None)
        if buffer is not None and _in_step(source, buffer):
            return buffer, shown, False     # its bytes: their encoding found as a file's
        return cast(BinaryIO, io.BufferedReader(_TextBytes(cast(TextIO, source)))), shown, False
    return source, shown, False


def _in_step(text: object, buffer: object) -> bool:
    """Whether a text stream stands where its binary `buffer` does, nothing read ahead into its own
    buffer (as a file no line of which was read): the bytes may then be read from `buffer`.  A stream
    that cannot seek (a pipe) cannot tell: taken as yes, as pdn reads standard input; one that can but
    will not tell (a `for line in file` left early) has read ahead."""
    try:
        if not cast(TextIO, text).seekable():
            return True
        return bool(cast(TextIO, text).tell() == cast(BinaryIO, buffer).tell())
    except (OSError, ValueError, AttributeError):
        return False


class _TextBytes(io.RawIOBase):
    """The text of a stream that gives str, from where it stands, as UTF-8 bytes read in blocks (a lone
    surrogate, which UTF-8 cannot hold, as '?')."""

    def __init__(self, text: TextIO) -> None:
        super().__init__()
        self.text, self.pending, self.given = text, b"", 0      # given: the bytes of `pending` handed out

    def readable(self) -> bool:
        return True

    def readinto(self, into: Any) -> int:
        while self.given == len(self.pending):
            block = self.text.read(_CHUNK)
            if not block:
                return 0
            self.pending = block.encode("utf-8", "replace") if isinstance(block, str) else bytes(block)
            self.given = 0
        size = min(len(into), len(self.pending) - self.given)
        into[:size] = memoryview(self.pending)[self.given:self.given + size]
        self.given += size
        return size


def watched(path: str) -> io.BufferedReader | _Whole:
    """The file `path` opened for reading; one that is a regular file notes (see `cut_of`) when
    its size or time of change at its end differ from those when it was opened.  A regular file of
    no more than _WHOLE bytes (most PDN files) is read whole at once, and noted then: its bytes are
    read from memory, with no buffer of its own (a BufferedReader cost 8 us a file, and a read of a
    block's size from one allocated a block)."""
    raw = io.FileIO(path, "rb")
    info = os.fstat(raw.fileno())
    if not stat.S_ISREG(info.st_mode):
        return io.BufferedReader(raw)
    if info.st_size > _WHOLE:
        return io.BufferedReader(_Watched(raw, info.st_size, info.st_mtime_ns))
    try:
        data = raw.readall()
        now = os.fstat(raw.fileno())
    except BaseException:
        raw.close()
        raise
    return _Whole(raw, data, _changed(info.st_size, info.st_mtime_ns, now, len(data)))


_WHOLE = 1 << 16                   # bytes of a regular file read at once when it is opened


def _changed(size: int, changed: int, now: os.stat_result, end: int) -> str | None:
    """Why a file of `size` bytes changed at time `changed` when opened, whose size and time of change
    are `now` once read to byte `end` (its end), was cut: None when it did not change."""
    if (now.st_size, now.st_mtime_ns, end) == (size, changed, size):
        return None
    return changed_while_read(size, now.st_size, end)


def changed_while_read(size: int, now: int, end: int) -> str:
    """Why a file of `size` bytes when opened, `now` bytes once read to byte `end`, was cut (one text for every
    way of reading: whole, or by ranges)."""
    return f"{CUT}: the file changed while it was read ({size} bytes when opened, {now} now; read to byte {end})"


class _Whole(io.BytesIO):
    """A small regular file read whole (see `watched`): its bytes, the file (for its descriptor, closed with
    this), and `cut` as `_Watched` says it."""

    def __init__(self, source: io.FileIO, data: bytes, cut: str | None) -> None:
        super().__init__(data)
        self.source, self.cut, self.data = source, cut, data

    def peek(self, size: int = 0) -> bytes:
        """The bytes from the position on without reading them, as many as a BufferedReader's peek gives
        (its buffer's size) or `size` if more."""
        position = self.tell()
        return self.data[position:position + max(size, io.DEFAULT_BUFFER_SIZE)]

    def fileno(self) -> int:
        return self.source.fileno()

    def close(self) -> None:
        self.source.close()
        super().close()


class _Watched(io.RawIOBase):
    """A regular file whose end checks that it did not change while it was read."""

    def __init__(self, source: io.FileIO, size: int, changed: int) -> None:
        super().__init__()
        self.source, self.size, self.changed = source, size, changed
        self.cut: str | None = None

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self.source.seek(offset, whence)

    def tell(self) -> int:
        return self.source.tell()

    def fileno(self) -> int:
        return self.source.fileno()

    def readinto(self, buffer: Any) -> int:
        count = self.source.readinto(buffer)
        if count == 0 and self.cut is None:
            self.cut = _changed(self.size, self.changed, os.fstat(self.source.fileno()), self.source.tell())
        return count or 0

    def close(self) -> None:
        self.source.close()
        super().close()


def _decompressor(kind: str) -> Any:
    if kind == "gzip":
        return zlib.decompressobj(wbits=31)
    if kind == "zstd":
        return _Zstd()
    return bz2.BZ2Decompressor() if kind == "bzip2" else lzma.LZMADecompressor(format=lzma.FORMAT_XZ)


def compressor(kind: str) -> Any:
    """A compressor (`compress`, then `flush` at the end) that writes `kind` data, as `compression` names
    it: data it reads back from.  An OSError (ENOTSUP) when it cannot be written: zstd without its extra."""
    if kind == "gzip":
        return zlib.compressobj(wbits=31)
    if kind == "bzip2":
        return bz2.BZ2Compressor()
    if kind == "xz":
        return lzma.LZMACompressor(format=lzma.FORMAT_XZ)
    try:
        import zstandard
    except ImportError:
        raise OSError(errno.ENOTSUP, _NEEDS_ZSTD) from None
    return zstandard.ZstdCompressor().compressobj()


class _Gzip:
    """A gzip compressor whose header gives `name` (if any) and `mtime`; otherwise the bytes zlib writes."""

    def __init__(self, name: bytes, mtime: int) -> None:
        self.engine = zlib.compressobj(wbits=-zlib.MAX_WBITS)
        self.header = b"\x1f\x8b\x08" + (b"\x08" if name else b"\x00") + mtime.to_bytes(4, "little") + b"\x00\x03" \
            + (name + b"\0" if name else b"")
        self.crc = self.size = 0

    def compress(self, data: Any) -> bytes:
        self.crc, self.size = zlib.crc32(data, self.crc), self.size + memoryview(data).nbytes
        packed, self.header = self.header + self.engine.compress(data), b""
        return packed

    def flush(self) -> bytes:
        trailer = self.crc.to_bytes(4, "little") + (self.size & 0xFFFFFFFF).to_bytes(4, "little")
        return self.header + self.engine.flush() + trailer


class _Zstd:
    """One zstd frame's decompressor, with the face of lzma's (`needs_input`, `eof`, `unused_data`); it
    takes no output limit, so it is fed _ZSTD_FED bytes at a time."""

    needs_input = True                  # it takes in all it is given

    def __init__(self) -> None:
        try:
            import zstandard
        except ImportError:
            raise NotPdn(_NEEDS_ZSTD) from None
        self.error: type[Exception] = zstandard.ZstdError
        self.engine = zstandard.ZstdDecompressor().decompressobj()

    @property
    def eof(self) -> bool:
        return bool(self.engine.eof)

    @property
    def unused_data(self) -> bytes:
        return bytes(self.engine.unused_data)

    def decompress(self, data: bytes, limit: int) -> bytes:
        try:
            return bytes(self.engine.decompress(data))
        except self.error as error:
            raise _Damaged(str(error)) from None


class _Decompressing(io.RawIOBase):
    """The decompressed bytes of `source`, member after member, in pieces of at most decoding.BLOCK
    bytes (up to 4 MB for zstd: memory stays bounded whatever the ratio).  Data that ends inside a member,
    or that cannot be decompressed, ends the stream after the last bytes it gave: `cut` says where."""

    def __init__(self, source: io.BufferedReader | _Whole, kind: str) -> None:
        super().__init__()
        self.source, self.kind = source, kind
        self.engine = _decompressor(kind)
        self.fed = _ZSTD_FED if kind == "zstd" else _FED
        self.waiting = b""             # compressed bytes not given to the engine yet, from `taken` on
        self.taken = 0
        self.read_in = 0               # compressed bytes read from the source
        self.full = False              # the engine's last output filled its limit: it may hold more
        self.out = b""                 # decompressed bytes not handed out yet, from `given` on
        self.given = 0
        self.cut: str | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.given == len(self.out):
            self.out, self.given = self._more(), 0
        view = memoryview(buffer).cast("B")
        count = min(len(view), len(self.out) - self.given)
        view[:count] = self.out[self.given:self.given + count]
        self.given += count
        return count

    def _read(self) -> bytes:
        data: bytes = self.source.read(_CHUNK)
        self.read_in += len(data)
        return data

    def _more(self) -> bytes:
        """The next decompressed bytes; b'' at the end of the last member, or at a cut."""
        while self.cut is None:
            if self.engine.eof:          # a member ended: another may follow (gzip may pad with NUL bytes)
                self.waiting, self.taken = self.engine.unused_data + self.waiting[self.taken:], 0
                while not self.waiting.lstrip(b"\0" if self.kind == "gzip" else b""):
                    data = self._read()
                    if not data:
                        return b""
                    self.waiting += data
                if self.kind == "gzip":
                    self.waiting = self.waiting.lstrip(b"\0")
                self.engine, self.full = _decompressor(self.kind), False
            hungry = self.engine.needs_input if self.kind != "gzip" else not self.full
            if hungry and self.taken == len(self.waiting):
                self.waiting, self.taken = self._read(), 0
                if not self.waiting:
                    self.cut = f"{CUT}: the {self.kind} data ends at byte {self.read_in} before its end"
                    return b""
            data = self.waiting[self.taken:self.taken + self.fed]
            self.taken += len(data)
            try:
                out: bytes = self.engine.decompress(data, decoding.BLOCK)
            except (zlib.error, OSError, EOFError, lzma.LZMAError, _Damaged) as error:
                at = self.read_in - (len(self.waiting) - self.taken) - len(data)
                self.cut = f"{CUT}: the {self.kind} data is damaged after byte {at} ({error})"
                return b""
            if self.kind == "gzip" and self.engine.unconsumed_tail:
                self.waiting, self.taken = self.engine.unconsumed_tail + self.waiting[self.taken:], 0
            self.full = len(out) >= decoding.BLOCK
            if out:
                return out
        return b""
