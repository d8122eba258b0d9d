"""Names (of files, mostly) made safe for line-based reports."""
from __future__ import annotations

import unicodedata

_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(name: str) -> str:
    """`name` with control characters and line separators escaped (`\\n`, `\\x1b`, `\\u2028`),
    so that a file name cannot forge lines or columns in a text report.  Bytes that were not
    valid in the file system's encoding show as `\\xNN`."""
    if name.isprintable():
        return name
    return "".join(_escape(char) for char in name)


def _escape(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    category = unicodedata.category(char)
    if category == "Cs" and 0xDC80 <= ord(char) <= 0xDCFF:     # an undecodable byte (surrogateescape)
        return f"\\x{ord(char) - 0xDC00:02x}"
    if category in ("Cc", "Cs", "Zl", "Zp"):
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return char
