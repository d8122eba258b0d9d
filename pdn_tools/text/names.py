"""Text from the input (tag values, comments, moves, file names) made safe for people and markup.

`printable` is the one mechanism: every line of a text report, note, table, caption and
progress line passes through it (and `shown_on_terminal`, its form that keeps line ends, all
that stdout writes to a terminal), so that no input can move the cursor, clear the screen, set
a window title, reorder a line (bidi controls) or forge lines and columns.  `markup` is the
same text escaped for SVG and HTML, where it is also well-formed XML 1.0.
"""
from __future__ import annotations

import unicodedata

_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_JOINERS = frozenset("\u200c\u200d")        # format characters that scripts and emoji need: kept


def printable(text: str) -> str:
    """`text` with every character that a terminal or a line reader would act on, and every
    invisible format character, as a visible escape: `\\n`, `\\t`, `\\x1b` (C0, DEL, C1), `\\u202e`
    (bidi controls and other format characters but ZWJ and ZWNJ), `\\u2028` (line and paragraph
    separators), `\\ufffe` (noncharacters), `\\U000e0041`.  Bytes that were not valid in the file
    system's encoding show as `\\xNN`.  Idempotent: what it returns it leaves unchanged."""
    if text.isprintable():
        return text
    return "".join(_escape(char) for char in text)


def shown_on_terminal(text: str) -> str:
    """`text` as `printable` makes it but for its line ends and tabs: data (a PDN file, a FEN list)
    written to a terminal, which shows its games' control characters instead of acting on them."""
    if text.replace("\n", "").replace("\t", "").isprintable():
        return text
    return "".join(char if char in "\n\t" else _escape(char) for char in text)


def markup(text: str) -> str:
    """`printable(text)` escaped for XML and HTML text and attribute values (`&`, `<`, `>`, quotes):
    it holds no character that XML 1.0 forbids."""
    from html import escape     # only pages and pictures need it (html.entities is large to import)

    return escape(printable(text))


def json_escaped(text: str) -> str:
    """JSON `text` with every character `printable` would escape written as a JSON escape (`\\u009b`,
    `\\u202e`, `\\udcff` for a byte of a file name that was not UTF-8, a surrogate pair past U+FFFF):
    the same values to a JSON reader, nothing raw that a terminal or a line reader acts on, and
    valid UTF-8.  The JSON encoder has already escaped C0 characters, quotes and backslashes."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() or _escape(char) == char else _json_escape(ord(char))
                   for char in text)


def _json_escape(code: int) -> str:
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _escape(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    category = unicodedata.category(char)
    if category == "Cs" and 0xDC80 <= code <= 0xDCFF:     # an undecodable byte (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if category in ("Cc", "Cs", "Zl", "Zp") or (category == "Cf" and char not in _JOINERS) or _noncharacter(code):
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
    return char


def _noncharacter(code: int) -> bool:
    """U+FDD0..U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF, ...)."""
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE
