"""Reading PDN: bytes → text lines → tokens → games, streamed one game at a time.

The input is decoded line by line (UTF-8 with or without BOM, falling back to a
legacy code page), scanned into tokens in chunks, split into games at terminators
and tag sections, and each game is parsed on its own.  A game that cannot be
read becomes a `ReadError` and reading goes on, so games in = games reported.
"""
from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass, field
from typing import BinaryIO, Iterable, Iterator, Union

from lark import Token

from pdn_tools.text.codes import Code
from pdn_tools.text.grammar import parser
from pdn_tools.text.model import Comment, Diagnostic, Game, ReadError

Source = Union[str, os.PathLike, BinaryIO, io.TextIOBase]
_CHUNK = 1 << 18                      # characters scanned at a time
_TAGS = ("TAGS",)
_COMMENTS = ("COMMENT", "LINE_COMMENT", "ERROR", "ESCAPE")    # not movetext
_TERMINATORS = ("RESULT", "STAR")


@dataclass(slots=True)
class RawGame:
    """One game's tokens, as cut from the token stream."""

    tokens: list[Token] = field(default_factory=list)
    name: str = ""                      # the file it came from, as shown in reports
    before: list[Token] = field(default_factory=list)
    after: list[Token] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def line(self) -> int:
        first = (self.before or self.tokens or self.after)
        return first[0].line if first else 1

    def text(self) -> str:
        """The game's tokens laid out on their original lines."""
        parts: list[str] = []
        line = None
        for token in self.before + self.tokens + self.after:
            if line is not None:
                parts.append("\n" * (token.line - line) if token.line > line else " ")
            parts.append(str(token))
            line = token.line + str(token).count("\n")
        return "".join(parts) + "\n"


# ---- decoding ----------------------------------------------------------------

def _legacy_codec(raw: bytes) -> str:
    """Guess the 8-bit code page of a line that is not UTF-8."""
    high = [b for b in raw if b >= 0x80]
    runs = sum(1 for a, b in zip(raw, raw[1:]) if a >= 0x80 and b >= 0x80)
    if runs * 2 < len(high):          # isolated accents between Latin letters
        return "cp1252"
    dos = sum(1 for b in high if 0x80 <= b <= 0xAF or 0xE0 <= b <= 0xEF)
    return "cp866" if dos > 0.9 * len(high) and any(0x80 <= b <= 0xAF for b in high) else "cp1251"


def _decode(raw: bytes, state: dict) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        codec = state.setdefault("codec", _legacy_codec(raw))
        try:
            return raw.decode(codec)
        except UnicodeDecodeError:
            return raw.decode("latin-1")


def _lines(stream: BinaryIO, warnings: list[Diagnostic]) -> Iterator[str]:
    """Decoded lines with line ends made '\\n' (CRLF, CR and LF all count)."""
    state: dict = {}
    first = True
    for number, raw in enumerate(stream, 1):
        if first:
            first = False
            if raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
        text = _decode(raw, state)
        if "codec" in state and not state.get("told"):
            state["told"] = True
            warnings.append(Diagnostic(Code.ENCODING, f"not UTF-8; read as {state['codec']}", number, 1))
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        yield text.lstrip("\ufeff") if number == 1 else text


def _chunks(lines: Iterable[str]) -> Iterator[str]:
    buffer: list[str] = []
    size = 0
    for line in lines:
        buffer.append(line)
        size += len(line)
        if size >= _CHUNK:
            yield "".join(buffer)
            buffer, size = [], 0
    if buffer:
        yield "".join(buffer)


def scan(lines: Iterable[str]) -> Iterator[Token]:
    """Tokens of the whole input; a construct cut by a chunk end is re-scanned."""
    pdn = parser()
    carry = ""
    line = 1
    for chunk in _chunks(lines):
        text = carry + chunk
        tokens, consumed, next_line = pdn.tokens(text, line, final=False)
        yield from tokens
        carry, line = text[consumed:], next_line
    if carry:
        tokens, _, _ = pdn.tokens(carry, line, final=True)
        yield from tokens


# ---- splitting into games -------------------------------------------------------

def split_games(tokens: Iterable[Token]) -> Iterator[RawGame]:
    """Cut the token stream into games.

    A game ends at a terminator outside variations (comments on the same line go
    with it), or where a tag section starts after movetext, or after a blank line
    that follows a tag section.
    """
    game = RawGame()
    depth = 0
    terminated_line = 0              # line of the terminator once the game has one
    has_tags = has_moves = False
    previous: Token | None = None

    held: RawGame | None = None      # the last game cut, held back for trailing comments

    def flush() -> Iterator[RawGame]:
        nonlocal game, held, depth, terminated_line, has_tags, has_moves
        if game.tokens or game.before or game.after:
            only_comments = all(t.type in _COMMENTS for t in game.before + game.tokens)
            if only_comments and held is not None:
                held.after.extend(game.before + game.tokens + game.after)
            else:
                if not game.tokens:
                    game.tokens, game.before = game.before, []
                if held is not None:
                    yield held
                held = game
        game = RawGame()
        depth, terminated_line, has_tags, has_moves = 0, 0, False, False

    for token in tokens:
        kind = token.type
        if terminated_line:
            if kind in _COMMENTS and token.line == terminated_line:
                game.after.append(token)
                previous = token
                continue
            if kind in _COMMENTS:
                yield from flush()
                game.before.append(token)
                previous = token
                continue
            if kind in _TAGS and previous is not None and previous.type == "RESULT" \
                    and previous.end_pos == token.start_pos:
                warning = Diagnostic(Code.GLUED_RESULT, "result glued to the next game's tag",
                                     previous.line, previous.column)
                game.warnings.append(warning)
            yield from flush()
        if kind in _TAGS:
            if has_moves or (has_tags and token.blank_before):
                game.warnings.append(Diagnostic(Code.UNTERMINATED, "game not ended by a result or '*' before "
                                                "the next game", token.line, token.column))
                yield from flush()
            if not has_tags and game.tokens and all(t.type in _COMMENTS for t in game.tokens):
                game.before, game.tokens = game.before + game.tokens, []
            has_tags = True
        elif kind == "LPAR":
            depth += 1
            has_moves = True
        elif kind == "RPAR":
            depth -= 1
        elif kind in _TERMINATORS and depth <= 0:
            game.tokens.append(token)
            terminated_line = token.line
            previous = token
            continue
        elif kind not in _COMMENTS:
            has_moves = True
        game.tokens.append(token)
        previous = token
    yield from flush()
    if held is not None:
        yield held


# ---- public API ---------------------------------------------------------------------

def _open(source: Source) -> tuple[BinaryIO, str, bool]:
    """A binary stream for `source`, its display name, and whether we opened it."""
    if isinstance(source, (str, os.PathLike)):
        if str(source) == "-":
            return sys.stdin.buffer, "<stdin>", False
        return open(source, "rb"), str(source), True
    if isinstance(source, io.TextIOBase):
        buffer = getattr(source, "buffer", None)
        if buffer is not None:
            return buffer, getattr(source, "name", "<stream>"), False
        return io.BytesIO(source.read().encode("utf-8")), getattr(source, "name", "<stream>"), False
    return source, str(getattr(source, "name", "<stream>")), False


def read_raw(source: Source, name: str | None = None) -> Iterator[tuple[RawGame, list[Diagnostic]]]:
    """The games of `source` split but not parsed, each with the file's warnings so far
    (the encoding note goes with the game where it was found)."""
    stream, shown, opened = _open(source)
    file_warnings: list[Diagnostic] = []
    try:
        for raw in split_games(scan(_lines(stream, file_warnings))):
            raw.name = name or shown
            taken = file_warnings[:]
            file_warnings.clear()
            yield raw, taken
    finally:
        if opened:
            stream.close()


def read_games(source: Source, strict: bool = False, name: str | None = None) -> Iterator[Game | ReadError]:
    """Stream the games of a PDN source: a path, '-' for stdin, or a file object.

    Yields a `Game` for each game read and a `ReadError` for each game that could
    not be read (with file, line, column and game index).  Never raises on bad
    input; lenient quirks are recorded as warnings (errors when `strict`).
    """
    for index, (raw, file_warnings) in enumerate(read_raw(source, name), 1):
        yield parse_raw(raw, index, strict, file_warnings)


def read_text(text: str, strict: bool = False, name: str = "<string>") -> list[Game | ReadError]:
    """All games of a PDN string (for tests and small inputs)."""
    return list(read_games(io.BytesIO(text.encode("utf-8")), strict, name))


def parse_raw(raw: RawGame, index: int, strict: bool = False,
              file_warnings: list[Diagnostic] = ()) -> Game | ReadError:
    """Parse one split game (game `index` of its file) into a Game or a ReadError."""
    pdn = parser()
    name = raw.name
    warnings = list(file_warnings) + raw.warnings
    parsed = pdn.parse_game(raw.tokens, strict)
    if strict:
        problems = [w for w in raw.warnings if w.code.strict_fatal]
        problems += [parsed] if isinstance(parsed, Diagnostic) else []
        if problems:
            first = min(problems, key=lambda d: (d.line, d.column))
            return ReadError(name, index, first.line, first.column, first.message, first.code,
                             raw.text(), warnings)
    if isinstance(parsed, Diagnostic):
        return ReadError(name, index, parsed.line, parsed.column, parsed.message, parsed.code,
                         raw.text(), warnings)
    outside = [t for t in raw.before + raw.after if t.type == "ERROR"]
    if outside and strict:
        token = outside[0]
        return ReadError(name, index, token.line, token.column, f"unexpected {str(token)[:20]!r}", Code.SYNTAX,
                         raw.text(), warnings)
    warnings += [Diagnostic(Code.PROSE, f"text {str(t)[:20]!r} read as a comment", t.line, t.column) for t in outside]
    parsed.before = [_comment(t) for t in raw.before if t.type != "ESCAPE"]
    parsed.after = [_comment(t) for t in raw.after if t.type != "ESCAPE"]
    parsed.line, parsed.index, parsed.file = raw.line, index, name
    parsed.warnings = warnings + parsed.warnings
    return parsed


def _comment(token: Token) -> Comment:
    if token.type == "COMMENT":
        return Comment(str(token)[1:-1])
    if token.type == "ERROR":
        return Comment(str(token).replace("}", ")"))
    return Comment(str(token)[1:], str(token)[0])
