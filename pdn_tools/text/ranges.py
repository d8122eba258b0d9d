"""Reading one byte range of a PDN file: the games the range owns, exactly as a sequential read gives them.

A *sync point* is a byte offset p > 0 where a line end, then a blank line (spaces or tabs only), come just
before p, the line at p starts with one complete tag pair `[Name "value"]`, and the last byte before that
line end that is not white space (nor a literal `\\r` or `\\n`) is not the `]` of a tag pair (the splitter
may go on with a tag section across a blank line: splitter._Cutter.goes_on); when the _LOOK_BACK bytes before
the line end are all white space, it is no sync point unless the file starts within them.  The reader never carries a
token across such a point (a comment or setup running into it is reported as unclosed; a tag value, a move run
or white space cannot hold it) and the splitter starts a game there: a scan started at a sync point gives the
tokens and games of the sequential read from there on, apart from the comments the splitter hands from the
previous game's end to the game at p.

Every game is *anchored* at the last sync point (or 0) at or before the line of its first token.  A range
[start, end) owns the games anchored in it: those whose first token is on or after the line of the first sync
point at or after start, and before the line of the first sync point at or after end.  `read_range` scans
from the last sync point *before* start (so the comments that go to its first game are seen) to the end of
the tag line at the first sync point at or after end (so the game before it ends as in the whole file, and no
byte further is scanned), and keeps the games it owns: over any cut of a file into ranges each game is read
exactly once, with the text, lines and columns of a sequential read.  A file with no sync point (only games
without tags, line ends that are lone CRs, UTF-16) is read whole by the range holding offset 0.  A file that
is not plain UTF-8 must be read whole by the caller: its decoding depends on all of it.

Line numbers need the line ends before the range and in it: `facts` counts them for each range (a byte
count, no scanning), and the caller passes the sums of the counts before the range and before the next.  Game numbers need the games of the
earlier ranges, known only once those ranges are read: the caller numbers a range's games (`parse_raw`
takes the index) once the count before it is known.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterator, cast

from lark import Token

from pdn_tools.text.model import Diagnostic
from pdn_tools.text.tokens import Reading
from pdn_tools.text.reader import MAX_GAME_BYTES, RawGame, read_raw

# A line end, a blank line, then a complete tag pair at the start of the next line, the line end not after
# a tag pair (_syncs).  Every repeat is bounded, so whether an offset is a sync point depends only on the
# bytes near it (_BEFORE before it, _AFTER after it), whichever window a worker happens to read.
_TAG_LINE = rb'\[[A-Za-z][A-Za-z0-9_]{0,63}[ \t]{0,8}"[^"\\\r\n]{0,1024}"[ \t]{0,8}\]'
_BLANK = rb'[ \t]{0,80}\r{0,2}\n'      # CR CR LF too: one line end (decoding.lines_of)
_SYNC = re.compile(rb"\n" + _BLANK + rb"(?=" + _TAG_LINE + rb")")
_IS_TAG_LINE = re.compile(_TAG_LINE)
_IS_BLANK = re.compile(_BLANK + rb"\Z")
_LOOK_BACK = 64                 # bytes before the line end looked at for a tag pair's `]`
_WHITE = b" \t\f\r\n\\rn"        # white space, and the letters of a literal `\r` or `\n`, skipped looking back
_BEFORE = _LOOK_BACK + 1 + 80 + 3
_AFTER = 1 + 64 + 8 + 1 + 1024 + 1 + 8 + 1
_BLOCK = 1 << 20
_NEAR = 1 << 14                 # the first window looked at for a sync point (games are shorter)
_SNIFFED = 4096                 # first bytes of a file the reader looks at for UTF-16's NUL bytes

Games = list[tuple[RawGame, list[Diagnostic]]]


@dataclass(frozen=True)
class Facts:
    """What a byte pass learns about one range: its line ends, whether it is plain UTF-8, and whether a
    game can be anchored in it (it starts the file or holds a sync point: else the range before it reads
    on through it)."""

    line_breaks: int
    plain: bool
    anchors: bool


def open_binary(location: str) -> BinaryIO:
    """A seekable binary stream: a local path, or a URL (s3://, gs://, ...) through fsspec."""
    if "://" in location:
        import fsspec   # comes with dask; s3:// etc. need their package

        return fsspec.open(location, "rb").open()        # type: ignore[no-any-return]
    return open(location, "rb")


def cut(size: int, parts: int) -> list[tuple[int, int]]:
    """[start, end) ranges of about equal length covering `size` bytes (at least one range)."""
    parts = max(1, min(parts, size))
    return [(size * i // parts, size * (i + 1) // parts) for i in range(parts)]


def line_breaks(data: bytes, after: bytes = b"") -> int:
    """Line ends in `data` as the reader counts them (decoding.lines_of): LF, CR LF and CR CR LF once,
    at their LF (`after`: the two bytes after `data`), and a lone CR."""
    if b"\r" not in data:            # most files: one count
        return data.count(b"\n")
    lone_cr = data.count(b"\r") - data.count(b"\r\n") - data.count(b"\r\r\n")
    if data.endswith(b"\r") and after.startswith((b"\n", b"\r\n")):     # its LF comes after `data`
        lone_cr -= 1 + (data.endswith(b"\r\r") and after.startswith(b"\n"))
    return data.count(b"\n") + lone_cr


def facts(location: str, start: int, end: int) -> Facts:
    """Line ends in [start, end); whether the range decodes on its own as the file does when the file is
    plain UTF-8: its characters are valid UTF-8 (from its first character start to the end of the
    character cut by `end`), and for the range at 0, no NUL byte where the reader looks for UTF-16; and
    whether a game can be anchored in it."""
    with open_binary(location) as stream:
        stream.seek(start)
        data = stream.read(end - start)
        following = stream.read(_SNIFFED)
        anchors = start == 0 or first_sync_from(stream, start, end) is not None
    plain = not (start == 0 and b"\x00" in (data[:_SNIFFED] + following)[:_SNIFFED])
    cut_after = _continuation_bytes(following[:4])
    if not (data.isascii() and cut_after == 0):
        try:
            (data[_continuation_bytes(data):] + following[:cut_after]).decode("utf-8")
        except UnicodeDecodeError:
            plain = False
    return Facts(line_breaks(data, following[:2]), plain, anchors)


def _continuation_bytes(data: bytes) -> int:
    """How many UTF-8 continuation bytes `data` starts with."""
    count = 0
    while count < len(data) and 0x80 <= data[count] < 0xC0:
        count += 1
    return count


def _syncs(window: bytes, low: int) -> Iterator[int]:
    """The sync points in `window`, the bytes of the file from offset `low`, but those too near its start to
    be told (within _LOOK_BACK bytes, `low` > 0): the window before it, which the callers read, tells them."""
    for match in _SYNC.finditer(window):
        begin = match.start()
        if begin < _LOOK_BACK and low > 0:
            continue
        before = window[max(0, begin - _LOOK_BACK):begin].rstrip(_WHITE)
        if not before.endswith(b"]") and (before or begin < _LOOK_BACK):
            yield low + match.end()


def first_sync_from(stream: BinaryIO, offset: int, end: int | None = None) -> int | None:
    """The first sync point in [offset, end) (end None: to the end of the stream), or None."""
    low, size = max(0, offset - _BEFORE), _NEAR
    while end is None or low < end:
        stream.seek(low)
        window = stream.read(size + _AFTER)          # windows overlap: a sync point lies whole in one
        for point in _syncs(window, low):
            if offset <= point and (end is None or point < end):
                return point
        if len(window) < size + _AFTER:
            return None
        low += size - _BEFORE
        size = min(2 * size, _BLOCK)
    return None


def last_sync_before(stream: BinaryIO, offset: int) -> int:
    """The last sync point before `offset`, or 0."""
    low = offset
    while low > 0:
        low = max(0, low - max(_NEAR, 2 * (offset - low)))
        stream.seek(low)
        window = stream.read(offset - low + _AFTER)
        points = [point for point in _syncs(window, low) if point < offset]
        if points:
            return points[-1]
    return 0


def _line_breaks_between(stream: BinaryIO, low: int, high: int) -> int:
    """Line ends in the bytes [low, high) of `stream`, read a block at a time."""
    count = 0
    stream.seek(low)
    while low < high:
        data = stream.read(min(_BLOCK, high - low))
        if not data:
            break
        low += len(data)
        count += line_breaks(data, stream.read(2))          # a CR whose LF is a next byte counts there
        stream.seek(low)
    return count


class _Upto(io.RawIOBase):
    """The bytes of `stream` from where it stands up to offset `limit`."""

    def __init__(self, stream: BinaryIO, limit: int) -> None:
        self.stream, self.left = stream, limit - stream.tell()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.stream.read(min(len(buffer), self.left))
        buffer[:len(data)] = data
        self.left -= len(data)
        return len(data)


def read_range(location: str, start: int, end: int, first_line: int, end_line: int, name: str | None = None,
               encoding: str | None = None, max_game_bytes: int = MAX_GAME_BYTES,
               engine: Reading | None = None) -> Games:
    """The games of `location` anchored in [start, end), split but not parsed, each with its file notes;
    `first_line` and `end_line` are the line numbers at `start` and `end` (1 + the line ends before).
    Unless `start` is 0, the file must be plain UTF-8 (`facts`) or be read in `encoding`, a codec that
    decodes line by line.  `engine`: see reader.read_games."""
    with open_binary(location) as stream:
        first = first_sync_from(stream, start, end) if start > 0 else 0
        if first is None:
            return []
        origin = last_sync_before(stream, start) if start > 0 else 0
        line = first_line - _line_breaks_between(stream, origin, start)      # the line at origin
        owned_from = line + _line_breaks_between(stream, origin, first)       # games from this line on are owned
        following = first_sync_from(stream, end)
        stream.seek(origin)
        source: BinaryIO = stream
        if following is not None:       # read to the end of the tag line there: the game before it ends as it does
            stream.seek(following)      # in the whole file, and the game that starts there is the last one read
            tag_line = _IS_TAG_LINE.match(stream.read(_AFTER))
            assert tag_line is not None
            owned_until = end_line + _line_breaks_between(stream, end, following)
            stream.seek(origin)
            source = cast(BinaryIO, io.BufferedReader(_Upto(stream, following + tag_line.end())))
        owned: Games = []
        for raw, notes in read_raw(source, name or location, encoding or ("utf-8" if origin else None), line,
                                   max_game_bytes, engine):
            game_line = _line(raw.tokens[0])
            if following is not None and game_line >= owned_until:
                break
            if game_line >= owned_from:
                owned.append((raw, notes))
    return owned


def _line(token: Token) -> int:
    """A scanned token's line (the scanner always sets it)."""
    assert token.line is not None
    return token.line
