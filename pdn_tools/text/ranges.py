"""Reading one byte range of a PDN file: the games the range owns, exactly as a sequential read gives them.

A *sync point* is a byte offset p > 0 where a line end, then a blank line (spaces or tabs only), come just
before p and the line at p starts with one complete tag pair `[Name "value"]`.  The reader never carries a
token across such a point (a comment or setup running into it is reported as unclosed; a tag value, a move run
or white space cannot hold it) and the splitter starts a game there: a scan started at a sync point gives the
tokens and games of the sequential read from there on, apart from the comments the splitter hands from the
previous game's end to the game at p.

Every game is *anchored* at the last sync point (or 0) at or before the line of its first token.  A range
[start, end) owns the games anchored in it.  `read_range` scans from the last sync point *before* start (so
the comments that go to its first game are seen), leaves the games anchored before start, and stops at the
first game anchored at or after end: over any cut of a file into ranges each game is read exactly once, with
the text, lines and columns of a sequential read.  A file with no sync point (only games without tags, line
ends that are lone CRs, UTF-16) is read whole by the range holding offset 0.  A file that is not plain UTF-8
must be read whole by the caller: its decoding depends on all of it.

Line numbers need the line ends before the range: `facts` counts them for each range (a byte count, no
scanning), and the caller passes the sum of the earlier ranges' counts.  Game numbers need the games of the
earlier ranges, known only once those ranges are read: the caller numbers a range's games (`parse_raw`
takes the index) once the count before it is known.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import BinaryIO

from lark import Token

from pdn_tools.text.model import Diagnostic
from pdn_tools.text.reader import RawGame, read_raw

# A line end, a blank line, then a complete tag pair at the start of the next line.  Every repeat is
# bounded, so whether an offset is a sync point depends only on the bytes near it (_BEFORE before it,
# _AFTER after it), whichever window a worker happens to read.
_TAG_LINE = rb'\[[A-Za-z][A-Za-z0-9_]{0,63}[ \t]{0,8}"[^"\\\r\n]{0,1024}"[ \t]{0,8}\]'
_BLANK = rb'[ \t]{0,80}\r?\n'
_SYNC = re.compile(rb"\n" + _BLANK + rb"(?=" + _TAG_LINE + rb")")
_IS_TAG_LINE = re.compile(_TAG_LINE)
_IS_BLANK = re.compile(_BLANK + rb"\Z")
_BEFORE = 1 + 80 + 2
_AFTER = 1 + 64 + 8 + 1 + 1024 + 1 + 8 + 1
_BLOCK = 1 << 20
_SNIFFED = 4096                 # first bytes of a file the reader looks at for UTF-16's NUL bytes

Games = list[tuple[RawGame, list[Diagnostic]]]


@dataclass(frozen=True)
class Facts:
    """What a byte pass learns about one range: its line ends, and whether it is plain UTF-8."""

    line_breaks: int
    plain: bool


def open_binary(location: str) -> BinaryIO:
    """A seekable binary stream: a local path, or a URL (s3://, gs://, ...) through fsspec."""
    if "://" in location:
        import fsspec  # type: ignore[import-untyped]   # comes with dask; s3:// etc. need their package

        return fsspec.open(location, "rb").open()        # type: ignore[no-any-return]
    return open(location, "rb")


def cut(size: int, parts: int) -> list[tuple[int, int]]:
    """[start, end) ranges of about equal length covering `size` bytes (at least one range)."""
    parts = max(1, min(parts, size))
    return [(size * i // parts, size * (i + 1) // parts) for i in range(parts)]


def line_breaks(data: bytes, next_byte: bytes = b"") -> int:
    """Line ends in `data` as the reader counts them: LF, CRLF (once, at its LF) and a lone CR."""
    lone_cr = data.count(b"\r") - data.count(b"\r\n") - (data.endswith(b"\r") and next_byte == b"\n")
    return data.count(b"\n") + lone_cr


def facts(location: str, start: int, end: int) -> Facts:
    """Line ends in [start, end), and whether the range decodes on its own as the file does when the
    file is plain UTF-8: its characters are valid UTF-8 (from its first character start to the end of
    the character cut by `end`), and for the range at 0, no NUL byte where the reader looks for UTF-16."""
    with open_binary(location) as stream:
        stream.seek(start)
        data = stream.read(end - start)
        following = stream.read(_SNIFFED)
    piece = data[_continuation_bytes(data):] + following[:_continuation_bytes(following[:4])]
    plain = not (start == 0 and b"\x00" in (data + following)[:_SNIFFED])
    try:
        piece.decode("utf-8")
    except UnicodeDecodeError:
        plain = False
    return Facts(line_breaks(data, following[:1]), plain)


def _continuation_bytes(data: bytes) -> int:
    """How many UTF-8 continuation bytes `data` starts with."""
    count = 0
    while count < len(data) and 0x80 <= data[count] < 0xC0:
        count += 1
    return count


def first_sync_from(stream: BinaryIO, offset: int, end: int) -> int | None:
    """The first sync point in [offset, end), or None."""
    low = max(0, offset - _BEFORE)
    while low < end:
        stream.seek(low)
        window = stream.read(_BLOCK + _AFTER)          # windows overlap: a sync point lies whole in one
        for match in _SYNC.finditer(window):
            if offset <= low + match.end() < end:
                return low + match.end()
        low += _BLOCK - _BEFORE
    return None


def last_sync_before(stream: BinaryIO, offset: int) -> int:
    """The last sync point before `offset`, or 0."""
    low = offset
    while low > 0:
        low = max(0, low - max(_BLOCK, 2 * (offset - low)))
        stream.seek(low)
        window = stream.read(offset - low + _AFTER)
        points = [low + m.end() for m in _SYNC.finditer(window) if low + m.end() < offset]
        if points:
            return points[-1]
    return 0


class _Anchors:
    """The sync points from a sync point `origin` (on line `line`) on, found in the bytes as far as asked,
    with their line numbers."""

    def __init__(self, stream: BinaryIO, origin: int, line: int) -> None:
        self.stream = stream
        self.lines = [line]
        self.offsets = [origin]
        self.scanned = origin              # every sync point before this offset is known
        self.line = line                   # the line number at `scanned`
        self.done = False

    def anchor(self, line: int) -> int:
        """The offset of the last sync point at or before line `line`."""
        while self.line <= line and not self.done:
            self._scan_block()
        return self.offsets[bisect.bisect_right(self.lines, line) - 1]

    def _scan_block(self) -> None:
        low = max(0, self.scanned - _BEFORE)
        self.stream.seek(low)
        wanted = self.scanned - low + _BLOCK + _AFTER
        window = self.stream.read(wanted)
        self.done = len(window) < wanted
        high = low + len(window) - (0 if self.done else _AFTER)     # sync points before it are decided
        counted, line = self.scanned, self.line               # line ends counted up to `counted`
        for match in _SYNC.finditer(window):
            point = low + match.end()
            if self.scanned <= point < high and point != self.offsets[-1]:
                line += line_breaks(window[counted - low:point - low])
                counted = point
                self.lines.append(line)
                self.offsets.append(point)
        self.line = line + line_breaks(window[counted - low:high - low], window[high - low:high - low + 1])
        self.scanned = high


def read_range(location: str, start: int, end: int, first_line: int = 1, name: str | None = None,
               encoding: str | None = None) -> Games:
    """The games of `location` anchored in [start, end), split but not parsed, each with its file notes;
    `first_line` is the line number at `start` (1 + the line ends before it).  Unless `start` is 0, the
    file must be plain UTF-8 (`facts`) or be read in `encoding`, a codec that decodes line by line."""
    with open_binary(location) as stream, open_binary(location) as looking:
        if start > 0 and first_sync_from(stream, start, end) is None:
            return []
        origin = last_sync_before(stream, start) if start > 0 else 0
        stream.seek(origin)
        line = first_line - line_breaks(stream.read(start - origin), stream.read(1))      # the line at origin
        stream.seek(origin)
        anchors = _Anchors(looking, origin, line)
        owned: Games = []
        for raw, notes in read_raw(stream, name or location, encoding or ("utf-8" if origin else None), line):
            anchor = anchors.anchor(_line(raw.tokens[0]))
            if anchor >= end:
                break
            if anchor >= start:
                owned.append((raw, notes))
    return owned


def _line(token: Token) -> int:
    """A scanned token's line (the scanner always sets it)."""
    assert token.line is not None
    return token.line
