"""Bytes → text: a PDN file's encoding found once, then decoded in blocks with '\\n' line ends.

The encoding is decided once per file: a byte order mark, else the pattern of NUL bytes
of UTF-32 or UTF-16, else UTF-8 unless the file's bytes that are not UTF-8 outnumber its UTF-8
characters; those bytes then pick the legacy code page (CP1252, CP1251 or CP866) all at
once.  The decision is made at the first byte that is not UTF-8, from every such byte
after it: a seekable file is read ahead and rewound, a pipe is looked at through a
bounded window.  A byte that cannot be decoded becomes U+FFFD with a located warning.
Memory stays bounded: text comes out in blocks, never a whole line at a time.
"""
from __future__ import annotations

import codecs
import functools
import re
from dataclasses import field
from typing import BinaryIO, Iterator

from pdn_tools.text.codes import Code
from pdn_tools.text.model import Diagnostic
from pdn_tools.text.records import record

_LINE_END = re.compile("\r\r?\n|\r")       # the line ends but LF, as lines_of takes them
BLOCK = 1 << 18                  # bytes read at a time
WINDOW = 1 << 24                 # bytes of a pipe looked at to guess its code page
_SNIFFED = 4096                 # first bytes looked at for a byte order mark or UTF-16's or UTF-32's NUL bytes
_WIDE_NULS = 16                  # NUL bytes on one side that make a file UTF-16 or UTF-32 without a mark
_MARKED_WARNINGS = 20            # bad bytes reported one by one in a file, then a summary
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_ESCAPED = re.compile("[\udc00-\udcff]+")       # bytes the decoder could not read, escaped
_ESCAPE_HANDLER = "pdn-escape"
_PROBE = b'[Event "x"]\r\n1. 32-28 *\n' + bytes(range(256))     # what a codec named is tried on


class CannotDecode(ValueError):
    """Bytes the codec the user named fails on (a codec that passed known_encoding's sample; pdn's own
    reading never fails): the message says where."""


def _escape(error: UnicodeError) -> tuple[str, int]:
    """Error handler: each undecodable byte becomes a lone surrogate U+DC00 + byte."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start:error.end]
    return "".join(chr(0xDC00 + byte) for byte in bad), error.end


codecs.register_error(_ESCAPE_HANDLER, _escape)


@functools.cache
def known_encoding(name: str) -> str:
    """The canonical name of codec `name`; LookupError, saying why, when Python has no such codec, when it
    is not a text encoding (base64, rot13), or when its decoder cannot read a file as pdn does (in
    blocks, undecodable bytes escaped: idna, punycode, undefined)."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise LookupError(f"unknown encoding {name!r} (a Python codec name: cp1251, latin-1, utf-16 ...)") from None
    if not getattr(info, "_is_text_encoding", True):
        raise LookupError(f"{name!r} is not a text encoding (it does not decode bytes to text)")
    try:
        codecs.getincrementaldecoder(_named(info.name, b"")[0])(_ESCAPE_HANDLER).decode(_PROBE, True)
    except UnicodeError as error:
        raise LookupError(f"{name!r} cannot read a file as pdn does (in blocks, bad bytes replaced): {error}") from None
    return info.name


def _named(codec: str, head: bytes) -> tuple[str, int]:
    """The codec a file whose first bytes are `head` is read in when the user named `codec`, and the bytes of
    byte order mark to skip: a mark of `codec` is skipped; UTF-16 and UTF-32 named without a byte order
    (whose decoders refuse a file with no mark) take the order of the file's mark, else the order whose
    high bytes are NUL more often (those of ASCII characters, most of PDN), little-endian on a tie."""
    for bom, marked in _BOMS:
        if head.startswith(bom) and marked in (codec, f"{codec}-le", f"{codec}-be"):
            return marked, len(bom)
    if codec not in ("utf-16", "utf-32"):
        return codec, 0
    width, sample = (2 if codec == "utf-16" else 4), head[:_SNIFFED]
    big = sample[0::width].count(0) > sample[width - 1::width].count(0)
    return f"{codec}-{'be' if big else 'le'}", 0


@record(slots=True)
class _Evidence:
    """What the bytes that are not UTF-8 say about a file's encoding."""

    utf8_extra: int = 0          # bytes of valid multi-byte UTF-8 characters beyond the first
    bad: int = 0                 # bytes that are not UTF-8
    latin: int = 0               # such bytes in short runs touching an ASCII letter (Müller, Coração)
    cyrillic: int = 0            # such bytes in runs of three or more (whole words: Сергей)
    numero: int = 0              # 0xB9 on its own: '№' in CP1251
    dos: int = 0                 # bytes of long runs in 0x80-0xAF or 0xE0-0xEF (CP866 letters)
    dos_only: int = 0            # bytes of long runs in 0x80-0xAF (CP866 capitals and a-p)

    def __init__(self, utf8_extra: int = 0, bad: int = 0, latin: int = 0, cyrillic: int = 0, numero: int = 0,
                 dos: int = 0, dos_only: int = 0) -> None:
        self.utf8_extra, self.bad, self.latin, self.cyrillic = utf8_extra, bad, latin, cyrillic
        self.numero, self.dos, self.dos_only = numero, dos, dos_only

    def add(self, data: bytes) -> None:
        if data.isascii():
            return
        text = data.decode("utf-8", _ESCAPE_HANDLER)
        for run in _ESCAPED.finditer(text):
            start, end = run.span()
            self.bad += end - start
            if end - start >= 3:
                self.cyrillic += end - start
                for char in run.group():
                    byte = ord(char) - 0xDC00
                    self.dos += 0x80 <= byte <= 0xAF or 0xE0 <= byte <= 0xEF
                    self.dos_only += 0x80 <= byte <= 0xAF
            elif _ascii_letter(text, start - 1) or _ascii_letter(text, end):
                self.latin += end - start
            else:
                self.numero += run.group() == "\udcb9"
        self.utf8_extra += len(data) - len(text)

    def codec(self) -> str:
        """UTF-8 when its characters are at least as many as the bytes that are not UTF-8
        (a UTF-8 file with a damaged byte); else the code page those bytes fit: accented
        letters inside Latin words are CP1252, whole words of them are Cyrillic; with
        neither, a lone '№' says CP1251."""
        if self.utf8_extra >= self.bad:
            return "utf-8"
        if self.cyrillic > self.latin or (not self.latin and self.numero):
            return "cp866" if self.dos > 0.9 * self.cyrillic and self.dos_only else "cp1251"
        return "cp1252"


def _ascii_letter(text: str, index: int) -> bool:
    return 0 <= index < len(text) and text[index].isascii() and text[index].isalpha()


@record()
class Decoder:
    """Decodes one binary stream into text blocks whose line ends are '\\n'.

    `encoding` forces a codec; otherwise it is detected.  Warnings (the encoding used
    when it is not UTF-8, undecodable bytes) go to `warnings` with their line and
    column, in order.
    """

    stream: BinaryIO
    encoding: str | None = None
    warnings: list[Diagnostic] = field(default_factory=list)
    line: int = 1                # line of the next character handed out
    column: int = 1
    _codec: str | None = None    # None: only ASCII and valid UTF-8 seen so far
    _marked: int = 0             # runs of undecodable bytes met so far
    _held: str = ""              # a '\r' that ended the last block
    _utf8_extra: int = 0         # bytes of UTF-8 multi-byte characters read before the guess

    def __init__(self, stream: BinaryIO, encoding: str | None = None, warnings: list[Diagnostic] | None = None,
                 line: int = 1, column: int = 1, _codec: str | None = None, _marked: int = 0, _held: str = "",
                 _utf8_extra: int = 0) -> None:
        """`warnings` left out (or None): a new empty list."""
        self.stream, self.encoding = stream, encoding
        self.warnings = [] if warnings is None else warnings
        self.line, self.column, self._codec, self._marked, self._held, self._utf8_extra = (
            line, column, _codec, _marked, _held, _utf8_extra)

    @property
    def codec(self) -> str:
        """The encoding the text was read in (so far): 'utf-8' until another is found."""
        return self._codec or "utf-8"

    def blocks(self) -> Iterator[str]:
        """The text, in blocks of about BLOCK characters."""
        head = self.stream.read(max(BLOCK, _SNIFFED))
        codec, skip = _named(known_encoding(self.encoding), head) if self.encoding else sniff(head)
        head = head[skip:]
        self._codec = codec
        if codec is not None and codec not in ("utf-8", "ascii"):
            yield from self._whole(head, codec)
            return
        yield from self._utf8_or_legacy(head)

    # ---- UTF-16, UTF-32 and codecs named by the user --------------------------------------

    def _whole(self, head: bytes, codec: str) -> Iterator[str]:
        if not self.encoding:
            self._warn(f"not UTF-8; read as {codec}", 1, 1, Code.ENCODING)
        decoder = codecs.getincrementaldecoder(codec)(_ESCAPE_HANDLER)
        data = head
        while data:
            yield from self._text(self._decoded(decoder, data))
            data = self.stream.read(BLOCK)
        yield from self._text(self._decoded(decoder, b"", True), final=True)

    def _decoded(self, decoder: codecs.IncrementalDecoder, data: bytes, final: bool = False) -> str:
        try:
            return decoder.decode(data, final)
        except UnicodeError as error:
            raise CannotDecode(f"cannot decode it as {self.codec} after line {self.line}: {error}") from None

    # ---- UTF-8, else a legacy code page ----------------------------------------------------

    def _utf8_or_legacy(self, head: bytes) -> Iterator[str]:
        pending, data = b"", head
        ahead: list[bytes] = []          # blocks read while guessing a pipe's code page
        while data or pending:
            block, pending = _cut(pending + data, final=not data)
            text, escaped = self._block_text(block, ahead)
            yield from self._text(text, escaped=escaped)
            data = ahead.pop(0) if ahead else self.stream.read(BLOCK)
        yield from self._text("", final=True)

    def _block_text(self, block: bytes, ahead: list[bytes]) -> tuple[str, bool]:
        """A block decoded, and whether bytes that could not be decoded may be escaped in it (see
        _decode); the codec is decided at the first block that is not UTF-8."""
        if self._codec is None and not block.isascii():
            try:
                text = block.decode("utf-8")
            except UnicodeDecodeError as error:
                self._codec = self._guess(block, ahead)
                self._warn_codec(block, error.start)
            else:
                self._utf8_extra += len(block) - len(text)
                return text, False
        return self._decode(block)

    def _guess(self, block: bytes, ahead: list[bytes]) -> str:
        """The codec of the rest of the file, from this block and every byte after it."""
        evidence = _Evidence(utf8_extra=self._utf8_extra)
        evidence.add(block)
        if _seekable(self.stream):
            position = self.stream.tell()
            for data in iter(lambda: self.stream.read(BLOCK), b""):
                evidence.add(data)
            self.stream.seek(position)
        else:
            seen = 0
            while seen < WINDOW:
                data = self.stream.read(BLOCK)
                if not data:
                    break
                ahead.append(data)
                evidence.add(data)
                seen += len(data)
        return evidence.codec()

    def _warn_codec(self, block: bytes, start: int) -> None:
        if self._codec == "utf-8":
            return
        before = lines_of(block[:start].decode("utf-8", "replace"))
        line, column = _advance(self.line, self.column, before)
        self._warn(f"not UTF-8; read as {self._codec}", line, column, Code.ENCODING)

    def _decode(self, block: bytes) -> tuple[str, bool]:
        """A block of a file whose codec is decided: UTF-8 lines stay UTF-8 (files joined from
        several sources); the other lines are read with the file's codec.  And whether bytes that could
        not be decoded may be escaped in it: False when it is UTF-8 throughout (strict UTF-8 holds no
        lone surrogate)."""
        try:
            return block.decode("utf-8"), False
        except UnicodeDecodeError:
            pass
        if self._codec in (None, "utf-8"):
            return block.decode("utf-8", _ESCAPE_HANDLER), True
        parts = []
        for line in block.splitlines(keepends=True):
            try:
                parts.append(line.decode("utf-8"))
            except UnicodeDecodeError:
                parts.append(line.decode(self._codec or "cp1252", _ESCAPE_HANDLER))
        return "".join(parts), True

    # ---- line ends, bad bytes, positions -----------------------------------------------------

    def _text(self, text: str, final: bool = False, escaped: bool = True) -> Iterator[str]:
        """Line ends made '\\n' (`lines_of`; the one or two '\\r' that end a block wait for the next
        block), bad bytes marked (looked for only where `escaped` says they may be); the position
        advanced."""
        text = self._held + text
        self._held = ""
        if not final and text.endswith("\r"):
            held = 2 if text.endswith("\r\r") else 1
            text, self._held = text[:-held], text[-held:]
        if "\r" in text:
            text = lines_of(text)
        if escaped and not text.isascii() and _ESCAPED.search(text):    # isascii() is known without a look
            text = self._mark(text)
        if text:
            self.line, self.column = _advance(self.line, self.column, text)
            yield text

    def _mark(self, text: str) -> str:
        """Each run of undecodable bytes becomes U+FFFD, with a warning at its place."""
        parts, end = [], 0
        for run in _ESCAPED.finditer(text):
            start = run.start()
            parts.append(text[end:start])
            end = run.end()
            parts.append("\ufffd" * (end - start))
            self._marked += 1
            if self._marked <= _MARKED_WARNINGS:
                line, column = _advance(self.line, self.column, text[:start])
                shown = " ".join(f"{ord(c) - 0xDC00:02X}" for c in run.group()[:8])
                more = "; further ones are not reported" if self._marked == _MARKED_WARNINGS else ""
                self._warn(f"byte {shown} is not {self._codec or self.encoding or 'utf-8'}: read as U+FFFD{more}",
                           line, column, Code.BAD_BYTE)
        parts.append(text[end:])
        return "".join(parts)

    def _warn(self, message: str, line: int, column: int, code: Code) -> None:
        self.warnings.append(Diagnostic(code, message, line, column))


def lines_of(text: str) -> str:
    """`text` with every line end made '\\n': CR CR LF (a CRLF file whose line ends were converted
    again), CR LF, LF or a lone CR, taken from the left (CR CR CR LF: a lone CR, then CR CR LF)."""
    if "\r\r" in text:
        return _LINE_END.sub("\n", text)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _advance(line: int, column: int, text: str) -> tuple[int, int]:
    """The (line, column) after `text`, starting at (line, column)."""
    newlines = text.count("\n")
    if not newlines:
        return line, column + len(text)
    return line + newlines, len(text) - text.rfind("\n")


def _cut(data: bytes, final: bool) -> tuple[bytes, bytes]:
    """`data` cut after its last line end, else before a UTF-8 character that the end of
    `data` splits: whole lines (or characters) decode on their own."""
    end = data.rfind(b"\n", max(0, len(data) - BLOCK)) + 1      # no more than a block waits
    if final or end:
        return (data, b"") if final else (data[:end], data[end:])
    lead = len(data)
    while lead > len(data) - 4 and lead and 0x80 <= data[lead - 1] <= 0xBF:
        lead -= 1
    if lead and data[lead - 1] >= 0xC0:
        size = 2 if data[lead - 1] < 0xE0 else 3 if data[lead - 1] < 0xF0 else 4
        if lead - 1 + size > len(data):
            return data[:lead - 1], data[lead - 1:]
    return data, b""


def sniff(head: bytes) -> tuple[str | None, int]:
    """(codec, bytes of byte order mark) from a file's first bytes; codec None when the
    file looks like ASCII or UTF-8 so far."""
    for bom, codec in _BOMS:
        if head.startswith(bom):
            return codec, len(bom)
    sample = head[:_SNIFFED]
    if b"\0" not in sample:        # no NUL byte on either side (most files): no need to count them
        return None, 0
    # UTF-32 text with no mark: the two high bytes of a character of the first 65,536 are NUL, and an
    # ASCII character's low byte is not (UTF-16 has that low byte where UTF-32 has a high byte).
    enough = max(_WIDE_NULS, len(sample) // 8)          # half the characters
    for codec, low, high in (("utf-32-le", 0, 2), ("utf-32-be", 3, 0)):
        if min(sample[high::4].count(0), sample[high + 1::4].count(0)) >= enough and not sample[low::4].count(0):
            return codec, 0
    pairs = len(sample) // 2
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    # UTF-16 text with no mark: ASCII characters (most of PDN) give a NUL byte in every
    # other place, on one side only; a few NUL bytes in a small file are not enough.
    if odd >= max(_WIDE_NULS, pairs // 2) and not even:
        return "utf-16-le", 0
    if even >= max(_WIDE_NULS, pairs // 2) and not odd:
        return "utf-16-be", 0
    return None, 0


def _seekable(stream: BinaryIO) -> bool:
    try:
        return stream.seekable()
    except (AttributeError, OSError, ValueError):
        return False
